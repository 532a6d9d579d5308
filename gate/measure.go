package gate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"github.com/latgate/latgate/browser"
	"io"
	"math"
	"net/http"
	"os"
	"time"
	"unicode/utf8"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
	"github.com/latgate/latgate/workload"
)

// bodyParams are the plain values of a scenario's first request; a
// non-empty prefix goes in front of the first message.
func bodyParams(s suite.Scenario, e suite.Endpoint, prefix string) probe.BodyParams {
	p := probe.BodyParams{Model: e.Model, MaxTokens: s.MaxTokens, Temperature: s.Temperature, Template: e.Body, Audio: e.Audio}
	for i, m := range s.Messages {
		c := m.Content
		if i == 0 {
			c = prefix + c
		}
		p.Messages = append(p.Messages, probe.Message{Role: m.Role, Content: c})
	}
	for _, t := range s.Tools {
		p.Tools = append(p.Tools, probe.ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return p
}

// sessionOf is a session scenario's probe form: its first request, its
// scripted tools, its bound and its further turns.
func sessionOf(s suite.Scenario, p probe.BodyParams) *probe.Session {
	ses := &probe.Session{Params: p, Tools: map[string]probe.Tool{}, MaxSteps: s.MaxSteps, Turns: s.Turns}
	for _, t := range s.Tools {
		ses.Tools[t.Name] = probe.Tool{Result: t.Result, Latency: t.Latency}
	}
	return ses
}

// apiOf is an endpoint's API ("" is the default API, as in the probe).
func apiOf(e suite.Endpoint) probe.API { return probe.API(e.API) }

// targetOf is what the probe builds an endpoint's request URL from.
func targetOf(e suite.Endpoint) probe.Target {
	return probe.Target{BaseURL: e.BaseURL, URL: e.URL, Model: e.Model, Deployment: e.Deployment, APIVersion: e.APIVersion}
}

// streamSpecOf is how the probe reads an endpoint's stream (nil: the
// API's own way).
func streamSpecOf(st *suite.Stream) *probe.StreamSpec {
	if st == nil {
		return nil
	}
	return &probe.StreamSpec{Format: st.Format, Text: st.Text, Reasoning: st.Reasoning, Done: st.Done,
		Error: st.Error, OutputTokens: st.OutputTokens, InputTokens: st.InputTokens, CachedTokens: st.CachedTokens,
		Type: st.Type, ToolCall: st.ToolCall, Types: probe.StreamTypes{Text: st.Types.Text, Reasoning: st.Types.Reasoning,
			ToolCall: st.Types.ToolCall, ToolCallDone: st.Types.ToolCallDone, ToolResult: st.Types.ToolResult, Step: st.Types.Step}}
}

// MeasureOptions are a measurement's injected I/O.
type MeasureOptions struct {
	Client   *http.Client // nil: one sized for the suite
	Source   results.Source
	Progress io.Writer // progress lines; nil: none
	// TTY selects a progress bar; otherwise short periodic lines.
	TTY         bool
	ToolVersion string
	Now         func() time.Time // nil: time.Now
	// Baseline is the stored baseline a gate compares with: adaptive
	// scenarios (requests: {min, max}) look at their runs in it to stop
	// early. nil: adaptive scenarios run to max (latgate run, record, a
	// first run), except in ab, where the base variant decides. With a
	// baseline history give nil: the history is compared run by run, which
	// an interim look cannot do.
	Baseline *results.File
	// Thresholds are the comparison's settings for the interim looks; nil:
	// the suite's regression section.
	Thresholds *compare.Config
	// ScrapeEvery is the time between the samples of an endpoint's
	// metrics_url during a run (0: every second).
	ScrapeEvery time.Duration
	// Getenv reads the program's environment for the chat pages'
	// browser ($CHROME_PATH, $LATGATE_BROWSER_NO_SANDBOX); nil: os.Getenv.
	Getenv func(string) string
	// Browser, when set, is the chat pages' browser as latgate runs it for
	// a page of its own (the demo's); nil: found from the environment.
	Browser *browser.Config
	// StartAt, when set (--start-at), is the time every leg of a sharded
	// matrix shares: the run measures its capacity ladders only, each
	// level in a window from it (ladder.go), by Now's clock.
	StartAt time.Time
}

// Measure runs the whole suite and returns its results file, which
// records the suite's budgets (recordBudgets). The error is
// CannotRun when nothing could be measured, or when the run is incomplete
// (interrupted, capped, stopped on repeated errors): the file is then still
// returned, marked Incomplete, so that what was measured can be written.
// Adaptive scenarios (requests: {min, max}) stop early when
// opt.Baseline decides them (adaptive.go), and run to max without one.
func Measure(ctx context.Context, cfg *suite.Config, opt MeasureOptions) (*results.File, error) {
	f, err := measure(ctx, cfg, nil, opt)
	recordBudgets(f, cfg)
	return f, err
}

// MeasureAB measures the base and the head variant of every scenario
// interleaved in time (latgate ab): each (endpoint, scenario) that both
// suites have is one group whose requests are issued in small blocks that
// hold both variants in a seeded random order, at the head's concurrency
// or rate, so both variants meet the same provider load at the same
// moments. A scenario only the head has is measured alone (no baseline);
// one only the base has is not measured. Errors as Measure.
//
// With regression.confirm, the scenarios whose comparison finds a
// regression are then measured again, and their runs added marked confirm
// (confirm.go).
func MeasureAB(ctx context.Context, base, head *suite.Config, opt MeasureOptions) (*results.File, error) {
	f, err := measure(ctx, head, base, opt)
	recordBudgets(f, head)
	if err != nil {
		return f, err
	}
	return confirm(ctx, f, base, head, opt)
}

// ABBlockSize is the requests of each variant in one interleaved block of
// latgate ab: 4 + 4, the design make calibrate measures
// (docs/statistics.md, which also gives 1 + 1 and 2 + 2).
const ABBlockSize = 4

// planned is one (endpoint, scenario) of the suite, in plan order, with
// its base variant in an A/B run.
type planned struct {
	scenario suite.Scenario
	endpoint suite.Endpoint
	base     *planned
	// level labels a level of a capacity search (capacity.go); nil else.
	level *levelPlan
	// trace makes the requests of a workload scenario (workload.go); nil
	// for a scenario of written prompts.
	trace *traceSide
	// faults names the requests of a scenario with upstreams and holds
	// what its phase injects (phases.go); nil without upstreams.
	faults *faultPlan
}

// groupOf builds the probe's form of one variant.
func groupOf(s suite.Scenario, ep suite.Endpoint) (probe.Request, func(int, *probe.Request), error) {
	api := apiOf(ep)
	if s.Workload != nil && len(s.Messages) == 0 { // its warmup and first request: a prompt no entry shares
		s.Messages = []suite.Message{{Role: "user", Content: workload.Calibration(calibrateShort)}}
	}
	req := probe.Request{API: api, Method: ep.Method, URL: probe.URL(api, targetOf(ep)), APIKey: ep.APIKey, Headers: ep.Headers,
		Stream: streamSpecOf(ep.Stream), Page: pageOf(ep)}
	// vary is the i-th request's: a single call's body, or a session (a
	// server-driven agent's every request is one, though it offers no
	// tools and has no turns: its steps are read from its stream).
	session := s.IsSession() || probe.ServerDriven(req)
	vary := func(prefix string, r *probe.Request) error {
		p := bodyParams(s, ep, prefix)
		if session {
			r.Session = sessionOf(s, p)
			return nil
		}
		b, err := probe.Body(api, p)
		r.Body = b
		return err
	}
	if err := vary("", &req); err != nil {
		return probe.Request{}, nil, err
	}
	var prepare func(int, *probe.Request)
	if s.Cache == "cold" {
		nonce := runNonce()
		prepare = func(i int, r *probe.Request) { _ = vary(fmt.Sprintf("[%s-%d]\n", nonce, i), r) }
	}
	return req, prepare, nil
}

func findVariant(cfg *suite.Config, scenario, endpoint string) *planned {
	for _, sc := range cfg.Scenarios {
		for _, s := range phasesOf(sc) {
			if s.Name != scenario {
				continue
			}
			for _, ep := range cfg.EndpointsFor(s) {
				if ep.Name == endpoint {
					return &planned{scenario: s, endpoint: ep}
				}
			}
		}
	}
	return nil
}

// browserEnv is the environment the browser is found and started in:
// the program's, with opt.Getenv when given.
func (opt MeasureOptions) browserEnv() browser.Env {
	env := browser.OSEnv
	if opt.Getenv != nil {
		env.Getenv = opt.Getenv
	}
	return env
}

// thresholds are the ones adaptive sampling decides with: opt.Thresholds,
// else the suite's.
func (opt MeasureOptions) thresholds(cfg *suite.Config) (*compare.Config, error) {
	if opt.Thresholds != nil {
		return opt.Thresholds, nil
	}
	c, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

func measure(ctx context.Context, cfg, baseCfg *suite.Config, opt MeasureOptions) (*results.File, error) {
	m, err := planRun(cfg, baseCfg, opt)
	if err != nil {
		return nil, err
	}
	client := opt.httpClient(cfg, baseCfg)
	var sockets *probe.Sockets // Realtime connections, kept as HTTP keeps its own
	if !cfg.Limits.ColdConnections {
		sockets = probe.NewSockets()
		defer sockets.Close()
	}
	pages, err := pages(ctx, opt.browserEnv(), opt.Browser, opt.Progress, cfg, baseCfg) // a browser for the chat pages
	if err != nil {
		return nil, err
	}
	if pages != nil {
		defer pages.Close()
	}
	secrets := suitesSecrets(cfg, baseCfg)
	hide := redact.New(secrets...)
	ps, err := startProxies(ctx, m, secrets) // before any request: an address in use is bad input
	if err != nil {
		return nil, err
	}
	defer ps.close()
	sink := newSink(m.plan, cfg, baseCfg)
	th, err := opt.thresholds(cfg)
	if err != nil {
		return nil, err
	}
	adaptive := newAdaptiveRun(m.plan, *th, opt.Baseline, baseCfg != nil, opt.Source.Region, opt.Progress)
	scrapes := &serverScrapes{ctx: ctx, m: m, client: client, secrets: hide, interval: opt.ScrapeEvery, got: map[scrapeKey]*results.ServerMetrics{}}
	m.scrapes = scrapes
	for gi := range m.groups {
		adaptive.group(gi, &m.groups[gi], &sink.head[gi], &sink.base[gi])
	}
	prog := newProgress(opt.Progress, opt.TTY, m, adaptive.next, opt.Now)
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	first := &firstRequests{ctx: ctx, client: client, m: m, stop: stop, hide: hide, seen: map[firstKey]bool{}}
	r := &probe.Runner{
		Sink: sink.add,
		Prober: &probe.Prober{
			Client: client, Timeout: cfg.Limits.Timeout, StallTimeout: cfg.Limits.StallTimeout,
			ReadingRate: cfg.ReadingRate, Secrets: hide, Sockets: sockets, Pages: pages,
		},
		Limits: probe.Limits{MaxRequests: cfg.Limits.MaxRequests, MaxOutputTokens: cfg.Limits.MaxOutputTokens,
			MaxCost: cfg.Limits.MaxCost, Cost: func(g int, rec probe.Record) float64 { usd, _ := sink.costOf(g, rec); return usd }},
		Seed:      1,
		GroupDone: adaptive.done,
		OnRecord: func(g int, rec probe.Record, warmup bool) {
			first.see(g, rec)
			if warmup {
				sink.spent.add(g, rec) // paid, and counted by limits.max_cost
			}
			prog.record(g, rec, warmup)
		},
		Measuring: func(g int) func() {
			faultsDone, scrapeDone := ps.measuring(m, g), scrapes.measuring(g)
			return func() { scrapeDone(); faultsDone() }
		},
	}
	m.start = opt.now()
	m.windowsPlan(opt.Progress)
	m.calibrate(ctx, r.Prober)
	res := r.Run(ctx, m.groups)
	res = m.searchAll(ctx, r, res, sink, *th, cfg, baseCfg, opt.Progress)
	prog.done()
	if err := first.err(); err != nil {
		return nil, err // nothing measured: the first requests' records are not the endpoint's latency
	}
	f := m.assemble(res, sink, adaptive, scrapes, cfg, baseCfg, opt)
	if sink.measured == 0 {
		return f, AsCannotRun(fmt.Errorf("no results: %s", noResults(f, res)))
	}
	if f.Incomplete != "" {
		return f, AsCannotRun(&IncompleteError{Why: f.Incomplete})
	}
	return f, nil
}

// planRun plans a run's groups and searches, and its windows when it
// starts at a shared time (--start-at), before any request.
func planRun(cfg, baseCfg *suite.Config, opt MeasureOptions) (*measurement, error) {
	m, err := planMeasure(cfg, baseCfg)
	if err != nil {
		return nil, err
	}
	if m.log = opt.Progress; !opt.StartAt.IsZero() {
		if err := m.planWindows(cfg, opt.StartAt, opt.clock()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// clock is the run's clock: Now, else time.Now.
func (opt MeasureOptions) clock() func() time.Time {
	if opt.Now != nil {
		return opt.Now
	}
	return time.Now
}

// now is when a run begins to measure (the file's started_at).
func (opt MeasureOptions) now() time.Time {
	if opt.Now != nil {
		return opt.Now().UTC()
	}
	return time.Now().UTC()
}

// httpClient is the probe's client: opt.Client, else the suites'.
func (opt MeasureOptions) httpClient(cfg, baseCfg *suite.Config) *http.Client {
	if opt.Client != nil {
		return opt.Client
	}
	return newHTTPClient(cfg, baseCfg)
}

// suitesSecrets are the secrets of the suite and, in an A/B run, the
// base's.
func suitesSecrets(cfg, baseCfg *suite.Config) []string {
	if baseCfg == nil {
		return cfg.Secrets()
	}
	return append(cfg.Secrets(), baseCfg.Secrets()...)
}

// measurement is the plan of a run: its (endpoint, scenario) groups in
// order, each with its base variant in an A/B run.
type measurement struct {
	plan   []planned
	groups []probe.Group
	// total counts the requests planned, warmup included; measuredPlanned
	// those measured (a capacity search's most).
	total, measuredPlanned int
	// searches are the capacity searches, run after the groups; records
	// their outcome for the file, and cut why one was cut.
	searches []searchPlan
	records  []results.Search
	cut      string
	// start is when the run began to measure (the file's started_at).
	start time.Time
	// scrapes reads the endpoints' metrics pages (a capacity level's too).
	scrapes *serverScrapes
	// windows are a run's started at a shared time (--start-at; ladder.go),
	// nil else; log its progress lines.
	windows *windows
	log     io.Writer
}

// planMeasure plans every (endpoint, scenario) of the suite (matched with
// the base suite's in an A/B run) and refuses, before anything is sent, a
// plan that cannot run or cannot pass.
func planMeasure(cfg, baseCfg *suite.Config) (*measurement, error) {
	m := &measurement{}
	common, nonce := 0, runNonce()
	for _, s := range cfg.Scenarios {
		td, err := scenarioDraw(&s, cfg)
		if err != nil {
			return nil, err
		}
		for _, ep := range cfg.EndpointsFor(s) {
			if s.Capacity != nil {
				if err := m.planSearch(s, ep, baseCfg); err != nil {
					return nil, err
				}
				if n := len(m.searches); baseCfg != nil && m.searches[n-1].base != nil {
					common++
				}
				continue
			}
			for _, ps := range phasesOf(s) {
				both, err := m.planGroup(ps, ep, td, nonce, cfg, baseCfg)
				if err != nil {
					return nil, err
				}
				if both {
					common++
				}
			}
		}
	}
	switch {
	case len(m.plan) == 0 && len(m.searches) == 0:
		return nil, BadInputf("nothing to measure: no scenario has an endpoint")
	case baseCfg != nil && common == 0:
		return nil, BadInputf("base and head have no (endpoint, scenario) in common: scenarios and endpoints are matched by name")
	case cfg.Limits.MaxRequests > 0 && m.total > cfg.Limits.MaxRequests:
		// A capped run is incomplete and can never pass: say so before
		// sending anything.
		return nil, BadInputf("the suite plans %d requests (warmup included%s) but limits.max_requests is %d: raise the cap or lower requests", m.total, searchesNote(m.searches), cfg.Limits.MaxRequests)
	}
	return m, nil
}

// planGroup plans one (endpoint, scenario) group (a phase of a scenario
// with phases is a scenario of its own), with its base variant in an A/B
// run; it reports whether the base has it too.
func (m *measurement) planGroup(s suite.Scenario, ep suite.Endpoint, td *traceDraw, nonce string, cfg, baseCfg *suite.Config) (bool, error) {
	req, prepare, err := groupOf(s, ep)
	if err != nil {
		return false, err
	}
	g := probe.Group{
		Request: req, Prepare: prepare,
		Requests: s.Requests, Warmup: s.Warmup,
		Concurrency: s.Concurrency, Rate: s.Rate, MaxInFlight: s.MaxInFlight, Lanes: cfg.Lanes,
	}
	pl := planned{scenario: s, endpoint: ep}
	if td != nil {
		pl.trace = &traceSide{d: td, s: s, ep: ep}
		g.Item, g.At = pl.trace.item, td.at
	}
	if len(s.Upstreams) > 0 {
		pl.faults = &faultPlan{upstreams: s.Upstreams, phase: s.Phase, nonce: nonce, group: len(m.groups)}
		g.Item = pl.faults.item("")
	}
	m.total += s.Requests + s.Warmup
	m.measuredPlanned += s.Requests
	both := false
	if baseCfg != nil {
		if pl.base = findVariant(baseCfg, s.Name, ep.Name); pl.base != nil {
			baseReq, basePrepare, err := groupOf(pl.base.scenario, pl.base.endpoint)
			if err != nil {
				return false, err
			}
			head := g.Request
			g.Head, g.HeadPrepare = &head, g.Prepare
			g.Request, g.Prepare = baseReq, basePrepare
			g.BlockSize = ABBlockSize
			if td != nil { // the head's draw, on both sides
				pl.base.trace = &traceSide{d: td, s: pl.base.scenario, ep: pl.base.endpoint}
				g.Item, g.HeadItem = pl.base.trace.item, pl.trace.item
			}
			if pl.faults != nil { // the head's faults, on both sides: one gateway's proxies
				g.Item, g.HeadItem = pl.faults.item(vocab.Base), pl.faults.item(vocab.Head)
			}
			m.total += s.Requests + s.Warmup
			m.measuredPlanned += s.Requests
			both = true
		}
	}
	m.planCold(s, &g)
	m.plan = append(m.plan, pl)
	m.groups = append(m.groups, g)
	return both, nil
}

// sink receives the runner's measured records, in the aggregator
// goroutine: each becomes its file form as it arrives (a long run holds
// each request once, about 1.3 KB at 128 output tokens), priced at its
// variant's suite's pricing.
type sink struct {
	plan       []planned
	head, base [][]results.Request // per group
	// headItems and baseItems are each request's item (probe.Record.Item),
	// in step with head and base: a fault plan's proxies log it.
	headItems, baseItems [][]int
	headPrice            []func(probe.Record) (float64, bool)
	basePrice            []func(probe.Record) (float64, bool)
	spent                *costs
	measured             int // successful requests
}

func newSink(plan []planned, cfg, baseCfg *suite.Config) *sink {
	s := &sink{
		plan: plan, headItems: make([][]int, len(plan)), baseItems: make([][]int, len(plan)),
		head: make([][]results.Request, len(plan)), base: make([][]results.Request, len(plan)),
		headPrice: make([]func(probe.Record) (float64, bool), len(plan)), basePrice: make([]func(probe.Record) (float64, bool), len(plan)),
	}
	for i, pl := range plan {
		s.headPrice[i] = priceOf(cfg, pl.endpoint.Model)
		if pl.base != nil {
			s.basePrice[i] = priceOf(baseCfg, pl.base.endpoint.Model)
		}
	}
	s.spent = newCosts(s.costOf)
	return s
}

// costOf prices a record of group g at its variant's pricing.
func (s *sink) costOf(g int, rec probe.Record) (float64, bool) {
	if rec.Variant == vocab.Base {
		return s.basePrice[g](rec)
	}
	return s.headPrice[g](rec)
}

// traceOf is the workload side of group g's variant; nil for a scenario
// of written prompts, and for a capacity search's level (a group planned
// after the sink was made).
func (s *sink) traceOf(g int, v vocab.Side) *traceSide {
	if g >= len(s.plan) {
		return nil
	}
	if v == vocab.Base && s.plan[g].base != nil {
		return s.plan[g].base.trace
	}
	return s.plan[g].trace
}

// add is the runner's Sink.
func (s *sink) add(g int, rec probe.Record) {
	q := requestOf(rec)
	q.CostUSD = s.spent.add(g, rec)
	if side := s.traceOf(g, rec.Variant); side != nil && rec.Item > 0 {
		q.Trace = side.ref(rec.Item - 1)
	}
	q.Upstream = rec.Seen.Upstream
	if rec.Variant == vocab.Base {
		s.base[g] = append(s.base[g], q)
		s.baseItems[g] = append(s.baseItems[g], rec.Item)
	} else {
		s.head[g] = append(s.head[g], q)
		s.headItems[g] = append(s.headItems[g], rec.Item)
	}
	if rec.OK {
		s.measured++
	}
}

// assemble builds the results file: a run per (endpoint, scenario) and
// variant that measured anything, with its adaptive stop, cost and, when
// the run was cut short, why.
func (m *measurement) assemble(res probe.Result, sink *sink, adaptive *adaptiveRun, scrapes *serverScrapes, cfg, baseCfg *suite.Config, opt MeasureOptions) *results.File {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	start := m.start.Truncate(time.Millisecond)
	f := &results.File{
		Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: opt.ToolVersion,
		CreatedAt: now().UTC().Truncate(time.Second), ID: results.NewID(), StartedAt: &start, Source: opt.Source,
	}
	adaptive.cut(res.Cause, stopText(res))
	cut := cutShort(res)
	// side is the run's variant in the file; measured, the records' (a
	// scenario only the head of an A/B run has is measured alone).
	add := func(i int, pl planned, c *suite.Config, reqs []results.Request, side, measured vocab.Side) {
		run := runOf(pl, c, m.plan[i].scenario, m.groups[i].Lanes, reqs, opt.Source.Region)
		if len(run.Requests) == 0 {
			return
		}
		run.Variant, run.ServerMetrics = side, scrapes.of(i, measured)
		if pl.trace != nil {
			run.Workload = pl.trace.workload()
		}
		if fp := m.plan[i].faults; fp != nil {
			items := sink.headItems[i]
			if side == vocab.Base {
				items = sink.baseItems[i]
			}
			fp.join(measured, run.Requests, items)
			run.Faults = fp.faultsOf()
			if fp.phase != nil {
				run.Phase = fp.phase.Name
			}
		}
		adaptive.record(i, &run)
		cut(&run, adaptive.stops[i].at > 0)
		sink.spent.fill(i, measured, &run)
		f.Runs = append(f.Runs, run)
	}
	for i, pl := range m.plan {
		switch {
		case pl.level != nil:
			if run, ok := m.levelRun(i, pl, sink, cfg, baseCfg, opt.Source.Region); ok {
				run.ServerMetrics = scrapes.of(i, "")
				f.Runs = append(f.Runs, run)
			}
		case pl.base != nil:
			add(i, *pl.base, baseCfg, sink.base[i], vocab.Base, vocab.Base)
			add(i, pl, cfg, sink.head[i], vocab.Head, vocab.Head)
		case baseCfg != nil:
			add(i, pl, cfg, sink.head[i], vocab.Head, "")
		default:
			add(i, pl, cfg, sink.head[i], "", "")
		}
	}
	for i := range f.Runs {
		keepShown(&f.Runs[i])
	}
	sink.spent.fillFile(f)
	switch res.Cause {
	case "":
	case vocab.Interrupted:
		// What the file holds, not what was sent: requests cut short by
		// the signal are not measurements.
		f.Incomplete = fmt.Sprintf("interrupted by a signal: %d of %d planned requests measured", f.Requests(), m.measuredPlanned)
	default:
		f.Incomplete = "stopped early: " + stopText(res)
	}
	f.Capacity = m.records
	if f.Incomplete == "" {
		f.Incomplete = m.cut
	}
	return f
}

// stopText says why a run stopped before its plan was done, in the
// suite's own keys.
func stopText(res probe.Result) string {
	switch res.Cause {
	case vocab.Interrupted:
		return "interrupted: the run was stopped before it finished"
	case vocab.Capped:
		if c := res.Cap; c.Limit == probe.CapCost {
			return fmt.Sprintf("limits.max_cost (%s) reached (%s spent, warmup included)", money.Exact(c.Value), money.AtLeast(c.Spent, c.Value))
		}
		return fmt.Sprintf("limits.%s (%d) reached", res.Cap.Limit, int(res.Cap.Value))
	case vocab.FailedFast:
		if res.Misread {
			return "the stream cannot be read as configured: " + res.Failure.Error
		}
		what := ""
		if v := res.Failure.Variant; v != "" {
			what = " of the " + string(v) + " variant"
		}
		return fmt.Sprintf("%d requests%s in a row failed the same way, so every further one would too: %s", res.Streak, what, res.Failure.Error)
	}
	return ""
}

// noResults says why a run measured no successful request.
func noResults(f *results.File, res probe.Result) string {
	recorded := 0
	for _, run := range f.Runs {
		recorded += len(run.Requests)
	}
	switch {
	case res.Cause == vocab.Interrupted:
		return "interrupted before any request completed"
	case recorded == 0 && res.Cause == vocab.Capped:
		return "stopped early: " + stopText(res) + " before any measured request (warmup requests count toward the caps)"
	case recorded == 0 && res.Cause != "":
		return "stopped early: " + stopText(res)
	}
	why := "every request failed"
	for i := range f.Runs {
		if len(f.Runs[i].Requests) > 0 {
			return why + ", " + firstError(report.DigestOf(&f.Runs[i]).Breakdown)
		}
	}
	return why
}

// cutShort returns what corrects the stop reason of an adaptive run that
// the whole run's interruption or cap stopped before its max, when its own
// looks did not decide it: "max reached" would say it ran its course.
func cutShort(res probe.Result) func(run *results.Run, decided bool) {
	var why string
	switch res.Cause {
	case "":
		return func(*results.Run, bool) {}
	case vocab.Interrupted:
		why = "interrupted by a signal before max"
	default:
		why = stopText(res) + " before max"
	}
	return func(run *results.Run, decided bool) {
		if run.RequestsMin > 0 && !decided && run.StoppedAt < run.Config.Requests {
			run.Stop, run.StopReason = res.Cause, why
		}
	}
}

// runOf is the results form of one variant of one (endpoint, scenario);
// sched is the scenario whose schedule drove it (the head's in an A/B run),
// on lanes copies of its load.
func runOf(pl planned, cfg *suite.Config, sched suite.Scenario, lanes int, reqs []results.Request, region string) results.Run {
	fp, parts := suite.Fingerprint(pl.scenario, pl.endpoint)
	label := pl.endpoint.Name
	if region != "" {
		// Matrix legs measure the same endpoint from several regions:
		// the region keeps their runs apart when merged and compared.
		label += "@" + region
	}
	run := results.Run{
		Scenario: pl.scenario.Name, Endpoint: label, Model: pl.endpoint.Model, Region: region,
		Fingerprint: fp, FingerprintParts: parts, ConfigLine: pl.scenario.Line,
		Config: results.RunConfig{
			MaxTokens: pl.scenario.MaxTokens, Requests: sched.Requests, Warmup: sched.Warmup,
			ReadingRate: cfg.ReadingRate, ColdConnections: cfg.Limits.ColdConnections,
		},
		Requests: reqs,
	}
	if run.Requests == nil {
		run.Requests = []results.Request{}
	}
	if sched.Rate > 0 {
		run.Config.Rate = sched.Rate
	} else {
		run.Config.Concurrency = sched.Concurrency
	}
	if lanes > 1 {
		run.Config.Lanes = lanes
	}
	return run
}

// IncompleteError says that a run did not measure all it planned; its
// results are written, marked incomplete, and can never pass a gate or be
// recorded as a baseline.
type IncompleteError struct{ Why string }

func (e *IncompleteError) Error() string {
	return "incomplete run (" + e.Why + "): the results hold what was measured and are marked incomplete; they cannot pass a gate or become a baseline"
}

// runNonce is unique per run, so cold-cache prefixes never repeat across runs.
func runNonce() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// GitSource describes where results were recorded: GitHub's variables when
// present, else the local git checkout (bounded to 2 seconds).
func GitSource(getenv func(string) string, region string) results.Source {
	s := results.Source{GitSHA: getenv("GITHUB_SHA"), GitRef: getenv("GITHUB_REF"), Runner: getenv("RUNNER_NAME"), Region: region}
	if s.Region == "" {
		s.Region = getenv("LATGATE_REGION")
	}
	if s.GitSHA == "" || s.GitRef == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		sha, ref := publish.Git{Dir: "."}.Head(ctx)
		cancel()
		if s.GitSHA == "" {
			s.GitSHA = sha
		}
		if s.GitRef == "" {
			s.GitRef = ref
		}
	}
	if s.Runner == "" {
		s.Runner, _ = os.Hostname()
	}
	return s
}

// ms converts at the file edge, to the microsecond.
func ms(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

func optMs(d time.Duration) *float64 {
	if d < 0 {
		return nil
	}
	v := ms(d)
	return &v
}

// requestOf converts a probe record to its file form: the edge where
// time.Duration becomes milliseconds and Missing becomes null.
func requestOf(r probe.Record) results.Request {
	q := results.Request{
		OK: r.OK, Status: r.Status, Error: r.Error, Failure: r.Failure,
		DNSMs: ms(r.DNS), ConnectMs: ms(r.Connect), TLSMs: ms(r.TLS), UpgradeMs: ms(r.Upgrade), Reused: r.Reused,
		TTFBMs: optMs(r.TTFB), FirstEventMs: optMs(r.FirstEvent), TTFTMs: optMs(r.TTFT), TTFCMs: optMs(r.TTFC),
		TotalMs: optMs(r.Total), PerceivedMs: optMs(r.Perceived), TPOTMs: optMs(r.TPOT), MaxStallMs: optMs(r.MaxStall),
		ITLMs:        make([]float64, len(r.ITL)),
		OutputTokens: r.OutputTokens, PromptTokens: r.PromptTokens, CachedTokens: r.CachedTokens,
		ReasoningTokens: r.ReasoningTokens, TokensSource: r.TokensSource,
		SentMs: ms(r.SentAt), Block: r.Block, Buffered: r.OK && r.Buffered(), UnknownEvents: r.UnknownEvents,
		Cold: r.Cold,
	}
	if r.IntendedAt != probe.Missing {
		q.LagMs = optMs(r.ScheduleLag())
	}
	for i, g := range r.ITL {
		q.ITLMs[i] = ms(g)
	}
	q.Server, q.OutsideMs = serverOf(r.Server), optMs(r.Outside())
	if r.Session != nil {
		sessionOfRecord(&q, r)
	}
	if r.Page != nil {
		pageOfRecord(&q, r)
	}
	if len(r.Shots) > 0 {
		q.Screenshots = shotsOf(r.Shots)
	}
	return q
}

// clipWords cuts s to at most n bytes, at the start of a character.
func clipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// serverOf is a server timing's file form; nil when the server reported
// nothing, trusted or not.
func serverOf(t probe.ServerTiming) *results.ServerTiming {
	if !t.Reported() && t.IgnoredCount == 0 {
		return nil
	}
	st := &results.ServerTiming{QueueMs: optMs(t.Queue), PrefillMs: optMs(t.Prefill), DecodeMs: optMs(t.Decode),
		ProcessingMs: optMs(t.Processing), GatewayMs: optMs(t.Gateway), Source: t.Source, Ignored: t.IgnoredCount}
	if len(t.Ignored) > 0 {
		st.IgnoredReason = clipWords(t.Ignored[0], results.MaxReason)
	}
	return st
}

// sessionOfRecord fills a session's steps and metrics in its file form.
func sessionOfRecord(q *results.Request, r probe.Record) {
	s := r.Session
	q.Steps = make([]results.Step, len(s.Steps))
	for i, st := range s.Steps {
		q.Steps[i] = results.Step{Turn: st.Turn, StartMs: ms(st.Start), TTFTMs: optMs(st.TTFT), TTFCMs: optMs(st.TTFC),
			FirstToolCallMs: optMs(st.FirstToolCall), ToolCallMs: optMs(st.ToolCall), TotalMs: optMs(st.Total),
			ToolCalls: st.ToolCalls, Tools: st.Tools, ToolMs: ms(st.ToolTime),
			OutputTokens: st.OutputTokens, PromptTokens: st.PromptTokens, CachedTokens: st.CachedTokens, Error: st.Error,
			Server: serverOf(st.Server)}
	}
	n := len(s.Steps)
	q.StepCount, q.SessionEnd, q.UnknownTools = &n, s.End, s.UnknownTools
	q.FirstToolCallMs, q.AnswerMs = optMs(s.FirstToolCall), optMs(s.Answer)
	q.ToolMs = optMs(s.ToolTime)
	if s.End == probe.EndAnswer {
		q.SessionMs = optMs(r.Total) // to the end of the final answer
	}
}

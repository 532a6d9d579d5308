package gate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// newHTTPClient keeps at least as many idle connections per host as the
// suite has requests in flight (Go keeps 2 by default, which would turn
// every burst into new connections), or none for cold-connection suites.
func newHTTPClient(cfg *suite.Config) *http.Client {
	inFlight := 1
	for _, s := range cfg.Scenarios {
		n := s.Concurrency
		if s.Rate > 0 {
			n = s.MaxInFlight
		}
		inFlight = max(inFlight, n)
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          inFlight * max(len(cfg.Endpoints), 1),
		MaxIdleConnsPerHost:   inFlight,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableKeepAlives:     cfg.Limits.ColdConnections,
	}
	return &http.Client{Transport: tr}
}

// requestBody builds the streaming request of the endpoint's API; a
// non-empty prefix goes in front of the first message.
func requestBody(s suite.Scenario, e suite.Endpoint, prefix string) ([]byte, error) {
	p := probe.BodyParams{Model: e.Model, MaxTokens: s.MaxTokens, Temperature: s.Temperature, Template: e.Body}
	for i, m := range s.Messages {
		c := m.Content
		if i == 0 {
			c = prefix + c
		}
		p.Messages = append(p.Messages, probe.Message{Role: m.Role, Content: c})
	}
	return probe.Body(apiOf(e), p)
}

func apiOf(e suite.Endpoint) probe.API {
	if e.API == "" {
		return probe.Chat
	}
	return probe.API(e.API)
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
}

// Measure runs the whole suite and returns its results file. The error is
// CannotRun when nothing could be measured, or when the run is incomplete
// (interrupted, capped, stopped on repeated errors): the file is then still
// returned, marked Incomplete, so that what was measured can be written.
// Adaptive scenarios (requests: {min, max}) stop early when
// opt.Baseline decides them (adaptive.go), and run to max without one.
func Measure(ctx context.Context, cfg *suite.Config, opt MeasureOptions) (*results.File, error) {
	return measure(ctx, cfg, nil, opt)
}

// MeasureAB measures the base and the head variant of every scenario
// interleaved in time (latgate ab): each (endpoint, scenario) that both
// suites have is one group whose requests are issued in small blocks that
// hold both variants in a seeded random order, at the head's concurrency
// or rate, so both variants meet the same provider load at the same
// moments. A scenario only the head has is measured alone (no baseline);
// one only the base has is not measured. Errors as Measure.
func MeasureAB(ctx context.Context, base, head *suite.Config, opt MeasureOptions) (*results.File, error) {
	return measure(ctx, head, base, opt)
}

// planned is one (endpoint, scenario) of the suite, in plan order, with
// its base variant in an A/B run.
type planned struct {
	scenario suite.Scenario
	endpoint suite.Endpoint
	base     *planned
}

// groupOf builds the probe's form of one variant.
func groupOf(s suite.Scenario, ep suite.Endpoint) (probe.Request, func(int) []byte, error) {
	body, err := requestBody(s, ep, "")
	if err != nil {
		return probe.Request{}, nil, err
	}
	var bodyFor func(int) []byte
	if s.Cache == "cold" {
		nonce := runNonce()
		bodyFor = func(i int) []byte {
			b, _ := requestBody(s, ep, fmt.Sprintf("[%s-%d]\n", nonce, i))
			return b
		}
	}
	api := apiOf(ep)
	req := probe.Request{API: api, Method: ep.Method, Body: body, APIKey: ep.APIKey, Headers: ep.Headers}
	if api == probe.Custom {
		req.URL = ep.URL
		if ep.Stream != nil {
			req.Stream = &probe.StreamSpec{Format: ep.Stream.Format, Text: ep.Stream.Text, Reasoning: ep.Stream.Reasoning, Done: ep.Stream.Done,
				Error: ep.Stream.Error, OutputTokens: ep.Stream.OutputTokens, InputTokens: ep.Stream.InputTokens, CachedTokens: ep.Stream.CachedTokens}
		}
	} else {
		req.URL = probe.URL(api, ep.BaseURL, ep.Model, ep.APIVersion)
	}
	return req, bodyFor, nil
}

func findVariant(cfg *suite.Config, scenario, endpoint string) *planned {
	for _, s := range cfg.Scenarios {
		if s.Name != scenario {
			continue
		}
		for _, ep := range cfg.EndpointsFor(s) {
			if ep.Name == endpoint {
				return &planned{scenario: s, endpoint: ep}
			}
		}
	}
	return nil
}

func measure(ctx context.Context, cfg, baseCfg *suite.Config, opt MeasureOptions) (*results.File, error) {
	var plan []planned
	var groups []probe.Group
	total, measuredPlanned := 0, 0
	for _, s := range cfg.Scenarios {
		for _, ep := range cfg.EndpointsFor(s) {
			req, bodyFor, err := groupOf(s, ep)
			if err != nil {
				return nil, err
			}
			g := probe.Group{
				Request: req, BodyFor: bodyFor,
				Requests: s.Requests, Warmup: s.Warmup,
				Concurrency: s.Concurrency, Rate: s.Rate, MaxInFlight: s.MaxInFlight,
			}
			pl := planned{scenario: s, endpoint: ep}
			total += s.Requests + s.Warmup
			measuredPlanned += s.Requests
			if baseCfg != nil {
				if pl.base = findVariant(baseCfg, s.Name, ep.Name); pl.base != nil {
					baseReq, baseBody, err := groupOf(pl.base.scenario, pl.base.endpoint)
					if err != nil {
						return nil, err
					}
					head := g.Request
					g.Head, g.HeadBodyFor = &head, g.BodyFor
					g.Request, g.BodyFor = baseReq, baseBody
					total += s.Requests + s.Warmup
					measuredPlanned += s.Requests
				}
			}
			plan = append(plan, pl)
			groups = append(groups, g)
		}
	}
	if len(plan) == 0 {
		return nil, BadInputf("nothing to measure: no scenario has an endpoint")
	}
	if baseCfg != nil {
		common := 0
		for _, pl := range plan {
			if pl.base != nil {
				common++
			}
		}
		if common == 0 {
			return nil, BadInputf("base and head have no (endpoint, scenario) in common: scenarios and endpoints are matched by name")
		}
	}
	client := opt.Client
	if client == nil {
		client = newHTTPClient(cfg)
	}
	if cfg.Limits.MaxRequests > 0 && total > cfg.Limits.MaxRequests {
		// A capped run is incomplete and can never pass: say so before
		// sending anything.
		return nil, BadInputf("the suite plans %d requests (warmup included) but limits.max_requests is %d: raise the cap or lower requests", total, cfg.Limits.MaxRequests)
	}
	secrets := cfg.Secrets()
	if baseCfg != nil {
		secrets = append(secrets, baseCfg.Secrets()...)
	}
	prog := newProgress(opt.Progress, opt.TTY, measuredPlanned, plan, opt.Now)
	// Records become their file form as they arrive: a long run holds each
	// request once (about 1.3 KB at 128 output tokens).
	headReqs := make([][]results.Request, len(plan))
	baseReqs := make([][]results.Request, len(plan))
	headPrice := make([]func(probe.Record) (float64, bool), len(plan))
	basePrice := make([]func(probe.Record) (float64, bool), len(plan))
	for i, pl := range plan {
		headPrice[i] = priceOf(cfg, pl.endpoint.Model)
		if pl.base != nil {
			basePrice[i] = priceOf(baseCfg, pl.base.endpoint.Model)
		}
	}
	costOf := func(g int, rec probe.Record) (float64, bool) {
		if rec.Variant == vocab.Base {
			return basePrice[g](rec)
		}
		return headPrice[g](rec)
	}
	spent := newCosts(costOf)
	th := opt.Thresholds
	if th == nil {
		c, err := Thresholds(cfg, Overrides{})
		if err != nil {
			return nil, err
		}
		th = &c
	}
	adaptive := newAdaptiveRun(plan, *th, opt.Baseline, baseCfg != nil, opt.Source.Region, opt.Progress)
	for gi := range groups {
		adaptive.group(gi, &groups[gi], &headReqs[gi], &baseReqs[gi])
	}
	measured := 0
	r := &probe.Runner{
		Sink: func(g int, rec probe.Record) {
			q := requestOf(rec)
			q.CostUSD = spent.add(g, rec)
			if rec.Variant == vocab.Base {
				baseReqs[g] = append(baseReqs[g], q)
			} else {
				headReqs[g] = append(headReqs[g], q)
			}
			if rec.OK {
				measured++
			}
		},
		Prober: &probe.Prober{
			Client: client, Timeout: cfg.Limits.Timeout, StallTimeout: cfg.Limits.StallTimeout,
			ReadingRate: cfg.ReadingRate, Secrets: secrets,
		},
		Limits: probe.Limits{MaxRequests: cfg.Limits.MaxRequests, MaxOutputTokens: cfg.Limits.MaxOutputTokens,
			MaxCost: cfg.Limits.MaxCost, Cost: func(g int, rec probe.Record) float64 { usd, _ := costOf(g, rec); return usd }},
		Seed: 1,
		OnRecord: func(g int, rec probe.Record, warmup bool) {
			if warmup {
				spent.add(g, rec) // paid, and counted by limits.max_cost
			}
			prog.record(g, rec, warmup)
		},
	}
	res := r.Run(ctx, groups)
	prog.done()

	now := opt.Now
	if now == nil {
		now = time.Now
	}
	f := &results.File{
		Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: opt.ToolVersion,
		CreatedAt: now().UTC().Truncate(time.Second), Source: opt.Source,
	}
	switch res.Cause {
	case "":
	case probe.Interrupted:
		f.Incomplete = fmt.Sprintf("interrupted by a signal after %d of %d planned requests", res.Sent, total)
	default:
		f.Incomplete = res.Stopped
	}
	cut := cutShort(res)
	for i, pl := range plan {
		var variant vocab.Side
		if baseCfg != nil {
			variant = vocab.Head
			if pl.base != nil {
				if run := runOf(*pl.base, baseCfg, pl.scenario, baseReqs[i], opt.Source.Region); len(run.Requests) > 0 {
					run.Variant = vocab.Base
					adaptive.record(i, &run)
					cut(&run, adaptive.stops[i].at > 0)
					spent.fill(i, vocab.Base, &run)
					f.Runs = append(f.Runs, run)
				}
			}
		}
		if run := runOf(pl, cfg, pl.scenario, headReqs[i], opt.Source.Region); len(run.Requests) > 0 {
			run.Variant = variant
			adaptive.record(i, &run)
			cut(&run, adaptive.stops[i].at > 0)
			headVariant := vocab.Side("")
			if pl.base != nil {
				headVariant = vocab.Head
			}
			spent.fill(i, headVariant, &run)
			f.Runs = append(f.Runs, run)
		}
	}
	spent.fillFile(f)
	if measured == 0 {
		recorded := 0
		for _, run := range f.Runs {
			recorded += len(run.Requests)
		}
		var why string
		switch {
		case res.Cause == probe.Interrupted:
			why = "interrupted before any request completed"
		case recorded == 0 && res.Cause == probe.Capped:
			why = res.Stopped + " before any measured request (warmup requests count toward the caps)"
		case recorded == 0 && res.Stopped != "":
			why = res.Stopped
		default:
			why = "every request failed"
			for i := range f.Runs {
				if len(f.Runs[i].Requests) > 0 {
					why += ", " + firstError(&f.Runs[i])
					break
				}
			}
		}
		return f, AsCannotRun(fmt.Errorf("no results: %s", why))
	}
	if f.Incomplete != "" {
		return f, AsCannotRun(&IncompleteError{Why: f.Incomplete})
	}
	return f, nil
}

// cutShort returns what corrects the stop reason of an adaptive run that
// the whole run's interruption or cap stopped before its max, when its own
// looks did not decide it: "max reached" would say it ran its course.
func cutShort(res probe.Result) func(run *results.Run, decided bool) {
	var why string
	switch res.Cause {
	case "":
		return func(*results.Run, bool) {}
	case probe.Interrupted:
		why = "interrupted by a signal before max"
	default:
		why = strings.TrimPrefix(res.Stopped, "stopped early: ") + " before max"
	}
	return func(run *results.Run, decided bool) {
		if run.RequestsMin > 0 && !decided && run.StoppedAt < run.Config.Requests {
			run.Stop, run.StopReason = vocab.Stop(res.Cause), why
		}
	}
}

// runOf is the results form of one variant of one (endpoint, scenario);
// sched is the scenario whose schedule drove it (the head's in an A/B run).
func runOf(pl planned, cfg *suite.Config, sched suite.Scenario, reqs []results.Request, region string) results.Run {
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

// gitSource describes where results were recorded: GitHub's variables when
// present, else the local git checkout (bounded to 2 seconds).
func GitSource(getenv func(string) string, region string) results.Source {
	s := results.Source{GitSHA: getenv("GITHUB_SHA"), GitRef: getenv("GITHUB_REF"), Runner: getenv("RUNNER_NAME"), Region: region}
	if s.Region == "" {
		s.Region = getenv("LATGATE_REGION")
	}
	git := func(args ...string) string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "git", args...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	if s.GitSHA == "" {
		s.GitSHA = git("rev-parse", "HEAD")
	}
	if s.GitRef == "" {
		if b := git("rev-parse", "--abbrev-ref", "HEAD"); b != "" && b != "HEAD" {
			s.GitRef = "refs/heads/" + b
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
		OK: r.OK, Status: r.Status, Error: r.Error,
		DNSMs: ms(r.DNS), ConnectMs: ms(r.Connect), TLSMs: ms(r.TLS), Reused: r.Reused,
		TTFBMs: optMs(r.TTFB), FirstEventMs: optMs(r.FirstEvent), TTFTMs: optMs(r.TTFT), TTFCMs: optMs(r.TTFC),
		TotalMs: optMs(r.Total), PerceivedMs: optMs(r.Perceived), TPOTMs: optMs(r.TPOT), MaxStallMs: optMs(r.MaxStall),
		ITLMs:        make([]float64, len(r.ITL)),
		OutputTokens: r.OutputTokens, PromptTokens: r.PromptTokens, CachedTokens: r.CachedTokens,
		ReasoningTokens: r.ReasoningTokens, TokensSource: r.TokensSource,
		SentMs: ms(r.SentAt), Block: r.Block, Buffered: r.OK && r.Buffered(),
	}
	if r.IntendedAt != probe.Missing {
		q.LagMs = optMs(r.ScheduleLag())
	}
	for i, g := range r.ITL {
		q.ITLMs[i] = ms(g)
	}
	return q
}

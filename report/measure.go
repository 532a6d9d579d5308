package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Stage is one row of the budget table's decomposition (docs/metrics.md).
type Stage struct {
	Name     string
	P50, P95 float64 // milliseconds; NaN when not available
	Note     string
}

// Breakdown describes one run: P50/P95 of each stage, errors and cache.
type Breakdown struct {
	N, OK      int
	Network    Stage
	ServerWait Stage
	TTFT       Stage
	TTFC       Stage
	ITL        Stage // per-request mean gap between output events
	TPOT       Stage
	Total      Stage
	Perceived  Stage
	// Client is a page's client stage (api browser: its first painted
	// text − the first text on the wire); Page says the run is of a page in
	// a browser, whose server stage is to the first text on the wire.
	Client Stage
	Page   bool
	// NoStream counts the successful requests of a page whose answer
	// stream latgate did not see (their client stage is null).
	NoStream    int
	ErrorRate   float64
	TopError    string
	TopErrorN   int
	ErrorKinds  []KindCount // failures by kind, most frequent first
	CacheShare  float64     // cached / prompt tokens; NaN when not reported
	ColdConns   int         // requests on a new connection
	TokensUsage bool        // output tokens came from usage
	// Buffered counts the successful requests whose stream arrived
	// buffered, Late those sent more than LateMs behind their open-loop
	// schedule, Unknown the events of unknown types the server sent in
	// all requests; FirstError is the first error a request recorded (""
	// when none did).
	Buffered, Late, Unknown int
	FirstError              string
	// RateLimited counts the failed requests answered 429 Too Many
	// Requests: failures, never latency samples.
	RateLimited int
	// Sessions (scenarios with tools or turns): the answer, the session and
	// the tool time of the successful sessions, and each step by position.
	Answer, Session, ToolTime Stage
	Steps                     []StepBreakdown
	// The server's own stages where it reported them (NaN where not), and
	// the TTFT outside them; ServerIgnored counts the values it reported
	// that latgate did not trust, ServerIgnoredWhy the first reason.
	Queue, Prefill, Decode, Outside Stage
	ServerIgnored                   int
	ServerIgnoredWhy                string
}

// StepBreakdown is one step of a run's successful sessions (the sessions
// that had it): the n-th tool-calling step of a turn, or a turn's answer
// (the step that called no tool), so that a session with an extra tool
// step does not compare its third tool call with another's answer.
type StepBreakdown struct {
	// Label is "1", "2"… for tool steps, "answer", and "turn 2: 1"… in a
	// later turn.
	Label                                string
	N                                    int // sessions with this step
	TTFT, FirstToolCall, ToolCall, Total Stage
	ToolTime                             Stage // the step's tool time (results.Step.ToolMs)
	// Cache is the share of the step's prompt tokens the server reported
	// as cached (NaN without prompt tokens): a conversation's prefix
	// cache that stops hitting on turn 2 shows here.
	Cache float64
}

// cache is a step's cached share, NaN for no step.
func (st *StepBreakdown) cache() float64 {
	if st == nil {
		return math.NaN()
	}
	return st.Cache
}

// step is the breakdown's step with the label; nil when it has none.
func (b *Breakdown) step(label string) *StepBreakdown {
	if !b.IsSession() {
		return nil
	}
	for i := range b.Steps {
		if b.Steps[i].Label == label {
			return &b.Steps[i]
		}
	}
	return nil
}

// IsSession reports whether the run's requests were sessions.
func (b *Breakdown) IsSession() bool { return b != nil && len(b.Steps) > 0 }

// BufferedMostly reports whether at least half of the run's successful
// requests arrived buffered (their output all at once); false for nil.
func (b *Breakdown) BufferedMostly() bool { return b != nil && b.OK > 0 && b.Buffered*2 >= b.OK }

// LateMs is how far behind its open-loop schedule a request may be sent
// before it counts as late (Breakdown.Late).
const LateMs = 100

// Describe computes the breakdown of a run.
func Describe(r *results.Run) Breakdown { return DigestOf(r).Breakdown }

// A Digest is a run reduced to what a comparison and the report's tables
// read: its sample (compare.SampleOf) and its breakdown (Describe). The
// per-request renderings (HTML, CSV, benchstat, OTLP, OpenMetrics) draw
// the requests themselves.
type Digest struct {
	Sample    *compare.Sample
	Breakdown Breakdown
	// Waterfall holds the successful sessions at the median and at p95
	// of their session times (their session time and steps only; nil
	// without sessions), which the HTML report draws step by step.
	Waterfall [2]*results.Request
	// Pages holds, of a browser run, the requests with a page timeline or
	// screenshots nearest its TTFT median and p95 (PageShown; both the
	// same request when that is one); FailureShots its first failed
	// requests with a screenshot. The HTML report draws them.
	Pages        [2]*results.Request
	FailureShots []*results.Request
	// Trace is, of a run drawn from a trace (its Workload), its requests
	// against the trace (nil otherwise).
	Trace *TraceDigest
	// Upstreams counts, of a scenario with upstreams, the successful
	// requests each upstream served (the fault proxies' stamp; at most
	// maxUpstreams names); nil without. A failed request was served by
	// none: a proxy's own error status is not an answer.
	Upstreams map[string]int
}

// DigestOf digests a run from its requests.
func DigestOf(r *results.Run) *Digest {
	var d Digester
	for i := range r.Requests {
		d.Add(&r.Requests[i])
	}
	return d.Digest(r)
}

// A Digester builds a run's digest one request at a time, for a reader
// that does not keep the requests (fileio.Stream). The zero value is
// ready to use.
type Digester struct {
	sampler               compare.Sampler
	b                     Breakdown // the counts
	network, wait         []float64
	errs                  map[string]int
	prompt, cached, usage int
	toolTime              []float64
	steps                 map[stepKey]*stepColumns
	sessions              []*results.Request // the successful sessions' times and steps
	pages, failShots      []*results.Request // pages the report may draw (addPage)
	trace                 *traceDigester     // requests that replayed a trace entry
	upstreams             map[string]int     // requests per upstream that served them
}

// stepColumns are the values of one step (stepKey) of successful
// sessions, and its prompt and cached tokens.
type stepColumns struct {
	ttft, first, call, total, tool []float64
	prompt, cached                 int
}

// Add adds the run's next request.
func (d *Digester) Add(q *results.Request) {
	d.sampler.Add(q)
	d.b.N++
	if !q.Reused {
		d.b.ColdConns++
	}
	if q.Error != "" && d.b.FirstError == "" {
		d.b.FirstError = q.Error
	}
	d.b.Unknown += q.UnknownEvents
	d.serverIgnored(q)
	if q.PageTimeline != nil || len(q.Screenshots) > 0 {
		d.addPage(q)
	}
	if q.OK && q.Upstream != "" && (d.upstreams[q.Upstream] > 0 || len(d.upstreams) < maxUpstreams) {
		if d.upstreams == nil {
			d.upstreams = map[string]int{}
		}
		d.upstreams[q.Upstream]++
	}
	if q.Trace != nil {
		if d.trace == nil {
			d.trace = &traceDigester{}
		}
		d.trace.add(q)
	}
	if !q.OK {
		if d.errs == nil {
			d.errs = map[string]int{}
		}
		d.errs[ErrorKind(q)]++
		if q.Status == 429 {
			d.b.RateLimited++
		}
		return
	}
	d.b.OK++
	if q.Buffered {
		d.b.Buffered++
	}
	if q.LagMs != nil && *q.LagMs > LateMs {
		d.b.Late++
	}
	if q.Cold {
		return // a cold sample: cold_ttft and cold_total only, the breakdown stays warm (compare.Sampler)
	}
	net := q.DNSMs + q.ConnectMs + q.TLSMs + q.UpgradeMs
	d.network = append(d.network, net)
	switch {
	case q.Stream != nil:
		d.b.Page = true
		if q.Stream.FirstTextMs != nil {
			d.wait = append(d.wait, *q.Stream.FirstTextMs-net)
		} else {
			d.b.NoStream++
		}
	case q.TTFBMs != nil:
		d.wait = append(d.wait, *q.TTFBMs-net)
	}
	d.prompt += q.PromptTokens
	d.cached += q.CachedTokens
	if q.TokensSource == "usage" {
		d.usage++
	}
	if q.IsSession() {
		d.addSession(q)
	}
}

// serverIgnored counts what the server reported that latgate did not
// trust, the request's and its steps'.
func (d *Digester) serverIgnored(q *results.Request) {
	add := func(t *results.ServerTiming) {
		if t == nil || t.Ignored == 0 {
			return
		}
		d.b.ServerIgnored += t.Ignored
		if d.b.ServerIgnoredWhy == "" {
			d.b.ServerIgnoredWhy = t.IgnoredReason
		}
	}
	if !q.IsSession() {
		add(q.Server) // a session's is its first step's
	}
	for i := range q.Steps {
		add(q.Steps[i].Server)
	}
}

// addSession adds a successful session's tool time and its steps, matched
// by their place (stepKey).
func (d *Digester) addSession(q *results.Request) {
	add := func(xs *[]float64, v *float64) {
		if v != nil {
			*xs = append(*xs, *v)
		}
	}
	add(&d.toolTime, q.ToolMs)
	if q.SessionMs != nil {
		ms := *q.SessionMs
		d.sessions = append(d.sessions, &results.Request{SessionMs: &ms, Steps: slices.Clone(q.Steps)})
	}
	if d.steps == nil {
		d.steps = map[stepKey]*stepColumns{}
	}
	n, turn := 0, -1
	for i, st := range q.Steps {
		if st.Turn != turn {
			n, turn = 0, st.Turn
		}
		k := stepKey{turn: st.Turn}
		if st.ToolCalls > 0 {
			n++
			k.index = n
		}
		c := d.steps[k]
		if c == nil {
			c = &stepColumns{}
			d.steps[k] = c
		}
		add(&c.ttft, st.TTFTMs)
		add(&c.first, st.FirstToolCallMs)
		add(&c.call, st.ToolCallMs)
		add(&c.total, st.TotalMs)
		c.prompt += st.PromptTokens
		c.cached += st.CachedTokens
		if st.ToolCalls > 0 && i < len(q.Steps)-1 {
			c.tool = append(c.tool, st.ToolMs) // a step that called tools, and ran them
		}
	}
}

// stepBreakdowns are the steps' breakdowns, in the order of their places.
func (d *Digester) stepBreakdowns() []StepBreakdown {
	keys := slices.SortedFunc(maps.Keys(d.steps), func(a, b stepKey) int {
		switch {
		case a.less(b):
			return -1
		case b.less(a):
			return 1
		}
		return 0
	})
	out := make([]StepBreakdown, len(keys))
	for i, k := range keys {
		c := d.steps[k]
		out[i] = StepBreakdown{Label: k.label(), N: len(c.total), TTFT: stage("TTFT", c.ttft), FirstToolCall: stage("First tool call", c.first),
			ToolCall: stage("Tool call", c.call), Total: stage("Total", c.total), ToolTime: stage("Tool time", c.tool), Cache: math.NaN()}
		if c.prompt > 0 {
			out[i].Cache = float64(c.cached) / float64(c.prompt)
		}
	}
	return out
}

// Digest is the digest of the requests added; r is their run (its
// variant decides whether the sample keeps the A/B blocks). The Digester
// is not to be used after.
func (d *Digester) Digest(r *results.Run) *Digest {
	sample := d.sampler.Sample(r)
	b := d.b
	b.CacheShare = math.NaN()
	v := sample.Values
	b.Network = stage("Network", d.network)
	b.ServerWait = stage("Server wait", d.wait)
	b.TTFT = stage("TTFT", v[vocab.TTFT])
	b.TTFC = stage("TTFC", v[vocab.TTFC])
	b.ITL = stage("Inter-token", v[vocab.ITL])
	b.TPOT = stage("Per token", v[vocab.TPOT])
	b.Total = stage("Total", v[vocab.Total])
	b.Perceived = stage("Perceived", v[vocab.Perceived])
	b.Client = stage("Client", v[vocab.Client])
	b.Answer = stage("Answer", v[vocab.Answer])
	b.Session = stage("Session", v[vocab.Session])
	b.ToolTime = stage("Tool time", d.toolTime)
	b.Queue, b.Prefill = stage("Queue", v[vocab.Queue]), stage("Prefill", v[vocab.Prefill])
	b.Decode, b.Outside = stage("Decode", v[vocab.Decode]), stage("Outside", v[vocab.Outside])
	b.Steps = d.stepBreakdowns()
	if b.N > 0 {
		b.ErrorRate = float64(b.N-b.OK) / float64(b.N)
	}
	for e, n := range d.errs {
		b.ErrorKinds = append(b.ErrorKinds, KindCount{Kind: e, N: n})
	}
	sortKinds(b.ErrorKinds)
	if len(b.ErrorKinds) > 0 {
		b.TopError, b.TopErrorN = b.ErrorKinds[0].Kind, b.ErrorKinds[0].N
	}
	if d.cached > 0 && d.prompt > 0 {
		b.CacheShare = float64(d.cached) / float64(d.prompt)
	}
	b.TokensUsage = d.usage == b.OK && b.OK > 0
	out := &Digest{Sample: sample, Breakdown: b, Waterfall: [2]*results.Request{sessionAt(d.sessions, 0.5), sessionAt(d.sessions, 0.95)},
		Pages: pagePicks(d.pages, b.TTFT), FailureShots: d.failShots, Upstreams: d.upstreams}
	if r.Workload != nil {
		if d.trace == nil {
			d.trace = &traceDigester{}
		}
		out.Trace = d.trace.digest(len(r.Workload.Strata))
	}
	*d = Digester{}
	return out
}

// sessionAt is the session at quantile q of sessions' times (the nearest
// rank); nil for none. It sorts sessions.
func sessionAt(sessions []*results.Request, q float64) *results.Request {
	if len(sessions) == 0 {
		return nil
	}
	slices.SortStableFunc(sessions, func(a, b *results.Request) int { return cmp.Compare(*a.SessionMs, *b.SessionMs) })
	return sessions[min(len(sessions)-1, int(math.Ceil(q*float64(len(sessions))))-1)]
}

// stepKey places a step among its session's: its turn, and its position
// among the turn's tool-calling steps (from 1), or 0 for the answer.
type stepKey struct{ turn, index int }

func (k stepKey) label() string {
	l := "answer"
	if k.index > 0 {
		l = fmt.Sprint(k.index)
	}
	if k.turn > 0 {
		l = fmt.Sprintf("turn %d: %s", k.turn+1, l)
	}
	return l
}

// less orders steps by turn, tool steps before the answer.
func (k stepKey) less(o stepKey) bool {
	if k.turn != o.turn {
		return k.turn < o.turn
	}
	return k.index != 0 && (o.index == 0 || k.index < o.index)
}

// stage is the P50 and P95 of values (NaN ones left out).
func stage(name string, xs []float64) Stage {
	s := compare.Sorted(xs)
	return Stage{Name: name, P50: compare.Quantile(s, 0.5), P95: compare.Quantile(s, 0.95)}
}

// KindCount is how many requests failed with one kind of error.
type KindCount struct {
	Kind string
	N    int
}

func sortKinds(k []KindCount) {
	sort.Slice(k, func(i, j int) bool {
		if k[i].N != k[j].N {
			return k[i].N > k[j].N
		}
		return k[i].Kind < k[j].Kind
	})
}

// KindList says "4 HTTP 429 Too Many Requests, 3 stalled".
func KindList(k []KindCount) string {
	parts := make([]string, len(k))
	for i, c := range k {
		parts[i] = fmt.Sprintf("%d %s", c.N, c.Kind)
	}
	return strings.Join(parts, ", ")
}

// ErrorKind is a failed request's kind of failure in words, for grouping
// ("HTTP 429 Too Many Requests", "stalled", "truncated at step 3"): read
// from its failure, its status and the step a session failed at, never
// from its error's words. A request of a file written before failures
// were typed is of kind "unknown".
func ErrorKind(q *results.Request) string {
	kind := failureWords(q.Failure, q.Status)
	if n := len(q.Steps); n > 0 && q.Steps[n-1].Error != "" {
		kind += fmt.Sprintf(" at step %d", n) // a session fails at its last step
	}
	return kind
}

// failureWords says a kind of failure; an HTTP failure names its status.
func failureWords(f vocab.Failure, status int) string {
	if f == vocab.HTTPStatus && status > 0 {
		return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", status, http.StatusText(status)))
	}
	if w, ok := failureSaid[f]; ok {
		return w
	}
	return string(f)
}

// failureSaid are the words of each kind of failure.
var failureSaid = map[vocab.Failure]string{
	"":               "unknown",
	vocab.HTTPStatus: "HTTP error",
	vocab.Connection: "connection failed",
	vocab.Timeout:    "timeout",
	vocab.Stall:      "stalled",
	vocab.Truncated:  "truncated",
	vocab.Malformed:  "malformed stream",
	vocab.NoOutput:   "no output",
	vocab.Provider:   "error inside the stream",
	vocab.Canceled:   "canceled",
	vocab.MaxSteps:   "max_steps reached without a final answer",
	vocab.Request:    "request not built",
	vocab.EventLimit: "too many events",
	vocab.ToolLimit:  "too many tool calls",
	vocab.Page:       "the page's own error",
}

// Millis formats milliseconds for people ("–" when missing).
func Millis(ms float64) string {
	switch {
	case math.IsNaN(ms):
		return "–"
	case ms >= 10000:
		return fmt.Sprintf("%.1fs", ms/1000)
	case ms >= 10:
		return fmt.Sprintf("%.0f", ms)
	default:
		return fmt.Sprintf("%.1f", ms)
	}
}

// Measurements prints a per-run table of a results file (what `latgate run`
// shows): P50/P95 of TTFT, inter-token, total and perceived, and errors.
func Measurements(w io.Writer, f *results.File) {
	sessions := slices.ContainsFunc(f.Runs, func(r results.Run) bool {
		return slices.ContainsFunc(r.Requests, func(q results.Request) bool { return q.IsSession() })
	})
	cols := []string{"endpoint", "scenario", "ok", "ttft p50", "ttft p95", "itl p50", "total p50", "total p95", "perceived p95"}
	if sessions {
		cols = append(cols, "answer p95", "model calls")
	}
	tw := newTable(append(cols, "errors")...)
	// Names and the errors (words, last) left, the numbers right.
	tw.alignLeft = map[int]bool{0: true, 1: true, len(cols): true}
	runs := append([]results.Run(nil), f.Runs...)
	// Grouped by endpoint, endpoints in the order the file (the config)
	// has them.
	first := map[string]int{}
	for i, r := range runs {
		if _, ok := first[r.Endpoint]; !ok {
			first[r.Endpoint] = i
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return first[runs[i].Endpoint] < first[runs[j].Endpoint] })
	for i := range runs {
		tw.row(measurementRow(&runs[i], sessions)...)
	}
	fmt.Fprintln(w, "latencies in ms")
	tw.write(w)
	for i := range runs {
		if line := ServerMetricsLine(&runs[i]); line != "" {
			fmt.Fprintln(w, line)
		}
	}
	for _, n := range f.Notes {
		fmt.Fprintln(w, "note:", n)
	}
	if f.CostUSD != nil {
		fmt.Fprintf(w, "cost: %s at the suite's pricing\n", money.USD(*f.CostUSD))
	}
	if f.Incomplete != "" {
		fmt.Fprintln(w, "INCOMPLETE:", f.Incomplete)
	}
}

// ServerMetricsLine says what a run's scrapes of its endpoint's metrics
// page found over its requests (a capacity level's run named by its load:
// "chat @ vllm at 8 users"): each histogram's p50 and p95 from the
// buckets, with the bucket the p95 fell in, and the gauges' median and
// max; "" without server metrics.
func ServerMetricsLine(r *results.Run) string {
	m := r.ServerMetrics
	if m == nil || len(m.Stages)+len(m.Gauges)+len(m.GPUs) == 0 && m.Spec == nil {
		return ""
	}
	ms := func(v *float64) string {
		if v == nil {
			return "–"
		}
		return Millis(*v)
	}
	var parts []string
	for _, st := range m.Stages {
		p := fmt.Sprintf("%s %.0f observed", st.Stage, st.Count)
		for _, q := range st.Quantiles {
			switch {
			case q.Q == 0.5:
				p += ", p50 " + ms(q.Ms)
			case q.Q == 0.95 && q.AboveTop:
				p += fmt.Sprintf(", p95 over %s (the top bucket)", ms(q.Ms))
			case q.Q == 0.95:
				p += fmt.Sprintf(", p95 %s (bucket %s–%s)", ms(q.Ms), ms(q.LowerMs), ms(q.UpperMs))
			}
		}
		parts = append(parts, p)
	}
	for _, g := range m.Gauges {
		if isSpecGauge(g.Gauge) {
			continue // said once, as the acceptance (gpuParts)
		}
		parts = append(parts, fmt.Sprintf("%s median %s, max %s", g.Gauge, trimFloat(g.Median), trimFloat(g.Max)))
	}
	parts = append(parts, gpuParts(m)...)
	name := clean(r.Scenario) + " @ " + clean(r.Endpoint)
	if r.Variant != "" {
		name += " (" + string(r.Variant) + ")"
	}
	if r.Level != nil {
		name += " at " + levelLoad(r)
	}
	shared := ""
	if m.Shared {
		shared = ", both variants' requests together"
	}
	return fmt.Sprintf("server metrics, %s (the server's own histograms, quantiles from their buckets%s, ms): %s", name, shared, strings.Join(parts, "; "))
}

// meanOf is the mean of the values that are not NaN (NaN for none).
func meanOf(xs []float64) float64 {
	sum, n := 0.0, 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum, n = sum+x, n+1
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

// measurementRow is a run's line of Measurements; with sessions, its
// answer p95 and mean model calls per session ("–" for a single call).
func measurementRow(r *results.Run, sessions bool) []string {
	b := Describe(r)
	errs := "0"
	if b.N > b.OK {
		errs = fmt.Sprintf("%d (%s)", b.N-b.OK, clean(b.TopError))
	}
	scenario := r.Scenario
	if r.Variant != "" {
		scenario += " (" + string(r.Variant) + ")"
	}
	scenario += levelLabel(r.Level)
	row := []string{clean(r.Endpoint), clean(scenario), fmt.Sprintf("%d/%d", b.OK, b.N),
		Millis(b.TTFT.P50), Millis(b.TTFT.P95), Millis(b.ITL.P50), Millis(b.Total.P50), Millis(b.Total.P95), Millis(b.Perceived.P95)}
	if sessions {
		calls := "–"
		if b.IsSession() {
			calls = fmt.Sprintf("%.1f", meanOf(compare.SampleOf(r).Values[vocab.StepCount]))
		}
		row = append(row, Millis(b.Answer.P95), calls)
	}
	return append(row, errs)
}

// levelLabel is a capacity search's level as a run's label says it: " @
// 8", " @ 2/s", " @ 8 (measurement 2)" for an undecided level measured
// again; "" for a run that is not a level. (Latencies of a rate level are
// the client's, from the actual send.)
func levelLabel(l *results.Level) string {
	if l == nil {
		return ""
	}
	s := fmt.Sprintf(" @ %g", l.Value)
	if l.Vary == vocab.VaryRate {
		s += "/s"
	}
	if l.Round > 1 {
		s += fmt.Sprintf(" (measurement %d)", l.Round)
	}
	return s
}

// levelLoad is a capacity level's load in words, on the server: "8
// users", "1 user", "2 requests/s", "16 users (4 legs)" when a merged run's
// legs drove it together (each leg's Value), and "(measurement 2)" for an
// undecided level measured again.
func levelLoad(r *results.Run) string {
	l := r.Level
	v := l.Value * float64(max(r.Shards, 1))
	s := fmt.Sprintf("%g users", v)
	switch {
	case l.Vary == vocab.VaryRate:
		s = fmt.Sprintf("%g requests/s", v)
	case v == 1:
		s = "1 user"
	}
	if r.Shards > 1 {
		s += fmt.Sprintf(" (%d legs)", r.Shards)
	}
	if l.Round > 1 {
		s += fmt.Sprintf(" (measurement %d)", l.Round)
	}
	return s
}

// table aligns columns for the terminal.
type table struct {
	rows      [][]string
	alignLeft map[int]bool // columns aligned left (default: the first two)
}

func newTable(header ...string) *table { return &table{rows: [][]string{header}} }

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	widths := make([]int, 0)
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			if n := len([]rune(c)); n > widths[i] {
				widths[i] = n
			}
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			pad := widths[i] - len([]rune(c))
			if i > 0 {
				b.WriteString("  ")
			}
			left := i < 2
			if t.alignLeft != nil {
				left = t.alignLeft[i]
			}
			if !left { // numbers right-aligned
				b.WriteString(strings.Repeat(" ", pad) + c)
			} else {
				b.WriteString(c + strings.Repeat(" ", pad))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// Package report renders measurements and verdicts: the latency budget
// table (docs/metrics.md) per (endpoint, scenario), a one-line verdict, the
// provenance of what was compared, an endpoint ranking, as terminal text,
// Markdown (the PR comment and the job summary, bounded to GitHub's
// 65,536 characters), JSON (latgate/verdict/v1), a self-contained HTML page
// with charts drawn as inline SVG, and exports (benchstat's text format,
// Bencher Metric Format JSON, CSV with one row per request, OTLP and
// OpenMetrics); docs/report.md shows each. Each format is one renderer that
// registers itself with its name and whether it draws every request
// (format.go); the badges, notes, values and provenance every format shows
// are built once, plain (badge.go, notes.go, values.go, provenance.go), and
// everything that comes from a config or a server is escaped by each
// renderer for its format. It does no network I/O and makes no decisions:
// the statuses come from package compare.
package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Report is everything the renderers show.
type Report struct {
	Verdict   vocab.Verdict
	Headline  string // plain text; renderers decorate it
	Scenarios []Scenario
	Removed   []string
	// Warnings are what a reader must know to trust the numbers (streams
	// that arrived buffered, a stale baseline, a schedule the client could
	// not keep); Plan the facts of how the run was measured (lanes, where
	// an adaptive scenario stopped, the level its comparison held each
	// scenario to), which the collapsed notes say.
	Warnings  []string
	Plan      []string
	Endpoints []string
	Tested    int
	// Thresholds are the comparison settings in force (for the footer).
	Thresholds compare.Config
	Result     compare.Result
	// Provenance says what was compared; the caller fills it (Build
	// leaves it empty; ProvenanceOf reads it from two results files).
	Provenance Provenance
	// Costs are what each measured (endpoint, scenario) cost at the
	// suite's pricing (both variants of an A/B run); empty without pricing.
	Costs []Cost
	// Capacity are the capacity searches, one per (endpoint, scenario)
	// (the caller fills them: Build leaves them empty); the headline
	// (Headline) says them.
	Capacity []Capacity
	// WithoutRequests is set when the runs were read without their
	// requests (only their digests, BuildDigested): the formats that draw
	// per-request values (Format.EveryRequest) cannot render the report.
	WithoutRequests bool
}

// Cost is one run's cost in USD.
type Cost struct {
	Endpoint, Scenario string
	USD                float64
}

// changed says how a scenario's configuration differs from what it is
// compared with: since the stored baseline, or between the two variants
// of an A/B run (what a pull request that edits the suite does).
func (r *Report) changed() string {
	for _, s := range r.Scenarios {
		return s.changed()
	}
	return "changed since the baseline"
}

func (s Scenario) changed() string {
	if s.BaseRun != nil && s.BaseRun.Variant == vocab.Base {
		return "differs between base and head"
	}
	return "changed since the baseline"
}

// CostUSD is the whole run's cost (NaN without pricing).
func (r *Report) CostUSD() float64 {
	if len(r.Costs) == 0 {
		return math.NaN()
	}
	sum := 0.0
	for _, c := range r.Costs {
		sum += c.USD
	}
	return sum
}

// costLine says what the run cost, most expensive scenarios first.
func (r *Report) costLine(esc func(string) string) string {
	if len(r.Costs) == 0 {
		return ""
	}
	cs := append([]Cost(nil), r.Costs...)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].USD > cs[j].USD })
	var parts []string
	for i, c := range cs {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("%d more", len(cs)-8))
			break
		}
		parts = append(parts, fmt.Sprintf("%s @ %s %s", esc(c.Scenario), esc(c.Endpoint), money.USD(c.USD)))
	}
	return fmt.Sprintf("Cost of this run: %s at the suite's pricing (%s).", money.USD(r.CostUSD()), strings.Join(parts, ", "))
}

// Provenance is the comment's "what was compared" line.
type Provenance struct {
	Mode             string // "gate", "ab", "history" or "compare"; "" = not said
	BaseSHA, HeadSHA string // commits; shown shortened
	BaseRef, HeadRef string
	// BaselineCreated and HeadCreated are when each side was measured; the
	// baseline's age is their difference (zero = unknown).
	BaselineCreated, HeadCreated time.Time
	// HeadStarted is when the head's measurement began (its file's
	// started_at; zero when the file has none: imported, merged, older).
	HeadStarted time.Time
	// HistoryRuns is how many stored runs a history comparison used.
	HistoryRuns    int
	Runner, Region string
	RunURL         string // the CI run that measured the head
	ReportURL      string // the HTML report (an artifact)
	// TrendURL is the run that recorded the baseline when its artifact
	// holds main's trend: its report draws the trend.
	TrendURL string
}

// ProvenanceOf reads the commits, times, runner and region of two results
// files (base may be nil); the caller adds Mode and the URLs.
func ProvenanceOf(base, cur *results.File) Provenance {
	var p Provenance
	if base != nil {
		p.BaseSHA, p.BaseRef, p.BaselineCreated = base.Source.GitSHA, base.Source.GitRef, base.CreatedAt
	}
	if cur != nil {
		p.HeadSHA, p.HeadRef, p.HeadCreated = cur.Source.GitSHA, cur.Source.GitRef, cur.CreatedAt
		p.Runner, p.Region = cur.Source.Runner, cur.Source.Region
		if cur.StartedAt != nil {
			p.HeadStarted = *cur.StartedAt
		}
	}
	return p
}

// minDeltaMs is the absolute threshold in milliseconds.
func (r *Report) minDeltaMs() float64 { return r.Thresholds.MinDelta }

// failOn lists the statuses that fail the gate.
func (r *Report) failOn() []string {
	out := make([]string, len(r.Thresholds.FailOn))
	for i, s := range r.Thresholds.FailOn {
		out[i] = string(s)
	}
	return out
}

// Scenario is one (endpoint, scenario) with its budget table.
type Scenario struct {
	Endpoint, Scenario, Model string
	Status                    vocab.Status // the worst of its checks
	Changed                   []string     // fingerprint changes
	Base, Current             *Breakdown
	Rows                      []Row
	Checks                    []compare.Check
	ConfigLine                int
	// BaseRun and CurrentRun are the measured runs (BaseRun nil without a
	// baseline): the per-request values the exports draw. In a report of
	// runs read without their requests (Report.WithoutRequests) they hold
	// no Requests.
	BaseRun, CurrentRun *results.Run
	// BaseDigest and CurrentDigest are their digests (BaseDigest nil
	// without a baseline): the samples and sessions the HTML report draws.
	BaseDigest, CurrentDigest *Digest
}

// Row is one line of the budget table.
type Row struct {
	Stage            string
	Unit             string // "ms", "ms/event", "ms/token", "%"
	Budget           string
	BaseP50, BaseP95 float64
	CurP50, CurP95   float64
	Change           string
	Status           vocab.Status // "" for descriptive rows
	Notes            []string
	// Metric is the compare metric of the row ("" for descriptive rows);
	// Checks are its checks (p50, p95, p99, mean, or errors/rate).
	Metric vocab.Metric
	Checks []compare.Check
	// Stratum is, of a run drawn from a trace, the stratum of input length
	// the row's checks are confined to (its Stage names the range); 0 for
	// a row of every request.
	Stratum int
	// Unreported: the row names server stages the server does not report
	// (its values are not observed, not 0).
	Unreported bool
	// SameAs names another row with identical values (Perceived = TTFT
	// without a reading-rate lag, Per token = Inter-token with one token
	// per event, a session's Total = Session); renderers may leave such a
	// row out.
	SameAs string
}

// severity orders statuses from worst to best.
var severity = map[vocab.Status]int{
	vocab.Regression: 9, vocab.OverBudget: 8, vocab.Inconclusive: 7,
	vocab.Improvement: 6, vocab.NoBaseline: 5, vocab.NoRegressionShown: 4, vocab.WithinTolerance: 3, vocab.OK: 2, vocab.NotTested: 1,
}

func worse(a, b vocab.Status) vocab.Status {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

var rowMetrics = []struct {
	metric      vocab.Metric
	stage, unit string
}{
	{vocab.TTFT, "TTFT", "ms"},
	{vocab.TTFC, "TTFC (visible)", "ms"},
	{vocab.Client, "Client (render)", "ms"},
	{vocab.ITL, "Inter-token", "ms/event"},
	{vocab.TPOT, "Per token", "ms/token"},
	{vocab.Total, "Total", "ms"},
	{vocab.Perceived, "Perceived", "ms"},
	{vocab.FirstToolCall, "First tool call", "ms"},
	{vocab.Answer, "Answer", "ms"},
	{vocab.Session, "Session", "ms"},
	{vocab.StepCount, "Model calls", "per session"},
	{vocab.ColdTTFT, "Cold TTFT", "ms"},
	{vocab.ColdTotal, "Cold total", "ms"},
	{vocab.Failover, "Failover", "ms"},
}

// Digests maps the runs of a comparison to their digests.
type Digests map[*results.Run]*Digest

// DigestPairs digests the runs of pairs from their requests.
func DigestPairs(pairs []results.Pair) Digests {
	ds := Digests{}
	for _, p := range pairs {
		for _, r := range []*results.Run{p.Base, p.Head} {
			if r != nil && ds[r] == nil {
				ds[r] = DigestOf(r)
			}
		}
	}
	return ds
}

// Of is r's digest (nil for a nil run); a run it does not hold is a
// programming error.
func (ds Digests) Of(r *results.Run) *Digest {
	if r == nil {
		return nil
	}
	d, ok := ds[r]
	if !ok {
		panic(fmt.Sprintf("report: no digest of the run of endpoint %q, scenario %q", r.Endpoint, r.Scenario))
	}
	return d
}

// Sample is r's sample (nil for a nil run).
func (ds Digests) Sample(r *results.Run) *compare.Sample {
	if d := ds.Of(r); d != nil {
		return d.Sample
	}
	return nil
}

// Pairs is the comparison's input: the samples of pairs.
func (ds Digests) Pairs(pairs []results.Pair) []compare.Pair {
	out := make([]compare.Pair, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, compare.Pair{Endpoint: p.Endpoint, Scenario: p.Scenario, Base: ds.Sample(p.Base), Head: ds.Sample(p.Head)})
	}
	return out
}

// Build assembles a report from matched runs and their comparison.
func Build(pairs []results.Pair, res compare.Result, th compare.Config) *Report {
	return BuildDigested(pairs, DigestPairs(pairs), res, th)
}

// BuildDigested is Build from the runs' digests (ds holds every run of
// pairs), so that the runs need not hold their requests.
func BuildDigested(pairs []results.Pair, ds Digests, res compare.Result, th compare.Config) *Report {
	r := &Report{Verdict: res.Verdict, Warnings: warnings(res), Plan: designPlan(res), Tested: res.Tested, Thresholds: th, Result: res}
	byKey := map[string][]compare.Check{}
	for _, c := range res.Checks {
		k := c.Endpoint + "\x00" + c.Scenario
		byKey[k] = append(byKey[k], c)
	}
	eps := map[string]bool{}
	for _, p := range pairs {
		usd, priced := 0.0, false
		if p.Head != nil && p.Head.CostUSD != nil {
			usd, priced = *p.Head.CostUSD, true
		}
		// A base run counts when it was measured in this job (A/B).
		if p.Base != nil && p.Base != p.Head && p.Base.Variant == vocab.Base && p.Base.CostUSD != nil {
			usd, priced = usd+*p.Base.CostUSD, true
		}
		if priced {
			r.Costs = append(r.Costs, Cost{Endpoint: p.Endpoint, Scenario: p.Scenario, USD: usd})
		}
		if p.Head == nil {
			r.Removed = append(r.Removed, p.Scenario+" @ "+p.Endpoint)
			continue
		}
		if !eps[p.Endpoint] {
			eps[p.Endpoint] = true
			r.Endpoints = append(r.Endpoints, p.Endpoint)
		}
		s := Scenario{Endpoint: p.Endpoint, Scenario: p.Scenario, Model: p.Head.Model, Changed: results.Changed(p),
			Checks: byKey[p.Endpoint+"\x00"+p.Scenario], ConfigLine: p.Head.ConfigLine, Status: vocab.OK,
			BaseRun: p.Base, CurrentRun: p.Head}
		s.CurrentDigest = ds.Of(p.Head)
		cur := s.CurrentDigest.Breakdown
		s.Current = &cur
		if p.Base != nil {
			s.BaseDigest = ds.Of(p.Base)
			b := s.BaseDigest.Breakdown
			s.Base = &b
		}
		for _, c := range s.Checks {
			s.Status = worse(s.Status, c.Status)
		}
		s.Rows = rows(s, th)
		r.Scenarios = append(r.Scenarios, s)
	}
	r.Headline = headline(r, func(s string) string { return s })
	return r
}

func stageOf(b *Breakdown, f func(*Breakdown) Stage) (float64, float64) {
	if b == nil {
		return math.NaN(), math.NaN()
	}
	s := f(b)
	return s.P50, s.P95
}

// rows builds a scenario's budget table: one function per kind of row.
func rows(s Scenario, th compare.Config) []Row {
	strata := stratumChecks(s.Checks)
	s.Checks = slices.DeleteFunc(slices.Clone(s.Checks), func(c compare.Check) bool { return c.Stratum != 0 })
	out := append(transportRows(s), serverRows(s, th)...)
	for _, m := range rowMetrics {
		if row, ok := latencyRow(s, m.metric, m.stage, m.unit, th); ok {
			out = append(out, row)
		}
	}
	out = append(out, errorRow(s, th))
	out = append(out, goodputRows(s, th)...)
	markSame(out, "Perceived", "TTFT")
	markSame(out, "Per token", "Inter-token")
	markSame(out, "Perceived", "TTFC (visible)") // a reasoning model's, or a conversation's first answer
	// A session's generic rows repeat its own when its first output is a
	// tool call, its first text the answer and its end the session's:
	// its own names say what an agent's user waits for.
	markSame(out, "Perceived", "Answer")
	markSame(out, "TTFT", "First tool call")
	markSame(out, "TTFC (visible)", "Answer")
	markSame(out, "Total", "Session")
	if row, ok := cacheRow(s, th); ok {
		out = append(out, row)
	}
	if row, ok := serverCacheRow(s); ok {
		out = append(out, row)
	}
	out = append(out, gpuRows(s)...)
	return withStratumRows(out, s, strata, th)
}

// stratumChecks are a scenario's checks confined to a stratum of input
// length (a workload's), grouped by metric and stratum, in order.
func stratumChecks(checks []compare.Check) [][]compare.Check {
	var out [][]compare.Check
	for _, c := range checks {
		if c.Stratum == 0 {
			continue
		}
		i := slices.IndexFunc(out, func(g []compare.Check) bool { return g[0].Metric == c.Metric && g[0].Stratum == c.Stratum })
		if i < 0 {
			out = append(out, nil)
			i = len(out) - 1
		}
		out[i] = append(out[i], c)
	}
	slices.SortStableFunc(out, func(a, b []compare.Check) int { return cmp.Compare(a[0].Stratum, b[0].Stratum) })
	return out
}

// withStratumRows puts a row for each metric and stratum (TTFT · input
// 313–1,024) after its metric's row of every request, in the order of the
// strata; a metric without such a row has them at the end.
func withStratumRows(out []Row, s Scenario, strata [][]compare.Check, th compare.Config) []Row {
	for _, g := range strata {
		m := g[0].Metric
		stage, unit := metricName(m), "ms"
		for _, rm := range rowMetrics {
			if rm.metric == m {
				stage, unit = rm.stage, rm.unit
			}
		}
		one := s
		one.Checks = g
		row, ok := latencyRow(one, m, stage+" · input "+s.stratumRange(g[0].Stratum), unit, th)
		if !ok {
			continue // TTFC the same as TTFT: its stratum's row would repeat TTFT's
		}
		row.Stratum = g[0].Stratum
		at := len(out)
		for i := range out {
			if out[i].Metric == m && (out[i].Stratum == 0 || out[i].Stratum < row.Stratum) {
				at = i + 1
			}
		}
		out = slices.Insert(out, at, row)
	}
	return out
}

// emptyRow is a row of the given stage with no value yet.
func emptyRow(stage, unit string, m vocab.Metric) Row {
	return Row{Stage: stage, Unit: unit, Metric: m, BaseP50: math.NaN(), BaseP95: math.NaN(), CurP50: math.NaN(), CurP95: math.NaN()}
}

// transportRows are the descriptive rows of the connection: Network and
// Server wait (for a page in a browser, the server to the first text of
// its stream on the wire).
func transportRows(s Scenario) []Row {
	desc := func(name string, f func(*Breakdown) Stage) Row {
		row := Row{Stage: name, Unit: "ms"}
		row.BaseP50, row.BaseP95 = stageOf(s.Base, f)
		row.CurP50, row.CurP95 = stageOf(s.Current, f)
		return row
	}
	// Another tool's results (latgate import) record no connection set-up
	// and no first byte: no network or server-wait row.
	if s.CurrentRun != nil && s.CurrentRun.Imported != nil {
		return nil
	}
	net := desc("Network", func(b *Breakdown) Stage { return b.Network })
	if s.Current != nil {
		net.Notes = append(net.Notes, fmt.Sprintf("%d of %d requests opened a new connection", s.Current.ColdConns, s.Current.N))
	}
	server := "Server wait"
	if s.Current != nil && s.Current.Page {
		server = "Server (to first text)" // a page's stream: its first text on the wire
	}
	return []Row{net, desc(server, func(b *Breakdown) Stage { return b.ServerWait })}
}

// serverStages are the server's own stages in the budget table: the
// guide's queue, prefill (the TTFT on the server) and outside (the TTFT
// outside the engine), then the decode.
var serverStages = []struct {
	metric vocab.Metric
	stage  string
}{{vocab.Queue, "Queue"}, {vocab.Prefill, "Prefill"}, {vocab.Outside, "Outside"}, {vocab.Decode, "Decode"}}

// NotReported is what a row of a server stage says when the server does
// not report it: latgate never invents it.
const NotReported = "not reported by this server"

// serverRows are the rows of the server's stages that a side reports
// (compared and budgeted as every latency), and one row naming the
// guide's stages it does not report. Another tool's results (latgate
// import) have none.
func serverRows(s Scenario, th compare.Config) []Row {
	if s.CurrentRun != nil && s.CurrentRun.Imported != nil {
		return nil
	}
	var out []Row
	var missing []string
	for _, st := range serverStages {
		if row, ok := latencyRow(s, st.metric, st.stage, "ms", th); ok {
			out = append(out, row)
		} else if st.metric != vocab.Decode {
			missing = append(missing, strings.ToLower(st.stage))
		}
	}
	if len(missing) > 0 {
		row := emptyRow(strings.ToUpper(missing[0][:1])+strings.Join(missing, ", ")[1:], "ms", "")
		row.Notes, row.Unreported = []string{NotReported}, true
		out = append(out, row)
	}
	return out
}

// StageShift says, when a TTFT check fails (a regression, or over its
// budget) and the server reports its split of the TTFT, how each of its
// stages moved at the failing statistic, the one that moved most first:
// "queue +180 ms, prefill +4 ms, outside -1.0 ms". "" otherwise.
func (s Scenario) StageShift() string {
	st, failed := vocab.Stat(""), false
	for _, c := range s.Checks {
		if c.Metric == vocab.TTFT && c.Stratum == 0 && (c.Status == vocab.Regression || c.Status == vocab.OverBudget) && (!failed || c.Status == vocab.Regression) {
			st, failed = c.Stat, true
		}
	}
	if !failed {
		return ""
	}
	type shift struct {
		name string
		ms   float64
	}
	var shifts []shift
	for _, ss := range serverStages[:3] {
		row := s.row(ss.stage)
		if row == nil {
			continue
		}
		base, cur := row.BaseP50, row.CurP50
		if st != vocab.P50 {
			base, cur = row.BaseP95, row.CurP95
		}
		if !math.IsNaN(base) && !math.IsNaN(cur) {
			shifts = append(shifts, shift{strings.ToLower(ss.stage), cur - base})
		}
	}
	sort.SliceStable(shifts, func(i, j int) bool { return math.Abs(shifts[i].ms) > math.Abs(shifts[j].ms) })
	parts := make([]string, len(shifts))
	for i, x := range shifts {
		parts[i] = x.name + " " + signedMs(x.ms)
	}
	return strings.Join(parts, ", ")
}

// signedMs is a change in milliseconds for people: "+180 ms", "-1.5 ms".
func signedMs(ms float64) string {
	if math.Abs(ms) >= 10 {
		return fmt.Sprintf("%+.0f ms", ms)
	}
	return fmt.Sprintf("%+.1f ms", ms)
}

// checkNotes adds a check's notes to a row: its reason (unless the suite's
// notes say it once for all rows) and a budget breach.
func checkNotes(row *Row, c compare.Check, th compare.Config, prefix string) {
	if n := note(c, th); n != "" && !summarized(c.Reason) {
		row.Notes = append(row.Notes, prefix+n)
	}
}

// latencyRow is the row of one latency metric; ok is false when the
// scenario has no check of it, or when it repeats another (TTFC = TTFT
// without reasoning).
func latencyRow(s Scenario, m vocab.Metric, stage, unit string, th compare.Config) (Row, bool) {
	row := emptyRow(stage, unit, m)
	var parts, budgets []string
	for _, c := range s.Checks {
		if c.Metric != m {
			continue
		}
		row.Checks = append(row.Checks, c)
		switch c.Stat {
		case vocab.P50:
			row.BaseP50, row.CurP50 = c.Baseline, c.Current
		case vocab.P95:
			row.BaseP95, row.CurP95 = c.Baseline, c.Current
		}
		if !math.IsNaN(c.Budget) {
			budgets = append(budgets, fmt.Sprintf("%s ≤ %s", c.Stat, Millis(c.Budget)))
		}
		if !math.IsNaN(c.DeltaPct) && c.Stat != vocab.P99 {
			p := fmt.Sprintf("%s %s", c.Stat, signedPct(c.DeltaPct))
			if !math.IsNaN(c.CIPct[0]) {
				p += fmt.Sprintf(" [%s, %s]", signedPct(c.CIPct[0]), signedPct(c.CIPct[1]))
			}
			parts = append(parts, p)
		}
		row.Status = worse(row.Status, rowStatus(c))
		checkNotes(&row, c, th, string(c.Stat)+": ")
		if c.Status == vocab.OverBudget {
			row.Notes = append(row.Notes, fmt.Sprintf("%s: %s", c.Stat, overBudgetWords(c, func(v float64) string { return Millis(v) + " ms" })))
		}
		if c.BudgetUntested() {
			row.Notes = append(row.Notes, fmt.Sprintf("%s: its budget of %s ms is not tested: %s", c.Stat, Millis(c.Budget), budgetShort(c)))
		}
	}
	if len(row.Checks) == 0 {
		return row, false
	}
	if m == vocab.TTFC && s.Current != nil && sameValue(s.Current.TTFC.P50, s.Current.TTFT.P50) && sameValue(s.Current.TTFC.P95, s.Current.TTFT.P95) {
		return row, false // same as TTFT: not a reasoning model
	}
	row.Budget = strings.Join(budgets, ", ")
	row.Change = strings.Join(parts, " · ")
	return row, true
}

// rowStatus is how a check shows in its cell and its row: its status (a
// row is "not tested" only when none of its checks was: statusParts).
func rowStatus(c compare.Check) vocab.Status {
	return c.Status
}

// errorRow is the error rate: its check, and the failures by kind.
func errorRow(s Scenario, th compare.Config) Row {
	er := emptyRow("Errors", "%", vocab.Errors)
	for _, c := range s.Checks {
		if c.Metric != vocab.Errors {
			continue
		}
		er.Checks = append(er.Checks, c)
		er.BaseP50, er.CurP50 = c.Baseline, c.Current
		er.Status = rowStatus(c)
		if !math.IsNaN(c.Budget) {
			er.Budget = fmt.Sprintf("≤ %s%%", trimFloat(100*c.Budget))
		}
		if !math.IsNaN(c.PValue) && c.Current != c.Baseline {
			er.Change = fmt.Sprintf("%+.1f pts", 100*(c.Current-c.Baseline))
		}
		checkNotes(&er, c, th, "")
	}
	if s.Current != nil && s.Current.TopErrorN > 0 {
		er.Notes = append(er.Notes, fmt.Sprintf("%d of %d failed: %s", s.Current.N-s.Current.OK, s.Current.N, KindList(s.Current.ErrorKinds)))
	}
	return er
}

// goodputRows is the share of requests meeting the SLO (a floor as
// budget), when the suite sets one.
func goodputRows(s Scenario, th compare.Config) []Row {
	var out []Row
	for _, c := range s.Checks {
		if c.Metric != vocab.Goodput {
			continue
		}
		gr := emptyRow("Goodput", "%", vocab.Goodput)
		gr.BaseP50, gr.CurP50, gr.Status, gr.Checks = c.Baseline, c.Current, rowStatus(c), []compare.Check{c}
		if !math.IsNaN(c.Budget) {
			gr.Budget = fmt.Sprintf("≥ %s%%", trimFloat(100*c.Budget))
		}
		if !math.IsNaN(c.Baseline) && c.Current != c.Baseline {
			gr.Change = fmt.Sprintf("%+.1f pts", 100*(c.Current-c.Baseline))
		}
		gr.Notes = append(gr.Notes, "share of requests that succeeded and met every goodput objective")
		checkNotes(&gr, c, th, "")
		out = append(out, gr)
	}
	return out
}

// cacheRow is the prompt-cache hit rate, when the server reports prompt
// tokens on either side (with its floor check, when the suite sets one).
func cacheRow(s Scenario, th compare.Config) (Row, bool) {
	if !(s.Current != nil && !math.IsNaN(s.Current.CacheShare) || s.Base != nil && !math.IsNaN(s.Base.CacheShare)) {
		return Row{}, false
	}
	cr := emptyRow("Cache (usage)", "%", "")
	if s.Base != nil {
		cr.BaseP50 = s.Base.CacheShare
	}
	if s.Current != nil {
		cr.CurP50 = s.Current.CacheShare
	}
	cr.Notes = append(cr.Notes, "share of prompt tokens served from the server's cache, from usage (cached_tokens of prompt_tokens, the successful requests')")
	for _, c := range s.Checks {
		if c.Metric == vocab.CacheHitRate {
			cr.Metric, cr.Status, cr.Checks = c.Metric, rowStatus(c), []compare.Check{c}
			cr.Budget = fmt.Sprintf("≥ %s%%", trimFloat(100*c.Budget))
			checkNotes(&cr, c, th, "")
		}
	}
	return cr, true
}

// sameValue is equality with NaN equal to NaN (both missing).
func sameValue(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// nearlySame is sameValue up to floating-point rounding: per-token time
// and the inter-token gap of one token per event are the same time,
// computed in another order (12.018110826231496 and 12.01811082623149).
func nearlySame(a, b float64) bool {
	return sameValue(a, b) || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// markSame sets SameAs on row a when its checks equal row b's.
func markSame(rows []Row, a, b string) {
	var ra *Row
	var rb *Row
	for i := range rows {
		switch rows[i].Stage {
		case a:
			ra = &rows[i]
		case b:
			rb = &rows[i]
		}
	}
	if ra == nil || rb == nil || len(ra.Checks) != len(rb.Checks) || len(ra.Checks) == 0 {
		return
	}
	// Equal as a reader sees them: the same values and change as shown
	// (per token and inter-token differ in the fourth digit when every
	// event carries one token).
	eq := func(x, y float64) bool { return nearlySame(x, y) || Millis(x) == Millis(y) }
	pct := func(x, y float64) bool {
		return sameValue(x, y) || !math.IsNaN(x) && !math.IsNaN(y) && signedPct(x) == signedPct(y)
	}
	for i := range ra.Checks {
		x, y := ra.Checks[i], rb.Checks[i]
		// Hidden only when no worse than the row it repeats, and
		// without a budget of its own (its breach would vanish).
		if x.Stat != y.Stat || !eq(x.Baseline, y.Baseline) || !eq(x.Current, y.Current) || !pct(x.DeltaPct, y.DeltaPct) || hideRank(x) > hideRank(y) || !math.IsNaN(x.Budget) && !sameValue(x.Budget, y.Budget) {
			return
		}
	}
	ra.SameAs = b
}

// Silent reports whether a row says nothing a table should show: the
// same values as another row, 0 on both sides, or server stages the
// server does not report. The "Left out:" line names it (leftOut).
func (row Row) Silent() bool { return row.SameAs != "" || row.Zero() || row.Unreported }

// Zero reports whether a descriptive row shows 0.0 (or missing) on both sides,
// like Network on warm connections.
func (row Row) Zero() bool {
	for _, v := range []float64{row.BaseP50, row.BaseP95, row.CurP50, row.CurP95} {
		if !math.IsNaN(v) && Millis(v) != "0.0" {
			return false
		}
	}
	return row.Metric == "" && !row.Unreported
}

func signedPct(p float64) string {
	if math.Abs(p) >= 10 {
		return fmt.Sprintf("%+.0f%%", p)
	}
	return fmt.Sprintf("%+.1f%%", p)
}

func trimFloat(f float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

// Count returns how many scenarios show status st among their badges (what
// each scenario's line says: for Inconclusive, a tested change for the
// worse of a metric that did not regress).
func (r *Report) Count(st vocab.Status) int {
	n := 0
	for _, s := range r.Scenarios {
		if slices.ContainsFunc(s.Badges(), func(f Badge) bool { return f.Status == st }) {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func metricName(m vocab.Metric) string {
	switch m {
	case vocab.TTFT, vocab.TTFC, vocab.ITL, vocab.TPOT:
		return strings.ToUpper(string(m))
	case vocab.ColdTTFT:
		return "cold TTFT"
	case vocab.ColdTotal:
		return "cold total"
	case vocab.Errors:
		return "error rate"
	case vocab.CacheHitRate:
		return "cache hit rate"
	case vocab.FirstToolCall:
		return "first tool call"
	case vocab.StepCount:
		return "model calls"
	}
	return string(m)
}

// Ranking orders endpoints by their median (over scenarios) current TTFT p95.
type Ranking struct {
	Endpoint string
	TTFTP95  map[string]float64 // per scenario
	Median   float64
}

// Rank ranks endpoints, when there are several.
func (r *Report) Rank() []Ranking {
	if len(r.Endpoints) < 2 {
		return nil
	}
	var out []Ranking
	of := map[string][]*Scenario{} // each endpoint's scenarios, in order: one pass, not one per endpoint
	for i := range r.Scenarios {
		if s := &r.Scenarios[i]; s.Current != nil {
			of[s.Endpoint] = append(of[s.Endpoint], s)
		}
	}
	for _, e := range r.Endpoints {
		rk := Ranking{Endpoint: e, TTFTP95: map[string]float64{}}
		var vals []float64
		for _, s := range of[e] {
			rk.TTFTP95[s.Scenario] = s.Current.TTFT.P95
			vals = append(vals, s.Current.TTFT.P95)
		}
		rk.Median = compare.Quantile(compare.Sorted(vals), 0.5)
		out = append(out, rk)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Median < out[j].Median })
	return out
}

// ScenarioNames lists distinct scenario names in order.
func (r *Report) ScenarioNames() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.Scenarios {
		if !seen[s.Scenario] {
			seen[s.Scenario] = true
			out = append(out, s.Scenario)
		}
	}
	return out
}

// summaryCol is one value column of a summary table (the comment's and
// the HTML report's): its heading, and the row and statistic of each
// scenario it shows.
type summaryCol struct {
	head, stage string
	stat        vocab.Stat
}

// maxExtraCols bounds the columns a summary adds for failing rows of its
// own (inter-token, a session's steps, a server stage): the status column
// names the rest.
const maxExtraCols = 2

// summaryCols are the value columns of r's summary tables: TTFT p95,
// Perceived p95 (when it differs from TTFT somewhere), Total p50 (and
// Answer p95 for sessions), Errors, and a column for each other row whose
// check fails or warns somewhere (at most maxExtraCols, the worst first),
// showing its worst statistic. A cell shows its column's statistic and
// every other failing or warning one of its row (extraStats): the failing
// number is always in the summary.
func summaryCols(r *Report) []summaryCol {
	perceived, sessions := summaryColumns(r)
	cols := []summaryCol{{"TTFT p95", "TTFT", vocab.P95}}
	if perceived {
		cols = append(cols, summaryCol{"Perceived p95", "Perceived", vocab.P95})
	}
	if sessions {
		cols = append(cols, summaryCol{"Total p50", "Total", vocab.P50}, summaryCol{"Answer p95", "Answer", vocab.P95})
	} else {
		cols = append(cols, summaryCol{"Total p50", "Total", vocab.P50})
	}
	return append(append(cols, extraCols(r, cols)...), summaryCol{"Errors", "Errors", "rate"})
}

// extraCols are the columns for failing rows the default columns do not
// show, the farthest beyond its tolerance or budget first. A row a
// default column's row repeats is shown by that column (a session's
// Session is its Total): a column of its own would repeat it.
func extraCols(r *Report, cols []summaryCol) []summaryCol {
	shown := map[string]bool{"Errors": true}
	for _, c := range cols {
		shown[c.stage] = true
	}
	best := map[string]compare.Check{}
	var stages []string
	for _, s := range r.Scenarios {
		twin := map[string]bool{}
		for _, row := range s.Rows {
			if shown[row.Stage] && row.SameAs != "" {
				twin[row.SameAs] = true
			}
		}
		for _, row := range s.Rows {
			if shown[row.Stage] || twin[row.Stage] || row.SameAs != "" || row.Metric == "" {
				continue
			}
			for _, c := range row.Checks {
				if !flagsSummary(c) {
					continue
				}
				b, ok := best[row.Stage]
				if !ok {
					stages = append(stages, row.Stage)
				}
				if !ok || beyond(c, r.Thresholds) > beyond(b, r.Thresholds) {
					best[row.Stage] = c
				}
			}
		}
	}
	slices.SortStableFunc(stages, func(a, b string) int {
		return cmp.Compare(beyond(best[b], r.Thresholds), beyond(best[a], r.Thresholds))
	})
	var out []summaryCol
	for _, st := range stages[:min(len(stages), maxExtraCols)] {
		c := best[st]
		head := st + " " + string(c.Stat)
		if before, after, ok := strings.Cut(st, " · "); ok {
			head = before + " " + string(c.Stat) + " · " + after // a stratum's row: TTFT p50 · input ≤ 312
		}
		if c.Metric.IsRate() {
			head = st
		}
		out = append(out, summaryCol{head, st, c.Stat})
	}
	return out
}

// flagsSummary reports whether a check's number belongs in the summary:
// it fails (a regression, a budget) or warns (inconclusive).
func flagsSummary(c compare.Check) bool {
	return c.Status == vocab.Regression || c.Status == vocab.OverBudget || c.Status == vocab.Inconclusive || c.Regressed
}

// extraStats are the statistics of row, other than stat, whose checks fail
// or warn: a summary cell shows them below its own.
func extraStats(row *Row, stat vocab.Stat) []vocab.Stat {
	if row == nil {
		return nil
	}
	var out []vocab.Stat
	for _, c := range row.Checks {
		if c.Stat != stat && flagsSummary(c) {
			out = append(out, c.Stat)
		}
	}
	return out
}

// summaryColumns says which optional columns a summary table has (the
// Markdown and the HTML summary alike): Perceived p95 when it differs from
// TTFT in some scenario, Answer p95 (and the total named the session's)
// when a scenario is a session.
func summaryColumns(r *Report) (perceived, sessions bool) {
	for _, s := range r.Scenarios {
		if row, ttft := s.row("Perceived"), s.row("TTFT"); row != nil && row.SameAs == "" && !sameP95(row, ttft) {
			perceived = true
		}
		sessions = sessions || s.Current.IsSession()
	}
	return perceived, sessions
}

// sameP95 reports whether two rows' P95 cells read the same (both sides
// as shown, the same status and budget): a Perceived column that repeats
// TTFT's says nothing.
func sameP95(a, b *Row) bool {
	if a == nil || b == nil || Millis(a.BaseP95) != Millis(b.BaseP95) || Millis(a.CurP95) != Millis(b.CurP95) {
		return false
	}
	x, okx := findCheck(a.Checks, vocab.P95)
	y, oky := findCheck(b.Checks, vocab.P95)
	return okx == oky && x.Status == y.Status && sameValue(x.Budget, y.Budget)
}

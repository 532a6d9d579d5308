package report

import (
	"fmt"
	"io"
	"math"
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
	N, OK       int
	Network     Stage
	ServerWait  Stage
	TTFT        Stage
	TTFC        Stage
	ITL         Stage // per-request mean gap between output events
	TPOT        Stage
	Total       Stage
	Perceived   Stage
	ErrorRate   float64
	TopError    string
	TopErrorN   int
	ErrorKinds  []KindCount // failures by kind, most frequent first
	CacheShare  float64     // cached / prompt tokens; NaN when not reported
	ColdConns   int         // requests on a new connection
	TokensUsage bool        // output tokens came from usage
	// Sessions (scenarios with tools or turns): the answer, the session and
	// the tool time of the successful sessions, and each step by position.
	Answer, Session, ToolTime Stage
	Steps                     []StepBreakdown
}

// StepBreakdown is the n-th step of a run's successful sessions (the
// sessions that had it).
type StepBreakdown struct {
	N                                    int // sessions with this step
	TTFT, FirstToolCall, ToolCall, Total Stage
	ToolTime                             Stage // the tool time after the step
}

// IsSession reports whether the run's requests were sessions.
func (b *Breakdown) IsSession() bool { return b != nil && len(b.Steps) > 0 }

// Describe computes the breakdown of a run.
func Describe(r *results.Run) Breakdown {
	b := Breakdown{N: len(r.Requests), CacheShare: math.NaN()}
	var network, wait []float64
	errs := map[string]int{}
	prompt, cached := 0, 0
	usage := 0
	for _, q := range r.Requests {
		if !q.Reused {
			b.ColdConns++
		}
		if !q.OK {
			errs[ErrorKind(q.Error)]++
			continue
		}
		b.OK++
		net := q.DNSMs + q.ConnectMs + q.TLSMs + q.UpgradeMs
		network = append(network, net)
		if q.TTFBMs != nil {
			wait = append(wait, *q.TTFBMs-net)
		}
		prompt += q.PromptTokens
		cached += q.CachedTokens
		if q.TokensSource == "usage" {
			usage++
		}
	}
	v := compare.SampleOf(r).Values
	stage := func(name string, xs []float64) Stage {
		s := compare.Sorted(xs)
		return Stage{Name: name, P50: compare.Quantile(s, 0.5), P95: compare.Quantile(s, 0.95)}
	}
	b.Network = stage("Network", network)
	b.ServerWait = stage("Server wait", wait)
	b.TTFT = stage("TTFT", v[vocab.TTFT])
	b.TTFC = stage("TTFC", v[vocab.TTFC])
	b.ITL = stage("Inter-token", v[vocab.ITL])
	b.TPOT = stage("Per token", v[vocab.TPOT])
	b.Total = stage("Total", v[vocab.Total])
	b.Perceived = stage("Perceived", v[vocab.Perceived])
	b.Answer = stage("Answer", v[vocab.Answer])
	b.Session = stage("Session", v[vocab.Session])
	b.ToolTime, b.Steps = steps(r)
	if b.N > 0 {
		b.ErrorRate = float64(b.N-b.OK) / float64(b.N)
	}
	for e, n := range errs {
		b.ErrorKinds = append(b.ErrorKinds, KindCount{Kind: e, N: n})
	}
	sortKinds(b.ErrorKinds)
	if len(b.ErrorKinds) > 0 {
		b.TopError, b.TopErrorN = b.ErrorKinds[0].Kind, b.ErrorKinds[0].N
	}
	if cached > 0 && prompt > 0 {
		b.CacheShare = float64(cached) / float64(prompt)
	}
	b.TokensUsage = usage == b.OK && b.OK > 0
	return b
}

// steps describes the steps of a run's successful sessions by position,
// and their tool time.
func steps(r *results.Run) (Stage, []StepBreakdown) {
	type cols struct{ ttft, first, call, total, tool []float64 }
	var by []cols
	var toolTime []float64
	add := func(xs *[]float64, v *float64) {
		if v != nil {
			*xs = append(*xs, *v)
		}
	}
	for _, q := range r.Requests {
		if !q.OK || !q.IsSession() {
			continue
		}
		add(&toolTime, q.ToolMs)
		for i, st := range q.Steps {
			if i == len(by) {
				by = append(by, cols{})
			}
			c := &by[i]
			add(&c.ttft, st.TTFTMs)
			add(&c.first, st.FirstToolCallMs)
			add(&c.call, st.ToolCallMs)
			add(&c.total, st.TotalMs)
			if i < len(q.Steps)-1 {
				c.tool = append(c.tool, st.ToolMs)
			}
		}
	}
	stage := func(name string, xs []float64) Stage {
		s := compare.Sorted(xs)
		return Stage{Name: name, P50: compare.Quantile(s, 0.5), P95: compare.Quantile(s, 0.95)}
	}
	out := make([]StepBreakdown, len(by))
	for i, c := range by {
		out[i] = StepBreakdown{N: len(c.total), TTFT: stage("TTFT", c.ttft), FirstToolCall: stage("First tool call", c.first),
			ToolCall: stage("Tool call", c.call), Total: stage("Total", c.total), ToolTime: stage("Tool time", c.tool)}
	}
	return stage("Tool time", toolTime), out
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

// ErrorKind shortens an error message to its kind for grouping
// ("HTTP 429 Too Many Requests", "stalled", "truncated").
func ErrorKind(msg string) string {
	if kind, _, ok := strings.Cut(msg, ":"); ok && kind != "" {
		return kind
	}
	return msg
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
	tw := newTable("endpoint", "scenario", "ok", "ttft p50", "ttft p95", "itl p50", "total p50", "total p95", "perceived p95", "errors")
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
		b := Describe(&runs[i])
		errs := "0"
		if b.N > b.OK {
			errs = fmt.Sprintf("%d (%s)", b.N-b.OK, clean(b.TopError))
		}
		scenario := runs[i].Scenario
		if runs[i].Variant != "" {
			scenario += " (" + string(runs[i].Variant) + ")"
		}
		tw.row(clean(runs[i].Endpoint), clean(scenario), fmt.Sprintf("%d/%d", b.OK, b.N),
			Millis(b.TTFT.P50), Millis(b.TTFT.P95), Millis(b.ITL.P50), Millis(b.Total.P50), Millis(b.Total.P95), Millis(b.Perceived.P95), errs)
	}
	fmt.Fprintln(w, "latencies in ms")
	tw.write(w)
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

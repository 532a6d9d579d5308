package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
)

// A run drawn from a trace (results.Run.Workload): what its requests show
// besides their latency. The digest keeps, one request at a time, the
// token count's error of each successful request that reports its prompt
// tokens, the lag of its sends, each stratum's TTFTs and, for the HTML
// report's scatter of TTFT against input length, at most MaxTracePoints
// requests, thinned deterministically.

// MaxTracePoints bounds the requests a run's scatter keeps.
const MaxTracePoints = 2000

// TokenErrNote is the p95 of the token count's error (a fraction) beyond
// which the report says that the prompts' length was not the trace's.
const TokenErrNote = 0.05

// TracePoint is one successful request of a run drawn from a trace: the
// trace's input length and the TTFT it measured.
type TracePoint struct {
	Input   int
	TTFTMs  float64
	Stratum int
}

// TraceDigest is a run's requests against its trace: the token count's
// error (|prompt_tokens − trace.input_tokens| / trace.input_tokens over
// the successful requests that report prompt_tokens: its count, median,
// p95, and the median of the signed error, which says longer or
// shorter), the p95 of the sends' lag behind the replay's schedule (NaN
// without any), each stratum's TTFT median (index k−1 for stratum k, NaN
// for none) and the scatter's points.
type TraceDigest struct {
	TokenErrN                int
	TokenErrP50, TokenErrP95 float64
	TokenErrSigned           float64
	LagP95                   float64
	StratumTTFT              []float64
	Points                   []TracePoint
	PointsOf, PointsEvery    int // requests the points were drawn from, and the stride kept
}

// traceDigester gathers a TraceDigest one request at a time.
type traceDigester struct {
	errs, signed, lags []float64
	strata             map[int][]float64
	points             []TracePoint
	seen, every        int
}

// add adds a request that replayed a trace entry.
func (t *traceDigester) add(q *results.Request) {
	if q.LagMs != nil {
		t.lags = append(t.lags, *q.LagMs)
	}
	if !q.OK || q.Trace == nil {
		return
	}
	if q.PromptTokens > 0 && q.Trace.Input > 0 {
		e := float64(q.PromptTokens-q.Trace.Input) / float64(q.Trace.Input)
		t.errs, t.signed = append(t.errs, math.Abs(e)), append(t.signed, e)
	}
	if q.TTFTMs == nil {
		return
	}
	if t.strata == nil {
		t.strata = map[int][]float64{}
	}
	t.strata[q.Trace.Stratum] = append(t.strata[q.Trace.Stratum], *q.TTFTMs)
	t.point(TracePoint{Input: q.Trace.Input, TTFTMs: *q.TTFTMs, Stratum: q.Trace.Stratum})
}

// point keeps every every-th request: when the points would pass
// 2×MaxTracePoints the stride doubles and every other point goes, so the
// points are at most that many, spread over the run, the same for the
// same requests.
func (t *traceDigester) point(p TracePoint) {
	if t.every == 0 {
		t.every = 1
	}
	t.seen++
	if (t.seen-1)%t.every != 0 {
		return
	}
	t.points = append(t.points, p)
	if len(t.points) > MaxTracePoints {
		kept := t.points[:0]
		for i, x := range t.points {
			if i%2 == 0 {
				kept = append(kept, x)
			}
		}
		t.points, t.every = kept, 2*t.every
	}
}

// digest is the requests' TraceDigest; strata is the workload's number of
// strata.
func (t *traceDigester) digest(strata int) *TraceDigest {
	errs, lags := compare.Sorted(t.errs), compare.Sorted(t.lags)
	d := &TraceDigest{TokenErrN: len(errs), TokenErrP50: compare.Quantile(errs, 0.5), TokenErrP95: compare.Quantile(errs, 0.95),
		TokenErrSigned: compare.Quantile(compare.Sorted(t.signed), 0.5), LagP95: compare.Quantile(lags, 0.95),
		Points: t.points, PointsOf: t.seen, PointsEvery: max(t.every, 1)}
	d.StratumTTFT = make([]float64, strata)
	for k := range d.StratumTTFT {
		d.StratumTTFT[k] = compare.Quantile(compare.Sorted(t.strata[k+1]), 0.5)
	}
	return d
}

// StratumRange says stratum k (from 1) of bounds in tokens: "≤ 312",
// "313–1,024"; "" for a stratum the bounds do not have.
func StratumRange(bounds []int, k int) string {
	switch {
	case k < 1 || k > len(bounds):
		return ""
	case k == 1:
		return "≤ " + grouped(bounds[0])
	}
	return grouped(bounds[k-2]+1) + "–" + grouped(bounds[k-1])
}

// workloadOf is the scenario's workload: its current run's, else its
// baseline's; nil for a run of written prompts.
func (s Scenario) workloadOf() *results.Workload {
	for _, r := range []*results.Run{s.CurrentRun, s.BaseRun} {
		if r != nil && r.Workload != nil {
			return r.Workload
		}
	}
	return nil
}

// stratumRange says a check's stratum of input length ("313–1,024"); ""
// for a check of every request.
func (s Scenario) stratumRange(k int) string {
	if k == 0 {
		return ""
	}
	if w := s.workloadOf(); w != nil {
		if r := StratumRange(w.Strata, k); r != "" {
			return r
		}
	}
	return fmt.Sprintf("stratum %d", k) // bounds the report was not given
}

// stratumWords says where a check is confined to in a sentence: " in
// input 3,901–31,000 tokens"; "" for a check of every request.
func (r *Report) stratumWords(c compare.Check) string {
	if c.Stratum == 0 {
		return ""
	}
	for _, s := range r.Scenarios {
		if s.Endpoint == c.Endpoint && s.Scenario == c.Scenario {
			return " in input " + s.stratumRange(c.Stratum) + " tokens"
		}
	}
	return fmt.Sprintf(" in stratum %d of input length", c.Stratum)
}

// WorkloadLine says how a scenario's requests were drawn from a trace and
// sent: "Workload: 400 of 1,000,000 entries of chat.jsonl (mooncake),
// stratified by input length into 4 strata (≤ 312, 313–1,024, …
// tokens), seed 3f2a…; replay at 20× the trace's times (lag p95 2 ms)";
// "" for a run of written prompts. Names from the file are the caller's
// to escape.
func (s Scenario) WorkloadLine() string {
	w := s.workloadOf()
	if w == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Workload: %s of %s %s of %s (%s)", grouped(w.Sample), grouped(w.Lines), pluralWord(w.Lines, "entry", "entries"), w.Trace, w.Format)
	if w.Sessions > 0 {
		fmt.Fprintf(&b, " in %s", plural(w.Sessions, "session", "sessions"))
	}
	ranges := make([]string, len(w.Strata))
	for i := range w.Strata {
		ranges[i] = StratumRange(w.Strata, i+1)
	}
	fmt.Fprintf(&b, ", stratified by input length into %s (%s tokens)", plural(len(w.Strata), "stratum", "strata"), strings.Join(ranges, ", "))
	if w.Seed != "" {
		fmt.Fprintf(&b, ", seed %s", shortSeed(w.Seed))
	}
	switch w.Timing {
	case "replay":
		fmt.Fprintf(&b, "; replay at %s× the trace's times", trimFloat(w.Speedup))
		if t := s.currentTrace(); t != nil && !math.IsNaN(t.LagP95) {
			fmt.Fprintf(&b, " (lag p95 %s ms)", Millis(t.LagP95))
		}
	case "concurrency":
		if s.CurrentRun != nil && s.CurrentRun.Config.Concurrency > 0 {
			fmt.Fprintf(&b, "; at concurrency %d", s.CurrentRun.Config.Concurrency)
		} else {
			b.WriteString("; at the scenario's concurrency")
		}
	}
	return b.String()
}

// shortSeed is a seed's first 8 characters and "…" when longer.
func shortSeed(s string) string {
	if r := []rune(s); len(r) > 8 {
		return string(r[:8]) + "…"
	}
	return s
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// currentTrace is the current run's trace digest (nil without one).
func (s Scenario) currentTrace() *TraceDigest {
	if s.CurrentDigest == nil {
		return nil
	}
	return s.CurrentDigest.Trace
}

// baseTrace is the baseline's trace digest (nil without one).
func (s Scenario) baseTrace() *TraceDigest {
	if s.BaseDigest == nil {
		return nil
	}
	return s.BaseDigest.Trace
}

// TokenLines say each side's token count's error against the trace, with
// the token model, and when a side's p95 is over TokenErrNote that its
// TTFT is not comparable to production's; none for a run of written
// prompts.
func (s Scenario) TokenLines() []string {
	w := s.workloadOf()
	if w == nil {
		return nil
	}
	model := fmt.Sprintf("token model %s %s a word + %s, source %s", trimFloat(w.Tokens.PerWord), pluralWord2(w.Tokens.PerWord, "token", "tokens"), trimFloat(w.Tokens.Overhead), w.Tokens.Source)
	var out []string
	for _, side := range []struct {
		name string
		t    *TraceDigest
	}{{"baseline", s.baseTrace()}, {"current", s.currentTrace()}} {
		t := side.t
		if t == nil {
			continue
		}
		if t.TokenErrN == 0 {
			out = append(out, fmt.Sprintf("Prompt length against the trace, %s: no successful request reported prompt_tokens (%s).", side.name, model))
			continue
		}
		out = append(out, fmt.Sprintf("Prompt length against the trace, %s: |prompt_tokens − input_tokens| / input_tokens median %s, p95 %s over %s (%s).",
			side.name, errPct(t.TokenErrP50), errPct(t.TokenErrP95), plural(t.TokenErrN, "request", "requests"), model))
		if t.TokenErrP95 > TokenErrNote {
			dir := "differed from"
			switch {
			case t.TokenErrSigned > 0:
				dir = "were longer than"
			case t.TokenErrSigned < 0:
				dir = "were shorter than"
			}
			out = append(out, fmt.Sprintf("⚠️ The %s run's prompts %s the trace's by a median of %s (p95 of the error's size %s): its TTFT is not comparable to production's.",
				side.name, dir, signedPct(100*t.TokenErrSigned), errPct(t.TokenErrP95)))
		}
	}
	return out
}

// errPct says a token count's error: "–" when none.
func errPct(f float64) string {
	if math.IsNaN(f) {
		return "–"
	}
	return pct(f)
}

// serverCacheRow is the prefix cache's hit rate by the server's own
// counters over each side's run (its metrics_url: hits of queried
// tokens), descriptive: it holds every request the server served in the
// run, latgate's and any other's.
func serverCacheRow(s Scenario) (Row, bool) {
	rate := func(r *results.Run) (float64, *results.ServerMetrics) {
		if r == nil || r.ServerMetrics == nil || r.ServerMetrics.PrefixCache == nil || r.ServerMetrics.PrefixCache.Queries == 0 {
			return math.NaN(), nil
		}
		c := r.ServerMetrics.PrefixCache
		return c.Hits / c.Queries, r.ServerMetrics
	}
	row := emptyRow("Cache (server)", "%", "")
	var base, cur *results.ServerMetrics
	if s.BaseRun != s.CurrentRun {
		row.BaseP50, base = rate(s.BaseRun)
	}
	row.CurP50, cur = rate(s.CurrentRun)
	if base == nil && cur == nil {
		return Row{}, false
	}
	for _, side := range []struct {
		name string
		m    *results.ServerMetrics
	}{{"baseline", base}, {"current", cur}} {
		if side.m == nil {
			continue
		}
		c := side.m.PrefixCache
		n := fmt.Sprintf("%s: %s of %s prompt tokens found in the prefix cache by the server's own counters (%s of %s) over the run", side.name,
			grouped(int(c.Hits)), grouped(int(c.Queries)), familyName(c.HitsFamily), familyName(c.QueriesFamily))
		if side.m.Shared {
			n += ", both variants' requests together"
		}
		row.Notes = append(row.Notes, n)
	}
	return row, true
}

// familyName is a metric family's name as a row's note says it: a
// Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*, at most 128 bytes) as
// it is, anything else (a results file's text, which the notes of
// Markdown's "Left out" carry unescaped) as "a family of another name".
func familyName(s string) string {
	ok := s != "" && len(s) <= 128
	for i, c := range s {
		ok = ok && (c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9')
	}
	if !ok {
		return "a family of another name"
	}
	return s
}

// pluralWord2 is one for exactly 1, many else (a rate: 1.3 tokens).
func pluralWord2(v float64, one, many string) string {
	if v == 1 {
		return one
	}
	return many
}

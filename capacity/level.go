package capacity

import (
	"math"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Level is what one level of a search measured and how it was decided.
type Level struct {
	// Value is the load: users at once or requests per second (on each
	// shard of a run that merges several: Result.Shards).
	Value float64
	// Status is vocab.OK when the level passes (every objective holds with
	// confidence, and the server is not saturated), vocab.OverBudget when it
	// fails with confidence (an objective is missed with confidence, or the
	// server is saturated), vocab.Inconclusive else (it does not pass).
	Status vocab.Status
	// Limit is why a level that does not pass does not ("" when it passes).
	Limit vocab.Limit
	Tests []compare.BudgetTest
	// N requests were measured, Failed of them failed; Stopped when fewer
	// than the search's requests_per_level, the level having been stopped
	// once it could not pass.
	N, Failed int
	Stopped   bool
	// Throughput and Tokens are the successful requests and their output
	// tokens per second over the level's span (from the first send to the
	// last end); GoodRPS and GoodTPS the same of the requests within the SLO
	// (succeeded, and each objective's metric within its budget).
	Throughput, Tokens float64
	GoodRPS, GoodTPS   float64
}

// Passes reports whether the level passes.
func (l Level) Passes() bool { return l.Status == vocab.OK }

// fromStart are the metrics timed from the request's send: in an open
// loop they are timed from its scheduled send instead (coordinated
// omission). Gaps (itl, tpot) do not move.
var fromStart = map[vocab.Metric]bool{
	vocab.TTFT: true, vocab.TTFC: true, vocab.Total: true, vocab.Perceived: true,
	vocab.FirstToolCall: true, vocab.Answer: true, vocab.Session: true,
}

// SampleOf is the sample a level is decided on: compare's, with every
// latency timed from the send latgate records, except that an open-loop
// request (vary rate) is timed from its scheduled send, its lag_ms added:
// a request the client sent late because every worker was busy waited
// that long from its user's point of view, and a search that left the
// lag out would pass a rate the client could not even offer (coordinated
// omission).
func SampleOf(run *results.Run) *compare.Sample {
	s := compare.SampleOf(run)
	for i, q := range run.Requests {
		if q.LagMs == nil || *q.LagMs <= 0 {
			continue
		}
		for m, vs := range s.Values {
			if fromStart[m] && i < len(vs) && !math.IsNaN(vs[i]) {
				vs[i] += *q.LagMs
			}
		}
	}
	return s
}

// span is the level's time in seconds: from the first send to the last
// end (a failed request's end is its send, when it has no total).
func span(run *results.Run) float64 {
	first, last := math.Inf(1), math.Inf(-1)
	for _, q := range run.Requests {
		end := q.SentMs
		if q.TotalMs != nil {
			end += *q.TotalMs
		}
		first, last = math.Min(first, q.SentMs), math.Max(last, end)
	}
	if !(last > first) {
		return math.NaN()
	}
	return (last - first) / 1000
}

// within reports whether request i of s is within every latency objective
// (a metric with objectives on several statistics: within the largest).
func within(s *compare.Sample, i int, slo []compare.Budget) bool {
	if !s.OK[i] {
		return false
	}
	for _, b := range slo {
		if b.Metric.IsRate() {
			continue
		}
		if v := s.Values[b.Metric]; i < len(v) && v[i] > largest(slo, b.Metric) {
			return false
		}
	}
	return true
}

// largest is the largest budget of metric m's statistics.
func largest(slo []compare.Budget, m vocab.Metric) float64 {
	v := math.Inf(-1)
	for _, b := range slo {
		if b.Metric == m {
			v = math.Max(v, b.Value)
		}
	}
	return v
}

// rates sets the level's throughput and goodput from its run and sample.
func (l *Level) rates(run *results.Run, s *compare.Sample, slo []compare.Budget) {
	sec := span(run)
	var ok, good, tok, goodTok float64
	for i, q := range run.Requests {
		if !q.OK {
			continue
		}
		ok++
		tok += float64(q.OutputTokens)
		if within(s, i, slo) {
			good++
			goodTok += float64(q.OutputTokens)
		}
	}
	l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = ok/sec, tok/sec, good/sec, goodTok/sec
	if math.IsNaN(sec) {
		l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = 0, 0, 0, 0
	}
}

// failures counts the failed requests of s.
func failures(s *compare.Sample) int {
	n := 0
	for _, ok := range s.OK {
		if !ok {
			n++
		}
	}
	return n
}

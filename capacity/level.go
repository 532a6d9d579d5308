package capacity

import (
	"math"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Level is what one level of a search measured and how it was decided: a
// level measured again (Rounds > 1) is decided on every request of its
// measurements.
type Level struct {
	// Value is the load: users at once or requests per second (on each
	// shard of a run that merges several: Result.Shards).
	Value float64
	// Status is vocab.Holds when every objective is shown to hold with
	// confidence and the server is not saturated, vocab.Fails when an
	// objective is shown to be missed with confidence or the server is
	// saturated, vocab.Undecided else.
	Status vocab.LevelStatus
	// Meets is whether the search takes the level as within the SLO: it
	// holds, or it is undecided and every objective's point estimate is
	// within its budget (compare.BudgetTest.Meets). The search goes above
	// a level that meets the SLO and below one that does not.
	Meets bool
	// Limit is why a level does not hold ("" when it holds).
	Limit vocab.Limit
	Tests []compare.BudgetTest
	// N requests were measured, Failed of them failed, over Rounds
	// measurements (Steps, the search's steps that measured it); Stopped
	// when its first measurement stopped before requests_per_level, once
	// it could not hold.
	N, Failed, Rounds int
	Steps             []int
	Stopped           bool
	// Throughput and Tokens are the successful requests and their output
	// tokens per second over the level's spans (from each measurement's
	// first send to its last end); GoodRPS and GoodTPS the same of the
	// requests within the SLO (succeeded, and each objective's metric
	// within its budget).
	Throughput, Tokens float64
	GoodRPS, GoodTPS   float64
	// AgainstLoad and AgainstRPS are the load and the throughput of the
	// level its first measurement was judged saturated against, as they
	// were then (0: none; Against).
	AgainstLoad, AgainstRPS float64

	pooled    results.Run // every request of its measurements
	counts    rates       // summed over its measurements
	ms        float64     // its measurements' time
	saturated bool        // decided on its first measurement
}

// Holds reports whether the level is shown to hold.
func (l Level) Holds() bool { return l.Status == vocab.Holds }

// rates are a level's counts over its measurements: seconds, successful
// requests and their tokens, those within the SLO and theirs.
type rates struct{ sec, ok, tok, good, goodTok float64 }

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

// add pools a measurement of the level: its requests, counts and time.
func (l *Level) add(run *results.Run, ms float64, slo []compare.Budget) {
	if l.Rounds == 0 {
		l.pooled = results.Run{Level: run.Level, Shards: run.Shards}
	}
	l.Rounds++
	l.pooled.Requests = append(l.pooled.Requests, run.Requests...)
	l.ms += ms
	s := SampleOf(run)
	if sec := span(run); !math.IsNaN(sec) {
		l.counts.sec += sec
	}
	for i, q := range run.Requests {
		if !q.OK {
			continue
		}
		l.counts.ok++
		l.counts.tok += float64(q.OutputTokens)
		if within(s, i, slo) {
			l.counts.good++
			l.counts.goodTok += float64(q.OutputTokens)
		}
	}
	c := l.counts
	l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = 0, 0, 0, 0
	if c.sec > 0 {
		l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = c.ok/c.sec, c.tok/c.sec, c.good/c.sec, c.goodTok/c.sec
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

package capacity

import (
	"math"
	"slices"

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
	// confidence and its throughput is shown still rising over the level
	// below it (or it has none to be judged against), vocab.Fails when an
	// objective is shown to be missed with confidence or the server is
	// shown saturated, vocab.Undecided else.
	Status vocab.LevelStatus
	// Meets is whether the search takes the level as within the SLO: it
	// holds, or it is undecided, every objective's point estimate within
	// its budget (compare.BudgetTest.Meets) and its throughput rising over
	// the level below it on its figures. The search goes above a level
	// that meets the SLO and below one that does not.
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
	// tokens per second (figures): of users at once, their users ÷ the
	// mean time of a request past each measurement's first wave; of
	// requests per second, the pace of their answers; GoodRPS and GoodTPS
	// the same of the requests within the SLO (succeeded, and each
	// objective's metric within its budget). In the designs before version
	// 3, over the level's spans (from each measurement's first send to its
	// last end).
	Throughput, Tokens float64
	GoodRPS, GoodTPS   float64
	// AgainstLoad and AgainstRPS are the load and the throughput of the
	// level below it against which its throughput rose by less than a
	// quarter of the added load, on its figures or with confidence (0:
	// none); in version 2, of the level its first measurement was judged
	// against, as they were then (Against).
	AgainstLoad, AgainstRPS float64

	pooled    results.Run              // every request of its measurements
	counts    rates                    // summed over its measurements
	mid       rates                    // its counts past each measurement's first wave (users at once)
	past      []results.Request        // its successful requests past each measurement's first wave
	arrivals  struct{ n, sec float64 } // requests per second: the gaps between scheduled sends, and their seconds
	answers   struct{ n, sec float64 } // requests per second: the gaps between successful answers' ends, and their seconds
	ms        float64                  // its measurements' time
	saturated bool                     // shown saturated against the level below it (version 2: on its first measurement's figures)
	// judged: its saturation was judged against the level below it
	// (design 3); rising: its throughput shown still rising there;
	// slowing: rising less than a quarter of the added load on its
	// figures.
	judged, rising, slowing bool
	// slo is the level's status on its objectives alone, sloMeets whether
	// each objective's point estimate is within its budget, sloLimit why
	// the objectives do not hold.
	slo      vocab.LevelStatus
	sloMeets bool
	sloLimit vocab.Limit
}

// Holds reports whether the level is shown to hold.
func (l Level) Holds() bool { return l.Status == vocab.Holds }

// rates are a level's counts over its measurements: seconds, successful
// requests and their tokens, those within the SLO and theirs (and, past
// each measurement's first wave, the time of every request, sum).
type rates struct{ sec, ok, tok, good, goodTok, sum float64 }

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
// steady: the throughput of users at once is the one past each
// measurement's first wave (design 3; the designs before: over the spans).
func (l *Level) add(run *results.Run, ms float64, slo []compare.Budget, steady bool) {
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
	users := math.Inf(1) // an open loop has no waves
	if run.Level == nil || run.Level.Vary != vocab.VaryRate {
		users = math.Ceil(l.Value * float64(max(run.Shards, 1)))
	} else {
		if first, last := schedule(run); last > first {
			l.arrivals.n += float64(len(run.Requests) - 1)
			l.arrivals.sec += (last - first) / 1000
		}
		if n, first, last := ends(run); last > first {
			l.answers.n += float64(n - 1)
			l.answers.sec += (last - first) / 1000
		}
	}
	order := make([]int, len(run.Requests))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(run.Requests[a].SentMs, run.Requests[b].SentMs) })
	for k, i := range order {
		q := run.Requests[i]
		past := float64(k) >= users
		if past && q.TotalMs != nil && *q.TotalMs > 0 {
			l.mid.sum += *q.TotalMs
		}
		if !q.OK {
			continue
		}
		in := within(s, i, slo)
		l.counts.count(q, in)
		if past {
			l.mid.count(q, in)
			l.past = append(l.past, q)
		}
	}
	l.figures(steady, math.IsInf(users, 1))
}

// schedule is when a run's first and last requests were due: each one's
// send less how late it was (an open loop's schedule; NaN for none).
func schedule(run *results.Run) (first, last float64) {
	first, last = math.Inf(1), math.Inf(-1)
	for _, q := range run.Requests {
		due := q.SentMs
		if q.LagMs != nil {
			due -= *q.LagMs
		}
		first, last = math.Min(first, due), math.Max(last, due)
	}
	if math.IsInf(first, 0) {
		return math.NaN(), math.NaN()
	}
	return first, last
}

// ends are how many of a run's requests succeeded, and when the first and
// the last of them ended.
func ends(run *results.Run) (n int, first, last float64) {
	first, last = math.Inf(1), math.Inf(-1)
	for _, q := range run.Requests {
		if q.OK && q.TotalMs != nil {
			n++
			first, last = math.Min(first, q.SentMs+*q.TotalMs), math.Max(last, q.SentMs+*q.TotalMs)
		}
	}
	return n, first, last
}

// count counts a successful request, in: within the SLO.
func (r *rates) count(q results.Request, in bool) {
	r.ok++
	r.tok += float64(q.OutputTokens)
	if in {
		r.good++
		r.goodTok += float64(q.OutputTokens)
	}
}

// figures are the level's throughput and goodput. Users at once past
// each measurement's first wave (steady): their users ÷ the mean time of
// their requests (Little's law: each user always waits for one), when at
// least two succeeded. Requests per second (steady): the successful
// answers' pace, from the first one's end to the last one's (the level's
// span would count the first request's time, and the last's, as time
// the server answered nothing). Else, and in the designs before version
// 3: the successful requests per second over the level's spans.
func (l *Level) figures(steady, open bool) {
	c, m, a := l.counts, l.mid, l.answers
	l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = 0, 0, 0, 0
	x, of := 0.0, c
	switch {
	case steady && !open && m.ok >= 2 && m.sum > 0:
		x, of = l.Value*float64(max(l.pooled.Shards, 1))*m.ok/m.sum*1000, m
	case steady && open && a.n >= 1 && a.sec > 0:
		x = a.n / a.sec
	case c.sec > 0:
		x = c.ok / c.sec
	}
	if x > 0 && of.ok > 0 {
		l.Throughput, l.Tokens, l.GoodRPS, l.GoodTPS = x, x*of.tok/of.ok, x*of.good/of.ok, x*of.goodTok/of.ok
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

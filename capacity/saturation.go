package capacity

import (
	"math"
	"slices"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// judgeAgainst judges level l's saturation against ref, the nearest level
// below it within the SLO: saturated when its throughput is shown to have
// risen by less than a quarter of the load it adds (more load only
// queues), rising when shown to have risen by more, each one-sided at
// alpha ÷ a level's looks (a level measured again is tested again on all
// its requests); slowing when its figures say less, shown or not.
//
// The test is a z-test on the throughputs' logs (Level.Throughput, the
// figures the words say). Users at once (a closed loop) each always wait
// for one request, so a level's throughput is its users ÷ the mean time of
// its requests (Little's law), past each measurement's first wave; that
// mean moves only with the time the server takes to serve the requests:
// which of them waited for a slot is no noise (a saturated server serves
// its slots back to back whichever user waits). So the spread the test
// counts is a request's service: its time after its first token (a
// request waits for a slot before its first token, never after) and its
// time to first token as at the search's lowest level (which does not
// queue); the log of the throughput varies as the service's squared
// coefficient of variation ÷ the successful requests. Requests per second
// (an open loop): the throughput is the pace of the answers, and that of
// a level whose answers kept pace with its arrivals (within a tenth) is
// taken as its own rate (paced) — its arrivals, a Poisson process, came at
// a rate a sixth off at 60 requests, which the service's spread does not
// hold; a rate level is judged only when shown saturated. A level without
// a throughput (a first wave alone, or stopped early) is not judged.
func (s *Search) judgeAgainst(l, ref *Level) {
	added := l.Value / ref.Value
	if l.Stopped || ref.Stopped || !(added > 1) {
		return
	}
	a, b := s.flowOf(l), s.flowOf(ref)
	if !a.ok || !b.ok {
		return
	}
	p := s.spec.Alpha / float64(len(s.looks))
	keep, bound := math.Log(1+(added-1)/4), math.Sqrt2*math.Erfinv(1-2*p)*math.Sqrt(a.v+b.v)
	figures := math.Log(l.Throughput/ref.Throughput) - keep
	l.judged, l.slowing = true, figures < 0
	l.saturated = a.paced-b.paced-keep < -bound && l.slowing
	l.rising = a.log-b.log-keep > bound
	if s.spec.Vary == vocab.VaryRate && !l.saturated {
		// Shown rising would take the throughput's own spread, which
		// arrivals make a sixth at 60 requests a level: a rate level is
		// judged only when shown saturated.
		l.judged, l.slowing = false, false
	}
	if l.slowing {
		l.AgainstLoad, l.AgainstRPS = ref.Value, ref.Throughput
	}
}

// flow is a level's throughput as the saturation test sees it: its log,
// the log of the throughput at its own pace (paced: requests per second at
// the level's rate, not at the rate its arrivals happened to come; users
// at once: the same), and the variance of either log under the claim's
// contrary (ok false: no throughput measured).
type flow struct {
	log, paced, v float64
	ok            bool
}

// flowOf is level l's flow.
func (s *Search) flowOf(l *Level) flow {
	reqs, n := l.past, float64(len(l.past)) // users at once: past the first wave
	if s.spec.Vary == vocab.VaryRate {
		reqs, n = l.pooled.Requests, l.counts.ok
	}
	if n < 2 || !(l.Throughput > 0) {
		return flow{} // a first wave alone: users that never waited for more
	}
	x := math.Log(l.Throughput)
	f := flow{log: x, paced: x, v: s.spread(l, reqs) / n, ok: true}
	if a := l.arrivals; s.spec.Vary == vocab.VaryRate {
		// The throughput at the level's own pace: its rate when its
		// answers kept pace with its arrivals (within a tenth), which
		// came at arrivals.n ÷ arrivals.sec, not exactly its rate.
		if !(a.n > 0 && a.sec > 0) {
			return flow{}
		}
		if l.Throughput >= 0.9*a.n/a.sec {
			f.paced = math.Log(l.Value)
		}
	}
	return f
}

// spread is the squared coefficient of variation of the time the server
// takes to serve level l's requests reqs: their times after the first
// token and the times to first token of the search's lowest level (which
// does not queue); of an answer not streamed, the lowest level's whole
// times; 1 when nothing says otherwise.
func (s *Search) spread(l *Level, reqs []results.Request) float64 {
	low := s.lowest()
	if low == nil {
		low = l
	}
	first, after := split(reqs)
	if low != l {
		first, _ = split(low.pooled.Requests)
	}
	if len(first) >= 2 && len(after) >= 2 {
		mf, vf := meanVar(first)
		ma, va := meanVar(after)
		if mf+ma > 0 {
			return (vf + va) / ((mf + ma) * (mf + ma))
		}
	}
	if total := totals(low.pooled.Requests); len(total) >= 2 {
		if m, v := meanVar(total); m > 0 {
			return v / (m * m)
		}
	}
	return 1
}

// lowest is the search's level of the lowest load measured to its count
// (nil: none).
func (s *Search) lowest() *Level {
	var low *Level
	for i := range s.levels {
		if l := &s.levels[i]; !l.Stopped && (low == nil || l.Value < low.Value) {
			low = l
		}
	}
	return low
}

// split are the times to first token of reqs's successful requests, and
// their times after it.
func split(reqs []results.Request) (first, after []float64) {
	for _, q := range reqs {
		if q.OK && q.TTFTMs != nil && q.TotalMs != nil && *q.TotalMs >= *q.TTFTMs {
			first = append(first, *q.TTFTMs)
			after = append(after, *q.TotalMs-*q.TTFTMs)
		}
	}
	return first, after
}

// totals are the times of reqs's successful requests.
func totals(reqs []results.Request) (total []float64) {
	for _, q := range reqs {
		if q.OK && q.TotalMs != nil {
			total = append(total, *q.TotalMs)
		}
	}
	return total
}

func meanVar(xs []float64) (m, v float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}

// judge decides every level's saturation again, from the lowest load up:
// each against the nearest level below it within the SLO, as the levels
// now stand (a level measured below one judged before changes what that
// one is judged against), and each level's status with it. The designs
// before version 3 decided saturation once, on a level's first
// measurement (saturated).
func (s *Search) judge() {
	order := make([]int, len(s.levels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(s.levels[a].Value, s.levels[b].Value) })
	var ref *Level
	for _, i := range order {
		l := &s.levels[i]
		if !s.spec.older() {
			l.judged, l.saturated, l.rising, l.slowing, l.AgainstLoad, l.AgainstRPS = false, false, false, false, 0, 0
			if ref != nil {
				s.judgeAgainst(l, ref)
			}
		}
		s.settle(l)
		if l.Meets {
			ref = l
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

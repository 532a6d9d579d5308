package capacity

// What a million output tokens cost at the SLO: the price of the
// endpoint's hardware (Spec.PerHour, USD an hour) ÷ the output tokens per
// second within the SLO (goodput) at the capacity, at each level, and how
// base and head compare with confidence (CompareCost).
//
// The cost's interval: the goodput at the SLO lies in [GoodLo, GoodHi].
// GoodLo is the goodput at Lower, the highest level shown to hold, at its
// one-sided lower confidence bound (0 when no level is shown to hold: the
// cost then has no upper end); GoodHi the goodput at the capacity's level
// scaled by Upper ÷ Capacity (a server never gets faster with load, the
// assumption Compare states: a load u above a level c gets at most u ÷ c
// times its goodput), at its upper confidence bound. Each bound is
// one-sided at the search's alpha, on a log-normal goodput whose log
// varies as the level's throughput does (flowOf: the service's spread ÷
// its requests; of a rate level, the Poisson arrivals' 1 ÷ n besides) plus
// the share of its successful requests within the SLO (binomial: (1 − p) ÷
// (n p)) and the spread of their output tokens (their squared coefficient
// of variation ÷ n). The cost's interval is the price ÷ those bounds.

import (
	"fmt"
	"math"
	"strconv"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// CostPerMTok is what a million output tokens cost, USD, at perHour USD
// an hour and goodTPS output tokens a second: perHour ÷ (goodTPS × 3600)
// × 1e6; NaN without a price or a goodput.
func CostPerMTok(perHour, goodTPS float64) float64 {
	if !(perHour > 0) || !(goodTPS > 0) || math.IsInf(goodTPS, 1) {
		return math.NaN()
	}
	return perHour / (goodTPS * 3600) * 1e6
}

// Cost is what a million output tokens within the SLO cost at the
// capacity, USD (NaN without a price, a capacity or goodput there: a
// goodput below vocab.MinGoodTPS is none).
func (r Result) Cost() float64 {
	if math.IsNaN(r.Capacity) || !(r.GoodTPS >= vocab.MinGoodTPS) {
		return math.NaN()
	}
	return CostPerMTok(r.Spec.PerHour, r.GoodTPS)
}

// CostRange is the cost's interval with confidence: the price ÷ the
// goodput's bounds (hi +Inf when no level was shown to hold; NaN, NaN
// without a cost).
func (r Result) CostRange() (lo, hi float64) {
	if math.IsNaN(r.Cost()) {
		return math.NaN(), math.NaN()
	}
	lo, hi = math.Inf(1), math.Inf(1)
	if r.GoodHi > 0 {
		lo = CostPerMTok(r.Spec.PerHour, r.GoodHi)
	}
	if math.IsInf(r.GoodHi, 1) {
		lo = 0
	}
	if r.GoodLo > 0 {
		hi = CostPerMTok(r.Spec.PerHour, r.GoodLo)
	}
	return lo, hi
}

// CostChange is the comparison of the cost at the SLO between base and
// head.
type CostChange struct {
	// Status is vocab.Regression when the head's lowest cost (its
	// interval's low end) exceeds the base's highest by more than the
	// tolerance — (1 + tolerance) × it, as a latency regresses —;
	// vocab.Improvement when the head's highest is below (1 − tolerance) ×
	// the base's lowest; vocab.Inconclusive when a search was cut, either
	// side has no cost, or the point estimates differ beyond the
	// tolerance without that confidence; vocab.OK else.
	Status vocab.Status
	// DeltaPct is the change of the cost in percent (NaN when either has
	// none).
	DeltaPct float64
}

// CompareCost compares the costs at the SLO of base and head at
// tolerance; each side at its own price (a change of hardware is what it
// weighs).
func CompareCost(base, head Result, tolerance float64) CostChange {
	c := CostChange{Status: vocab.OK, DeltaPct: math.NaN()}
	bc, hc := base.Cost(), head.Cost()
	if !math.IsNaN(bc) && !math.IsNaN(hc) {
		c.DeltaPct = 100 * (hc - bc) / bc
	}
	bl, bh := base.CostRange()
	hl, hh := head.CostRange()
	up, down := 1+tolerance, 1-tolerance
	switch {
	case !base.Complete() || !head.Complete() || math.IsNaN(bc) || math.IsNaN(hc):
		c.Status = vocab.Inconclusive
	case hl > up*bh:
		c.Status = vocab.Regression
	case hh < down*bl:
		c.Status = vocab.Improvement
	case hc > up*bc || hc < down*bc:
		c.Status = vocab.Inconclusive
	}
	return c
}

// goodBounds are the goodput's bounds at the SLO (the package's comment):
// NaN, NaN without a capacity, and in the designs before version 3.
func (s *Search) goodBounds(r Result) (lo, hi float64) {
	at := func(v float64) *Level {
		if i := s.index(v); i >= 0 && !math.IsNaN(v) {
			return &s.levels[i]
		}
		return nil
	}
	c := at(r.Capacity)
	if c == nil || s.spec.older() {
		return math.NaN(), math.NaN()
	}
	z := math.Sqrt2 * math.Erfinv(1-2*s.spec.Alpha)
	hi = math.Inf(1)
	if v, ok := s.goodVar(c); ok {
		hi = c.GoodTPS * r.Upper / r.Capacity * math.Exp(z*math.Sqrt(v))
	}
	if l := at(r.Lower); l != nil {
		if v, ok := s.goodVar(l); ok {
			lo = l.GoodTPS * math.Exp(-z*math.Sqrt(v))
		}
	}
	return lo, hi
}

// goodVar is the variance of the log of level l's goodput (output tokens
// a second within the SLO): its throughput's (flowOf), a rate level's
// arrivals', the binomial share of its successful requests within the
// SLO, and the spread of their output tokens; false when it measured no
// throughput or no goodput.
func (s *Search) goodVar(l *Level) (float64, bool) {
	f := s.flowOf(l)
	of, reqs := l.mid, l.past
	if s.spec.Vary == vocab.VaryRate {
		of, reqs = l.counts, l.pooled.Requests
	}
	if !f.ok || !(of.good > 0) {
		return 0, false
	}
	v := f.v + (1-of.good/of.ok)/of.good
	if s.spec.Vary == vocab.VaryRate {
		v += 1 / of.ok // the count of a Poisson process's arrivals
	}
	var toks []float64
	for _, q := range reqs {
		if q.OK {
			toks = append(toks, float64(q.OutputTokens))
		}
	}
	if len(toks) >= 2 {
		if m, vt := meanVar(toks); m > 0 {
			v += vt / (m * m) / float64(len(toks))
		}
	}
	return v, true
}

// perHourOf is the price a search was run at (0: none).
func perHourOf(rec results.Search) float64 {
	if rec.CostPerHour == nil {
		return 0
	}
	return *rec.CostPerHour
}

// costRecord are the price and the cost the results file records (nil:
// none), the cost to 6 significant digits.
func (r Result) costRecord() (perHour, cost *float64) {
	if p := r.Spec.PerHour; p > 0 {
		perHour = &p
	}
	if c := r.Cost(); !math.IsNaN(c) {
		c, _ = strconv.ParseFloat(strconv.FormatFloat(c, 'g', 6, 64), 64)
		cost = &c
	}
	return perHour, cost
}

// checkCost refuses a recorded cost its levels do not give: readers never
// take a file's word for a cost.
func (r Result) checkCost(rec results.Search) error {
	if rec.CostPerMTok == nil {
		return nil
	}
	got := r.Cost()
	if math.IsNaN(got) || math.Abs(got-*rec.CostPerMTok) > 1e-5*got {
		return fmt.Errorf("cost_per_mtok is recorded as %g USD, but its levels give %s: the file is not trusted", *rec.CostPerMTok, costWords(got))
	}
	return nil
}

func costWords(v float64) string {
	if math.IsNaN(v) {
		return "none"
	}
	return strconv.FormatFloat(v, 'g', 6, 64) + " USD"
}

package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/latgate/latgate/vocab"
)

// Strata of input length. A run drawn from a trace (a scenario's
// workload:) sends requests of very different input lengths, and TTFT
// grows with the prompt: the length of a request explains much of its
// latency. When both sides of a run come from the same draw (the same
// strata bounds and seed: the same trace entries), the comparison uses the
// strata twice:
//
//   - as blocks of the permutation tests: labels are exchanged only among
//     requests of one stratum (of one A/B block and one stratum in an
//     interleaved run: a cell), so a different mix of lengths between the
//     sides (failures that hit long prompts, a side cut short) cannot pass
//     for a regression, and the length no longer widens the null
//     distribution. Each value is divided by its cell's median, as an
//     interleaved run's by its block's (aligned), so the tests of every
//     request see it relative to requests of its own length.
//   - as checks of their own: TTFT p50 and p95 in each stratum (Check
//     Stratum k), in the latency family of the maxT correction, so that a
//     regression confined to long prompts, which the median of every
//     request does not show, fails the gate once it is significant after
//     the correction.
//
// Sides from different draws are compared as before, unblocked and
// without per-stratum checks, with a WorkloadsDiffer warning.

// Draw is a run's draw from a trace: the upper bounds of input length of
// its strata (tokens, inclusive) and what it was seeded with.
type Draw struct {
	Strata []int
	Seed   string
}

// same reports whether d and o are the same draw.
func (d *Draw) same(o *Draw) bool {
	return d != nil && o != nil && d.Seed == o.Seed && slices.Equal(d.Strata, o.Strata)
}

// stratified reports whether both sides of r come from the same draw, each
// request with its stratum.
func stratified(r Pair) bool {
	return r.Base != nil && r.Head != nil && r.Base.Draw.same(r.Head.Draw) &&
		len(r.Base.Stratum) == r.Base.N() && len(r.Head.Stratum) == r.Head.N()
}

// drawsDiffer reports whether a side of r was drawn from a trace but the
// two sides are not of one draw.
func drawsDiffer(r Pair) bool {
	return r.Base != nil && r.Head != nil && (r.Base.Draw != nil || r.Head.Draw != nil) && !stratified(r)
}

// stratumMetric and stratumStats are what is checked in each stratum: the
// latency that grows with the prompt's length, at its median and p95 (p95
// not tested in a stratum with fewer than its 40 requests a side).
var (
	stratumMetric = vocab.TTFT
	stratumStats  = []statDef{statDefs[0], statDefs[1]}
)

// addStratumChecks appends run r's per-stratum checks (strata of the same
// draw on both sides; d its permutation data).
func addStratumChecks(res *Result, d *runTests, runIndex int, r Pair, cfg Config, boots *[]bootJob) {
	mi := slices.Index(vocab.PerRequest, stratumMetric)
	if len(okValues(r.Base, stratumMetric)) == 0 && len(okValues(r.Head, stratumMetric)) == 0 {
		return // not observed in this run (a tool call's)
	}
	if len(r.Head.Draw.Strata) < 2 {
		return // one stratum is every request: its checks would be the run's, twice
	}
	cfg.Budgets = nil // a budget holds every request, not a stratum's
	for k := 1; k <= len(r.Head.Draw.Strata); k++ {
		bv, cv := okValuesIn(r.Base, stratumMetric, k), okValuesIn(r.Head, stratumMetric, k)
		if len(bv) == 0 && len(cv) == 0 {
			continue // no request of the draw fell in it
		}
		for _, st := range stratumStats {
			addLatency(res, d, runIndex, r, latencyInput{m: stratumMetric, mi: mi, st: st, bv: bv, cv: cv, stratum: k}, cfg, boots)
		}
	}
}

// okValuesIn is okValues of the requests of stratum k (every request for
// k = 0), sorted.
func okValuesIn(s *Sample, metric vocab.Metric, k int) []float64 {
	if k == 0 || s == nil {
		return okValues(s, metric)
	}
	var out []float64
	for i, v := range s.Values[metric] {
		if i < len(s.OK) && s.OK[i] && !math.IsNaN(v) && i < len(s.Stratum) && s.Stratum[i] == k {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// perRunOf is how many of a run's requests give one of stratum k, on the
// side where the stratum is rarer: the factor from a stratum's requests to
// the run's (1 for k = 0).
func perRunOf(r Pair, k int) float64 {
	if k == 0 {
		return 1
	}
	f := 1.0
	for _, s := range []*Sample{r.Base, r.Head} {
		if s == nil || s.N() == 0 {
			continue
		}
		nk := 0
		for _, x := range s.Stratum {
			if x == k {
				nk++
			}
		}
		if nk == 0 {
			return math.Inf(1)
		}
		f = math.Max(f, float64(s.N())/float64(nk))
	}
	return f
}

// runRequests is, for n requests of the check's stratum, the requests per
// side of the run that give them (n itself for a check of every request; 0
// when the stratum has none).
func (c *Check) runRequests(n int) int {
	switch {
	case c.Stratum == 0 || n <= 0:
		return n
	case math.IsInf(c.perRun, 1):
		return 0
	}
	return int(math.Ceil(float64(n) * math.Max(1, c.perRun)))
}

// cellKeys numbers each pooled request's cell, its (block, stratum) pair
// in ascending order (blocks or strata nil when the run has none); nil
// when it has neither.
func cellKeys(blocks, strata []int) []int {
	if blocks == nil && strata == nil {
		return nil
	}
	n := max(len(blocks), len(strata))
	pair := func(i int) [2]int {
		var p [2]int
		if blocks != nil {
			p[0] = blocks[i]
		}
		if strata != nil {
			p[1] = strata[i]
		}
		return p
	}
	var pairs [][2]int
	for i := range n {
		pairs = append(pairs, pair(i))
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	pairs = slices.Compact(pairs)
	out := make([]int, n)
	for i := range n {
		out[i], _ = slices.BinarySearchFunc(pairs, pair(i), func(a, b [2]int) int {
			return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
		})
	}
	return out
}

// inStratum is v with NaN for the requests outside stratum k (strata: the
// pooled requests' strata).
func inStratum(v []float64, strata []int, k int) []float64 {
	out := slices.Clone(v)
	for i := range out {
		if i >= len(strata) || strata[i] != k {
			out[i] = math.NaN()
		}
	}
	return out
}

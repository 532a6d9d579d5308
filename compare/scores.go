package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/montanaflynn/stats"
)

// scoreSet selects the score functions of the latency tests; the zero
// value is what ships. The other values exist for the calibration's
// comparison of tests (docs/statistics.md, "Which tests"), which measures
// them on the same data.
type scoreSet struct {
	rank string // p50: "" (Wilcoxon ranks), "normal" (van der Waerden), "log" (log values)
	tail string // p95/p99: "" (upper-tail ranks), "ramp<k>", "step<k>", "multi" (tailScores)
	mean string // mean: "" (above the pooled mean), "values", "log"
}

// scoresOf are the scores of one latency test on the pooled (scaled,
// aligned) values v, NaN for a request without a value.
//
//   - p50: the mid-ranks of the values (the Wilcoxon rank-sum test, as a
//     difference of mean ranks): indifferent to heavy tails and outliers,
//     efficient for a shift of the body.
//   - p95, p99 (q): a smoothed step of the ranks around the pooled
//     2q − 1 quantile (the pooled p90 for p95, p98 for p99): for u the
//     value's mid-rank over m + 1, min(1 − q, max(0, u − (1 − 2.5(1 −
//     q)))): zero below the pooled p87.5 (p97.5), rising linearly to the
//     pooled p92.5 (p98.5) and flat above it. It counts the current
//     requests that reach into the tail, each as one: a queueing spike of
//     any size moves it, and the few largest values, the noisiest, do
//     not weigh more than the rest (docs/statistics.md, "Which tests").
//   - mean: 1 above the pooled mean, 0 below: the share above the mean
//     moves with the mix of two latency modes (prompt-cache hits and
//     misses), between which the mean lies, even when the median and the
//     p95 barely move.
//   - a count's mean (step_count): the values themselves (a difference of
//     means): a count has a few distinct values, so the share above its
//     mean would not move with the tolerance's scaling.
func scoresOf(c *scoredCol, kind testKind, q float64, set scoreSet) []float64 {
	v := c.v
	switch kind {
	case kindMeanDiff:
		return slices.Clone(v)
	case kindMean:
		return meanScores(v, set.mean)
	}
	rank, m := c.ranks()
	switch {
	case kind == kindRank && set.rank == "normal":
		return mapPresent(rank, func(r float64) float64 { return stats.NormPpf(r/float64(m+1), 0, 1) })
	case kind == kindRank && set.rank == "log":
		return mapPresent(v, math.Log)
	case kind == kindRank:
		return slices.Clone(rank) // the caller centres it: the ranks are shared
	}
	return tailScores(v, rank, m, q, set.tail)
}

// scoredCol is one metric's scaled, aligned pooled values (NaN where a
// request has none) and, once a test needs them, their mid-ranks: every
// rank and tail test of the metric in one direction shares one sort.
type scoredCol struct {
	v    []float64
	rank []float64
	m    int
}

func (c *scoredCol) ranks() ([]float64, int) {
	if c.rank == nil {
		c.rank, c.m = midRanks(c.v)
	}
	return c.rank, c.m
}

// tailScores are the scores of a p95 or p99 test. What ships ("") is
// "clamp2.5/1.5": rising linearly from the pooled 1 − 2.5(1 − q) quantile
// to the pooled 1 − 1.5(1 − q) one and flat above it. The calibration's
// other variants: "clampA/B" likewise from 1 − A(1 − q) to 1 − B(1 − q);
// "ramp<k>" rising from the pooled 1 − k(1 − q) quantile without end (the
// previous release's ramp3: from the pooled p85 for p95); "step<k>" a jump
// there; "multi" indicators above the pooled 2q − 1, q and (1 + q)/2
// quantiles.
func tailScores(v, rank []float64, m int, q float64, variant string) []float64 {
	u := func(r float64) float64 { return r / float64(m+1) }
	if variant == "" {
		variant = "clamp2.5/1.5"
	}
	var a, b float64
	switch {
	case variant == "multi":
		return mapPresent(rank, func(r float64) float64 {
			return b2f(u(r) > 2*q-1) + b2f(u(r) > q) + b2f(u(r) > (1+q)/2)
		})
	case scan(variant, "clamp%g/%g", &a, &b):
		lo, hi := 1-a*(1-q), 1-b*(1-q)
		return mapPresent(rank, func(r float64) float64 { return math.Min(hi-lo, math.Max(0, u(r)-lo)) })
	case scan(variant, "step%g", &a):
		return mapPresent(rank, func(r float64) float64 { return b2f(u(r) > 1-a*(1-q)) })
	case scan(variant, "ramp%g", &a):
		return mapPresent(rank, func(r float64) float64 { return math.Max(0, u(r)-(1-a*(1-q))) })
	}
	panic("compare: unknown tail scores " + variant)
}

// scan reports whether s reads as format, filling args.
func scan(s, format string, args ...any) bool {
	n, err := fmt.Sscanf(s, format, args...)
	return err == nil && n == len(args)
}

// meanScores are the scores of a latency's mean test.
func meanScores(v []float64, variant string) []float64 {
	switch variant {
	case "values":
		return slices.Clone(v)
	case "log":
		return mapPresent(v, math.Log)
	}
	var sum, k float64
	for _, x := range v {
		if !math.IsNaN(x) {
			sum, k = sum+x, k+1
		}
	}
	mean := sum / k
	return mapPresent(v, func(x float64) float64 { return b2f(x > mean) })
}

// mapPresent applies f to the values that are not NaN.
func mapPresent(v []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.NaN()
		if !math.IsNaN(x) {
			out[i] = f(x)
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

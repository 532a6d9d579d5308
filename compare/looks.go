package compare

import (
	"math"
	"slices"
	"sort"
)

// The budget check looked at several times: a capacity search decides an
// undecided level again once it measured more requests (looks at n₁ < n₂ <
// … requests, each count including the ones before). Every look at alpha
// would give a level exactly at the budget's share of misses more than
// alpha's chance to be shown within it (or beyond it) at one look or
// another. LookAlphas keeps the first look at alpha — a level measured once
// is decided as it always was — and decides the later ones at the largest
// common alpha with which the chance of ever being shown within the budget
// (ever beyond it), at the budget's own share, stays within alpha. The
// chance is computed exactly: the misses only grow from one look to the
// next, so a walk over their count (a dynamic program, no simulation)
// gives it. The test is discrete, so the first look rarely spends all of
// alpha (p95 at 60 requests: 0.95⁶⁰ = 4.6 %), and paths that would be
// shown at a later look were mostly shown at an earlier one already.

// maxLookStates bounds the walk: a design whose thresholds go beyond it
// (requests per level in the tens of thousands at a median) splits what
// the first look left of alpha evenly over the later looks instead (the
// union bound: no walk needed, and the guarantee the same).
const maxLookStates = 2000

// LookAlphas are the alphas at which the looks at the cumulative counts
// looks are decided, one-sided at alpha overall for an objective that
// allows share of misses: hold[k] to show it within, fail[k] beyond.
func LookAlphas(share float64, looks []int, alpha float64) (hold, fail []float64) {
	hold, fail = make([]float64, len(looks)), make([]float64, len(looks))
	for k := range looks {
		hold[k], fail[k] = alpha, alpha
	}
	if len(looks) < 2 || !(share > 0 && share < 1) || !(alpha > 0 && alpha < 1) {
		return hold, fail
	}
	h, f := laterAlpha(false, share, looks, alpha), laterAlpha(true, share, looks, alpha)
	for k := 1; k < len(looks); k++ {
		hold[k], fail[k] = h, f
	}
	return hold, fail
}

// holdThreshold is the most misses of n with which the budget holds at
// alpha (-1: none); failThreshold the fewest with which it fails (n+1:
// none).
func holdThreshold(cdf []float64, alpha float64) int {
	return sort.Search(len(cdf), func(j int) bool { return cdf[j] > alpha }) - 1
}

func failThreshold(n int, cdf []float64, alpha float64) int {
	for k := 0; k <= n; k++ {
		up := 1.0
		if k > 0 {
			up = math.Max(0, 1-cdf[k-1])
		}
		if up <= alpha {
			return k
		}
	}
	return n + 1
}

// walk is the chance, at share, that some look shows the budget within
// (hold) or beyond it (fail) when the first look decides at alpha and the
// later ones at later; ok is false when the walk would be too long to
// take.
func walk(fail bool, share float64, looks []int, cdfs [][]float64, alpha, later float64) (p float64, ok bool) {
	th := make([]int, len(looks))
	top := -1 // the largest threshold that can be met
	for k, n := range looks {
		a := later
		if k == 0 {
			a = alpha
		}
		if fail {
			th[k] = failThreshold(n, cdfs[k], a)
			if th[k] <= n {
				top = max(top, th[k])
			}
		} else {
			th[k] = holdThreshold(cdfs[k], a)
			top = max(top, th[k])
		}
	}
	switch {
	case top < 0:
		return 0, true // no look can show it
	case top > maxLookStates:
		return 0, false
	}
	if fail {
		return failWalk(share, looks, th, top), true
	}
	return holdWalk(share, looks, th, top), true
}

// laterAlpha is the largest alpha of the later looks that keeps the walk
// within alpha: the thresholds change only at the values of the looks'
// binomial CDFs, so it is found among those (by bisection: the walk's
// chance grows with it).
func laterAlpha(fail bool, share float64, looks []int, alpha float64) float64 {
	cdfs := make([][]float64, len(looks))
	for k, n := range looks {
		cdfs[k] = binomialCDF(n, share)
	}
	cands := []float64{0}
	for k := 1; k < len(looks); k++ {
		for _, c := range cdfs[k] {
			if fail {
				c = 1 - c // P(Bin ≥ j+1) after count j
			} else if c > alpha {
				break
			}
			if c >= 0 && c <= alpha {
				cands = append(cands, c)
			}
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	long := false
	i := sort.Search(len(cands), func(i int) bool {
		p, ok := walk(fail, share, looks, cdfs, alpha, cands[i])
		long = long || !ok
		return p > alpha
	})
	if long {
		return unionSplit(fail, looks, cdfs, alpha)
	}
	// The largest candidate whose walk stays within alpha (0 always does:
	// the later looks then show nothing the first did not).
	return cands[max(i-1, 0)]
}

// unionSplit is the later looks' alpha by the union bound: what the first
// look leaves of alpha, split evenly.
func unionSplit(fail bool, looks []int, cdfs [][]float64, alpha float64) float64 {
	first := 0.0
	if fail {
		if k := failThreshold(looks[0], cdfs[0], alpha); k == 0 {
			first = 1
		} else if k <= looks[0] {
			first = math.Max(0, 1-cdfs[0][k-1])
		}
	} else if k := holdThreshold(cdfs[0], alpha); k >= 0 {
		first = cdfs[0][k]
	}
	return math.Max(0, alpha-first) / float64(len(looks)-1)
}

// advance is the counts of misses (0 to top) after d more requests, from
// dist; beyond is the chance that went past top.
func advance(dist []float64, d int, share float64) (next []float64, beyond float64) {
	top := len(dist) - 1
	cdf := binomialCDF(d, share)
	pmf := make([]float64, min(d, top)+1)
	prev := 0.0
	for i := range pmf {
		pmf[i], prev = cdf[i]-prev, cdf[i]
	}
	next = make([]float64, len(dist))
	total, kept := 0.0, 0.0
	for j, w := range dist {
		if w == 0 {
			continue
		}
		total += w
		for i := 0; j+i <= top && i < len(pmf); i++ {
			next[j+i] += w * pmf[i]
			kept += w * pmf[i]
		}
	}
	return next, math.Max(0, total-kept)
}

// holdWalk is the chance that the misses at some look k are at most its
// threshold th[k]; a count past top can never come back within one.
func holdWalk(share float64, looks, th []int, top int) float64 {
	dist := make([]float64, top+1)
	dist[0] = 1
	held, prev := 0.0, 0
	for k, n := range looks {
		dist, _ = advance(dist, n-prev, share)
		prev = n
		for j := 0; j <= th[k]; j++ {
			held += dist[j]
			dist[j] = 0
		}
	}
	return held
}

// failWalk is the chance that the misses at some look k are at least its
// threshold th[k] (past n: that look shows nothing); a count past top is
// carried to the next look that can show it.
func failWalk(share float64, looks, th []int, top int) float64 {
	dist := make([]float64, top+1)
	dist[0] = 1
	failed, over, prev := 0.0, 0.0, 0
	for k, n := range looks {
		var beyond float64
		dist, beyond = advance(dist, n-prev, share)
		prev = n
		over += beyond
		if th[k] > n {
			continue
		}
		failed += over
		over = 0
		for j := th[k]; j <= top; j++ {
			failed += dist[j]
			dist[j] = 0
		}
	}
	return failed
}

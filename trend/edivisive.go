package trend

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Method are the settings of the change-point detector. The zero value
// means the defaults, which are what docs/statistics.md calibrates.
type Method struct {
	// Alpha is the significance level of each split's permutation test
	// (default 0.005). The first test of a series decides whether it has
	// any change point at all, so Alpha bounds the share of flat series
	// with a false one.
	Alpha float64
	// Permutations per test (default 199): with Alpha 0.005 a split is
	// significant when its statistic beats every permuted one.
	Permutations int
	// MinSegment is the fewest runs on either side of a change point
	// (default 3): one outlier run cannot form a level of its own.
	MinSegment int
	// Bootstrap resamples for the step intervals (default 1,000) and Level
	// their confidence (default 0.95).
	Bootstrap int
	Level     float64
}

// Defaults of Method.
const (
	DefaultAlpha        = 0.005
	DefaultPermutations = 199
	DefaultMinSegment   = 3
	DefaultBootstrap    = 1000
	DefaultLevel        = 0.95
)

func (m Method) withDefaults() Method {
	if m.Alpha <= 0 {
		m.Alpha = DefaultAlpha
	}
	if m.Permutations <= 0 {
		m.Permutations = DefaultPermutations
	}
	if m.MinSegment <= 0 {
		m.MinSegment = DefaultMinSegment
	}
	if m.Bootstrap <= 0 {
		m.Bootstrap = DefaultBootstrap
	}
	if m.Level <= 0 || m.Level >= 1 {
		m.Level = DefaultLevel
	}
	return m
}

// MinRuns is the fewest runs a series needs for a change point to be
// possible: MinSegment on each side.
func (m Method) MinRuns() int { return 2 * m.withDefaults().MinSegment }

// Split is one change point found by Detect: the index of the first value
// of the new level and the p-value of the permutation test that accepted
// it.
type Split struct {
	Index  int
	PValue float64
}

// Detect finds the change points of a series of positive run-level values
// in time order with E-divisive means (Matteson & James 2014, the method
// MongoDB and Apache Otava use on performance series), on the log scale: a
// latency that grows by a factor is a shift there, whatever its level, and
// the log tames the right skew of run-to-run noise.
//
// Hierarchical bisection: every segment's best split is the τ that
// maximizes the energy divergence between its two sides,
//
//	Q(τ) = τ·m/(τ+m) · ( 2/(τ·m)·Σ|x−y| − 1/C(τ,2)·Σ|x−x'| − 1/C(m,2)·Σ|y−y'| )
//
// (x on the left, y on the right, α = 1), with at least MinSegment values
// on each side. The largest Q over all segments is tested by permutation:
// the values of each segment are shuffled within it, and the statistic is
// the largest best-split Q over the segments again. A split whose p-value
// is at most Alpha becomes a change point and the search goes on in the
// new segments; the first split that is not significant ends it. The
// permutations come from a generator seeded with seed, so the same series
// and seed always give the same answer. Values that are not positive or
// not finite are an error of the caller: Detect skips nothing.
func Detect(values []float64, seed uint64, m Method) []Split {
	m = m.withDefaults()
	xs := make([]float64, len(values))
	for i, v := range values {
		xs[i] = math.Log(v)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7472656e64)) // "trend"
	bounds := []int{0, len(xs)}                      // segment starts, then the end
	var out []Split
	for {
		q, at := bestOverSegments(xs, bounds, m.MinSegment)
		if at < 0 {
			break
		}
		p := permutationP(xs, bounds, q, m, rng)
		if p > m.Alpha {
			break
		}
		out = append(out, Split{Index: at, PValue: p})
		bounds = append(bounds, at)
		slices.Sort(bounds)
	}
	slices.SortFunc(out, func(a, b Split) int { return a.Index - b.Index })
	return out
}

// bestOverSegments returns the largest best-split Q over the segments
// [bounds[i], bounds[i+1]) and where it splits (absolute index), or -1
// when no segment can be split.
func bestOverSegments(xs []float64, bounds []int, minSeg int) (float64, int) {
	best, at := math.Inf(-1), -1
	for i := 0; i+1 < len(bounds); i++ {
		lo, hi := bounds[i], bounds[i+1]
		if q, tau := bestSplit(xs[lo:hi], minSeg); tau >= 0 && q > best {
			best, at = q, lo+tau
		}
	}
	return best, at
}

// bestSplit returns the largest Q(τ) of one segment and its τ, or τ = −1
// when the segment is shorter than 2·minSeg. O(n²): moving τ by one moves
// one value from the right side to the left, which changes the three sums
// by its distances to the values on either side.
func bestSplit(x []float64, minSeg int) (float64, int) {
	n := len(x)
	if n < 2*minSeg {
		return 0, -1
	}
	var within float64 // all pairs: the right side's sum at τ = 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			within += math.Abs(x[i] - x[j])
		}
	}
	sL, sB, sR := 0.0, 0.0, within
	best, at := math.Inf(-1), -1
	for k := 0; k < n-minSeg; k++ {
		var toLeft, toRight float64
		for i := 0; i < k; i++ {
			toLeft += math.Abs(x[k] - x[i])
		}
		for j := k + 1; j < n; j++ {
			toRight += math.Abs(x[k] - x[j])
		}
		sL += toLeft
		sB += toRight - toLeft
		sR -= toRight
		tau := k + 1
		if tau < minSeg {
			continue
		}
		t, r := float64(tau), float64(n-tau)
		e := 2*sB/(t*r) - sL/(t*(t-1)/2) - sR/(r*(r-1)/2)
		if q := t * r / (t + r) * e; q > best {
			best, at = q, tau
		}
	}
	return best, at
}

// permutationP is the permutation p-value of the observed largest split
// statistic q: (1 + permutations whose statistic reaches q) / (1 + all).
// It stops as soon as the p-value cannot come down to Alpha any more (the
// decision is the same as with every permutation drawn, and a flat series
// is settled after a few).
func permutationP(xs []float64, bounds []int, q float64, m Method, rng *rand.Rand) float64 {
	perm := slices.Clone(xs)
	reached := 0
	budget := int(math.Floor(m.Alpha*float64(m.Permutations+1)+1e-9)) - 1 // most exceedances that stay significant
	for b := 0; b < m.Permutations; b++ {
		for i := 0; i+1 < len(bounds); i++ {
			seg := perm[bounds[i]:bounds[i+1]]
			rng.Shuffle(len(seg), func(a, c int) { seg[a], seg[c] = seg[c], seg[a] })
		}
		if pq, _ := bestOverSegments(perm, bounds, m.MinSegment); pq >= q {
			reached++
			if reached > budget {
				return float64(1+reached) / float64(1+b+1)
			}
		}
	}
	return float64(1+reached) / float64(1+m.Permutations)
}

// Confirm tests the segment values[lo:hi] for a change anywhere inside it —
// its best-split Q against permutations of the segment — at level alpha,
// with enough permutations for a p-value of alpha/2 to be reached. A
// change point that record mode announces passes Confirm at the suite's
// level divided by its number of series (Bonferroni), so that a suite of
// many series does not announce a borderline split of one of them.
func Confirm(values []float64, lo, hi int, alpha float64, seed uint64, m Method) bool {
	m = m.withDefaults()
	xs := make([]float64, hi-lo)
	for i, v := range values[lo:hi] {
		xs[i] = math.Log(v)
	}
	q, at := bestSplit(xs, m.MinSegment)
	if at < 0 {
		return false
	}
	m.Alpha = alpha
	m.Permutations = max(m.Permutations, int(math.Ceil(2/alpha))-1)
	rng := rand.New(rand.NewPCG(seed, 0x636f6e6669726d)) // "confirm"
	return permutationP(xs, []int{0, len(xs)}, q, m, rng) <= alpha
}

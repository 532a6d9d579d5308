package compare

import (
	"math"
	"math/rand/v2"
	"sort"
)

// QuantileCI is a distribution-free confidence interval for the q-quantile
// from the order statistics of sorted (binomial argument), at level 1-alpha.
// NaN bounds when n is too small for that side.
func QuantileCI(sorted []float64, q, alpha float64) [2]float64 {
	n := len(sorted)
	out := [2]float64{math.NaN(), math.NaN()}
	if n == 0 {
		return out
	}
	cdf := binomialCDF(n, q)
	// P(X_(j) <= Q) = P(Bin >= j) = 1 - CDF(j-1).
	for j := n; j >= 1; j-- {
		if cdf[j-1] <= alpha/2 {
			out[0] = sorted[j-1]
			break
		}
	}
	for j := 1; j <= n; j++ {
		if cdf[j-1] >= 1-alpha/2 {
			out[1] = sorted[j-1]
			break
		}
	}
	return out
}

// binomialCDF returns P(Bin(n, p) <= k) for k = 0..n, from the log
// probability mass (math.Lgamma), so it stays accurate for large n.
func binomialCDF(n int, p float64) []float64 {
	cdf := make([]float64, n+1)
	lp, lq := math.Log(p), math.Log1p(-p)
	ln1, _ := math.Lgamma(float64(n + 1))
	var acc float64
	for k := 0; k <= n; k++ {
		lk, _ := math.Lgamma(float64(k + 1))
		lnk, _ := math.Lgamma(float64(n - k + 1))
		acc += math.Exp(ln1 - lk - lnk + float64(k)*lp + float64(n-k)*lq)
		cdf[k] = math.Min(acc, 1)
	}
	return cdf
}

// binomialUpper is P(Bin(n, p) >= k).
func binomialUpper(n, k int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	return math.Max(0, 1-binomialCDF(n, p)[k-1])
}

// bootstrapDraws is a seeded bootstrap of the relative change of a
// statistic, in percent, sorted. Unpaired runs resample each side's
// requests (drawn as counts over the sorted samples, so no resample is
// sorted); interleaved runs resample whole blocks, each with both its base
// and current requests, so drift between blocks stays in the interval.
func bootstrapDraws(r Pair, metric string, st statDef, B int, seed uint64, isBlocked bool) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	out := make([]float64, 0, B)
	if isBlocked {
		bb, cb := blockValues(r.Base, metric), blockValues(r.Current, metric)
		var keys []int
		for k := range bb {
			if _, ok := cb[k]; ok {
				keys = append(keys, k)
			}
		}
		if len(keys) >= 2 {
			sort.Ints(keys)
			var xs, ys []float64
			for range B {
				xs, ys = xs[:0], ys[:0]
				for range keys {
					k := keys[rng.IntN(len(keys))]
					xs = append(xs, bb[k]...)
					ys = append(ys, cb[k]...)
				}
				sort.Float64s(xs)
				sort.Float64s(ys)
				if qb := st.of(xs); qb > 0 {
					out = append(out, (st.of(ys)/qb-1)*100)
				}
			}
			sort.Float64s(out)
			return out
		}
	}
	base, cur := okValues(r.Base, metric), okValues(r.Current, metric)
	cb, cc := make([]int, len(base)), make([]int, len(cur))
	for range B {
		qb := resampledStat(base, cb, st, rng)
		qc := resampledStat(cur, cc, st, rng)
		if qb > 0 {
			out = append(out, (qc/qb-1)*100)
		}
	}
	sort.Float64s(out)
	return out
}

// blockValues groups a sample's successful values of a metric by block.
func blockValues(s *Sample, metric string) map[int][]float64 {
	out := map[int][]float64{}
	vals := s.Values[metric]
	for i, b := range s.Block {
		if i < len(vals) && s.OK[i] && !math.IsNaN(vals[i]) {
			out[b] = append(out[b], vals[i])
		}
	}
	return out
}

func resampledStat(sorted []float64, counts []int, st statDef, rng *rand.Rand) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	for i := range counts {
		counts[i] = 0
	}
	for range n {
		counts[rng.IntN(n)]++
	}
	if st.q < 0 {
		var s float64
		for i, c := range counts {
			s += float64(c) * sorted[i]
		}
		return s / float64(n)
	}
	h := st.q * float64(n-1)
	lo := int(math.Floor(h))
	frac := h - float64(lo)
	pos := 0
	vlo := math.NaN()
	for i, c := range counts {
		for range c {
			if pos == lo {
				vlo = sorted[i]
				if frac == 0 || lo == n-1 {
					return vlo
				}
			}
			if pos == lo+1 {
				return vlo + frac*(sorted[i]-vlo)
			}
			pos++
		}
	}
	return vlo
}

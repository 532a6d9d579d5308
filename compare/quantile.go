package compare

import (
	"math"
	"sort"
)

// Quantile returns the q-quantile of sorted (type 7, the linear
// interpolation numpy and R use by default). NaN when sorted is empty.
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Sorted returns the non-NaN values of xs in ascending order (a new slice).
func Sorted(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	sort.Float64s(out)
	return out
}

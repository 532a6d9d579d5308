package scrape

import (
	"errors"
	"math"
	"slices"
	"time"
)

// Histogram is a classic Prometheus histogram: cumulative counts of
// observations at most each upper bound (seconds), the last bound +Inf.
type Histogram struct {
	Bounds []float64
	Counts []float64
	Count  float64
	Sum    float64
}

// errReset: a histogram's counts went down between two scrapes (the
// server restarted, or the page is another server's).
var errReset = errors.New("its counts went down between the scrapes (the server restarted?)")

// Sub is the histogram of the observations made between before and h: the
// run's own, when before was scraped just before it and h just after.
func (h Histogram) Sub(before Histogram) (Histogram, error) {
	if !slices.Equal(h.Bounds, before.Bounds) {
		return Histogram{}, errors.New("its buckets changed between the scrapes")
	}
	d := Histogram{Bounds: h.Bounds, Counts: make([]float64, len(h.Counts)), Count: h.Count - before.Count, Sum: h.Sum - before.Sum}
	for i := range h.Counts {
		d.Counts[i] = h.Counts[i] - before.Counts[i]
		if d.Counts[i] < 0 {
			return Histogram{}, errReset
		}
	}
	if d.Count < 0 {
		return Histogram{}, errReset
	}
	return d, nil
}

// Quantile is a quantile estimated from a histogram's buckets: Value by
// linear interpolation inside the bucket [Lower, Upper] it falls in, as
// Prometheus's histogram_quantile does. AboveTop: it falls in the +Inf
// bucket, and Value is the highest finite bound (the quantile is at least
// that); Upper is then Missing.
type Quantile struct {
	Q                   float64
	Value, Lower, Upper time.Duration
	AboveTop            bool
}

// Missing marks a bound that is not finite.
const Missing time.Duration = -1

// Quantile estimates the q-quantile (0 < q < 1) of the observations;
// false when there are none.
func (h Histogram) Quantile(q float64) (Quantile, bool) {
	if h.Count <= 0 || len(h.Bounds) == 0 {
		return Quantile{}, false
	}
	rank := q * h.Count
	i, _ := slices.BinarySearchFunc(h.Counts, rank, func(c, r float64) int {
		if c < r {
			return -1
		}
		return 1
	})
	i = min(i, len(h.Counts)-1)
	lower, below := 0.0, 0.0
	if i > 0 {
		lower, below = h.Bounds[i-1], h.Counts[i-1]
	}
	upper := h.Bounds[i]
	if math.IsInf(upper, 1) {
		top := Missing
		if i > 0 {
			top = seconds(lower)
		}
		return Quantile{Q: q, Value: top, Lower: top, Upper: Missing, AboveTop: true}, true
	}
	if upper <= 0 {
		lower = upper // a bucket at or below 0: nothing to interpolate
	}
	v := upper
	if n := h.Counts[i] - below; n > 0 {
		v = lower + (upper-lower)*(rank-below)/n
	}
	return Quantile{Q: q, Value: seconds(v), Lower: seconds(lower), Upper: seconds(upper)}, true
}

// Mean is the observations' mean (Sum / Count), Missing when none.
func (h Histogram) Mean() time.Duration {
	if h.Count <= 0 {
		return Missing
	}
	return seconds(h.Sum / h.Count)
}

func seconds(s float64) time.Duration {
	return time.Duration(math.Round(s * float64(time.Second)))
}

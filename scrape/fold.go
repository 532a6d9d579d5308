package scrape

import (
	"errors"
	"fmt"
	"math"
	"slices"

	dto "github.com/prometheus/client_model/go"
)

// family folds the series of one wanted family as they come, a gauge's
// into its sum and largest value, a histogram's into its buckets summed:
// no series is kept, so a page's series cost no memory beyond the page.
// A page that gives the family several times (several protobuf messages
// of its name) gives it once with all their series, as expfmt's text
// parser reads a family's lines wherever they are.
type family struct {
	name    string
	isGauge bool     // read as a gauge or a counter (a value a series); else as a histogram
	counter bool     // read as a counter
	gpu     *gpuFold // read as a gauge per GPU (gpu.go): its GPUs
	typ     dto.MetricType
	why     string // not "": the family is left out, and why
	tooMany bool   // left out for its series, said with their number in the end
	given   int    // the times the page gives the family
	total   int    // its series, every time it is given
	n       int    // series folded
	g       gaugeValue
	h       Histogram // the series summed
	one     Histogram // the series being added (reused)
	buckets []bucket  // the series' buckets as the page gives them (reused)
}

// newFamily begins to fold a family of the given type.
func newFamily(name string, typ dto.MetricType, kind famKind) *family {
	isGauge := kind != histKind
	f := &family{name: name, isGauge: isGauge, counter: kind == counterKind, typ: typ, g: gaugeValue{max: math.Inf(-1)}}
	if _, ok := gpuBounds[kind]; ok {
		f.gpu = &gpuFold{kind: kind, gpus: gpuFamily{}}
	}
	switch {
	case f.counter && typ != dto.MetricType_COUNTER && typ != dto.MetricType_UNTYPED:
		// An OpenMetrics counter's samples (name_total) reach expfmt's
		// text parser as an untyped family of their own.
		f.why = fmt.Sprintf("%s is a %s, not a counter", name, typ)
	case f.counter:
	case isGauge && typ != dto.MetricType_GAUGE && typ != dto.MetricType_UNTYPED:
		f.why = fmt.Sprintf("%s is a %s, not a gauge", name, typ)
	case !isGauge && typ != dto.MetricType_HISTOGRAM:
		f.why = fmt.Sprintf("%s is a %s, not a histogram", name, typ)
	}
	return f
}

// again counts the family given once more, as a typ of series series: a
// family given as two types, or of over MaxSeries series in all, is left
// out. Nothing is made: a page that gives a family again and again costs
// no memory for it.
func (f *family) again(typ dto.MetricType, series int) {
	f.given++
	f.total += series
	switch {
	case f.why != "":
	case typ != f.typ:
		f.why = fmt.Sprintf("%s is given as a %s and as a %s", f.name, f.typ, typ)
	case f.total > MaxSeries:
		f.tooMany, f.why = true, "its series" // said in keep, with their number
	}
}

// value adds a gauge's or a counter's series: its gauge's or counter's
// value, or in an untyped family its untyped value.
func (f *family) value(gauge, untyped float64) {
	if f.why != "" {
		return
	}
	v := gauge
	if f.typ == dto.MetricType_UNTYPED {
		v = untyped
	}
	if f.counter && v < 0 {
		f.why = fmt.Sprintf("%s has the value %v, below 0", f.name, v)
		return
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		f.why = fmt.Sprintf("%s has the value %v", f.name, v)
		return
	}
	f.g.sum += v
	f.g.max = max(f.g.max, v)
	f.n++
	f.g.n = f.n
}

// bucket is one classic bucket as a page gives it: its upper bound and
// cumulative count.
type bucket struct{ upper, count float64 }

// rawHist is one series' classic histogram as a page gives it; more
// counts the buckets beyond those a reader keeps (over MaxBuckets).
type rawHist struct {
	buckets    []bucket
	more       int
	count, sum float64
}

// histogram adds a histogram's series; all of a family's share their
// buckets.
func (f *family) histogram(s rawHist) {
	if f.why != "" {
		return
	}
	into := &f.one
	if f.n == 0 {
		into = &f.h
	}
	if err := histogramOf(s, into); err != nil {
		f.why = fmt.Sprintf("%s: %v", f.name, err)
		return
	}
	f.n++
	if into == &f.h {
		return
	}
	if !slices.Equal(f.one.Bounds, f.h.Bounds) {
		f.why = f.name + ": its series have different buckets"
		return
	}
	for j := range f.one.Counts {
		f.h.Counts[j] += f.one.Counts[j]
	}
	f.h.Count += f.one.Count
	f.h.Sum += f.one.Sum
}

// metric adds a series decoded by expfmt.
func (f *family) metric(m *dto.Metric) {
	switch {
	case f.counter && f.typ == dto.MetricType_COUNTER:
		f.value(m.GetCounter().GetValue(), 0)
		return
	case f.gpu != nil:
		var id gpuLabels
		for _, l := range m.Label {
			id.set(l.GetName(), l.GetValue())
		}
		f.gpuSeries(id, m.GetGauge().GetValue(), m.GetUntyped().GetValue())
		return
	case f.isGauge:
		f.value(m.GetGauge().GetValue(), m.GetUntyped().GetValue())
		return
	}
	dh := m.GetHistogram() // nil when the series has none: no buckets, no count
	s := rawHist{buckets: f.buckets[:0], count: float64(dh.GetSampleCount()), sum: dh.GetSampleSum()}
	if dh != nil && dh.SampleCountFloat != nil {
		s.count = dh.GetSampleCountFloat()
	}
	for _, b := range dh.GetBucket() {
		c := float64(b.GetCumulativeCount())
		if b.CumulativeCountFloat != nil {
			c = b.GetCumulativeCountFloat()
		}
		s.buckets = append(s.buckets, bucket{upper: b.GetUpperBound(), count: c})
	}
	f.buckets = s.buckets
	f.histogram(s)
}

// keep puts the family on the page, or says why it is left out, and how
// many times the page gives it when more than once.
func (f *family) keep(p *Page) string {
	w := f.put(p)
	if w != "" && f.given > 1 {
		w += fmt.Sprintf(" (the page gives the family %d times)", f.given)
	}
	return w
}

// put puts the family on the page, or says why it is left out.
func (f *family) put(p *Page) string {
	switch {
	case f.tooMany:
		return fmt.Sprintf("%s has %d series (at most %d are read)", f.name, f.total, MaxSeries)
	case f.why != "":
		return f.why
	case f.gpu != nil:
		return f.putGPUs(p)
	case !f.isGauge:
		p.hists[f.name] = f.h
	case math.IsInf(f.g.sum, 0):
		return fmt.Sprintf("%s sums beyond a number over its series", f.name)
	case f.n > 0:
		p.gauges[f.name] = f.g
	}
	return ""
}

// histogramOf is a classic histogram's cumulative buckets, with the +Inf
// bucket (the count) last, in into (its slices reused).
func histogramOf(s rawHist, into *Histogram) error {
	if n := len(s.buckets) + s.more; n > MaxBuckets {
		return fmt.Errorf("%d buckets (at most %d)", n, MaxBuckets)
	}
	h := Histogram{Bounds: into.Bounds[:0], Counts: into.Counts[:0], Count: s.count, Sum: s.sum}
	for _, b := range s.buckets {
		if math.IsNaN(b.upper) || math.IsNaN(b.count) || b.count < 0 || (len(h.Bounds) > 0 && (b.upper <= h.Bounds[len(h.Bounds)-1] || b.count < h.Counts[len(h.Counts)-1])) {
			return errors.New("its buckets are not ascending")
		}
		h.Bounds, h.Counts = append(h.Bounds, b.upper), append(h.Counts, b.count)
	}
	if len(h.Bounds) == 0 || !math.IsInf(h.Bounds[len(h.Bounds)-1], 1) {
		h.Bounds, h.Counts = append(h.Bounds, math.Inf(1)), append(h.Counts, h.Count)
	}
	*into = h
	if h.Counts[len(h.Counts)-1] != h.Count || math.IsNaN(h.Sum) || math.IsInf(h.Sum, 0) {
		return errors.New("its count and buckets disagree")
	}
	return nil
}

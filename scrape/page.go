package scrape

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

// Bounds on a page: a server's page is read whole before it is parsed,
// and only the families the names want are kept.
const (
	MaxPage    = 4 << 20 // bytes
	MaxSeries  = 4096    // series of one family kept
	MaxBuckets = 512     // buckets of one histogram
)

// Page is what one scrape read: per wanted family, its histogram summed
// over the family's series (engines, models), or its gauge.
type Page struct {
	hists  map[string]Histogram
	gauges map[string]gaugeValue
}

// gaugeValue is a gauge's series summed, and the largest.
type gaugeValue struct{ sum, max float64 }

// hist is the histogram of the first of families the page has.
func (p Page) hist(families []string) (string, Histogram, bool) {
	for _, f := range families {
		if h, ok := p.hists[f]; ok {
			return f, h, true
		}
	}
	return "", Histogram{}, false
}

func (p Page) gauge(families []string) (string, gaugeValue, bool) {
	for _, f := range families {
		if g, ok := p.gauges[f]; ok {
			return f, g, true
		}
	}
	return "", gaugeValue{}, false
}

// Read parses a page in the format its Content-Type says (Prometheus text
// exposition, OpenMetrics, delimited protobuf) with expfmt and keeps the
// families names wants. A page over MaxPage bytes is refused; a wanted
// family of the wrong type, over MaxSeries series, or whose series'
// buckets differ is left out with a warning.
func Read(r io.Reader, contentType string, names Names) (Page, []string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxPage+1))
	if err != nil {
		return Page{}, nil, fmt.Errorf("reading the page: %w", err)
	}
	if len(b) > MaxPage {
		return Page{}, nil, fmt.Errorf("the page is over %d MiB", MaxPage>>20)
	}
	h := http.Header{}
	h.Set("Content-Type", contentType)
	format := expfmt.ResponseFormat(h)
	if format.FormatType() == expfmt.TypeProtoDelim {
		if err := checkDelimited(b); err != nil {
			return Page{}, nil, fmt.Errorf("not a Prometheus metrics page: %v", err)
		}
	}
	dec := expfmt.NewDecoder(bytes.NewReader(b), format)
	p := Page{hists: map[string]Histogram{}, gauges: map[string]gaugeValue{}}
	want := names.all()
	var warnings []string
	for {
		var mf dto.MetricFamily
		err := dec.Decode(&mf)
		if errors.Is(err, io.EOF) {
			return p, warnings, nil
		}
		if err != nil {
			return Page{}, warnings, fmt.Errorf("not a Prometheus metrics page: %v", err)
		}
		if !slices.Contains(want, mf.GetName()) {
			continue
		}
		if w := p.add(&mf, slices.Contains(names.Waiting, mf.GetName()) || slices.Contains(names.KVCache, mf.GetName())); w != "" {
			warnings = append(warnings, w)
		}
	}
}

// checkDelimited refuses a delimited protobuf page whose messages claim
// more bytes than the page holds: expfmt's decoder makes a buffer of the
// length a message claims before it reads the message (an unbounded
// allocation, a panic beyond the largest slice).
func checkDelimited(b []byte) error {
	for i := 0; len(b) > 0; i++ {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return fmt.Errorf("message %d claims more bytes than the page holds", i+1)
		}
		b = b[k+int(n):]
	}
	return nil
}

// add keeps one wanted family (a gauge when isGauge, else a histogram),
// or says why not.
func (p *Page) add(mf *dto.MetricFamily, isGauge bool) string {
	name := mf.GetName()
	if len(mf.Metric) > MaxSeries {
		return fmt.Sprintf("%s has %d series (at most %d are read)", name, len(mf.Metric), MaxSeries)
	}
	if isGauge {
		if mf.GetType() != dto.MetricType_GAUGE && mf.GetType() != dto.MetricType_UNTYPED {
			return fmt.Sprintf("%s is a %s, not a gauge", name, mf.GetType())
		}
		g := gaugeValue{max: math.Inf(-1)}
		for _, m := range mf.Metric {
			v := m.GetGauge().GetValue()
			if mf.GetType() == dto.MetricType_UNTYPED {
				v = m.GetUntyped().GetValue()
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Sprintf("%s has the value %v", name, v)
			}
			g.sum += v
			g.max = max(g.max, v)
		}
		if math.IsInf(g.sum, 0) {
			return fmt.Sprintf("%s sums beyond a number over its series", name)
		}
		if len(mf.Metric) > 0 {
			p.gauges[name] = g
		}
		return ""
	}
	if mf.GetType() != dto.MetricType_HISTOGRAM {
		return fmt.Sprintf("%s is a %s, not a histogram", name, mf.GetType())
	}
	h, err := sumHistograms(mf.Metric)
	if err != nil {
		return fmt.Sprintf("%s: %v", name, err)
	}
	p.hists[name] = h
	return ""
}

// sumHistograms adds up the series of one histogram family, which must
// share their buckets.
func sumHistograms(ms []*dto.Metric) (Histogram, error) {
	var sum Histogram
	for i, m := range ms {
		h, err := histogramOf(m.GetHistogram())
		if err != nil {
			return Histogram{}, err
		}
		if i == 0 {
			sum = h
			continue
		}
		if !slices.Equal(h.Bounds, sum.Bounds) {
			return Histogram{}, errors.New("its series have different buckets")
		}
		for j := range h.Counts {
			sum.Counts[j] += h.Counts[j]
		}
		sum.Count += h.Count
		sum.Sum += h.Sum
	}
	return sum, nil
}

// histogramOf is a classic histogram's cumulative buckets, with the +Inf
// bucket (the count) last.
func histogramOf(dh *dto.Histogram) (Histogram, error) {
	bs := dh.GetBucket()
	if len(bs) > MaxBuckets {
		return Histogram{}, fmt.Errorf("%d buckets (at most %d)", len(bs), MaxBuckets)
	}
	var h Histogram
	for _, b := range bs {
		ub, c := b.GetUpperBound(), float64(b.GetCumulativeCount())
		if b.CumulativeCountFloat != nil {
			c = b.GetCumulativeCountFloat()
		}
		if math.IsNaN(ub) || math.IsNaN(c) || c < 0 || (len(h.Bounds) > 0 && (ub <= h.Bounds[len(h.Bounds)-1] || c < h.Counts[len(h.Counts)-1])) {
			return Histogram{}, errors.New("its buckets are not ascending")
		}
		h.Bounds, h.Counts = append(h.Bounds, ub), append(h.Counts, c)
	}
	h.Count = float64(dh.GetSampleCount())
	if dh.SampleCountFloat != nil {
		h.Count = dh.GetSampleCountFloat()
	}
	h.Sum = dh.GetSampleSum()
	if len(h.Bounds) == 0 || !math.IsInf(h.Bounds[len(h.Bounds)-1], 1) {
		h.Bounds, h.Counts = append(h.Bounds, math.Inf(1)), append(h.Counts, h.Count)
	}
	if h.Counts[len(h.Counts)-1] != h.Count || math.IsNaN(h.Sum) || math.IsInf(h.Sum, 0) {
		return Histogram{}, errors.New("its count and buckets disagree")
	}
	return h, nil
}

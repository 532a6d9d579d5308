package scrape

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
// exposition, OpenMetrics, delimited protobuf) and keeps the families
// names wants, each summed over its series as they come. A page over
// MaxPage bytes is refused; a wanted family of the wrong type, over
// MaxSeries series, or whose series' buckets differ is left out with a
// warning. A text page is parsed with expfmt, given only the lines of the
// wanted families (keepWanted: within MaxTextSamples and MaxLabels); a
// protobuf page is read at the wire (readProto). Either way a scrape
// holds the page and little more (docs/performance.md has the figures).
func Read(r io.Reader, contentType string, names Names) (Page, []string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxPage+1))
	if err != nil {
		return Page{}, nil, fmt.Errorf("reading the page: %w", err)
	}
	if len(b) > MaxPage {
		return Page{}, nil, fmt.Errorf("the page is over %d MiB", MaxPage>>20)
	}
	want := wanted(names)
	p := Page{hists: map[string]Histogram{}, gauges: map[string]gaugeValue{}}
	h := http.Header{}
	h.Set("Content-Type", contentType)
	format := expfmt.ResponseFormat(h)
	if format.FormatType() == expfmt.TypeProtoDelim {
		warnings, err := readProto(b, want, &p)
		if err != nil {
			return Page{}, warnings, fmt.Errorf("not a Prometheus metrics page: %v", err)
		}
		return p, warnings, nil
	}
	b, lines, warnings, err := keepWanted(b, want)
	if err != nil {
		return Page{}, nil, fmt.Errorf("not a Prometheus metrics page: %v", err)
	}
	more, err := readFamilies(expfmt.NewDecoder(bytes.NewReader(b), format), want, &p)
	if err != nil {
		return Page{}, warnings, fmt.Errorf("not a Prometheus metrics page: %v", pageLine(err, lines))
	}
	return p, append(warnings, more...), nil
}

// wanted is every family names reads, and whether it is a gauge.
func wanted(names Names) map[string]bool {
	want := map[string]bool{}
	for _, name := range names.all() {
		want[name] = slices.Contains(names.Waiting, name) || slices.Contains(names.KVCache, name)
	}
	return want
}

// readFamilies folds the wanted families dec decodes into p, and says
// which it leaves out.
func readFamilies(dec expfmt.Decoder, want map[string]bool, p *Page) ([]string, error) {
	var warnings []string
	for {
		var mf dto.MetricFamily
		err := decode(dec, &mf)
		if errors.Is(err, io.EOF) {
			return warnings, nil
		}
		if err != nil {
			return warnings, err
		}
		isGauge, ok := want[mf.GetName()]
		if !ok {
			continue
		}
		f := newFamily(mf.GetName(), mf.GetType(), len(mf.Metric), isGauge)
		for _, m := range mf.Metric {
			f.metric(m)
		}
		if w := f.keep(p); w != "" {
			warnings = append(warnings, w)
		}
	}
}

// decode is dec.Decode with a panic of the parser an error: expfmt's text
// parser has dereferenced nil on a malformed page (keepWanted refuses the
// one known), and a server's page must never end the run.
func decode(dec expfmt.Decoder, mf *dto.MetricFamily) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the parser failed: %v", r)
		}
	}()
	return dec.Decode(mf)
}

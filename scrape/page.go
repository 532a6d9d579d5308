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
	gpus   map[string]gpuFamily // per GPU family, its GPUs (gpu.go)
}

// gaugeValue is a gauge's series summed, the largest, and their number.
type gaugeValue struct {
	sum, max float64
	n        int
}

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
// names wants, each summed over its series as they come (a family the
// page gives several times is one family, its series together). A page
// over MaxPage bytes is refused; a wanted family of the wrong type (or of
// two), over MaxSeries series, or whose series' buckets differ is left
// out with one warning. A text page is parsed with expfmt, given only the lines of the
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
	fams := newReading(want)
	if format.FormatType() == expfmt.TypeProtoDelim {
		if err := readProto(b, fams); err != nil {
			return Page{}, nil, fmt.Errorf("not a Prometheus metrics page: %v", err)
		}
		return p, fams.done(&p), nil
	}
	b, lines, warnings, err := keepWanted(b, want)
	if err != nil {
		return Page{}, nil, fmt.Errorf("not a Prometheus metrics page: %v", err)
	}
	if err := readFamilies(expfmt.NewDecoder(bytes.NewReader(b), format), fams); err != nil {
		return Page{}, warnings, fmt.Errorf("not a Prometheus metrics page: %v", pageLine(err, lines))
	}
	return p, append(warnings, fams.done(&p)...), nil
}

// reading is what a page holds of the wanted families as it is read:
// each family once, however many times the page gives it, so what a
// scrape holds and the warnings it makes (one at most per family, with
// the times the page gave it) are bounded by the families read, not by
// the page.
type reading struct {
	want  map[string]famKind
	fams  map[string]*family
	order []*family // as the page first gives them
}

func newReading(want map[string]famKind) *reading {
	return &reading{want: want, fams: map[string]*family{}}
}

// family is the wanted family name, given once more as a typ of series
// series, to fold its series into; nil when the family is not read.
func (r *reading) family(name []byte, typ dto.MetricType, series int) *family {
	kind, ok := r.want[string(name)]
	if !ok {
		return nil
	}
	f := r.fams[string(name)]
	if f == nil {
		f = newFamily(string(name), typ, kind)
		r.fams[f.name] = f
		r.order = append(r.order, f)
	}
	f.again(typ, series)
	return f
}

// done puts the families read on p, and says which are left out.
func (r *reading) done(p *Page) []string {
	var warnings []string
	for _, f := range r.order {
		if w := f.keep(p); w != "" {
			warnings = append(warnings, w)
		}
	}
	return warnings
}

// famKind is what a family is read as.
type famKind int

const (
	histKind     famKind = iota // a histogram, its buckets summed over its series
	gaugeKind                   // a gauge: its series' sum and largest value
	counterKind                 // a counter: its series' sum
	gpuUtilKind                 // a gauge per GPU, its series apart (gpu.go): utilization, %
	gpuMemKind                  // … framebuffer memory used, MiB
	gpuPowerKind                // … power draw, W
)

// wanted is every family names reads, and what it is read as.
func wanted(names Names) map[string]famKind {
	want := map[string]famKind{}
	for _, name := range names.all() {
		switch {
		case slices.Contains(names.Waiting, name) || slices.Contains(names.KVCache, name) || slices.Contains(names.CacheHitRate, name):
			want[name] = gaugeKind
		case slices.Contains(names.CacheQueries, name) || slices.Contains(names.CacheHits, name) ||
			slices.Contains(names.SpecDrafts, name) || slices.Contains(names.SpecDraftTokens, name) || slices.Contains(names.SpecAccepted, name):
			want[name] = counterKind
		case slices.Contains(names.SpecAcceptRate, name) || slices.Contains(names.SpecAcceptLength, name):
			want[name] = gaugeKind
		case slices.Contains(names.GPUUtil, name):
			want[name] = gpuUtilKind
		case slices.Contains(names.GPUMemory, name):
			want[name] = gpuMemKind
		case slices.Contains(names.GPUPower, name):
			want[name] = gpuPowerKind
		default:
			want[name] = histKind
		}
	}
	return want
}

// readFamilies folds the wanted families dec decodes into r.
func readFamilies(dec expfmt.Decoder, r *reading) error {
	for {
		var mf dto.MetricFamily
		err := decode(dec, &mf)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		f := r.family([]byte(mf.GetName()), mf.GetType(), len(mf.Metric))
		if f == nil {
			continue
		}
		for _, m := range mf.Metric {
			if f.why != "" {
				break
			}
			f.metric(m)
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

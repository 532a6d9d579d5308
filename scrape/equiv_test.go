package scrape

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"
)

// readWhole is how Read read a page before its bounds: decoded whole by
// expfmt (every family, every series), then folded. A protobuf message
// that claims more than the page holds is refused first (expfmt would
// allocate what it claims); a panic of the parser is an error.
func readWhole(b []byte, contentType string, names Names) (Page, []string, error) {
	h := http.Header{}
	h.Set("Content-Type", contentType)
	format := expfmt.ResponseFormat(h)
	if format.FormatType() == expfmt.TypeProtoDelim {
		for rest := b; len(rest) > 0; {
			n, k := binary.Uvarint(rest)
			if k <= 0 || n > uint64(len(rest)-k) {
				return Page{}, nil, errors.New("a message claims more bytes than the page holds")
			}
			rest = rest[k+int(n):]
		}
	}
	p := Page{hists: map[string]Histogram{}, gauges: map[string]gaugeValue{}}
	r := newReading(wanted(names))
	if err := readFamilies(expfmt.NewDecoder(bytes.NewReader(b), format), r); err != nil {
		return p, nil, err
	}
	return p, r.done(&p), nil
}

// sameRead fails t when Read of a page differs from readWhole: wherever
// the whole page decodes, Read reads the same families and says the same
// warnings (in any order: expfmt returns a text page's families in no
// order), unless Read's bounds on a text page left a family out or it
// refused labels without a metric name (expfmt reads them as a sample of
// the line before's family, or dereferences nil).
func sameRead(t *testing.T, page []byte, contentType string) {
	t.Helper()
	want, wantW, err := readWhole(slices.Clone(page), contentType, vllm)
	if err != nil {
		return // Read may read what expfmt refused: it does not decode the families it does not read
	}
	got, gotW, err := Read(bytes.NewReader(page), contentType, vllm)
	bounded := func(ws []string) bool {
		return slices.ContainsFunc(ws, func(w string) bool {
			return strings.Contains(w, "labels (at most") || strings.Contains(w, "read of a page")
		})
	}
	if err != nil && (strings.Contains(err.Error(), "labels (at most") || strings.Contains(err.Error(), "without a metric name")) || bounded(gotW) {
		return
	}
	if err != nil {
		t.Fatalf("Read refuses a page expfmt reads: %v\n%q", err, page)
	}
	slices.Sort(wantW)
	slices.Sort(gotW)
	if fmt.Sprint(got.hists, got.gauges, gotW) != fmt.Sprint(want.hists, want.gauges, wantW) {
		t.Fatalf("Read: %v %v %q\nwhole: %v %v %q\npage %q", got.hists, got.gauges, gotW, want.hists, want.gauges, wantW, page)
	}
}

// protoPage is a delimited protobuf page of families.
func protoPage(t testing.TB, families ...*dto.MetricFamily) []byte {
	var b bytes.Buffer
	for _, mf := range families {
		if _, err := protodelim.MarshalTo(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// seedFamilies are families as engines serve them, and as they should not.
func seedFamilies() []*dto.MetricFamily {
	f := proto.Float64
	u := proto.Uint64
	label := func(v string) []*dto.LabelPair {
		return []*dto.LabelPair{{Name: proto.String("engine"), Value: proto.String(v)}}
	}
	hist := func(count uint64, sum float64, buckets ...float64) *dto.Histogram {
		h := &dto.Histogram{SampleCount: u(count), SampleSum: f(sum)}
		for i := 0; i+1 < len(buckets); i += 2 {
			h.Bucket = append(h.Bucket, &dto.Bucket{UpperBound: f(buckets[i]), CumulativeCount: u(uint64(buckets[i+1]))})
		}
		return h
	}
	floatHist := &dto.Histogram{SampleCountFloat: f(2.5), SampleSum: f(1), Bucket: []*dto.Bucket{{UpperBound: f(1), CumulativeCountFloat: f(2.5)}}}
	return []*dto.MetricFamily{
		{Name: proto.String("vllm:request_queue_time_seconds"), Type: dto.MetricType_HISTOGRAM.Enum(), Metric: []*dto.Metric{
			{Label: label("0"), Histogram: hist(6, 1.2, 0.3, 4, 0.5, 6)}, {Label: label("1"), Histogram: hist(4, 3, 0.3, 0, 0.5, 2)}}},
		{Name: proto.String("vllm:time_to_first_token_seconds"), Type: dto.MetricType_HISTOGRAM.Enum(), Metric: []*dto.Metric{{Histogram: floatHist}, {Histogram: floatHist}}},
		{Name: proto.String("vllm:request_prefill_time_seconds"), Type: dto.MetricType_HISTOGRAM.Enum(), Metric: []*dto.Metric{
			{Histogram: hist(1, 1, 1, 1)}, {Histogram: hist(1, 1, 2, 1)}}},
		{Name: proto.String("vllm:num_requests_waiting"), Type: dto.MetricType_GAUGE.Enum(), Metric: []*dto.Metric{{Gauge: &dto.Gauge{Value: f(3)}}, {Gauge: &dto.Gauge{Value: f(2)}}}},
		{Name: proto.String("vllm:kv_cache_usage_perc"), Type: dto.MetricType_UNTYPED.Enum(), Metric: []*dto.Metric{{Untyped: &dto.Untyped{Value: f(0.5)}}}},
		{Name: proto.String("vllm:request_decode_time_seconds"), Type: dto.MetricType_GAUGE.Enum(), Metric: []*dto.Metric{{Gauge: &dto.Gauge{Value: f(1)}}}},
		{Name: proto.String("python_gc_objects_collected_total"), Type: dto.MetricType_COUNTER.Enum(), Metric: []*dto.Metric{{Counter: &dto.Counter{Value: f(7)}}}},
	}
}

// TestReadAsWhole: the pages of real families, and of families latgate
// leaves out, read as expfmt decodes them whole, as protobuf and as text.
func TestReadAsWhole(t *testing.T) {
	t.Parallel()
	families := seedFamilies()
	page := protoPage(t, families...)
	sameRead(t, page, protoDelim)
	if p, _, err := Read(bytes.NewReader(page), protoDelim, vllm); err != nil || len(p.hists) != 2 || len(p.gauges) != 2 {
		t.Fatalf("err %v, histograms %v, gauges %v: want 2 of each", err, p.hists, p.gauges)
	}
	var text bytes.Buffer
	enc := expfmt.NewEncoder(&text, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range families {
		if err := enc.Encode(mf); err != nil {
			t.Fatal(err)
		}
	}
	sameRead(t, text.Bytes(), "text/plain")
	sameRead(t, []byte(textPage), "text/plain")
}

// FuzzReadProtobuf: whatever the bytes of a protobuf page, Read reads
// what expfmt decodes whole, as it did (it never panics, and refuses only
// what expfmt refuses).
func FuzzReadProtobuf(f *testing.F) {
	families := seedFamilies()
	f.Add(protoPage(f, families...))
	for _, mf := range families {
		f.Add(protoPage(f, mf))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		sameRead(t, page, protoDelim)
		if _, _, err := Read(bytes.NewReader(page), protoDelim, vllm); err != nil {
			if _, _, whole := readWhole(page, protoDelim, vllm); whole == nil {
				t.Fatalf("Read refuses a page expfmt reads: %v", err)
			}
		}
	})
}

// FuzzReadText: whatever a text page, Read of its wanted lines reads what
// expfmt reads of the whole page, within Read's bounds.
func FuzzReadText(f *testing.F) {
	f.Add(textPage)
	f.Add("# TYPE vllm:request_queue_time_seconds histogram\nvllm:request_queue_time_seconds_bucket{le=\"1\"} 1\nother 2\nvllm:request_queue_time_seconds_bucket{le=\"+Inf\"} 1\nvllm:request_queue_time_seconds_count 1\nvllm:request_queue_time_seconds_sum 1\n")
	f.Add("{\"vllm:num_requests_waiting\", engine=\"0\"} 3\n{\"vllm:num_requests_waiting\"} 2\n")
	f.Add("vllm:num_requests_waiting {engine=\"a\\\"=}\"} 1 1700000000\n  vllm:kv_cache_usage_perc\t0.5\n# HELP vllm:kv_cache_usage_perc usage\n")
	f.Fuzz(func(t *testing.T, page string) {
		sameRead(t, []byte(page), "text/plain")
	})
}

package scrape

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"
)

// protoDelim is the Content-Type of a delimited protobuf page.
const protoDelim = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"

// TestReadHostileProtobufLength: a delimited protobuf page whose message
// claims a length far beyond the page (up to 2^64-1) is refused with an
// error, never a panic or an allocation of the length it claims.
func TestReadHostileProtobufLength(t *testing.T) {
	t.Parallel()
	for _, size := range []uint64{1 << 62, 1<<64 - 1, 8 << 30, MaxPage + 1} {
		b := binary.AppendUvarint(nil, size)
		b = append(b, bytes.Repeat([]byte{0}, 64)...)
		_, _, err := Read(bytes.NewReader(b), protoDelim, vllm)
		if err == nil || !strings.Contains(err.Error(), "not a Prometheus metrics page") {
			t.Errorf("a message of %d bytes claimed: err %v, want the page refused", size, err)
		}
	}
}

// TestReadProtobufPage: a well-formed delimited protobuf page still reads.
func TestReadProtobufPage(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for _, mf := range []*dto.MetricFamily{
		{Name: proto.String("python_gc_objects_collected_total"), Type: dto.MetricType_COUNTER.Enum(), Metric: []*dto.Metric{{Counter: &dto.Counter{Value: proto.Float64(7)}}}},
		{Name: proto.String("vllm:num_requests_waiting"), Type: dto.MetricType_GAUGE.Enum(), Metric: []*dto.Metric{{Gauge: &dto.Gauge{Value: proto.Float64(3)}}, {Gauge: &dto.Gauge{Value: proto.Float64(2)}}}},
	} {
		if _, err := protodelim.MarshalTo(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	p, warnings, err := Read(&b, protoDelim, vllm)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	if g := p.gauges["vllm:num_requests_waiting"]; g.sum != 5 || g.max != 3 {
		t.Errorf("waiting = %+v, want sum 5, max 3", g)
	}
}

// TestReadGaugeSumOverflow: a gauge whose series are each finite but sum
// beyond float64 (two of 1e308) is left out with a warning: its +Inf
// could not be written to a results file (JSON has no infinity).
func TestReadGaugeSumOverflow(t *testing.T) {
	t.Parallel()
	page := "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{e=\"0\"} 1e308\nvllm:num_requests_waiting{e=\"1\"} 1e308\n"
	p, warnings, err := Read(strings.NewReader(page), "text/plain", vllm)
	if err != nil || len(p.gauges) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0], "vllm:num_requests_waiting") {
		t.Errorf("err %v, gauges %+v, warnings %q: want the gauge left out and said", err, p.gauges, warnings)
	}
}

// TestMedianOfLargeGauges: the median of two samples of 1e308 is 1e308,
// not the +Inf their sum overflows to.
func TestMedianOfLargeGauges(t *testing.T) {
	t.Parallel()
	if m := median([]float64{1e308, 1e308}); m != 1e308 {
		t.Errorf("median = %v, want 1e308", m)
	}
	if m := median([]float64{1, 2, 4, 8}); m != 3 {
		t.Errorf("median = %v, want 3", m)
	}
}

// TestReadProtobufSeriesWithoutHistogram: a series of a histogram family
// without its histogram is a histogram of nothing (it panicked on the
// missing message).
func TestReadProtobufSeriesWithoutHistogram(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	mf := &dto.MetricFamily{Name: proto.String("vllm:request_queue_time_seconds"), Type: dto.MetricType_HISTOGRAM.Enum(), Metric: []*dto.Metric{{}}}
	if _, err := protodelim.MarshalTo(&b, mf); err != nil {
		t.Fatal(err)
	}
	p, warnings, err := Read(&b, protoDelim, vllm)
	if h := p.hists["vllm:request_queue_time_seconds"]; err != nil || len(warnings) > 0 || h.Count != 0 || len(h.Counts) != 1 {
		t.Errorf("err %v, warnings %v, histogram %+v: want a histogram of no observations", err, warnings, h)
	}
}

// TestReadProtobufFamilyGivenAgain: a family given by several messages is
// read as one, its series together (as expfmt's text parser reads a
// family's lines wherever they are); given again and again of the wrong
// type, or as two types, it is left out with one warning that says how
// many times the page gave it.
func TestReadProtobufFamilyGivenAgain(t *testing.T) {
	t.Parallel()
	waiting := func(typ dto.MetricType, values ...float64) *dto.MetricFamily {
		mf := &dto.MetricFamily{Name: proto.String("vllm:num_requests_waiting"), Type: typ.Enum()}
		for _, v := range values {
			mf.Metric = append(mf.Metric, &dto.Metric{Gauge: &dto.Gauge{Value: proto.Float64(v)}})
		}
		return mf
	}
	p, warnings, err := Read(bytes.NewReader(protoPage(t, waiting(dto.MetricType_GAUGE, 3), waiting(dto.MetricType_GAUGE, 2, 1))), protoDelim, vllm)
	if g := p.gauges["vllm:num_requests_waiting"]; err != nil || len(warnings) > 0 || g.sum != 6 || g.max != 3 {
		t.Errorf("given twice: err %v, warnings %q, gauge %+v: want sum 6, max 3", err, warnings, g)
	}
	for _, tt := range []struct {
		fams []*dto.MetricFamily
		want string
	}{
		{[]*dto.MetricFamily{waiting(dto.MetricType_COUNTER, 1), waiting(dto.MetricType_COUNTER), waiting(dto.MetricType_COUNTER, 2)},
			"vllm:num_requests_waiting is a COUNTER, not a gauge (the page gives the family 3 times)"},
		{[]*dto.MetricFamily{waiting(dto.MetricType_GAUGE, 1), waiting(dto.MetricType_COUNTER, 1)},
			"vllm:num_requests_waiting is given as a GAUGE and as a COUNTER (the page gives the family 2 times)"},
		{[]*dto.MetricFamily{waiting(dto.MetricType_GAUGE, make([]float64, MaxSeries)...), waiting(dto.MetricType_GAUGE, 1, 2)},
			"vllm:num_requests_waiting has 4098 series (at most 4096 are read) (the page gives the family 2 times)"},
	} {
		p, warnings, err := Read(bytes.NewReader(protoPage(t, tt.fams...)), protoDelim, vllm)
		if _, ok := p.gauges["vllm:num_requests_waiting"]; err != nil || ok || len(warnings) != 1 || warnings[0] != tt.want {
			t.Errorf("err %v, read %v, warnings %q, want %q", err, ok, warnings, tt.want)
		}
	}
}

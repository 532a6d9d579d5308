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

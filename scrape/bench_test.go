package scrape

import (
	"fmt"
	"math"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/encoding/protowire"
)

// hostilePages are the worst pages within MaxPage: each many tiny series
// or labels, of a family latgate reads or of one it does not, in each
// format; and the worst a text page may hand the parser (its bounds
// filled with tiny samples, or with samples of MaxLabels labels), the
// page filled up with samples of a family not read.
func hostilePages() []struct{ name, contentType, page string } {
	fillTo := func(limit int, head, line string) string {
		var sb strings.Builder
		sb.WriteString(head)
		for sb.Len()+len(line) <= limit {
			sb.WriteString(line)
		}
		return sb.String()
	}
	fill := func(head, line string) string { return fillTo(MaxPage, head, line) }
	var wanted strings.Builder
	wanted.WriteString("# TYPE vllm:num_requests_waiting gauge\n")
	for i := 0; wanted.Len() < MaxPage-64; i++ {
		fmt.Fprintf(&wanted, "vllm:num_requests_waiting{engine=\"%d\"} 1\n", i)
	}
	var labels strings.Builder
	labels.WriteString("vllm:num_requests_waiting{")
	for i := 0; labels.Len() < MaxPage-16; i++ {
		fmt.Fprintf(&labels, "a%x=\"\",", i)
	}
	labels.WriteString("} 1\n")
	var sixteen strings.Builder
	sixteen.WriteString("vllm:num_requests_waiting{")
	for i := range MaxLabels {
		fmt.Fprintf(&sixteen, "a%x=\"\",", i)
	}
	sixteen.WriteString("} 1\n")
	const om = "application/openmetrics-text; version=1.0.0; charset=utf-8"
	return []struct{ name, contentType, page string }{
		{"text/series", "text/plain", wanted.String()},
		{"text/tiny", "text/plain", fill("", "a 1\n")},
		{"text/labels", "text/plain", labels.String()},
		{"text/bound-tiny", "text/plain", fill(strings.Repeat("vllm:num_requests_waiting 1\n", MaxTextSamples), "a 1\n")},
		{"text/bound-labels", "text/plain", fill(strings.Repeat(sixteen.String(), MaxTextSamples/(MaxLabels+1)), "a 1\n")},
		{"openmetrics/tiny", om, fill("", "a 1\n")},
		// A family read, of the wrong type, its samples filling the page.
		{"text/wrong-type", "text/plain", fill("# TYPE vllm:num_requests_waiting counter\n", "vllm:num_requests_waiting 1\n")},
		{"openmetrics/wrong-type", om, fillTo(MaxPage-6, "# TYPE vllm:num_requests_waiting counter\n", "vllm:num_requests_waiting 1\n") + "# EOF\n"},
		{"protobuf/series", protoDelim, string(tinyProtoFamily("vllm:num_requests_waiting"))},
		{"protobuf/other", protoDelim, string(tinyProtoFamily("a"))},
		// The page filled with messages of one family each, of a name read:
		// of the wrong type; of a gauge of one series; of a histogram of
		// one series of one bucket; of a gauge of NaN; of a gauge and a
		// counter in turn.
		{"protobuf/wrong-type", protoDelim, string(protoMessages(protoFamily("tgi_queue_size", dto.MetricType_COUNTER)))},
		{"protobuf/gauge-messages", protoDelim, string(protoMessages(protoFamily("vllm:num_requests_waiting", dto.MetricType_GAUGE, gaugeSeries(1))))},
		{"protobuf/histogram-messages", protoDelim, string(protoMessages(protoFamily("vllm:request_queue_time_seconds", dto.MetricType_HISTOGRAM, histogramSeries)))},
		{"protobuf/nan-messages", protoDelim, string(protoMessages(protoFamily("vllm:num_requests_waiting", dto.MetricType_GAUGE, gaugeSeries(math.NaN()))))},
		{"protobuf/two-types", protoDelim, string(protoMessages(protoFamily("sglang:num_queue_reqs", dto.MetricType_GAUGE, gaugeSeries(1)), protoFamily("sglang:num_queue_reqs", dto.MetricType_COUNTER)))},
	}
}

// protoFamily is one delimited message of a family: its name, its type
// and its series (each a Metric message).
func protoFamily(name string, typ dto.MetricType, series ...[]byte) []byte {
	msg := protowire.AppendTag(nil, 1, protowire.BytesType)
	msg = protowire.AppendString(msg, name)
	msg = protowire.AppendTag(msg, 3, protowire.VarintType)
	msg = protowire.AppendVarint(msg, uint64(typ))
	for _, m := range series {
		msg = protowire.AppendTag(msg, 4, protowire.BytesType)
		msg = protowire.AppendBytes(msg, m)
	}
	return protowire.AppendBytes(nil, msg)
}

// gaugeSeries is a Metric message of a gauge of value v.
func gaugeSeries(v float64) []byte {
	g := protowire.AppendTag(nil, 1, protowire.Fixed64Type)
	g = protowire.AppendFixed64(g, math.Float64bits(v))
	m := protowire.AppendTag(nil, 2, protowire.BytesType)
	return protowire.AppendBytes(m, g)
}

// histogramSeries is a Metric message of a histogram of one observation
// in one bucket (le 1).
var histogramSeries = func() []byte {
	bk := protowire.AppendTag(nil, 1, protowire.VarintType)
	bk = protowire.AppendVarint(bk, 1)
	bk = protowire.AppendTag(bk, 2, protowire.Fixed64Type)
	bk = protowire.AppendFixed64(bk, math.Float64bits(1))
	h := protowire.AppendTag(nil, 1, protowire.VarintType)
	h = protowire.AppendVarint(h, 1)
	h = protowire.AppendTag(h, 2, protowire.Fixed64Type)
	h = protowire.AppendFixed64(h, math.Float64bits(0.5))
	h = protowire.AppendTag(h, 3, protowire.BytesType)
	h = protowire.AppendBytes(h, bk)
	m := protowire.AppendTag(nil, 7, protowire.BytesType)
	return protowire.AppendBytes(m, h)
}()

// protoMessages is a page of the messages given, in turn, as many as
// MaxPage holds.
func protoMessages(msgs ...[]byte) []byte {
	var page []byte
	for i := 0; len(page)+len(msgs[i%len(msgs)]) <= MaxPage; i++ {
		page = append(page, msgs[i%len(msgs)]...)
	}
	return page
}

// tinyProtoFamily is a delimited protobuf page of one gauge family name
// of as many series as MaxPage holds, each an empty gauge (4 bytes): a
// million series.
func tinyProtoFamily(name string) []byte {
	msg := protowire.AppendTag(nil, 1, protowire.BytesType)
	msg = protowire.AppendString(msg, name)
	msg = protowire.AppendTag(msg, 3, protowire.VarintType)
	msg = protowire.AppendVarint(msg, 1) // GAUGE
	for series := []byte{0x22, 0x02, 0x12, 0x00}; len(msg)+len(series)+8 <= MaxPage; {
		msg = append(msg, series...)
	}
	return protowire.AppendBytes(nil, msg)
}

// BenchmarkReadHostilePage: the time and memory of a scrape of each of
// the worst pages, read for every engine's names (docs/performance.md).
func BenchmarkReadHostilePage(b *testing.B) {
	for _, p := range hostilePages() {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Read(strings.NewReader(p.page), p.contentType, AnyEngine()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(p.page)), "page-B")
		})
	}
}

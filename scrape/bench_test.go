package scrape

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// hostilePages are the worst pages within MaxPage: each many tiny series
// or labels, of a family latgate reads or of one it does not, in each
// format; and the worst a text page may hand the parser (its bounds
// filled with tiny samples, or with samples of MaxLabels labels), the
// page filled up with samples of a family not read.
func hostilePages() []struct{ name, contentType, page string } {
	fill := func(head, line string) string {
		var sb strings.Builder
		sb.WriteString(head)
		for sb.Len()+len(line) <= MaxPage {
			sb.WriteString(line)
		}
		return sb.String()
	}
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
		{"protobuf/series", protoDelim, string(tinyProtoFamily("vllm:num_requests_waiting"))},
		{"protobuf/other", protoDelim, string(tinyProtoFamily("a"))},
	}
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
// the worst pages (docs/performance.md).
func BenchmarkReadHostilePage(b *testing.B) {
	for _, p := range hostilePages() {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Read(strings.NewReader(p.page), p.contentType, vllm); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(p.page)), "page-B")
		})
	}
}

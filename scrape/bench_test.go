package scrape

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadHostilePage: a page of MaxPage bytes, every line a series
// of a wanted family (the worst case of the bound): its time and memory.
func BenchmarkReadHostilePage(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# TYPE vllm:num_requests_waiting gauge\n")
	for i := 0; sb.Len() < MaxPage-64; i++ {
		fmt.Fprintf(&sb, "vllm:num_requests_waiting{engine=\"%d\"} 1\n", i)
	}
	page := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		if _, w, err := Read(strings.NewReader(page), "text/plain", vllm); err != nil || len(w) != 1 {
			b.Fatal(err, w)
		}
	}
}

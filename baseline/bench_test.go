package baseline

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
)

// BenchmarkResults100k measures what a run of 100,000 requests keeps in
// memory and writes, as output tokens per request grow.
func BenchmarkResults100k(b *testing.B) {
	for _, tokens := range []int{16, 128} {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			const n = 100_000
			rec := probe.Record{OK: true, Status: 200, TTFT: 400 * time.Millisecond, TTFC: 400 * time.Millisecond,
				Total: 2 * time.Second, Perceived: 400 * time.Millisecond, TPOT: 12 * time.Millisecond, MaxStall: 40 * time.Millisecond,
				TTFB: 100 * time.Millisecond, FirstEvent: 101 * time.Millisecond, OutputTokens: tokens, TokensSource: "usage"}
			rec.ITL = make([]time.Duration, tokens-1)
			for i := range rec.ITL {
				rec.ITL[i] = time.Duration(11_000_000 + 37_123*i)
			}
			path := filepath.Join(b.TempDir(), "r.json")
			for i := 0; i < b.N; i++ {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				f := &File{Schema: Schema, MetricsVersion: MetricsVersion, Runs: []Run{{Endpoint: "e", Scenario: "s"}}}
				f.Runs[0].Requests = make([]Request, 0, n)
				for j := 0; j < n; j++ {
					f.Runs[0].Requests = append(f.Runs[0].Requests, FromRecord(rec))
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				if err := Write(path, f); err != nil {
					b.Fatal(err)
				}
				st, _ := os.Stat(path)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-held")
				b.ReportMetric(float64(st.Size())/(1<<20), "MiB-file")
				runtime.KeepAlive(f)
			}
		})
	}
}

package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
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
				f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{{Endpoint: "e", Scenario: "s"}}}
				f.Runs[0].Requests = make([]results.Request, 0, n)
				for j := 0; j < n; j++ {
					f.Runs[0].Requests = append(f.Runs[0].Requests, requestOf(rec))
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				if err := fileio.Write(path, f); err != nil {
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

func TestRequestOf(t *testing.T) {
	t.Parallel()
	rec := probe.Record{OK: true, Status: 200, TTFT: 402500 * time.Microsecond, TTFC: probe.Missing, Total: 1530900*time.Microsecond + 400,
		TPOT: probe.Missing, ITL: []time.Duration{9 * time.Millisecond}, TTFB: probe.Missing, FirstEvent: probe.Missing,
		Perceived: probe.Missing, MaxStall: probe.Missing, OutputTokens: 1, TokensSource: "events"}
	q := requestOf(rec)
	if q.TTFTMs == nil || *q.TTFTMs != 402.5 {
		t.Errorf("ttft_ms = %v, want 402.5", q.TTFTMs)
	}
	if q.TotalMs == nil || *q.TotalMs != 1530.9 {
		t.Errorf("total_ms = %v, want 1530.9 (rounded to the microsecond)", q.TotalMs)
	}
	for name, v := range map[string]*float64{"ttfc_ms": q.TTFCMs, "tpot_ms": q.TPOTMs, "ttfb_ms": q.TTFBMs, "perceived_ms": q.PerceivedMs} {
		if v != nil {
			t.Errorf("%s = %v, want null for a time not observed", name, *v)
		}
	}
	if len(q.ITLMs) != 1 || q.ITLMs[0] != 9 {
		t.Errorf("itl_ms = %v, want [9]", q.ITLMs)
	}
}

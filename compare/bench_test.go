package compare

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// benchSizes are the requests per side BenchmarkCompare runs; the scaling
// table in docs/performance.md uses -bench-sizes 1000,10000,100000.
var benchSizes = flag.String("bench-sizes", "1000,10000", "requests per side for BenchmarkCompare, comma-separated")

// BenchmarkCompare is one suite of 20 scenarios at n requests per side,
// 2000 permutations and 1000 bootstrap resamples (the defaults):
// "unchanged" has no change anywhere (most pull requests), "changed" has
// five scenarios 30% slower, so some checks' p-values decide their status
// (settled after the first batch of permutations); "changed-all-2000"
// draws all 2000 permutations, the sequential drawing's worst case.
// peak-MB is the largest live heap seen while comparing, inputs included;
// inputs-MB is the heap the samples alone take.
func BenchmarkCompare(b *testing.B) {
	for _, f := range strings.Split(*benchSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			b.Fatalf("-bench-sizes: %v", err)
		}
		for _, tc := range []struct {
			name          string
			changed, full bool
		}{{"unchanged", false, false}, {"changed", true, false}, {"changed-all-2000", true, true}} {
			changed := tc.changed
			b.Run(fmt.Sprintf("n=%d/%s", n, tc.name), func(b *testing.B) {
				if tc.full {
					// The worst case of the sequential drawing: every
					// permutation, as when a p-value sits near alpha.
					defer func(f int) { firstBatch = f }(firstBatch)
					firstBatch = 0
				}
				rng := rand.New(rand.NewPCG(1, 2))
				var runs []Pair
				for i := range 20 {
					cur := realistic()
					if changed && i%4 == 0 {
						cur.scale = 1.3
					}
					runs = append(runs, Pair{Endpoint: "e", Scenario: fmt.Sprint(i), Base: realistic().sample(n, rng), Head: cur.sample(n, rng)})
				}
				c := cfg()
				c.Permutations, c.Bootstrap = 2000, 1000
				runtime.GC()
				s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
				metrics.Read(s)
				inputs := s[0].Value.Uint64()
				peak := watchHeap()
				b.ResetTimer()
				var res Result
				for range b.N {
					res = Compare(runs, c)
				}
				b.StopTimer()
				b.ReportMetric(float64(peak())/(1<<20), "peak-MB")
				b.ReportMetric(float64(inputs)/(1<<20), "inputs-MB")
				b.ReportMetric(float64(res.Permutations), "perms")
				if want := map[bool]vocab.Verdict{false: vocab.Pass, true: vocab.Fail}[changed]; res.Verdict != want {
					b.Fatalf("verdict %s, want %s", res.Verdict, want)
				}
			})
		}
	}
}

// watchHeap samples the live heap every millisecond until the returned
// function is called, which reports the largest value seen.
func watchHeap() func() uint64 {
	runtime.GC()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

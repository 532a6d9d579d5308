package workload

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// writeMooncake writes a synthetic Mooncake trace of n lines, about 8
// hash_ids each, into dir.
func writeMooncake(tb testing.TB, dir string, n int) string {
	tb.Helper()
	path := filepath.Join(dir, "trace.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range n {
		in := 200 + (i*7919)%8000
		fmt.Fprintf(w, `{"timestamp":%d,"input_length":%d,"output_length":%d,"hash_ids":[`, i*3, in, 10+i%500)
		for j := range 8 {
			if j > 0 {
				w.WriteByte(',')
			}
			fmt.Fprint(w, (i%1000)*8+j)
		}
		w.WriteString("]}\n")
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	return path
}

func openFile(path string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

// peakHeap samples the live heap every 2 ms until stop is called.
func peakHeap() (stop func() uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() uint64 { close(done); wg.Wait(); return peak }
}

// TestSampleScale: a 1,000,000-line Mooncake trace (200,000 with -short)
// is drawn (n 400) with a peak heap far below its size: the draw keeps
// n entries per bucket, not the trace. Memory, not time, is asserted
// (time depends on the load; BenchmarkSample measures it).
func TestSampleScale(t *testing.T) {
	n := 1_000_000
	if testing.Short() || raceOn {
		n = 200_000
	}
	path := writeMooncake(t, t.TempDir(), n)
	runtime.GC()
	stop := peakHeap()
	start := time.Now()
	d, err := Sample(openFile(path), path, "", 400)
	took := time.Since(start)
	peak := stop()
	if err != nil {
		t.Fatal(err)
	}
	if d.Lines != n || len(d.Entries) != 400 || len(d.Strata) != 4 {
		t.Fatalf("drew %d of %d, %d strata", len(d.Entries), d.Lines, len(d.Strata))
	}
	t.Logf("%d lines: %v, peak heap %.1f MB", n, took, float64(peak)/1e6)
	if peak > 200e6 {
		t.Errorf("peak heap %.1f MB, want at most 200 MB", float64(peak)/1e6)
	}
}

// BenchmarkSample draws 400 from a 1,000,000-line Mooncake trace.
func BenchmarkSample(b *testing.B) {
	path := writeMooncake(b, b.TempDir(), 1_000_000)
	b.ResetTimer()
	for range b.N {
		if _, err := Sample(openFile(path), path, "", 400); err != nil {
			b.Fatal(err)
		}
	}
}

package proxy

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchUpstream streams ?n= SSE events ?gap= apart, each carrying the time
// it was sent (ns since base), then holds the stream open while ?hold is
// set, until the client leaves.
func benchUpstream(b *testing.B, base time.Time) *httptest.Server {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		n, _ := strconv.Atoi(q.Get("n"))
		gap, _ := time.ParseDuration(q.Get("gap"))
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		_ = rc.Flush()
		for range n {
			time.Sleep(gap)
			_, _ = fmt.Fprintf(w, "data: %d\n\n", time.Since(base).Nanoseconds())
			_ = rc.Flush()
		}
		if q.Has("hold") {
			<-r.Context().Done()
		}
	}))
	b.Cleanup(up.Close)
	return up
}

// chunkLatencies reads a stream of n events and returns each event's time
// from its send to its read by the client.
func chunkLatencies(b *testing.B, url string, n int, base time.Time) []time.Duration {
	resp, err := http.Get(fmt.Sprintf("%s/stream?n=%d&gap=200us", url, n))
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	out := make([]time.Duration, 0, n)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			sent, _ := strconv.ParseInt(v, 10, 64)
			out = append(out, time.Since(base)-time.Duration(sent))
		}
	}
	if len(out) != n {
		b.Fatalf("read %d events of %d (%v)", len(out), n, sc.Err())
	}
	return out
}

func quantile(d []time.Duration, q float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[int(q*float64(len(s)-1))].Microseconds())
}

// BenchmarkProxyStream: b.N SSE events 200 µs apart on the real loopback,
// read directly and through the proxy; each event's send-to-read latency.
// added-p50/p95 are the proxied quantiles less the direct ones: the
// proxy's own latency per chunk (its read, write and flush and one more
// loopback hop). Run with -benchtime=5000x (docs/performance.md).
func BenchmarkProxyStream(b *testing.B) {
	base := time.Now()
	up := benchUpstream(b, base)
	p, err := Start(context.Background(), Config{Name: "bench", Listen: "127.0.0.1:0", To: up.URL})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	b.ResetTimer()
	direct := chunkLatencies(b, up.URL, b.N, base)
	proxied := chunkLatencies(b, p.URL(), b.N, base)
	b.StopTimer()
	for _, q := range []float64{0.5, 0.95} {
		name := fmt.Sprintf("p%.0f", q*100)
		b.ReportMetric(quantile(direct, q), "direct-"+name+"-µs")
		b.ReportMetric(quantile(proxied, q), "proxied-"+name+"-µs")
		b.ReportMetric(quantile(proxied, q)-quantile(direct, q), "added-"+name+"-µs")
	}
	ev := p.Events()
	b.ReportMetric(float64(ev[0].HeaderAdded.Microseconds()), "header-added-µs")
	b.ReportMetric(float64(ev[0].FirstByteAdded.Microseconds()), "firstbyte-added-µs")
}

// BenchmarkProxyStreamMemory: 500 streams held open at once, directly and
// through the proxy; the difference of the process's heap and stacks in
// use, per stream, is the proxy's memory per stream (its buffer, its
// connections' buffers, its goroutines). Run with -benchtime=1x.
func BenchmarkProxyStreamMemory(b *testing.B) {
	const streams = 500
	base := time.Now()
	up := benchUpstream(b, base)
	p, err := Start(context.Background(), Config{Name: "bench", Listen: "127.0.0.1:0", To: up.URL})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = p.Close() }()
	tr := &http.Transport{MaxIdleConnsPerHost: streams, MaxConnsPerHost: 0}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	inUse := func(url string) uint64 {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for range streams {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/s?n=1&gap=0s&hold=1", nil)
				resp, err := c.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = bufio.NewReader(resp.Body).ReadString('\n')
			}()
		}
		wg.Wait() // every stream open, its first event read
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		cancel()
		tr.CloseIdleConnections()
		time.Sleep(100 * time.Millisecond)
		return m.HeapInuse + m.StackInuse
	}
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for b.Loop() {
		direct := inUse(up.URL)
		proxied := inUse(p.URL())
		b.ReportMetric(float64(int64(proxied)-int64(direct))/streams/1024, "proxy-KiB/stream")
		b.ReportMetric(float64(int64(direct)-int64(m0.HeapInuse+m0.StackInuse))/streams/1024, "direct-KiB/stream")
	}
}

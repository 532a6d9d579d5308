package probe

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"
)

// streamBody renders an OpenAI-style stream of n content events.
func streamBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant"}}]}` + "\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" word%d"}}]}`+"\n\n", i)
	}
	b.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	fmt.Fprintf(&b, `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":%d,"total_tokens":%d}}`+"\n\n", n, n+5)
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// memTransport answers every request with the same stream, in memory.
type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(m.body)), Request: r}, nil
}

// BenchmarkProbeEvents measures the probe's own cost per SSE event: SSE
// decoding, chunk JSON decoding and timing, with no network.
func BenchmarkProbeEvents(b *testing.B) {
	for _, n := range []int{64, 1024} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			p := &Prober{Client: &http.Client{Transport: memTransport{streamBody(n)}}}
			req := Request{URL: "http://mem/v1/chat/completions", Body: []byte(`{}`)}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if rec := p.Do(context.Background(), req); !rec.OK {
					b.Fatal(rec.Error)
				}
			}
			events := float64(b.N * (n + 4))
			b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
			// CPU time (GC included) rather than elapsed time: on a shared
			// machine it is the steadier measure of the probe's own cost.
			b.ReportMetric(float64(cpuTime()-c0)/events, "cpu-ns/event")
		})
	}
}

// BenchmarkRecordMemory measures what a run keeps per request as output
// tokens grow (the per-request itl list is the only part that grows).
func BenchmarkRecordMemory(b *testing.B) {
	for _, tokens := range []int{16, 128, 1024} {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			const requests = 2000
			var before, after runtime.MemStats
			for i := 0; i < b.N; i++ {
				runtime.GC()
				runtime.ReadMemStats(&before)
				recs := make([]Record, requests)
				for j := range recs {
					recs[j] = newRecord()
					recs[j].ITL = make([]time.Duration, tokens-1)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/requests, "bytes/request")
				runtime.KeepAlive(recs)
			}
		})
	}
}

// BenchmarkSSEDecoder measures framing and decoding alone: the SSE framer
// and the chat decoder over a stream of 1,024 content events.
func BenchmarkSSEDecoder(b *testing.B) {
	body := streamBody(1024)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		d, dec := newSSEFramer(bytes.NewReader(body)), chatWire.newDecoder()
		for {
			ev, err := d.Next()
			if err != nil {
				break
			}
			if _, err := dec.decode(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
}

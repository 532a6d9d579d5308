package probe

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/vocab"
)

// The soak (make soak; a short one in make fuzz): hostile servers on
// loopback streaming without end, 16 requests at once per kind, each kind
// for -soak-duration. It asserts the bounds docs/performance.md states: the
// process's resident memory grows by less than SoakRSSBound, every request
// ends within its timeout (plus soakSlack), every request fails with the
// kind its stream earns, and no goroutine outlives the run. It runs on the
// wall clock: it measures the machine, it asserts no latency.
//
// Real clock: the short round of make fuzz holds at load average 28–34
// on 2 cores (5 of 5 runs, 2026-12-04): the longest request 3.6 s (bound:
// the 3 s timeout and soakSlack), every request of the event-limit kinds
// at its limit within 2.6 s of its 3 s. make soak held at load average
// 30–32 (1 run): the longest 11.1 s of its 10 s timeout. The short round
// does not hold under -race, which nothing runs it with: the race
// detector slows the streams until no request of 16 reaches 100,000
// events within 3 s, and one Realtime request ended 7 s past its timeout
// (3 of 3 runs failed).
var (
	soak         = flag.Bool("soak", false, "run the soak of hostile streams (make soak)")
	soakDuration = flag.Duration("soak-duration", 30*time.Second, "how long each kind of hostile stream runs")
	soakStreams  = flag.Int("soak-streams", 16, "requests at once")
	soakTimeout  = flag.Duration("soak-timeout", 10*time.Second, "each request's timeout")
)

// SoakRSSBound is the most the soak's resident memory may grow with 16
// hostile streams at once (docs/performance.md): each request holds at
// most MaxEvents events, MaxHeldBytes of text and tool calls and one
// frame of at most MaxLine bytes.
const SoakRSSBound = 1 << 30

// soakSlack is how long after its timeout a request of the soak may end.
// The timeout ends every request's work at once (each read is canceled),
// but 16 hostile streams and their servers saturate the machine's cores,
// and the canceled request's goroutine then waits for one: measured, at
// most 0.07 s with one stream, 0.8 s with 16 on a 2-core machine, 2.1 s
// when other jobs loaded it too (docs/performance.md). A request that
// hung would never end.
const soakSlack = 5 * time.Second

// soakKind is one hostile server and what its requests must fail with.
type soakKind struct {
	name string
	// want are the failures its requests may end with.
	want []vocab.Failure
	// handler serves the stream; req builds the request to url.
	handler http.Handler
	req     func(url string) Request
}

// endless writes chunk until the client goes away.
func endless(ctype string, head, chunk []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		_, _ = w.Write(head)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
}

func soakKinds() []soakKind {
	sseChunk := func(n int, s string) []byte { return []byte(strings.Repeat(s, n)) }
	chat := func(url string) Request { return Request{API: Chat, URL: url, Body: []byte(`{}`)} }
	params := BodyParams{Messages: []Message{{Role: "user", Content: "hi"}}}
	session := func(api API) func(string) Request {
		return func(url string) Request {
			body, _ := Body(api, params)
			return Request{API: api, URL: url, Body: body, Session: &Session{Params: params, MaxSteps: 5}}
		}
	}
	var toolID atomic.Int64
	tools := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; r.Context().Err() == nil; i++ {
			n := toolID.Add(1)
			if _, err := fmt.Fprintf(w, `data: {"choices":[{"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"t%d","arguments":"{}"}}]}}]}`+"\n\n", i, n, n); err != nil {
				return
			}
		}
	})
	// Whichever comes first: the event cap, or the timeout where 16
	// streams at once cannot bring 100,000 events each within it.
	limit, limitOrTimeout := []vocab.Failure{vocab.EventLimit}, []vocab.Failure{vocab.EventLimit, vocab.Timeout}
	huge := `data: {"choices":[{"delta":{"content":"` + strings.Repeat("z", 4<<20) + `"}}]}` + "\n\n"
	return []soakKind{
		{"SSE: empty chunks", limit, endless("text/event-stream", nil, sseChunk(64, `data: {"choices":[]}`+"\n\n")), chat},
		{"SSE: one-character deltas", limit, endless("text/event-stream", nil, sseChunk(64, `data: {"choices":[{"delta":{"content":"x"}}]}`+"\n\n")), chat},
		{"SSE: 4 MiB deltas", limit, endless("text/event-stream", nil, []byte(huge)), chat},
		{"chat: uniquely named tool calls", []vocab.Failure{vocab.ToolLimit}, tools, session(Chat)},
		{"AI SDK: endless steps", []vocab.Failure{vocab.Malformed}, endless("text/event-stream", []byte("data: {\"type\":\"start\"}\n\n"),
			sseChunk(32, "data: {\"type\":\"start-step\"}\n\ndata: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"x\"}\n\n")), session(AISDK)},
		{"Realtime: unique 8 MiB item ids", []vocab.Failure{vocab.Timeout}, realtimeFlood(8 << 20), realtimeSoakReq},
		{"Realtime: one-character deltas", limitOrTimeout, realtimeFlood(0), realtimeSoakReq},
	}
}

// realtimeFlood answers each response.create with endless events: new
// conversation items with unique ids of idLen bytes, or (0) text deltas.
func realtimeFlood(idLen int) http.Handler {
	pad := []byte(strings.Repeat("i", idLen)) // shared: the server's CPU is not what the soak measures
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"session.created"}`))
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return
			}
			if !strings.Contains(string(data), `"response.create"`) {
				continue
			}
			delta := []byte(`{"type":"response.output_text.delta","delta":"x"}`)
			for i := 0; ; i++ {
				if idLen == 0 {
					if ws.Write(ctx, websocket.MessageText, delta) != nil {
						return
					}
					continue
				}
				mw, err := ws.Writer(ctx, websocket.MessageText)
				if err != nil {
					return
				}
				_, _ = fmt.Fprintf(mw, `{"type":"conversation.item.added","item":{"id":"%d`, i)
				_, _ = mw.Write(pad)
				_, _ = mw.Write([]byte(`"}}`))
				if mw.Close() != nil {
					return
				}
			}
		}
	})
}

func realtimeSoakReq(url string) Request {
	body, _ := Body(Realtime, BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}})
	return Request{API: Realtime, URL: URL(Realtime, Target{BaseURL: strings.Replace(url, "http://", "ws://", 1) + "/v1", Model: "m"}), Body: body}
}

func TestSoak(t *testing.T) {
	if !*soak {
		t.Skip("the soak runs with -soak (make soak)")
	}
	t.Logf("an event is %d bytes; a request holds at most %d of them, %d MiB of text and tool calls, one frame of %d MiB",
		unsafe.Sizeof(event{}), MaxEvents, MaxHeldBytes>>20, MaxLine>>20)
	for _, k := range soakKinds() {
		t.Run(k.name, func(t *testing.T) { soakOne(t, k) })
	}
}

// soakOne runs one kind: soakStreams workers, each sending requests one
// after another until the duration is over.
func soakOne(t *testing.T, k soakKind) {
	srv := httptest.NewServer(k.handler)
	defer srv.Close()
	runtime.GC()
	goroutines, rss0, cpu0 := runtime.NumGoroutine(), residentBytes(), cpuTime()
	peak := &atomic.Int64{}
	stop := sampleRSS(peak)
	p := &Prober{Client: srv.Client(), Timeout: *soakTimeout, StallTimeout: 5 * time.Second, Sockets: NewSockets()}
	var mu sync.Mutex
	kinds, longest, n := map[vocab.Failure]int{}, time.Duration(0), 0
	deadline := time.Now().Add(*soakDuration)
	var wg sync.WaitGroup
	for range *soakStreams {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				start := time.Now()
				rec := p.Do(context.Background(), k.req(srv.URL))
				took := time.Since(start)
				mu.Lock()
				kinds[rec.Failure]++
				longest, n = max(longest, took), n+1
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	p.Sockets.Close()
	stop()
	srv.CloseClientConnections()
	cpu := cpuTime() - cpu0
	grew := peak.Load() - rss0
	t.Logf("%d requests (%v), the longest %s; resident memory +%d MiB at its peak; CPU %.1f s in %s", n, kinds, longest.Round(time.Millisecond), grew>>20, cpu.Seconds(), *soakDuration)
	if grew > SoakRSSBound {
		t.Errorf("resident memory grew by %d MiB, over the bound of %d MiB", grew>>20, SoakRSSBound>>20)
	}
	if longest > *soakTimeout+soakSlack {
		t.Errorf("a request took %s, beyond its timeout of %s", longest, *soakTimeout)
	}
	// Every request fails as its stream earns, or at its timeout when the
	// machine is too busy for the stream to reach its limit in time (the
	// short round's 3 s on loaded cores); never ok, and the limit is
	// reached by some.
	limited, timedOut := 0, kinds[vocab.Timeout]
	for _, f := range k.want {
		limited += kinds[f]
	}
	if slices.Contains(k.want, vocab.Timeout) {
		timedOut = 0
	}
	switch {
	case limited+timedOut != n:
		t.Errorf("failures %v; want every request to fail as one of %v (or at its timeout)", kinds, k.want)
	case limited == 0:
		// CI's rehearsal at load 10, with other tests on both cores: 16 of
		// 16 empty-chunk streams met their 3 s timeout before their limit.
		// The soak's point, memory and time bounded, was checked above;
		// the limits themselves are tested in limits_test.go.
		t.Logf("every request met its timeout before its stream reached %v: the machine was too busy to tell", k.want)
	}
	waitGoroutines(t, goroutines)
}

// residentBytes is the process's resident memory (Linux; 0 elsewhere).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// sampleRSS keeps the peak resident memory, sampled every 20 ms, until stop.
func sampleRSS(peak *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if r := residentBytes(); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// waitGoroutines fails when goroutines outlive the soak (a few seconds to
// let closed connections wind down).
func waitGoroutines(t *testing.T, before int) {
	t.Helper()
	for range 50 {
		if runtime.NumGoroutine() <= before+2 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Errorf("%d goroutines after the soak, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
}

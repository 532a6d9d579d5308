package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// TestForwardsTheRequest: To's prefix + the path and query, the client's
// headers and keys but the hop-by-hop ones, Host the upstream's, the
// body; a redirect passed back, not followed; the response's hop-by-hop
// headers dropped, the stamp added.
func TestForwardsTheRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var hits atomic.Int32
		var seen *http.Request
		var body string
		up := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			b, _ := io.ReadAll(r.Body)
			seen, body = r, string(b)
			w.Header().Set("Location", "http://elsewhere.example/steal")
			w.Header().Set("Connection", "X-Hop")
			w.Header().Set("X-Hop", "1")
			w.Header().Set("X-Up", "2")
			w.WriteHeader(http.StatusFound)
		}))
		p, c := virtual(t, up, Config{To: "/base/"})
		req, _ := http.NewRequest(http.MethodPost, p.URL()+"/v1/chat?x=1&key=a%2Fb", strings.NewReader("hello"))
		for k, v := range map[string]string{"Authorization": "Bearer sk-1", "X-Api-Key": "k2", "Api-Key": "k3", "Connection": "X-Drop",
			"X-Drop": "1", "Keep-Alive": "5", "Proxy-Authorization": "p", "X-Keep": "k", HeaderRequest: "id-1"} {
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if hits.Load() != 1 || seen.RequestURI != "/base/v1/chat?x=1&key=a%2Fb" || seen.Host != strings.TrimPrefix(up.URL, "http://") || body != "hello" {
			t.Fatalf("upstream hit %d times, saw %s %s (Host %s), body %q", hits.Load(), seen.Method, seen.RequestURI, seen.Host, body)
		}
		h := seen.Header
		if h.Get("Authorization") != "Bearer sk-1" || h.Get("X-Api-Key") != "k2" || h.Get("Api-Key") != "k3" || h.Get("X-Keep") != "k" || h.Get(HeaderRequest) != "id-1" {
			t.Errorf("upstream's headers %v", h)
		}
		for _, k := range []string{"X-Drop", "Keep-Alive", "Proxy-Authorization"} {
			if h.Get(k) != "" {
				t.Errorf("hop-by-hop %s forwarded", k)
			}
		}
		rh := resp.Header
		if resp.StatusCode != http.StatusFound || rh.Get("Location") != "http://elsewhere.example/steal" || rh.Get("X-Hop") != "" ||
			rh.Get("X-Up") != "2" || rh.Get(HeaderUpstream) != "primary" {
			t.Errorf("client got %d %v", resp.StatusCode, rh)
		}
	})
}

// TestUpstreamBreaks: a stream the upstream breaks reaches the client
// broken (its bytes, then an error), never as a proper end.
func TestUpstreamBreaks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		up := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("data: a\n\n"))
			http.NewResponseController(w).Flush()
			time.Sleep(20 * time.Millisecond)
			panic(http.ErrAbortHandler)
		}))
		p, c := virtual(t, up, Config{})
		got := record(t.Context(), c, p.URL(), "a", time.Minute)
		if got.body() != "data: a\n\n" || got.err == nil || got.ended != 20*time.Millisecond {
			t.Fatalf("body %q, error %v at %v; want the event, then an error at 20ms", got.body(), got.err, got.ended)
		}
	})
}

// TestUpstreamDown: an upstream that cannot be reached is the proxy's 502
// with a JSON error that says so without the client's query; stamped.
func TestUpstreamDown(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		up := okUpstream(t)
		p, c := virtual(t, up, Config{})
		up.Close()
		st, body, h, err := get(c, p.URL()+"/v1/x?key=sk-secret-in-query", "a")
		var e struct {
			Error struct{ Type, Message string }
		}
		if err != nil || st != http.StatusBadGateway || json.Unmarshal([]byte(body), &e) != nil || e.Error.Type != "latgate_proxy" ||
			!strings.Contains(e.Error.Message, "refused") || strings.Contains(body, "sk-secret") || h.Get(HeaderUpstream) != "primary" {
			t.Fatalf("%d %q %v (%v)", st, body, h, err)
		}
		if ev := p.Events(); len(ev) != 1 || ev[0].Status != 502 {
			t.Errorf("events %+v", ev)
		}
	})
}

// TestEventLogIsBounded: beyond MaxEvents the oldest are dropped and
// counted; Reset empties the log; a long id is cut.
func TestEventLogIsBounded(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p, c := virtual(t, okUpstream(t), Config{MaxEvents: 3})
		ids := func() (out []string) {
			for _, e := range p.Events() {
				out = append(out, e.ID)
			}
			return out
		}
		for i := range 5 {
			if _, _, _, err := get(c, p.URL(), fmt.Sprint("r", i)); err != nil {
				t.Fatal(err)
			}
		}
		if got := ids(); fmt.Sprint(got) != "[r2 r3 r4]" || p.Dropped() != 2 {
			t.Fatalf("events %v, %d dropped; want [r2 r3 r4], 2", got, p.Dropped())
		}
		p.Reset()
		if got := ids(); len(got) != 0 || p.Dropped() != 0 {
			t.Fatalf("after Reset: %v, %d dropped", got, p.Dropped())
		}
		if _, _, _, err := get(c, p.URL(), strings.Repeat("x", 1000)); err != nil {
			t.Fatal(err)
		}
		if got := ids(); len(got) != 1 || got[0] != strings.Repeat("x", maxID) {
			t.Errorf("after Reset: %v", got)
		}
	})
}

// TestEndlessStreamMemoryIsBounded: 64 MiB of an endless stream pass
// through the proxy with less than 1 MiB allocated in all (the test's
// client and upstream allocate nothing per read): nothing accumulates.
// Not parallel: it counts the process's allocations.
func TestEndlessStreamMemoryIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		up := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			b := []byte(strings.Repeat("data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\n", 256))
			rc := http.NewResponseController(w)
			for {
				if _, err := w.Write(b); err != nil || rc.Flush() != nil {
					return
				}
			}
		}))
		p, c := virtual(t, up, Config{})
		resp, err := c.Get(p.URL())
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64<<10)
		read := func(n int) {
			for n > 0 {
				k, err := resp.Body.Read(buf)
				if err != nil {
					t.Fatal(err)
				}
				n -= k
			}
		}
		read(1 << 20) // warm
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		read(64 << 20)
		runtime.ReadMemStats(&after)
		_ = resp.Body.Close()
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
			t.Errorf("64 MiB streamed with %d bytes allocated", alloc)
		}
		_ = p.Close()
	})
}

// TestStartCanceled: Start's context done closes the proxy.
func TestStartCanceled(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		up := okUpstream(t)
		ln := clocktest.Listen("127.0.0.1:9101")
		ctx, cancel := context.WithCancel(t.Context())
		p, err := Start(ctx, Config{Name: "x", Listen: ln.Addr().String(), To: up.URL, Listener: ln})
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		synctest.Wait()
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if _, err := ln.Dial(t.Context()); err == nil || !closed {
			t.Errorf("after cancel: closed %v, dial %v", closed, err)
		}
	})
}

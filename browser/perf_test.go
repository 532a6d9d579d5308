//go:build browser

package browser

import (
	"context"
	"flag"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
)

var perf = flag.Bool("perf", false, "measure the cost of a browser request (docs/performance.md)")

// TestBrowserCostOfARequest measures what a browser request costs on
// this machine (go test -tags browser -run TestBrowserCostOfARequest
// -perf ./browser; docs/performance.md): requests per second at
// concurrency 1 and 4 (one browser, a tab per worker, each in a browser
// context of its own), the page's TTFT and client stage at each, and the
// stream's first text as the browser received it against latgate's own
// HTTP client (api: ai-sdk) on the same route.
func TestBrowserCostOfARequest(t *testing.T) {
	if !*perf {
		t.Skip("a measurement: -perf")
	}
	b := startBrowser(t)
	srv := simChat(t, 150*time.Millisecond, 15*time.Millisecond, 24)
	const n = 40
	for _, workers := range []int{1, 4} {
		o := chatOptions(srv, "")
		o.Done = "[data-status=ready]"
		var pages []*Page
		for range workers {
			pages = append(pages, openPage(t, b, o))
		}
		var mu sync.Mutex
		var ttft, client, wire []float64
		start := time.Now()
		var wg sync.WaitGroup
		for w, p := range pages {
			wg.Go(func() {
				for i := w; i < n; i += workers {
					r := p.Request(context.Background(), []string{"Say something."})
					if !r.OK {
						t.Errorf("%s (%s)", r.Error, r.Failure)
						return
					}
					m := r.Turns[0]
					mu.Lock()
					ttft, client, wire = append(ttft, msOf(m.TTFT)), append(client, msOf(m.Client)), append(wire, msOf(m.Stream.FirstText))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		took := time.Since(start)
		t.Logf("concurrency %d: %d requests in %.1f s = %.2f requests/s; TTFT p50 %.1f p95 %.1f ms; client p50 %.1f p95 %.1f ms; wire first text p50 %.1f ms",
			workers, n, took.Seconds(), float64(n)/took.Seconds(), quantile(ttft, .5), quantile(ttft, .95),
			quantile(client, .5), quantile(client, .95), quantile(wire, .5))
		for _, p := range pages {
			p.Close()
		}
	}
	// latgate's HTTP client on the same route, with useChat's body.
	body, err := probe.Body(probe.AISDK, probe.BodyParams{Messages: []probe.Message{{Role: "user", Content: "Say something."}}})
	if err != nil {
		t.Fatal(err)
	}
	pr := &probe.Prober{Client: &http.Client{}, Timeout: 20 * time.Second}
	var ttfc []float64
	for range n {
		rec := pr.Do(context.Background(), probe.Request{API: probe.AISDK, URL: srv.URL + "/api/chat", Body: body})
		if !rec.OK {
			t.Fatal(rec.Error)
		}
		ttfc = append(ttfc, msOf(rec.TTFC))
	}
	t.Logf("api ai-sdk on the same route: TTFC (first text) p50 %.1f p95 %.1f ms", quantile(ttfc, .5), quantile(ttfc, .95))
}

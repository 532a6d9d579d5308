package gate

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// freePort is a loopback port nothing listens on (the kernel's pick).
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// fallbackRouter is a gateway written for the test (not the product):
// each request goes to the first of targets, and to the next when no
// response header came within timeout, or the status is 5xx; the answer
// is streamed back with the upstream's headers.
func fallbackRouter(targets []string, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		for _, target := range targets {
			ctx, cancel := context.WithCancel(r.Context())
			req, _ := http.NewRequestWithContext(ctx, r.Method, target+r.URL.Path, bytes.NewReader(body))
			req.Header = r.Header.Clone()
			timer := time.AfterFunc(timeout, cancel)
			resp, err := http.DefaultTransport.RoundTrip(req)
			timer.Stop()
			if err != nil || resp.StatusCode >= 500 {
				if resp != nil {
					resp.Body.Close()
				}
				cancel()
				continue
			}
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(resp.StatusCode)
			buf := make([]byte, 4096)
			for {
				n, err := resp.Body.Read(buf)
				w.Write(buf[:n])
				w.(http.Flusher).Flush()
				if err != nil {
					break
				}
			}
			resp.Body.Close()
			cancel()
			return
		}
		http.Error(w, "no upstream answered", http.StatusBadGateway)
	})
}

// TestPhasesThroughAGateway: a scenario's phases through a fallback
// router in front of latgate's two proxies, each before a simulator.
// Healthy and recovered, the primary serves every request; with the
// primary stalled before its first token, the secondary serves every one,
// each failed over after the router's 300 ms, and the phase records its
// fault and the requests it hit. Real time on the loopback (the proxies
// listen on real ports): bounds are generous, held at load 20.
func TestPhasesThroughAGateway(t *testing.T) {
	t.Parallel()
	prof := sim.Profile{TTFT: sim.Fixed(10 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 8}
	sim1, sim2 := httptest.NewServer(sim.New(prof, 1)), httptest.NewServer(sim.New(prof, 2))
	defer sim1.Close()
	defer sim2.Close()
	p1, p2 := freePort(t), freePort(t)
	const timeout = 300 * time.Millisecond
	router := httptest.NewServer(fallbackRouter([]string{"http://127.0.0.1:" + p1, "http://127.0.0.1:" + p2}, timeout))
	defer router.Close()
	text := "endpoints:\n  - {name: gw, base_url: " + router.URL + "/v1, model: m}\n" +
		"scenarios:\n  - name: outage\n    prompt: hi\n    max_tokens: 8\n    warmup: 1\n" +
		"    upstreams:\n      primary: {listen: 127.0.0.1:" + p1 + ", to: " + sim1.URL + "}\n      secondary: {listen: 127.0.0.1:" + p2 + ", to: " + sim2.URL + "}\n" +
		"    phases:\n      - {name: healthy, requests: 6}\n      - {name: down, requests: 6, faults: [{upstream: primary, kind: stall_first_token}]}\n      - {name: recovered, requests: 6}\n" +
		"limits: {timeout: 10s}\n"
	cfg, err := suite.Parse("latgate.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 3 {
		t.Fatalf("%d runs, want one a phase", len(f.Runs))
	}
	for _, r := range f.Runs {
		want := "primary"
		if r.Phase == "down" {
			want = "secondary"
			if len(r.Faults) != 1 || r.Faults[0] != (results.Fault{Upstream: "primary", Kind: vocab.StallFirstToken, Share: 1, Hit: 6}) {
				t.Errorf("down: faults %+v, want the stall on primary, 6 requests hit", r.Faults)
			}
		}
		if r.Scenario != "outage/"+r.Phase || len(r.Requests) != 6 {
			t.Fatalf("run %q (phase %q): %d requests", r.Scenario, r.Phase, len(r.Requests))
		}
		for _, q := range r.Requests {
			if !q.OK || q.Upstream != want {
				t.Errorf("%s: request served by %q (ok %v, %s), want %s", r.Phase, q.Upstream, q.OK, q.Error, want)
			}
			switch fo := q.FailoverMs; {
			case r.Phase != "down" && fo != nil:
				t.Errorf("%s: failover %v ms on a healthy upstream", r.Phase, *fo)
			case r.Phase == "down" && (fo == nil || *fo < 250 || *fo > 1300):
				// The router's 300 ms, less its own connect to the primary,
				// plus its connect to the secondary: 298.984 ms was seen.
				t.Errorf("down: failover %v, want the router's 300 ms (from 50 ms less to a second more)", msOrNil(fo))
			case r.Phase == "down" && *q.TTFTMs < *fo:
				t.Errorf("down: TTFT %v ms before the failover %v ms", *q.TTFTMs, *fo)
			}
		}
	}
	if !strings.Contains(f.Runs[1].Fingerprint, "sha256:") || f.Runs[0].Fingerprint == f.Runs[1].Fingerprint {
		t.Error("a fault phase and a healthy one share a fingerprint")
	}
	for _, port := range []string{p1, p2} { // the proxies did not outlive the run
		l, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Errorf("after the run, port %s: %v", port, err)
			continue
		}
		l.Close()
	}
}

// TestProxyAddressInUse: an upstream whose address another program
// listens on is bad input, before any request.
func TestProxyAddressInUse(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits++ }))
	defer srv.Close()
	text := "endpoints:\n  - {name: gw, base_url: " + srv.URL + "/v1, model: m}\n" +
		"scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      primary: {listen: " + busy.Addr().String() + ", to: " + srv.URL + "}\n"
	cfg, err := suite.Parse("latgate.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Measure(context.Background(), cfg, MeasureOptions{})
	if err == nil || KindOf(err) != BadInput || !strings.Contains(err.Error(), `upstream "primary": listen `+busy.Addr().String()+`: address already in use`) || hits != 0 {
		t.Errorf("error %v (kind %v), %d requests; want bad input before any request", err, KindOf(err), hits)
	}
}

// msOrNil is a time or "null".
func msOrNil(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'f', 1, 64) + " ms"
}

// TestColdSamplesNotCold: cold samples no slower than the warm requests
// say that the server did not start cold; slower ones say nothing.
func TestColdSamplesNotCold(t *testing.T) {
	t.Parallel()
	file := func(cold float64) *results.File {
		r := results.Run{Endpoint: "e", Scenario: "s"}
		for i := range 23 {
			v := 100.0
			q := results.Request{OK: true, TTFTMs: &v, TotalMs: &v}
			if i >= 20 {
				c := cold
				q.TTFTMs, q.TotalMs, q.Cold = &c, &c, true
			}
			r.Requests = append(r.Requests, q)
		}
		return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{r}}
	}
	if w := strings.Join(RunWarnings(file(95)), "\n"); !strings.Contains(w, "s @ e: the cold samples were no slower than the warm requests (cold TTFT p50 95 ms, warm 100 ms)") {
		t.Errorf("cold samples of 95 ms beside 100: %q", w)
	}
	if w := strings.Join(RunWarnings(file(2100)), "\n"); strings.Contains(w, "cold") {
		t.Errorf("cold samples of 2100 ms: %q", w)
	}
}

// TestNotFoundBehindAProxy: a 404 that latgate's fault proxy passed back
// is the upstream's: the diagnosis names the upstream's to, not the
// endpoint's base_url.
func TestNotFoundBehindAProxy(t *testing.T) {
	t.Parallel()
	ep := suite.Endpoint{Name: "gw", BaseURL: "http://127.0.0.1:9101/v1", Model: "m"}
	rec := probe.Record{Status: 404, Failure: vocab.HTTPStatus, Error: "HTTP 404 Not Found"}
	rec.Seen.Upstream = "primary"
	d := diagnose(ep, "http://127.0.0.1:9101/v1/chat/completions", rec)
	if d.Finding != vocab.NotFound || !strings.Contains(d.Says, `the upstream "primary" behind latgate's fault proxy does not serve /v1/chat/completions: its upstreams.primary.to is its address without the API's path`) {
		t.Errorf("diagnosis %+v", d)
	}
	rec.Seen.Upstream = ""
	if d := diagnose(ep, "http://127.0.0.1:9101/v1/chat/completions", rec); strings.Contains(d.Says, "upstream") {
		t.Errorf("without a proxy: %q", d.Says)
	}
}

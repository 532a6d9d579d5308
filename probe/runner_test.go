package probe

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/sim"
)

func group(t *testing.T, srv *httptest.Server, n, warmup, conc int) Group {
	return Group{Request: Request{URL: srv.URL + "/v1/chat/completions", Body: body(t, 0)}, Requests: n, Warmup: warmup, Concurrency: conc}
}

func TestRunnerCountsWarmupAndConcurrency(t *testing.T) {
	s := sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 3}, 1)
	srv := httptest.NewServer(s)
	defer srv.Close()
	warm := 0
	r := &Runner{Prober: &Prober{Client: srv.Client()}, OnRecord: func(_ int, _ Record, w bool) {
		if w {
			warm++
		}
	}}
	start := time.Now()
	res := r.Run(context.Background(), []Group{group(t, srv, 20, 3, 5)})
	if len(res.Groups[0]) != 20 || warm != 3 || res.Sent != 23 || s.Requests() != 23 {
		t.Errorf("measured %d, warmup %d, sent %d, server saw %d; want 20, 3, 23, 23", len(res.Groups[0]), warm, res.Sent, s.Requests())
	}
	// 20 requests of >= 20ms at concurrency 5 need at least 4 rounds.
	if el := time.Since(start); el < 80*time.Millisecond {
		t.Errorf("took %v: more than 5 requests were in flight", el)
	}
}

func TestRunnerCaps(t *testing.T) {
	srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 10}, 1))
	defer srv.Close()
	r := &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxRequests: 7}}
	res := r.Run(context.Background(), []Group{group(t, srv, 5, 0, 1), group(t, srv, 5, 0, 1)})
	if res.Sent != 7 || len(res.Groups[0]) != 5 || len(res.Groups[1]) != 2 || res.Stopped != "stopped early: limits.max_requests (7) reached" {
		t.Errorf("sent %d, groups %d+%d, stopped %q", res.Sent, len(res.Groups[0]), len(res.Groups[1]), res.Stopped)
	}
	r = &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxOutputTokens: 25}}
	res = r.Run(context.Background(), []Group{group(t, srv, 10, 0, 1)})
	if res.Sent != 3 || !strings.Contains(res.Stopped, "max_output_tokens (25)") {
		t.Errorf("sent %d, stopped %q; want 3 requests of 10 tokens", res.Sent, res.Stopped)
	}
}

func TestRunnerInterruptAbortsStreamsPromptly(t *testing.T) {
	// Streams take 5s each; the run is interrupted after 300ms.
	srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(0), ITL: sim.Fixed(100 * time.Millisecond), Tokens: 50}, 1))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	r := &Runner{Prober: &Prober{Client: srv.Client()}}
	start := time.Now()
	res := r.Run(ctx, []Group{group(t, srv, 10, 0, 2)})
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("interrupt took %v to stop in-flight streams", el)
	}
	if !res.Interrupted || len(res.Groups[0]) != 0 {
		t.Errorf("interrupted %v, %d records; want true and no aborted record counted as a failure", res.Interrupted, len(res.Groups[0]))
	}
}

func TestOpenLoopRate(t *testing.T) {
	srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1))
	defer srv.Close()
	g := group(t, srv, 30, 0, 1)
	g.Rate = 100 // 30 arrivals at 100/s: about 0.3s
	r := &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 3}
	start := time.Now()
	res := r.Run(context.Background(), []Group{g})
	el := time.Since(start)
	if len(res.Groups[0]) != 30 {
		t.Fatalf("%d records", len(res.Groups[0]))
	}
	if el < 100*time.Millisecond || el > 2*time.Second {
		t.Errorf("30 Poisson arrivals at 100/s took %v, want roughly 0.3s", el)
	}
}

func TestBodyForVariesEachRequest(t *testing.T) {
	srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1))
	defer srv.Close()
	seen := map[string]bool{}
	g := group(t, srv, 5, 2, 1)
	g.BodyFor = func(i int) []byte {
		b := []byte(strings.Replace(string(body(t, 0)), "hello there", "req "+string(rune('a'+i)), 1))
		seen[string(b)] = true
		return b
	}
	res := (&Runner{Prober: &Prober{Client: srv.Client()}}).Run(context.Background(), []Group{g})
	if len(res.Groups[0]) != 5 || len(seen) != 7 {
		t.Errorf("%d records, %d distinct bodies; want 5 and 7 (warmup included)", len(res.Groups[0]), len(seen))
	}
}

package main

import (
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// TestREADMEAgentScenario: the README's agent scenario, as written, run
// against latgate sim (its default profile, which does not buffer) by a
// client on a loaded machine (it reads every 40ms: a few events a read),
// 40 sessions: every session ok, the budget holds, and no stream is said
// to have arrived buffered; through a buffering proxy (the simulator's
// --buffered) the run stops at its first session, saying so, before it
// measures. On virtual time.
func TestREADMEAgentScenario(t *testing.T) {
	scenario := readmeBlock(t, "yaml", "lookup_order")
	t.Chdir(t.TempDir())
	for _, held := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			p, err := sim.Named("realistic")
			if err != nil {
				t.Fatal(err)
			}
			p.Quirks.Buffered = held
			srv := clocktest.NewServer(t, sim.New(p, 1))
			srv.ReadEvery = 40 * time.Millisecond
			onLoopback(t, srv.Client())
			cfg := "endpoints:\n  - {name: main, base_url: " + srv.URL + "/v1, model: sim}\n" + scenario
			if err := os.WriteFile("latgate.yaml", []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, nil, "run", "--requests", "40")
			out := r.stdout + r.stderr
			if held {
				if r.code != 3 || !strings.Contains(r.stderr, "stopped the run before measuring: buffered: ") || strings.Contains(out, "order-status  40/40") {
					t.Errorf("buffered: exit %d, want 3: the run stopped at its first request, saying the stream was buffered:\n%s", r.code, out)
				}
				return
			}
			if r.code != 0 || !strings.Contains(out, "order-status  40/40") || !strings.Contains(out, "the budget holds") || strings.Contains(out, "buffered") {
				t.Fatalf("not buffered: exit %d:\n%s", r.code, out)
			}
		})
	}
}

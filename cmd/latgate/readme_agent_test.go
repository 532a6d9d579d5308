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
// --buffered) every one is. On virtual time.
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
			if r.code != 0 || !strings.Contains(out, "order-status  40/40") || !strings.Contains(out, "the budget holds") {
				t.Fatalf("buffered %v: exit %d:\n%s", held, r.code, out)
			}
			if want := "40 of 40 streams arrived buffered"; held != strings.Contains(out, want) || (!held && strings.Contains(out, "buffered")) {
				t.Errorf("buffered %v: want %v %q:\n%s", held, held, want, out)
			}
		})
	}
}

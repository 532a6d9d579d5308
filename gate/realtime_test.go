package gate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// measureRealtime measures 10 requests (after one warm-up) of a realtime
// endpoint on the simulator: a 3 ms dial, a 5 ms upgrade, a 100 ms TTFT.
func measureRealtime(t *testing.T, cold bool) results.Run {
	s := sim.New(sim.Profile{HeaderDelay: 5 * time.Millisecond, TTFT: sim.Fixed(100 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond), Tokens: 8}, 1)
	srv := clocktest.NewServer(t, s)
	srv.Connect = 3 * time.Millisecond
	limits := ""
	if cold {
		limits = "limits: {cold_connections: true}\n"
	}
	cfgText := `endpoints:
  - {name: voice, api: realtime, base_url: ` + strings.Replace(srv.URL, "http:", "ws:", 1) + `/v1, model: m}
scenarios:
  - {name: hello, prompt: "Say hello.", requests: 10, warmup: 1}
` + limits
	cfg, err := suite.Parse("rt.yaml", []byte(cfgText), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return f.Runs[0]
}

// By default a realtime connection is reused, as HTTP keep-alive is: after
// the warm-up no request opens one, and TTFT is the server's. With
// cold_connections every request opens its own: the Network stage is the
// dial and the upgrade (3 + 5 ms), and TTFT includes it.
func TestRealtimeConnections(t *testing.T) {
	t.Parallel()
	for _, cold := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			run := measureRealtime(t, cold)
			ttft, network := 100.0, 0.0
			if cold {
				ttft, network = 108, 8
			}
			for i, q := range run.Requests {
				if !q.OK || *q.TTFTMs != ttft || q.Reused == cold || q.ConnectMs+q.UpgradeMs != network || q.Status != 101 {
					t.Errorf("cold %v: request %d: ok %v (%s), ttft %v, reused %v, connect %v + upgrade %v, status %d",
						cold, i, q.OK, q.Error, *q.TTFTMs, q.Reused, q.ConnectMs, q.UpgradeMs, q.Status)
				}
			}
			b := report.Describe(&run)
			if b.Network.P50 != network || b.ColdConns != map[bool]int{false: 0, true: 10}[cold] {
				t.Errorf("cold %v: Network p50 %v, %d new connections", cold, b.Network.P50, b.ColdConns)
			}
		})
	}
}

func TestUnknownEventsWarn(t *testing.T) {
	t.Parallel()
	f := &results.File{Runs: []results.Run{{Scenario: "s", Endpoint: "voice", Requests: []results.Request{{OK: true, UnknownEvents: 2}, {UnknownEvents: 1}}}}}
	w := RunWarnings(f)
	if len(w) != 1 || !strings.Contains(w[0], "s @ voice: the server sent 3 events of types latgate does not know") {
		t.Errorf("warnings %q", w)
	}
}

// ab works on realtime endpoints as on any other: an A/A run passes, a
// head 30% slower fails, interleaved on reused connections.
func TestRealtimeAB(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a few hundred simulated requests")
	}
	t.Parallel()
	th, err := CompareConfig(nil, Overrides{MinDelta: "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	th.Bootstrap = -1
	variant := func(t *testing.T, slowdown float64, seed uint64) (*suite.Config, *http.Client) {
		s := sim.New(sim.Profile{HeaderDelay: 2 * time.Millisecond, TTFT: sim.LogNormal(100*time.Millisecond, 0.2),
			ITL: sim.LogNormal(10*time.Millisecond, 0.2), Tokens: 16, Speed: sim.Speed{Slowdown: slowdown}}, seed)
		srv := clocktest.NewServer(t, s)
		cfg, err := suite.Parse("rt.yaml", []byte(`endpoints:
  - {name: voice, api: realtime, base_url: `+strings.Replace(srv.URL, "http:", "ws:", 1)+`/v1, model: m}
scenarios:
  - {name: turn, prompt: "Say hello.", requests: 60}
`), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return cfg, srv.Client() // it dials every server of the test
	}
	for _, tt := range []struct {
		slowdown float64
		verdict  vocab.Verdict
	}{{0, "pass"}, {0.3, "fail"}} {
		synctest.Test(t, func(t *testing.T) {
			base, client := variant(t, 0, 4)
			head, _ := variant(t, tt.slowdown, 5)
			f, err := MeasureAB(context.Background(), base, head, MeasureOptions{Client: client, Thresholds: &th})
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range f.Runs {
				for _, q := range run.Requests {
					if !q.OK || !q.Reused {
						t.Fatalf("%s: ok %v (%s), reused %v", run.Variant, q.OK, q.Error, q.Reused)
					}
				}
			}
			if res := CompareRuns(f, compare.Pairs(results.MatchVariants(f)), th); res.Verdict != tt.verdict {
				t.Errorf("slowdown %v: verdict %s, want %s", tt.slowdown, res.Verdict, tt.verdict)
			}
		})
	}
}

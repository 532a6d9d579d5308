package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// adaptiveSuite is a one-scenario suite against a simulator with
// requests: {min: 40, max: 200}, on the in-memory loopback of the test's
// synctest bubble: the measured latencies are the simulator's draws,
// exactly, however loaded the machine. The client reaches every simulator
// of the test.
func adaptiveSuite(t *testing.T, slowdown float64, seed uint64) (*suite.Config, *http.Client) {
	t.Helper()
	srv := clocktest.NewServer(t, sim.New(sim.Profile{
		TTFT: sim.LogNormal(150*time.Millisecond, 0.2), ITL: sim.LogNormal(3*time.Millisecond, 0.2), Tokens: 10,
		Speed: sim.Speed{Slowdown: slowdown},
	}, seed))
	text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
		"scenarios:\n  - {name: chat, prompt: hi, max_tokens: 10, requests: {min: 40, max: 200}, warmup: 2, concurrency: 8}\n" +
		// 25 ms: a 30% slower TTFT (45 ms) is beyond it.
		"regression: {min_delta: 25ms}\n"
	cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg, srv.Client()
}

// TestAdaptiveGateAgainstTheSimulator: a baseline recorded without a
// comparison runs to max; an unchanged gate stops before 200 (every check
// bounded, or not testable at 200) and passes; a candidate 30% slower is
// caught. On virtual time: the looks see
// the simulator's draws, not the machine's load.
func TestAdaptiveGateAgainstTheSimulator(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a few hundred simulated requests")
	}
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var log bytes.Buffer
		cfg, client := adaptiveSuite(t, 0, 1)
		base, err := Measure(context.Background(), cfg, MeasureOptions{Client: client, Progress: &log})
		if err != nil {
			t.Fatal(err)
		}
		br := base.Runs[0]
		if len(br.Requests) != 200 || br.StoppedAt != 200 || br.Looks != 0 || br.RequestsMin != 40 ||
			!strings.HasPrefix(br.StopReason, "max reached: nothing to compare with") {
			t.Fatalf("baseline: %d requests, stopped at %d (%q), looks %d, min %d; want all 200, no looks",
				len(br.Requests), br.StoppedAt, br.StopReason, br.Looks, br.RequestsMin)
		}
		if !strings.Contains(log.String(), "adaptive scenarios run to max") {
			t.Errorf("progress output does not say that adaptive scenarios run to max:\n%s", log.String())
		}
		th, err := CompareConfig(nil, Overrides{MinDelta: "5ms"})
		if err != nil {
			t.Fatal(err)
		}
		// A pass stops on the checks' intervals: the bootstrap as it ships.
		gate := func(slowdown float64, seed uint64) (*results.File, compare.Result, string) {
			log.Reset()
			cfg, client := adaptiveSuite(t, slowdown, seed)
			cur, err := Measure(context.Background(), cfg, MeasureOptions{Client: client, Baseline: base, Thresholds: &th, Progress: &log})
			if err != nil {
				t.Fatal(err)
			}
			res := CompareRuns(cur, compare.Pairs(results.Match(base, cur)), th)
			return cur, res, log.String()
		}

		cur, res, out := gate(0, 2)
		run := cur.Runs[0]
		// Looks is the design's plan (40, 80, … 200), not how many were taken.
		// Stopped at what it measured: the look's requests and those in flight.
		if run.Looks != 5 || run.StoppedAt >= 200 || !regexp.MustCompile(`^at the look at (40|80|120|160), every check was within 10% \(or not testable at max\)$`).MatchString(run.StopReason) || len(run.Requests) != run.StoppedAt {
			t.Errorf("unchanged: %d requests, stopped at %d (%q), looks %d; want a pass well before 200", len(run.Requests), run.StoppedAt, run.StopReason, run.Looks)
		}
		if want := fmt.Sprintf("chat @ e: stopped at %d of 200 requests: %s", run.StoppedAt, run.StopReason); !strings.Contains(out, want) {
			t.Errorf("progress output does not say where it stopped:\n%s", out)
		}
		t.Logf("unchanged: %d requests, stopped at %d: %s", len(run.Requests), run.StoppedAt, run.StopReason)
		if res.Verdict != "pass" {
			t.Errorf("unchanged: verdict %s, want pass", res.Verdict)
		}
		// The adaptive keys are in the results schema.
		b, err := json.Marshal(cur)
		if err != nil {
			t.Fatal(err)
		}
		mustValidate(t, compileSchema(t, "results.schema.json"), "an adaptive gate's results", b)

		cur, res, _ = gate(0.3, 3)
		run = cur.Runs[0]
		t.Logf("30%% slower: %d requests, stopped at %d: %s", len(run.Requests), run.StoppedAt, run.StopReason)
		if res.Verdict != "fail" || !strings.Contains(run.StopReason, ", regression (") || run.StoppedAt >= 200 {
			t.Errorf("30%% slower: verdict %s, stopped at %d (%q); want a regression caught before max", res.Verdict, run.StoppedAt, run.StopReason)
		}
	})
}

// TestAdaptiveAB: in ab both variants advance together, the base variant
// decides the looks, and the file records where each stopped.
func TestAdaptiveAB(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a few hundred simulated requests")
	}
	t.Parallel()
	th, err := CompareConfig(nil, Overrides{MinDelta: "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name     string
		slowdown float64
		verdict  vocab.Verdict
		reason   string
	}{
		{"A/A stops with a pass", 0, "pass", "every check was within 10%"},
		{"a 30% slower head is caught", 0.3, "fail", "regression"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				base, client := adaptiveSuite(t, 0, 4)
				head, _ := adaptiveSuite(t, tt.slowdown, 5)
				f, err := MeasureAB(context.Background(), base, head, MeasureOptions{Client: client, Thresholds: &th})
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Runs) != 2 {
					t.Fatalf("%d runs, want base and head", len(f.Runs))
				}
				b, h := f.Runs[0], f.Runs[1]
				if len(b.Requests) != len(h.Requests) || b.StoppedAt != h.StoppedAt || h.StoppedAt != len(h.Requests) || h.StoppedAt >= 200 || !strings.HasPrefix(h.StopReason, "at the look at ") || !strings.Contains(h.StopReason, tt.reason) || h.Looks != 5 {
					t.Errorf("base %d, head %d requests, stopped at %d/%d (%q), looks %d; want balanced variants stopped before 200 with %q",
						len(b.Requests), len(h.Requests), b.StoppedAt, h.StoppedAt, h.StopReason, h.Looks, tt.reason)
				}
				if res := CompareRuns(f, compare.Pairs(results.MatchVariants(f)), th); res.Verdict != tt.verdict {
					t.Errorf("verdict %s, want %s", res.Verdict, tt.verdict)
				}
			})
		})
	}
}

// An adaptive scenario cut short by an interruption or a cap says so:
// "max reached" would claim it ran its course.
func TestAdaptiveCutShortSaysWhy(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, limits string
		timeout      time.Duration
		want         string
	}{
		// Requests of 5ms one at a time: interrupted during the 61st.
		{"interrupted", "", 302 * time.Millisecond, "interrupted by a signal before max"},
		{"capped", "limits: {max_output_tokens: 300}\n", time.Minute, "limits.max_output_tokens (300) reached before max"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(5 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 10}, 1))
				cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\n"+
					"scenarios:\n  - {name: chat, prompt: hi, max_tokens: 10, requests: {min: 40, max: 1000}, warmup: 0}\n"+tt.limits), suite.Options{})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
				defer cancel()
				f, err := Measure(ctx, cfg, MeasureOptions{Client: srv.Client()})
				if KindOf(err) != CannotRun || f == nil || len(f.Runs) != 1 {
					t.Fatalf("got %v; want an incomplete run", err)
				}
				run := f.Runs[0]
				if run.StopReason != tt.want || run.StoppedAt != len(run.Requests) || run.StoppedAt == 0 {
					t.Errorf("got stopped at %d of %d requests (%q), want %q", run.StoppedAt, len(run.Requests), run.StopReason, tt.want)
				}
				if tt.name == "interrupted" && len(run.Requests) != 60 {
					t.Errorf("interrupted after %d requests of 5ms, want 60 in 302ms", len(run.Requests))
				}
				plan := strings.Join(RunPlan(f), "\n")
				if want := "requests per side: " + tt.want; !strings.Contains(plan, want) {
					t.Errorf("got plan %q, want %q", plan, want)
				}
			})
		})
	}
}

// An adaptive scenario that compares with a baseline while measuring, cut
// short before its first look, says on the progress what cut it: the
// stop's kind (vocab.Interrupted: "interrupted at 60 of 1000 requests"),
// or the cap, never "max reached", and no comparison to come.
func TestAdaptiveCutShortSaysItsCause(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, limits string
		timeout      time.Duration
		want         string
	}{
		// Requests of 5ms one at a time, the first look at 80: interrupted
		// during the 61st.
		{"interrupted", "", 302 * time.Millisecond, "latgate: chat @ e: interrupted at 60 of 1000 requests, before max and before a look decided it\n"},
		{"capped", "limits: {max_output_tokens: 300}\n", time.Minute,
			"latgate: chat @ e: stopped at 30 of 1000 requests, before max and before a look decided it: limits.max_output_tokens (300) reached\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(5 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 10}, 1))
				parse := func(requests, limits string) *suite.Config {
					cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\n"+
						"scenarios:\n  - {name: chat, prompt: hi, max_tokens: 10, requests: "+requests+", warmup: 0}\n"+limits), suite.Options{})
					if err != nil {
						t.Fatal(err)
					}
					return cfg
				}
				base, err := Measure(context.Background(), parse("100", ""), MeasureOptions{Client: srv.Client()})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
				defer cancel()
				var log strings.Builder
				f, err := Measure(ctx, parse("{min: 80, max: 1000}", tt.limits), MeasureOptions{Client: srv.Client(), Baseline: base, Progress: &log})
				if KindOf(err) != CannotRun || f == nil || len(f.Runs) != 1 {
					t.Fatalf("got %v; want an incomplete run", err)
				}
				if got := log.String(); !strings.Contains(got, tt.want) || strings.Contains(got, "max reached") {
					t.Errorf("got the progress\n%s\nwant %q, never max reached", got, tt.want)
				}
			})
		})
	}
}

package gate

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

func TestRunWarnings(t *testing.T) {
	t.Parallel()
	lag := func(v float64) *float64 { return &v }
	run := func(buffered int, lagMs *float64) results.Run {
		r := results.Run{Scenario: "s", Endpoint: "e"}
		for i := 0; i < 10; i++ {
			r.Requests = append(r.Requests, results.Request{OK: true, Buffered: i < buffered, LagMs: lagMs})
		}
		return r
	}
	limited := func(lanes int) results.Run {
		r := run(0, nil)
		r.Config.Lanes = lanes
		r.Requests[3] = results.Request{Status: 429, Error: "HTTP 429 Too Many Requests: slow down"}
		r.Requests[7] = r.Requests[3]
		return r
	}
	tests := []struct {
		name string
		run  results.Run
		want []string
	}{
		{"streaming", run(0, nil), nil},
		{"a few buffered", run(3, nil), nil},
		{"buffered", run(8, nil), []string{"8 of 10 streams arrived buffered|proxy_buffering|does not flush"}},
		{"closed loop", run(0, nil), nil},
		{"schedule kept", run(0, lag(5)), nil},
		{"schedule not kept", run(0, lag(250)), []string{"10 of 10 requests were sent more than 100 ms behind"}},
		{"rate limited on lanes", limited(32), []string{"2 requests were answered 429|never a latency sample|lower lanes (32 copies"}},
		{"rate limited", limited(0), []string{"2 requests were answered 429|lower the load (concurrency or rate)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RunWarnings(&results.File{Runs: []results.Run{tt.run}})
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %d warnings", got, len(tt.want))
			}
			for i := range got {
				for _, part := range strings.Split(tt.want[i], "|") { // each cause named
					if !strings.Contains(got[i], part) {
						t.Errorf("got %q, want it to contain %q", got[i], part)
					}
				}
			}
		})
	}
}

// TestRunPlan: the facts of how a file was measured are the plan's, not
// warnings: lanes, and where an adaptive scenario stopped (not "stopped at
// 80 of 80").
func TestRunPlan(t *testing.T) {
	t.Parallel()
	r := results.Run{Scenario: "s", Endpoint: "e", Config: results.RunConfig{Requests: 80, Lanes: 32}, RequestsMin: 40, StoppedAt: 40, Stop: vocab.Decided, StopReason: "regression (ttft p50 +50.0%)"}
	all := r
	all.StoppedAt, all.Stop, all.StopReason = 80, vocab.MaxReached, "max reached"
	other := all
	other.Scenario, other.Config.Lanes = "t", 8
	got := RunPlan(&results.File{Runs: []results.Run{r, all}})
	// The lanes said once for the scenarios that share them.
	want := []string{"s @ e: adaptive: stopped at 40 of 80 requests per side: regression (ttft p50 +50.0%)",
		"s @ e: adaptive: measured all 80 requests per side: max reached", "every scenario: measured on 32 lanes"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got %q, want %q…", got[i], want[i])
		}
	}
	got = RunPlan(&results.File{Runs: []results.Run{r, other}})
	want = []string{"s @ e: adaptive: stopped at 40 of 80 requests per side: regression (ttft p50 +50.0%)",
		"t @ e: adaptive: measured all 80 requests per side: max reached", "s @ e: measured on 32 lanes", "t @ e: measured on 8 lanes"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got %q, want %q…", got[i], want[i])
		}
	}
	if w := RunWarnings(&results.File{Runs: []results.Run{r}}); len(w) != 0 {
		t.Errorf("plan facts among the warnings: %q", w)
	}
}

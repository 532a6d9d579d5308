package report

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// A ladder's level whose window closed before its requests_per_level (a
// run of windows, --start-at) was not stopped early by the search — a
// ladder never stops a level early — and the words say what ended it:
// "its window closed after 20 of 60 requests".
func TestLadderWindowClosedWords(t *testing.T) {
	sp := capacity.Spec{Vary: vocab.VaryConcurrency, Levels: []float64{1, 2}, From: 1, To: 2, Step: capacity.LadderStep(vocab.VaryConcurrency),
		Requests: 60, Alpha: 0.05, SLO: []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P50, Value: 100}}}
	s := capacity.New(sp)
	f := &results.File{}
	for step, lv := range []struct {
		n    int
		ttft float64
	}{{60, 40}, {20, 400}} {
		v, ok := s.Next()
		if !ok {
			t.Fatalf("the ladder ended before level %d", step+1)
		}
		run := results.Run{Endpoint: "e", Scenario: "s", Level: &results.Level{Vary: vocab.VaryConcurrency, Value: v, Step: step + 1}}
		for i := range lv.n {
			ttft, total := lv.ttft+float64(i%7), lv.ttft+200
			run.Requests = append(run.Requests, results.Request{OK: true, SentMs: float64(i) * 250, TTFTMs: &ttft, TotalMs: &total, OutputTokens: 16})
		}
		run.Level.Status = s.Add(&run, lv.n, 5000).Status
		f.Runs = append(f.Runs, run)
	}
	r := s.Result()
	rec := r.Record("e", "s", "", "")
	side := CapacitySideOf(f, rec, r)
	if got := side.Above(); !strings.Contains(got, "2 users: TTFT p50 ") || !strings.Contains(got, ", its window closed after 20 of 60 requests") || strings.Contains(got, "stopped") {
		t.Fatalf("above: %q", got)
	}
}

package gate

import (
	"context"
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

// coldRun measures, on virtual time, a scenario of 20 requests with cold
// samples against latgate sim --ttft 100ms --cold-start 2s --idle-after
// 30s, and checks its budgets with no baseline.
func coldRun(t *testing.T, cold, budgets string) (*results.File, compare.Result, string) {
	t.Helper()
	s, err := sim.Options{Profile: "fast", TTFT: 100 * time.Millisecond, ColdStart: 2 * time.Second, IdleAfter: 30 * time.Second}.Server(1)
	if err != nil {
		t.Fatal(err)
	}
	srv := clocktest.NewServer(t, s)
	cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: sim}\n"+
		"scenarios:\n  - {name: chat, prompt: hi, requests: 20, warmup: 1, concurrency: 2, cold: "+cold+"}\n"+
		"budgets: "+budgets+"\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	th, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	th.Permutations, th.Bootstrap = 400, 200
	rep, err := CompareFiles(nil, f, "", "cur.json", th)
	if err != nil {
		t.Fatal(err)
	}
	text, err := report.ReportFormats.Lookup("text")
	if err != nil {
		t.Fatal(err)
	}
	return f, CompareRuns(f, compare.Pairs(results.Match(nil, f)), th), render(t, rep, text)
}

func checkOf(res compare.Result, m vocab.Metric, st vocab.Stat) *compare.Check {
	for i, c := range res.Checks {
		if c.Metric == m && c.Stat == st {
			return &res.Checks[i]
		}
	}
	return nil
}

// TestColdSamplesThroughThePipeline: after its 20 measured requests (their
// TTFT the profile's 100 ms: the warmup woke the simulator), the run waits
// 60 s three times and sends a cold sample each time, whose TTFT is
// exactly 2 s more (2.1 s): the simulator's cold start. They are in the
// run, marked cold; ttft's statistics are the 20 warm requests', cold_ttft
// the 3 samples'; its p50 budget is not tested with 3 (need 10) and the
// report says so in a Cold TTFT row.
func TestColdSamplesThroughThePipeline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		f, res, text := coldRun(t, "{idle: 60s, samples: 3}", "{cold_ttft: {p50: 3s}, ttft: {p50: 500}}")
		if took := time.Since(start); took < 3*time.Minute {
			t.Errorf("the run took %v of virtual time, want at least 3 idle periods of 60s", took)
		}
		run := f.Runs[0]
		var warm, cold []float64
		for _, q := range run.Requests {
			if !q.OK || q.TTFTMs == nil {
				t.Fatalf("request failed or has no ttft: %+v", q)
			}
			if q.Cold {
				cold = append(cold, *q.TTFTMs)
			} else {
				warm = append(warm, *q.TTFTMs)
			}
		}
		if len(warm) != 20 || len(cold) != 3 {
			t.Fatalf("%d warm and %d cold requests, want 20 and 3", len(warm), len(cold))
		}
		for _, v := range warm {
			if v != 100 {
				t.Errorf("a warm request's TTFT is %v ms, want the profile's 100", v)
			}
		}
		for _, v := range cold {
			if v != 2100 {
				t.Errorf("a cold sample's TTFT is %v ms, want exactly 2 s more than the profile's: 2100", v)
			}
		}
		if c := checkOf(res, vocab.TTFT, vocab.P50); c == nil || c.NCurrent != 20 || c.Current != 100 || c.Budget != 500 || c.Status != vocab.NoBaseline {
			t.Errorf("ttft p50: %+v, want 100 ms of the 20 warm requests, within its budget", c)
		}
		c := checkOf(res, vocab.ColdTTFT, vocab.P50)
		if c == nil || c.NCurrent != 3 || c.Current != 2100 || c.Budget != 3000 || c.Status != vocab.NotTested || c.NeedN != 10 {
			t.Fatalf("cold_ttft p50: %+v, want 2100 ms of 3 samples, its 3 s budget not tested (need 10)", c)
		}
		if !strings.Contains(text, "Cold TTFT: p50: its budget of 3000 ms is not tested: 3 successful requests, p50 needs 10") {
			t.Errorf("the report has no Cold TTFT row saying it needs 10 samples:\n%s", text)
		}
	})
}

// TestColdBudgetChecked: with 10 cold samples a cold_ttft p50 budget is
// tested: 2.1 s is over a 2 s budget (the gate fails) and within 3 s.
func TestColdBudgetChecked(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		budget string
		want   vocab.Status
	}{{"2s", vocab.OverBudget}, {"3s", vocab.NoBaseline}} {
		t.Run(tt.budget, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				_, res, text := coldRun(t, "{idle: 45s, samples: 10}", "{cold_ttft: {p50: "+tt.budget+"}}")
				c := checkOf(res, vocab.ColdTTFT, vocab.P50)
				if c == nil || c.NCurrent != 10 || c.Current != 2100 || c.Status != tt.want {
					t.Fatalf("cold_ttft p50 against %s: %+v, want 2100 ms of 10 samples, %s", tt.budget, c, tt.want)
				}
				if fail := res.Verdict == vocab.Fail; fail != (tt.want == vocab.OverBudget) {
					t.Errorf("verdict %s with cold_ttft p50 %v ms against a budget of %s", res.Verdict, c.Current, tt.budget)
				}
				if !strings.Contains(text, "Cold TTFT") {
					t.Errorf("no Cold TTFT row:\n%s", text)
				}
			})
		})
	}
}

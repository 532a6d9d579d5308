package compare

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Blocked by strata, an A/A run whose head replayed more long prompts
// than its base (a mix of 50/50/100/150 against 100 a stratum) holds its
// false alarms near alpha; unblocked, the mix alone reads as a TTFT
// regression in nearly every suite (docs/statistics.md, "Strata of input
// length", has the study at 500 suites). Virtual data, no clock.
func TestStrataBlockMixShift(t *testing.T) {
	cell := strataCells[5]
	if cell.head == cell.base {
		t.Fatal("cell 5 is meant to shift the mix")
	}
	const reps = 30
	bl, un := runStrataCell(cell, 0.2, reps, 200)
	if bl.fails > 4 {
		t.Errorf("blocked by strata, %d of %d A/A suites with a shifted mix fail (want at most 4: alpha 5%%)", bl.fails, reps)
	}
	if un.fails < reps/2 {
		t.Errorf("unblocked, %d of %d fail: the cell no longer shows what blocking prevents", un.fails, reps)
	}
}

// strataPair is a stored pair of the same draw, 100 requests a stratum
// (counts on the head), the head's TTFT scaled by its model.
func strataPair(seed uint64, head [4]int, m traceModel) Pair {
	rng := rand.New(rand.NewPCG(seed, 7))
	be := traceDraw([4]int{100, 100, 100, 100}, rng)
	he := be
	if head != [4]int{100, 100, 100, 100} {
		he = traceDraw(head, rng)
	}
	m.sigma = 0.2
	return Pair{Endpoint: "e", Scenario: "prod-mix", Base: traceSample(be, traceModel{sigma: 0.2}, rng, nil), Head: traceSample(he, m, rng, nil)}
}

// A regression of the longest prompts alone (+40% TTFT) fails the gate
// through its stratum's check, which the overall median misses; each
// stratum has a TTFT p50 and p95 check named by its stratum, and a
// stratum too small for p95 is not tested, with the run's requests that
// would test it.
func TestStrataChecks(t *testing.T) {
	cfg := Config{Tolerance: 0.10, MinDelta: 5, Permutations: 500, Bootstrap: 200}
	res := Compare([]Pair{strataPair(1, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1, 1, 1, 1.4}})}, cfg)
	if res.Verdict != vocab.Fail {
		t.Errorf("verdict %s, want fail", res.Verdict)
	}
	seen := map[[2]any]Check{}
	for _, c := range res.Checks {
		if c.Metric == vocab.TTFT {
			seen[[2]any{c.Stratum, c.Stat}] = c
		}
	}
	for k := 1; k <= 4; k++ {
		for _, st := range []vocab.Stat{vocab.P50, vocab.P95} {
			c, ok := seen[[2]any{k, st}]
			if !ok {
				t.Fatalf("no ttft %s check of stratum %d", st, k)
			}
			if c.NBase != 100 || c.NCurrent != 100 || c.Budget == c.Budget {
				t.Errorf("stratum %d %s: %d/%d requests, budget %g; want 100/100, none", k, st, c.NBase, c.NCurrent, c.Budget)
			}
		}
	}
	if c := seen[[2]any{4, vocab.P50}]; c.Status != vocab.Regression || c.DeltaPct < 25 || c.PValue > 0.05 {
		t.Errorf("longest stratum's p50: %s %+.1f%% p %.3f, want a regression near +40%%", c.Status, c.DeltaPct, c.PValue)
	}
	if c := seen[[2]any{0, vocab.P50}]; c.Status == vocab.Regression {
		t.Errorf("overall p50 %s %+.1f%%: the median of every request should not see it", c.Status, c.DeltaPct)
	}
	for k := 1; k <= 3; k++ {
		if c := seen[[2]any{k, vocab.P50}]; c.Status == vocab.Regression {
			t.Errorf("stratum %d p50 unchanged but %s", k, c.Status)
		}
	}
	// 30 of 400 head requests in stratum 1: p95 needs 40, so 534 a side.
	small := Compare([]Pair{strataPair(2, [4]int{30, 100, 100, 170}, traceModel{})}, cfg)
	for _, c := range small.Checks {
		if c.Stratum == 1 && c.Stat == vocab.P95 {
			if c.Status != vocab.NotTested || c.Reason != vocab.TooFew || c.NeedN != 534 {
				t.Errorf("stratum 1 p95 with 30 requests: %s %s need %d, want not_tested too_few need 534", c.Status, c.Reason, c.NeedN)
			}
			return
		}
	}
	t.Error("no p95 check of stratum 1")
}

// Sides of different draws (another seed, other strata) are compared
// unblocked, without per-stratum checks, with a warning.
func TestStrataDrawsDiffer(t *testing.T) {
	for name, change := range map[string]func(d *Draw){
		"seed":   func(d *Draw) { d.Seed = "other" },
		"strata": func(d *Draw) { d.Strata = []int{1000, 131072} },
		"none":   nil,
	} {
		r := strataPair(3, [4]int{100, 100, 100, 100}, traceModel{})
		d := *r.Head.Draw
		if change != nil {
			change(&d)
			r.Head.Draw = &d
		} else {
			r.Head.Draw, r.Head.Stratum = nil, nil
		}
		res := Compare([]Pair{r}, Config{Tolerance: 0.10, Permutations: 200, Bootstrap: -1})
		if !slices.ContainsFunc(res.Warnings, func(w Warning) bool { return w.Kind == vocab.WorkloadsDiffer }) {
			t.Errorf("%s: no %s warning: %+v", name, vocab.WorkloadsDiffer, res.Warnings)
		}
		if slices.ContainsFunc(res.Checks, func(c Check) bool { return c.Stratum > 0 }) {
			t.Errorf("%s: per-stratum checks of different draws", name)
		}
	}
	res := Compare([]Pair{strataPair(3, [4]int{100, 100, 100, 100}, traceModel{})}, Config{Tolerance: 0.10, Permutations: 200, Bootstrap: -1})
	if len(res.Warnings) != 0 {
		t.Errorf("one draw: warnings %+v", res.Warnings)
	}
}

// A run drawn from a trace gives its sample the draw and each request's
// stratum; a run of written prompts neither.
func TestSampleOfWorkload(t *testing.T) {
	v := 100.0
	run := &results.Run{Workload: &results.Workload{Seed: "s", Strata: []int{10, 20}},
		Requests: []results.Request{{OK: true, TTFTMs: &v, Trace: &results.TraceRef{Line: 1, Stratum: 2}}, {OK: true, TTFTMs: &v, Trace: &results.TraceRef{Line: 2, Stratum: 1}}}}
	s := SampleOf(run)
	if s.Draw == nil || s.Draw.Seed != "s" || !slices.Equal(s.Draw.Strata, []int{10, 20}) || !slices.Equal(s.Stratum, []int{2, 1}) {
		t.Errorf("draw %+v strata %v", s.Draw, s.Stratum)
	}
	run.Workload = nil
	if s := SampleOf(run); s.Draw != nil || s.Stratum != nil {
		t.Errorf("without a workload: draw %+v strata %v", s.Draw, s.Stratum)
	}
}

// TestOneStratumNoChecks: a draw of one stratum (every request's input
// within one bound) adds no per-stratum checks: they would repeat the
// run's own, and could read apart from them.
func TestOneStratumNoChecks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	one := func() *Sample {
		s := &Sample{Values: map[vocab.Metric][]float64{}, Draw: &Draw{Strata: []int{3000}, Seed: "one"}}
		for range 60 {
			s.OK = append(s.OK, true)
			s.Stratum = append(s.Stratum, 1)
			s.Values[vocab.TTFT] = append(s.Values[vocab.TTFT], 100+10*rng.Float64())
		}
		return s
	}
	res := Compare([]Pair{{Endpoint: "e", Scenario: "s", Base: one(), Head: one()}}, Config{Tolerance: 0.1, MinDelta: 5, Alpha: 0.05, FailOn: []vocab.Status{vocab.Regression}})
	n := 0
	for _, c := range res.Checks {
		if c.Stratum != 0 {
			t.Errorf("a check of stratum %d: %s %s", c.Stratum, c.Metric, c.Stat)
		}
		if c.Metric == vocab.TTFT {
			n++
		}
	}
	if n == 0 {
		t.Error("no TTFT check of the run")
	}
}

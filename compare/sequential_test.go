package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/vocab"
)

func TestPlannedLooks(t *testing.T) {
	t.Parallel()
	tests := []struct{ min, max, batch, want int }{
		{0, 50, 0, 1},       // fixed
		{50, 50, 0, 1},      // min = max: fixed
		{40, 200, 0, 5},     // 40, 80, 120, 160, 200
		{40, 200, 40, 5},    //
		{40, 100, 0, 3},     // 40, 80, 100
		{40, 200, 100, 3},   // 40, 140, 200
		{40, 41, 0, 2},      // 40, 41
		{10, 1000, 10, 100}, //
	}
	for _, tt := range tests {
		if got := PlannedLooks(tt.min, tt.max, tt.batch); got != tt.want {
			t.Errorf("PlannedLooks(%d, %d, %d) = %d, want %d", tt.min, tt.max, tt.batch, got, tt.want)
		}
	}
}

// TestDesignSpendsAlpha: the interim looks and the final look of every run
// add up to alpha over the suite (the union bound the design rests on).
func TestDesignSpendsAlpha(t *testing.T) {
	t.Parallel()
	tests := []struct {
		looks, runs int
		interim     float64
	}{{1, 1, 0}, {1, 3, 0}, {5, 1, 0}, {5, 2, 0}, {3, 7, 0.5}, {10, 20, 0.1}}
	for _, tt := range tests {
		d := Design{Alpha: 0.05, Looks: tt.looks, Runs: tt.runs, Interim: tt.interim}
		spent := float64(tt.runs) * (float64(tt.looks-1)*d.LookAlpha() + d.RunAlpha())
		if math.Abs(spent-0.05) > 1e-12 {
			t.Errorf("looks %d, runs %d, interim %v: spends %v, want 0.05", tt.looks, tt.runs, tt.interim, spent)
		}
		if tt.looks == 1 && d.LookAlpha() != 0 {
			t.Errorf("a fixed design spends %v on interim looks", d.LookAlpha())
		}
	}
	if d := NewDesign(0.05, 5, 2); math.Abs(d.LookAlpha()-0.05*DefaultInterim/4/2) > 1e-15 || math.Abs(d.RunAlpha()-0.05*(1-DefaultInterim)/2) > 1e-15 {
		t.Errorf("NewDesign(0.05, 5, 2): look %v, run %v", d.LookAlpha(), d.RunAlpha())
	}
}

func TestLook(t *testing.T) {
	t.Parallel()
	c := Config{Tolerance: 0.10, MinDelta: 25, Permutations: 500}
	d := NewDesign(0.05, 5, 1)
	rng := rand.New(rand.NewPCG(3, 4))
	slow := realistic()
	slow.scale = 1.5
	tests := []struct {
		name    string
		run     Pair
		stop    bool
		outcome vocab.Status
		check   func(*Check) bool // what the decision points at
	}{
		{"no baseline: never decided", Pair{Head: realistic().sample(100, rng)}, false, "", func(c *Check) bool { return c == nil }},
		{"unchanged, many requests: pass", Pair{Base: realistic().sample(1200, rng), Head: realistic().sample(1200, rng)}, true, vocab.WithinTolerance, func(c *Check) bool { return c == nil }},
		{"50% slower: regression", Pair{Base: realistic().sample(200, rng), Head: slow.sample(40, rng)}, true, vocab.Regression,
			func(c *Check) bool { return c != nil && c.Status == vocab.Regression && c.DeltaPct > 10 }},
		{"too few requests for p95: open", Pair{Base: realistic().sample(200, rng), Head: realistic().sample(20, rng)}, false, "",
			func(c *Check) bool {
				return c != nil && c.Reason == vocab.TooFew && c.Stat == vocab.P95 && c.NeedN >= 40
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.run.Endpoint, tt.run.Scenario = "e", "s"
			got := d.Look(tt.run, c)
			if got.Stop != tt.stop || got.Outcome != tt.outcome || !tt.check(got.Check) {
				t.Errorf("got %+v (check %+v), want stop %v, outcome %q", got, got.Check, tt.stop, tt.outcome)
			}
		})
	}
}

// TestCompareSequential: each run is compared alone at the design's run
// level, and the results are merged in run order.
func TestCompareSequential(t *testing.T) {
	t.Parallel()
	c := Config{Tolerance: 0.10, MinDelta: 25, Permutations: 300, Bootstrap: -1}
	rng := rand.New(rand.NewPCG(5, 6))
	slow := realistic()
	slow.scale = 1.5
	runs := []Pair{
		{Endpoint: "e", Scenario: "a", Base: realistic().sample(100, rng), Head: realistic().sample(100, rng)},
		{Endpoint: "e", Scenario: "b", Base: realistic().sample(100, rng), Head: slow.sample(100, rng)},
	}
	d := NewDesign(0.05, 5, 2)
	res := CompareSequential(runs, c, d)
	if res.Verdict != "fail" {
		t.Errorf("verdict %s, want fail", res.Verdict)
	}
	alone := Compare(runs[1:], Config{Tolerance: 0.10, MinDelta: 25, Permutations: 300, Bootstrap: -1, Alpha: d.RunAlpha()})
	n := len(res.Checks) - len(alone.Checks)
	for i, ch := range res.Checks {
		if (i < n) != (ch.Scenario == "a") {
			t.Fatalf("check %d is of scenario %s: runs out of order", i, ch.Scenario)
		}
		if ch.Scenario == "a" && ch.Status == vocab.Regression {
			t.Errorf("unchanged scenario: %s %s is a regression", ch.Metric, ch.Stat)
		}
		if i >= n && (ch.Status != alone.Checks[i-n].Status || ch.PValue != alone.Checks[i-n].PValue) {
			t.Errorf("%s %s: %s p %v, alone at the run level %s p %v", ch.Metric, ch.Stat, ch.Status, ch.PValue, alone.Checks[i-n].Status, alone.Checks[i-n].PValue)
		}
	}
}

// TestLookSettlesItsRawPValues: an interim look's decisions read raw
// p-values against the futility threshold and 0.5; the sequential drawing
// of permutations settles those too, so a look decides as it would with
// every permutation drawn.
func TestLookSettlesItsRawPValues(t *testing.T) {
	defer func(q int) { firstBatch = q }(firstBatch)
	d := NewDesign(0.05, 5, 1)
	c := cfg()
	for seed := range uint64(24) {
		slow := realistic()
		slow.scale = 1.08 + 0.02*float64(seed%6) // near the tolerance: futility is often close
		r := pair(realistic(), slow, 40+10*int(seed%5), seed+5000)[0]
		firstBatch = 200
		seq := d.Look(r, c)
		if unsettled(Compare([]Pair{r}, d.lookConfig(c))) {
			continue // within Monte Carlo error: either decision may come out
		}
		firstBatch = 0
		full := d.Look(r, c)
		if lookOf(seq) != lookOf(full) {
			t.Errorf("seed %d: look with sequential permutations %s, with all %s", seed, lookOf(seq), lookOf(full))
		}
	}
}

func unsettled(r Result) bool {
	for _, c := range r.Checks {
		if c.Unsettled {
			return true
		}
	}
	return false
}

// lookOf says what a decision decided, comparably: whether it stopped,
// why, and on which regression (which of several open checks a look that
// goes on names may differ where their p-values are near the pass
// threshold: the reference draws fewer permutations than the sequential
// drawing may).
func lookOf(d Decision) string {
	s := fmt.Sprintf("stop %v outcome %q", d.Stop, d.Outcome)
	if d.Check != nil && d.Stop {
		s += fmt.Sprintf(" on %s %s %s", d.Check.Metric, d.Check.Stat, d.Check.Status)
	}
	return s
}

// regressed is a first run whose scenario "short" regressed (its head
// model 1.5× slower), 100 requests per side, and its result.
func regressed(t *testing.T) (Config, model, []Pair, Result) {
	t.Helper()
	c := Config{Tolerance: 0.10, MinDelta: 25, Permutations: 500, Bootstrap: -1}
	slow := realistic()
	slow.scale = 1.5
	main := pair(realistic(), slow, 100, 1)
	res := Compare(main, c)
	if res.Verdict != "fail" {
		t.Fatalf("the first run: verdict %s, want fail", res.Verdict)
	}
	return c, slow, main, res
}

// TestConfirm: a regression stands only when the confirmation run of its
// scenario finds it again; found again, it says so; a scenario without a
// confirmation run keeps its statuses.
func TestConfirm(t *testing.T) {
	t.Parallel()
	c, slow, main, res := regressed(t)
	c.Confirm = true
	for _, tt := range []struct {
		name    string
		head    model
		verdict vocab.Verdict
	}{{"not found again", realistic(), vocab.Pass}, {"found again", slow, vocab.Fail}} {
		fresh := pair(realistic(), tt.head, 100, 2)[:1] // the failing scenario only
		got := Confirm(res, main, fresh, c)
		if got.Verdict != tt.verdict {
			t.Errorf("%s: verdict %s, want %s", tt.name, got.Verdict, tt.verdict)
		}
		for i, ch := range got.Checks {
			was := res.Checks[i]
			switch {
			case ch.Scenario != "short" && ch.Status != was.Status:
				t.Errorf("%s: %s %s %s changed without a confirmation run", tt.name, ch.Scenario, ch.Metric, ch.Stat)
			case was.Status != vocab.Regression:
			case tt.verdict == vocab.Pass && (ch.Status != vocab.Inconclusive || ch.Reason != vocab.Unconfirmed || ch.Confirmed):
				t.Errorf("%s: %s %s %s %s, want inconclusive (unconfirmed)", tt.name, ch.Metric, ch.Stat, ch.Status, ch.Reason)
			case tt.verdict == vocab.Fail && ch.Status == vocab.Regression && !ch.Confirmed:
				t.Errorf("%s: %s %s a regression not marked confirmed", tt.name, ch.Metric, ch.Stat)
			}
		}
	}
	if got := Confirm(res, main, nil, c); got.Verdict != res.Verdict || len(got.Checks) != len(res.Checks) {
		t.Error("without confirmation runs the result changed")
	}
}

// TestLookPassesOnlyBounded: a look stops for a pass only when every check
// is bounded within the tolerance or cannot be tested at max: TTFT +20%
// in A/B blocks, looked at after 100 requests a side of 800, never passes
// (an estimate within +10% is no bound: "+8% [−3%, +22%]" passed before),
// and an unchanged run's pass leaves every tested check bounded.
func TestLookPassesOnlyBounded(t *testing.T) {
	t.Parallel()
	c := Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: 500, Bootstrap: 500}
	d := NewDesign(c.Alpha, 8, 1)
	slow := realistic()
	slow.ttftScale = 1.2
	passed := 0
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 0x10c))
		r := abPair(realistic(), slow, 100, 0.10, rng)
		r.Base.Max, r.Head.Max = 800, 800
		if dec := d.Look(r, c); dec.Stop && dec.Outcome != vocab.Regression {
			t.Errorf("seed %d: TTFT +20%% stopped for %s at 100 of 800", seed, dec.Outcome)
		}
		if seed >= 10 { // 10 unchanged runs of 600 a side: the costly half
			continue
		}
		same := abPair(realistic(), realistic(), 600, 0.10, rng)
		same.Base.Max, same.Head.Max = 800, 800
		dec := d.Look(same, c)
		if !dec.Stop || dec.Outcome != vocab.WithinTolerance {
			continue
		}
		passed++
		for _, ch := range Compare([]Pair{same}, d.lookConfig(c)).Checks {
			unbounded := ch.Metric.IsRate() && ch.NeedN > 800 // a rate that 800 a side could not bound either
			if !ch.Bounded && !unbounded && !(ch.Status == vocab.NotTested && ch.Reason == vocab.Underpowered) && ch.Status != vocab.OK {
				t.Errorf("seed %d: an unchanged run passed with %s %s %s %v", seed, ch.Metric, ch.Stat, ch.Status, ch.CIPct)
			}
		}
	}
	if passed == 0 {
		t.Error("no unchanged run of 600 a side passed a look")
	}
}

// TestConfirmIgnored: confirmation runs that would clear the regression
// count only when the configuration sets Confirm, and only with the
// requests per side of the run they confirm; ignored, the first run's
// statuses stand and a warning says why.
func TestConfirmIgnored(t *testing.T) {
	t.Parallel()
	c, _, main, res := regressed(t)
	asked := c
	asked.Confirm = true
	for _, tt := range []struct {
		name    string
		cfg     Config
		n       int
		verdict vocab.Verdict
		warning Warning
	}{
		{"not asked", c, 100, vocab.Fail, Warning{Kind: vocab.ConfirmNotAsked, Endpoint: "e", Scenario: "short"}},
		{"too few", asked, 99, vocab.Fail, Warning{Kind: vocab.ConfirmTooFew, Endpoint: "e", Scenario: "short", N: 99, Need: 100}},
		{"asked, as many", asked, 100, vocab.Pass, Warning{}},
	} {
		fresh := pair(realistic(), realistic(), tt.n, 2)[:1] // no change: clears the regression when it counts
		got := Confirm(res, main, fresh, tt.cfg)
		if got.Verdict != tt.verdict {
			t.Errorf("%s: verdict %s, want %s", tt.name, got.Verdict, tt.verdict)
		}
		want := []Warning{tt.warning}
		if tt.warning.Kind == "" {
			want = nil
		}
		if !slices.Equal(got.Warnings, want) {
			t.Errorf("%s: warnings %+v, want %+v", tt.name, got.Warnings, want)
		}
	}
}

package report

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// TestEveryReasonHasWords: a reason compare gives a check is said in words
// by the report, and each differently.
func TestEveryReasonHasWords(t *testing.T) {
	seen := map[string]vocab.Reason{}
	for _, r := range vocab.Reasons {
		c := compare.Check{Metric: vocab.TTFT, Stat: vocab.P95, Status: vocab.Inconclusive, Reason: r, NBase: 20, NCurrent: 30, Spread: 0.2, RunsUsable: 1, RunsTotal: 3, PValue: math.NaN()}
		n := note(c, compare.Config{Tolerance: 0.1})
		if n == "" {
			t.Errorf("reason %q has no words", r)
		}
		if prev, ok := seen[n]; ok {
			t.Errorf("reasons %q and %q say the same: %q", prev, r, n)
		}
		seen[n] = r
	}
	if n := note(compare.Check{Stat: vocab.P95, Reason: vocab.TooFew, NeedN: 47, NBase: 30, NCurrent: 38}, compare.Config{}); n != "need 40 successful requests per side to test p95 (have 30 and 38); with the failures seen, set requests to at least 47" {
		t.Errorf("too few with failures: %q", n)
	}
}

// TestLookText: what an interim look says in the progress output and in a
// run's stop_reason.
func TestLookText(t *testing.T) {
	th := compare.Config{Tolerance: 0.1}
	reg := &compare.Check{Metric: vocab.TTFT, Stat: vocab.P95, DeltaPct: 34}
	open := &compare.Check{Metric: vocab.Total, Stat: vocab.P50, DeltaPct: 12, CIPct: [2]float64{-2, 25}}
	few := &compare.Check{Metric: vocab.TTFT, Stat: vocab.P95, Reason: vocab.TooFew, NBase: 20, NCurrent: 20, NeedN: 40}
	for _, c := range []struct {
		d    compare.Decision
		want string
	}{
		{compare.Decision{Stop: true, Outcome: vocab.Regression, Check: reg}, "regression (ttft p95 +34.0%)"},
		{compare.Decision{Stop: true, Outcome: vocab.WithinTolerance}, "every check was within 10% (or not testable at max)"},
		{compare.Decision{Check: open}, "total p50 +12% [-2.0%, +25%] not yet bounded"},
		{compare.Decision{Check: few}, "ttft p95: need 40 successful requests per side to test p95 (have 20 and 20)"},
		{compare.Decision{}, "no baseline to compare with"},
	} {
		if got := LookText(c.d, th); got != c.want {
			t.Errorf("LookText = %q, want %q", got, c.want)
		}
	}
}

// TestStrictGateSaysWhatFailedIt: a gate that fails on not_tested fails
// on statistics too few requests left untested; its headline says so
// beside what else failed.
func TestStrictGateSaysWhatFailedIt(t *testing.T) {
	var few suiteCase
	for _, sc := range suiteCases {
		if sc.name == "few-requests" {
			few = sc
		}
	}
	rng := rand.New(rand.NewPCG(5, uint64(len(few.name))))
	br, cr := few.runs(rng)
	pairs := results.Match(&results.File{Runs: br}, &results.File{Runs: cr})
	th := thresholds()
	th.FailOn = []vocab.Status{vocab.Regression, vocab.OverBudget, vocab.NotTested}
	rep := Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
	if rep.Verdict != "fail" || !regexp.MustCompile(`\d+ checks not tested or unbounded \(fail_on: not_tested\)`).MatchString(rep.Headline) {
		t.Errorf("verdict %s, headline %q: want fail, saying what failed it", rep.Verdict, rep.Headline)
	}
}

// TestNoEmptyModel: a scenario whose endpoint names no model (a custom
// endpoint's body does) shows no empty parentheses.
func TestNoEmptyModel(t *testing.T) {
	rep := buildCase(t, suiteCases[0])
	for i := range rep.Scenarios {
		rep.Scenarios[i].Model = ""
	}
	var b strings.Builder
	Text(&b, rep, false)
	var page strings.Builder
	if err := HTML(&page, rep); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": b.String(), "markdown": Markdown(rep, MarkdownOptions{}), "html": page.String()} {
		if strings.Contains(out, "()") || strings.Contains(out, "(</span>") {
			t.Errorf("%s shows an empty model", name)
		}
	}
}

// TestCountIsNoTime: the headline's figure for a count (model calls per
// session) has no unit of time.
func TestCountIsNoTime(t *testing.T) {
	t.Parallel()
	c := compare.Check{Scenario: "agent", Endpoint: "e", Metric: vocab.StepCount, Stat: vocab.Mean, Baseline: 3, Current: 3.45, DeltaPct: 15, Status: vocab.Regression}
	got := (&Report{Thresholds: compare.Config{Tolerance: 0.1}}).describeCheck(c, func(s string) string { return s }, true)
	if got != "agent @ e model calls mean +15% (3.00 → 3.45 per session), a regression" {
		t.Errorf("got %q", got)
	}
	c.Metric, c.Stat, c.Baseline, c.Current = vocab.TTFT, vocab.P50, 300, 345
	if got := (&Report{Thresholds: compare.Config{Tolerance: 0.1}}).describeCheck(c, func(s string) string { return s }, true); !strings.HasSuffix(got, "(300 → 345 ms), a regression") {
		t.Errorf("a latency: got %q", got)
	}
}

// TestRegressedAndOverBudget: a check that regressed and is over its budget
// says both, the change first when it is further beyond its tolerance than
// the value beyond its budget ("TTFT p95 +143% (799 → 1940 ms), a
// regression" left out the 1500 ms budget its status column named), and
// the budget alone when the budget is further.
func TestRegressedAndOverBudget(t *testing.T) {
	t.Parallel()
	esc := func(s string) string { return s }
	c := compare.Check{Scenario: "chat", Endpoint: "e", Metric: vocab.TTFT, Stat: vocab.P95, Baseline: 799, Current: 1940, DeltaPct: 143, Budget: 1500, Status: vocab.OverBudget, Regressed: true}
	if got, want := (&Report{Thresholds: compare.Config{Tolerance: 0.1}}).describeCheck(c, esc, false), "TTFT p95 +143% (799 → 1940 ms), a regression and over its 1500 ms budget"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	c.Budget = 500 // 288% over the budget, 133 points beyond the tolerance
	if got, want := (&Report{Thresholds: compare.Config{Tolerance: 0.1}}).describeCheck(c, esc, false), "TTFT p95 1940 ms over its 500 ms budget (the baseline's 799 ms was over it too)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestInconclusiveNamesEveryMetric: the inconclusive note names each check's
// metric, those whose rows name none too ("chat-page @ web mean" named no
// metric for the client stage's mean).
func TestInconclusiveNamesEveryMetric(t *testing.T) {
	t.Parallel()
	for _, m := range append(append([]vocab.Metric{}, vocab.Latencies...), vocab.StepCount) {
		c := compare.Check{Endpoint: "web", Scenario: "chat-page", Metric: m, Stat: vocab.Mean, Status: vocab.Inconclusive, Reason: vocab.Uncorrected,
			Baseline: 27, Current: 40, DeltaPct: 48, CIPct: [2]float64{2, 90}, PValue: 0.2, Budget: math.NaN(), NBase: 10, NCurrent: 10}
		run := func() *results.Run { return &results.Run{Scenario: "chat-page", Endpoint: "web"} }
		pairs := []results.Pair{{Endpoint: "web", Scenario: "chat-page", Base: run(), Head: run()}}
		rep := Build(pairs, compare.Result{Verdict: vocab.Pass, Checks: []compare.Check{c}, Tested: 13}, thresholds())
		note := inconclusiveNote(rep, func(s string) string { return s })
		if !strings.Contains(note, "chat-page @ web "+noteLabel(m)+" mean") || strings.Contains(note, "web mean") {
			t.Errorf("%s: %q", m, note)
		}
	}
}

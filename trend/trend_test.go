package trend

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

var t0 = time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)

// lognormal is a series of n run-level values around 1,000 ms with a
// per-run spread sigma (log scale), each multiplied by shift(i).
func lognormal(seed uint64, n int, sigma float64, shift func(i int) float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 1000 * math.Exp(r.NormFloat64()*sigma) * shift(i)
	}
	return xs
}

func flat(int) float64 { return 1 }

func stepAt(at int, factor float64) func(int) float64 {
	return func(i int) float64 {
		if i >= at {
			return factor
		}
		return 1
	}
}

// runsOf turns a series of values into runs of one scenario (TTFT p50).
func runsOf(values []float64) []Run {
	var runs []Run
	for i, v := range values {
		v := v
		runs = append(runs, Run{
			CreatedAt: t0.Add(time.Duration(i) * 24 * time.Hour), GitSHA: fmt.Sprintf("%040x", i+1), MetricsVersion: 2,
			Scenarios: []Scenario{{Endpoint: "us-east", Scenario: "chat", Fingerprint: "sha256:a", Requests: 50,
				Values: []Value{{Metric: vocab.TTFT, Stat: vocab.P50, Value: &v, N: 50}}}},
		})
	}
	return runs
}

func TestDetectFindsAStepWhereItIs(t *testing.T) {
	xs := lognormal(1, 50, 0.05, stepAt(30, 1.15))
	got := Detect(xs, 7, Method{})
	if len(got) != 1 || got[0].Index < 28 || got[0].Index > 32 {
		t.Fatalf("splits %+v, want one near 30", got)
	}
	if got[0].PValue > DefaultAlpha {
		t.Errorf("p-value %g above alpha", got[0].PValue)
	}
	// Same input, same seed: the same answer.
	if again := Detect(xs, 7, Method{}); len(again) != 1 || again[0] != got[0] {
		t.Errorf("not deterministic: %+v then %+v", got, again)
	}
}

func TestDetectLeavesFlatAndOutliersAlone(t *testing.T) {
	for seed := range uint64(20) {
		if got := Detect(lognormal(seed, 50, 0.10, flat), seed, Method{}); len(got) > 0 {
			t.Errorf("seed %d: flat series split at %+v", seed, got)
		}
		for _, at := range []int{0, 25, 49} {
			xs := lognormal(seed, 50, 0.05, flat)
			xs[at] *= 1.8
			if got := Detect(xs, seed, Method{}); len(got) > 0 {
				t.Errorf("seed %d: one outlier run at %d split the series at %+v", seed, at, got)
			}
		}
	}
}

func TestDetectNeedsMinSegmentOnEachSide(t *testing.T) {
	// The newest two runs at a new level are not (yet) a level: no split
	// can leave fewer than MinSegment runs on a side.
	xs := lognormal(3, 30, 0.02, stepAt(28, 2))
	if got := Detect(xs, 1, Method{}); len(got) != 0 {
		t.Errorf("split %+v with two runs at the new level", got)
	}
	xs = lognormal(3, 31, 0.02, stepAt(28, 2))
	if got := Detect(xs, 1, Method{}); len(got) != 1 || got[0].Index != 28 {
		t.Errorf("splits %+v, want 28 once three runs are at the new level", got)
	}
	if got := Detect([]float64{1, 2, 3, 4, 5}, 1, Method{}); got != nil {
		t.Errorf("five runs split: %+v", got)
	}
}

func TestAnalyzeStepAndLevel(t *testing.T) {
	xs := lognormal(5, 40, 0.03, stepAt(20, 1.30))
	a := Analyze(runsOf(xs), Method{})
	if len(a.Series) != 1 {
		t.Fatalf("%d series", len(a.Series))
	}
	s := a.Series[0]
	if len(s.ChangePoints) != 1 {
		t.Fatalf("change points %+v", s.ChangePoints)
	}
	cp := s.ChangePoints[0]
	if cp.Index != 20 || cp.GitSHA != fmt.Sprintf("%040x", 21) || !cp.CreatedAt.Equal(t0.Add(20*24*time.Hour)) {
		t.Errorf("change point at %d (%s, %s)", cp.Index, cp.GitSHA, cp.CreatedAt)
	}
	if cp.StepPct < 25 || cp.StepPct > 35 || !(cp.CIPct[0] < cp.StepPct && cp.StepPct < cp.CIPct[1]) || cp.CIPct[0] < 20 {
		t.Errorf("step %+.1f%% [%+.1f, %+.1f]", cp.StepPct, cp.CIPct[0], cp.CIPct[1])
	}
	if math.Abs(s.Level.ChangePct-cp.StepPct) > 1e-9 || s.Level.First != cp.Before || s.Level.Current != cp.After {
		t.Errorf("level %+v vs change point %+v", s.Level, cp)
	}
	flatA := Analyze(runsOf(lognormal(5, 40, 0.03, flat)), Method{})
	if l := flatA.Series[0].Level; l.ChangePct != 0 || !math.IsNaN(l.CIPct[0]) || l.First != l.Current {
		t.Errorf("flat level %+v", l)
	}
}

func TestAnalyzeSaysWhenASeriesIsTooShort(t *testing.T) {
	a := Analyze(runsOf([]float64{100, 200, 300}), Method{})
	if s := a.Series[0]; s.Need != 6 || len(s.ChangePoints) != 0 {
		t.Errorf("need %d, change points %v", s.Need, s.ChangePoints)
	}
}

func TestConfigurationsAreSeparateSeries(t *testing.T) {
	runs := runsOf(lognormal(2, 20, 0.03, stepAt(10, 2)))
	for i := 10; i < 20; i++ {
		runs[i].Scenarios[0].Fingerprint = "sha256:b" // max_tokens doubled
	}
	a := Analyze(runs, Method{})
	if len(a.Series) != 2 || len(a.Configs) != 1 {
		t.Fatalf("%d series, configs %+v", len(a.Series), a.Configs)
	}
	for _, s := range a.Series {
		if len(s.ChangePoints) != 0 || len(s.Points) != 10 {
			t.Errorf("%s: %d points, change points %+v", s.Fingerprint, len(s.Points), s.ChangePoints)
		}
	}
	if c := a.Configs[0]; c.From[0] != 0 || c.From[1] != 10 {
		t.Errorf("config change %+v", c)
	}
}

func TestAnnounce(t *testing.T) {
	// A change point the previous record knew is not announced again,
	// even when it moves by a run.
	runs := runsOf(lognormal(9, 40, 0.03, stepAt(20, 1.3)))
	prev := Analyze(runs[:39], Method{})
	known := Announce(&prev, nil, true)
	if len(known) != 1 || known[0].At != runs[20].CreatedAt || prev.Series[0].ChangePoints[0].New {
		t.Fatalf("a quiet start: %+v, want the step taken as announced, not new", known)
	}
	known[0].At = runs[21].CreatedAt
	cur := Analyze(runs, Method{})
	if got := Announce(&cur, known, false); len(got) != 1 {
		t.Errorf("announcements %+v", got)
	}
	if cps, slower := cur.New(); len(cps) != 0 || slower != 0 {
		t.Errorf("a change point announced before is new: %+v", cps)
	}
	// The third run at a new level makes it a level: announced now, once.
	runs = runsOf(append(lognormal(9, 30, 0.03, flat), 1300, 1310, 1290))
	prev = Analyze(runs[:32], Method{})
	known = Announce(&prev, nil, true)
	cur = Analyze(runs, Method{})
	known = Announce(&cur, known, false)
	if cps, slower := cur.New(); len(cps) != 1 || slower != 1 || cps[0].Index != 30 || len(known) != 1 || known[0].NamedAt != runs[32].CreatedAt {
		t.Errorf("new %+v, slower %d, announced %+v", cps, slower, known)
	}
	// latgate trend reads what that record announced.
	again := Analyze(runs, Method{})
	again.MarkAnnounced(known)
	if cps, _ := again.New(); len(cps) != 1 {
		t.Errorf("MarkAnnounced: %+v", cps)
	}
	// An announcement whose run left the trend is dropped.
	cur = Analyze(runs[5:], Method{})
	if got := Announce(&cur, append(known, Announced{At: runs[0].CreatedAt}), false); len(got) != 1 {
		t.Errorf("kept %+v", got)
	}
}

func TestConfirmIsStricterThanDetect(t *testing.T) {
	xs := lognormal(1, 50, 0.05, stepAt(30, 1.15))
	if !Confirm(xs, 0, 50, DefaultAlpha/60, 3, Method{}) {
		t.Error("a +15% step at σ 0.05 over 20 runs is not confirmed at 0.005/60")
	}
	// A +5% step shows, at best, at the detection level; never at a
	// suite's.
	confirmed := 0
	for seed := range uint64(20) {
		if Confirm(lognormal(seed, 50, 0.05, stepAt(30, 1.05)), 0, 50, DefaultAlpha/60, seed, Method{}) {
			confirmed++
		}
	}
	if confirmed > 10 {
		t.Errorf("%d of 20 small steps confirmed at the suite level", confirmed)
	}
}

func TestMergeSortsDedupesAndKeeps(t *testing.T) {
	runs := runsOf([]float64{1, 2, 3, 4})
	shuffled := []Run{runs[2], runs[0], runs[3], runs[1]}
	again := runs[1]
	again.GitSHA = "other"
	got := Merge(3, []Run{again}, shuffled)
	if len(got) != 3 || got[0].GitSHA != "other" || !got[2].CreatedAt.Equal(runs[3].CreatedAt) {
		t.Errorf("merged %+v", got)
	}
}

func f64(v float64) *float64 { return &v }

func TestRunOf(t *testing.T) {
	f := &results.File{Schema: results.Schema, MetricsVersion: 2, CreatedAt: t0, Source: results.Source{GitSHA: "abc"}}
	run := results.Run{Endpoint: "e", Scenario: "s", Fingerprint: "sha256:x"}
	for i := range 45 {
		run.Requests = append(run.Requests, results.Request{OK: true, TTFTMs: f64(float64(100 + i)), TotalMs: f64(float64(1000 + i))})
	}
	run.Requests = append(run.Requests, results.Request{OK: false, TTFTMs: f64(5000)})
	f.Runs = []results.Run{run}
	r, err := RunOf(f, Provenance{Event: "schedule", RunURL: "https://ci/1"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Event != "schedule" || r.GitSHA != "abc" || len(r.Scenarios) != 1 || r.Scenarios[0].Requests != 46 {
		t.Fatalf("run %+v", r)
	}
	vals := r.Scenarios[0].Values
	if len(vals) != 3 {
		t.Fatalf("values %+v (the pending session series must be skipped)", vals)
	}
	if vals[0].Metric != vocab.TTFT || vals[0].Stat != vocab.P50 || *vals[0].Value != 122 || vals[0].N != 45 {
		t.Errorf("ttft p50 %+v = %g", vals[0], *vals[0].Value)
	}
	if *vals[1].Value != 141.8 || *vals[2].Value != 1022 {
		t.Errorf("ttft p95 %g, total p50 %g", *vals[1].Value, *vals[2].Value)
	}
	f.Runs[0].Requests = f.Runs[0].Requests[:20]
	r, _ = RunOf(f, Provenance{})
	if v := r.Scenarios[0].Values[1]; v.Value != nil || v.N != 20 {
		t.Errorf("p95 of 20 requests: %+v", v)
	}
	f.Runs[0].Variant = vocab.Head
	if _, err := RunOf(f, Provenance{}); !errors.Is(err, ErrInterleaved) {
		t.Errorf("A/B file: %v", err)
	}
	f.Runs[0].Variant, f.Incomplete = "", "interrupted"
	if _, err := RunOf(f, Provenance{}); !errors.Is(err, ErrIncomplete) {
		t.Errorf("incomplete file: %v", err)
	}
}

func TestValidate(t *testing.T) {
	good := File{Schema: Schema, Runs: runsOf([]float64{100})}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]File{
		"schema":   {Schema: "latgate/results/v1"},
		"no time":  {Schema: Schema, Runs: []Run{{}}},
		"negative": {Schema: Schema, Runs: runsOf([]float64{-1})},
		"absurd":   {Schema: Schema, Runs: runsOf([]float64{100, 1.7e308})},
		"beyond":   {Schema: Schema, Runs: runsOf([]float64{results.MaxMs * 1.01})},
		"metric":   {Schema: Schema, Runs: []Run{{CreatedAt: t0, Scenarios: []Scenario{{Endpoint: "e", Scenario: "s", Values: []Value{{Metric: "<b>", Stat: vocab.P50}}}}}}},
	} {
		if err := f.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

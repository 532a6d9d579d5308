package compare

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

var (
	calibrate    = flag.Bool("calibrate", false, "run the calibration study (make calibrate)")
	calStudy     = flag.String("study", "classic,drift,needn,noise", "calibration: parts to run (classic, drift, needn, noise, adaptive, init, sessions, tests, streams, strata)")
	calReps      = flag.Int("reps", 1000, "calibration: pairs of runs per cell")
	calSizes     = flag.String("sizes", "20,50,100,200,300", "calibration (classic): requests per side")
	calOut       = flag.String("calibrate-out", "", "calibration: also write the Markdown tables here")
	calPerms     = flag.Int("perms", 1000, "calibration: permutations per comparison")
	calCondition = flag.String("conditions", "", "calibration (classic): only these conditions (comma-separated)")
	calScen      = flag.Int("scenarios", 2, "calibration: scenarios in the suite (1 or 2; the change applies to one)")
	calDriftN    = flag.String("drift-sizes", "50,200", "calibration (drift): requests per side")
	calDesigns   = flag.String("designs", "single,history,ab", "calibration (drift): designs")
	calDrifts    = flag.String("drifts", "0,0.05,0.10,0.20,stretch,cold", "calibration (drift): per-run drift σ values and within-run patterns")
	calBlock     = flag.Int("block", 4, "calibration (drift): requests per variant in an A/B block")
	calHistory   = flag.Int("history", 10, "calibration (drift): baseline runs in the history design")
)

type condition struct {
	name   string
	base   func() model // nil: realistic()
	change func(m *model)
}

var conditions = []condition{
	{"unchanged", nil, func(*model) {}},
	{"all latency +10%", nil, func(m *model) { m.scale = 1.10 }},
	{"all latency +20%", nil, func(m *model) { m.scale = 1.20 }},
	{"all latency +30%", nil, func(m *model) { m.scale = 1.30 }},
	{"TTFT only +30%", nil, func(m *model) { m.ttftScale = 1.30 }},
	{"tail: spikes 5% → 10%", nil, func(m *model) { m.spikeP = 0.10 }},
	{"tail: spikes 5% → 15%", nil, func(m *model) { m.spikeP = 0.15 }},
	{"mix: hits 70%, unchanged", func() model { return mixModel(0.7) }, func(*model) {}},
	{"mix: hits 70% → 50%", func() model { return mixModel(0.7) }, func(m *model) { m.hitShare = 0.5 }},
	{"5% failing (unchanged)", failing(0.05), func(*model) {}},
	{"failing 1% → 5%", nil, func(m *model) { m.errRate = 0.05 }},
	{"failing 1% → 10%", nil, func(m *model) { m.errRate = 0.10 }},
}

// failing is the realistic model with a share of failed requests.
func failing(rate float64) func() model {
	return func() model {
		m := realistic()
		m.errRate = rate
		return m
	}
}

func studies() map[string]bool {
	out := map[string]bool{}
	for _, s := range strings.Split(*calStudy, ",") {
		out[strings.TrimSpace(s)] = true
	}
	return out
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var n int
		fmt.Sscan(f, &n)
		out = append(out, n)
	}
	return out
}

func calConfig() Config {
	return Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: *calPerms, Bootstrap: -1, scores: powerTests()[0]}
}

// parallel runs f(seed) for seeds 0..reps-1 on every core.
func parallel(reps int, f func(seed uint64)) {
	var wg sync.WaitGroup
	jobs := make(chan uint64)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				f(seed)
			}
		}()
	}
	for s := range uint64(reps) {
		jobs <- s
	}
	close(jobs)
	wg.Wait()
}

// TestCalibration runs the parts of the calibration study named by -study
// and prints (and with -calibrate-out writes) their Markdown tables.
func TestCalibration(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate (make calibrate)")
	}
	var b strings.Builder
	s := studies()
	start := time.Now()
	if s["classic"] {
		classicStudy(t, &b)
	}
	if s["drift"] {
		driftStudy(t, &b)
	}
	if s["needn"] {
		neededNStudy(t, &b)
	}
	if s["noise"] {
		noiseStudy(t, &b)
	}
	fmt.Fprintf(&b, "\n(-study %s -reps %d -perms %d; %s on %d cores.)\n", *calStudy, *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	if *calOut != "" {
		if err := os.WriteFile(*calOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// classicStudy: for each condition and n, how often the whole suite (two
// scenarios, the change applied to one) fails, next to the naive rule
// "fail if the changed scenario's TTFT p95 rose by more than 10%".
func classicStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	fmt.Fprintf(b, "| condition | n per side | latgate fails | naive TTFT p95 +10%% fails |\n|---|---:|---:|---:|\n")
	for _, cond := range conditions {
		if *calCondition != "" && !strings.Contains(","+*calCondition+",", ","+cond.name+",") {
			continue
		}
		for _, n := range ints(*calSizes) {
			base := realistic()
			if cond.base != nil {
				base = cond.base()
			}
			cur := base
			cond.change(&cur)
			fails, naive := runCell(base, cur, n, *calReps, c)
			line := fmt.Sprintf("| %s | %d | %.1f%% | %.1f%% |", cond.name, n, 100*fails, 100*naive)
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(b, "\n%d scenario(s) per suite, %d pairs per cell, %d permutations, alpha %.2f, tolerance 10%%, min_delta 25ms.\n\n",
		*calScen, *calReps, *calPerms, c.Alpha)
}

func runCell(base, cur model, n, reps int, c Config) (fails, naive float64) {
	var mu sync.Mutex
	var nf, nn int
	parallel(reps, func(seed uint64) {
		rng := rand.New(rand.NewPCG(seed+1000003*uint64(n), 7))
		runs := []Pair{
			{Endpoint: "e", Scenario: "short", Base: base.sample(n, rng), Head: cur.sample(n, rng)},
			{Endpoint: "e", Scenario: "long", Base: realistic().sample(n, rng), Head: realistic().sample(n, rng)},
		}[:*calScen]
		r := Compare(runs, c)
		bq := Quantile(okValues(runs[0].Base, "ttft"), 0.95)
		cq := Quantile(okValues(runs[0].Head, "ttft"), 0.95)
		mu.Lock()
		defer mu.Unlock()
		if r.Verdict == "fail" {
			nf++
		}
		if cq > 1.10*bq {
			nn++
		}
	})
	return float64(nf) / float64(reps), float64(nn) / float64(reps)
}

// driftCond is a row of the drift study: per-run drift σ, or a within-run
// pattern.
type driftCond struct {
	name    string
	sigma   float64
	stretch bool // 20% of consecutive requests ×1.3, in the current run only
	cold    bool // the first 10% of every run's requests ×3
}

func driftConds() []driftCond {
	var out []driftCond
	for _, f := range strings.Split(*calDrifts, ",") {
		switch f = strings.TrimSpace(f); f {
		case "stretch":
			out = append(out, driftCond{name: "slow stretch (20% ×1.3)", stretch: true})
		case "cold":
			out = append(out, driftCond{name: "cold start (first 10% ×3)", cold: true})
		default:
			var s float64
			fmt.Sscan(f, &s)
			out = append(out, driftCond{name: fmt.Sprintf("σ = %.2f", s), sigma: s})
		}
	}
	return out
}

// timeFactor is the within-run pattern: request (or block) i of n, with
// the stretch starting at s when the run has one.
func (d driftCond) timeFactor(i, n, s int, stretched bool) float64 {
	f := 1.0
	if d.cold && i < n/10 {
		f *= 3
	}
	if stretched && i >= s && i < s+n/5 {
		f *= 1.3
	}
	return f
}

// driftSuite simulates one suite comparison (two scenarios; the head change
// applies to "short") under a design and a drift condition, and returns
// its result.
func driftSuite(design string, d driftCond, n int, head float64, seed uint64, c Config) Result {
	rng := rand.New(rand.NewPCG(seed, 0xd81f7))
	scen := []string{"short", "long"}[:*calScen]
	// run draws one run of a scenario: n requests under a run factor and
	// the within-run pattern.
	run := func(scale float64, current bool) *Sample {
		m := realistic()
		m.scale = scale * math.Exp(d.sigma*rng.NormFloat64())
		s := rng.IntN(n - n/5 + 1)
		return m.sampleWith(n, rng, func(i int) float64 { return d.timeFactor(i, n, s, current && d.stretch) })
	}
	headOf := func(sc string) float64 {
		if sc == "short" {
			return head
		}
		return 1
	}
	switch design {
	case "single":
		var runs []Pair
		for _, sc := range scen {
			runs = append(runs, Pair{Endpoint: "e", Scenario: sc, Base: run(1, false), Head: run(headOf(sc), true)})
		}
		return Compare(runs, c)
	case "history":
		var series []Series
		for _, sc := range scen {
			s := Series{Endpoint: "e", Scenario: sc}
			for range *calHistory {
				s.History = append(s.History, run(1, false))
			}
			s.Current = run(headOf(sc), true)
			series = append(series, s)
		}
		r, err := CompareHistory(series, c)
		if err != nil {
			panic(err)
		}
		return r
	case "ab":
		var runs []Pair
		bs := *calBlock
		blocks := (n + bs - 1) / bs
		for _, sc := range scen {
			base := &Sample{Values: map[vocab.Metric][]float64{}, Events: 128}
			cur := &Sample{Values: map[vocab.Metric][]float64{}, Events: 128}
			start := rng.IntN(blocks - blocks/5 + 1)
			for b := range blocks {
				f := math.Exp(d.sigma*rng.NormFloat64()) * d.timeFactor(b, blocks, start, d.stretch)
				for _, side := range []struct {
					s     *Sample
					scale float64
				}{{base, 1}, {cur, headOf(sc)}} {
					m := realistic()
					m.scale = f * side.scale
					one := m.sample(bs, rng)
					side.s.OK = append(side.s.OK, one.OK...)
					for k, v := range one.Values {
						side.s.Values[k] = append(side.s.Values[k], v...)
					}
					for range bs {
						side.s.Block = append(side.s.Block, b)
					}
				}
			}
			runs = append(runs, Pair{Endpoint: "e", Scenario: sc, Base: base, Head: cur})
		}
		return Compare(runs, c)
	}
	panic("unknown design " + design)
}

func driftStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	sizes := ints(*calDriftN)
	fmt.Fprintf(b, "| design | condition |")
	for _, n := range sizes {
		fmt.Fprintf(b, " n = %d: unchanged fails | +30%% caught |", n)
	}
	fmt.Fprintf(b, "\n|---|---|")
	for range sizes {
		fmt.Fprintf(b, "---:|---:|")
	}
	fmt.Fprintln(b)
	for _, design := range strings.Split(*calDesigns, ",") {
		for _, d := range driftConds() {
			line := fmt.Sprintf("| %s | %s |", design, d.name)
			for _, n := range sizes {
				for _, head := range []float64{1, 1.3} {
					var mu sync.Mutex
					fails, inconc, untested := 0, 0, 0
					parallel(*calReps, func(seed uint64) {
						r := driftSuite(design, d, n, head, seed+7919*uint64(n), c)
						mu.Lock()
						defer mu.Unlock()
						if r.Verdict == "fail" {
							fails++
						}
						for _, ch := range r.Checks {
							if ch.Scenario != "short" || ch.Metric != "total" || ch.Stat != "p50" {
								continue
							}
							switch ch.Status {
							case vocab.Inconclusive:
								inconc++
							case vocab.NotTested:
								untested++ // the history's spread beyond what max could test
							}
						}
					})
					cell := fmt.Sprintf(" %.1f%%", 100*float64(fails)/float64(*calReps))
					if design == "history" && inconc+untested > 0 {
						cell += fmt.Sprintf(" (total p50 inconclusive %.0f%%, not tested %.0f%%)", 100*float64(inconc)/float64(*calReps), 100*float64(untested)/float64(*calReps))
					}
					line += cell + " |"
				}
			}
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(b, "\n%d scenario(s) per suite (the change in one), %d suites per cell, %d permutations; history of %d runs; A/B blocks of %d base + %d head requests.\n\n",
		*calScen, *calReps, *calPerms, *calHistory, *calBlock, *calBlock)
}

// neededNStudy checks the "requests needed" estimate: in a TTFT-only +30%
// change at n = 50, the estimates of the inconclusive ttft p50 checks, and
// the detection actually reached at their median.
func neededNStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	cur := realistic()
	cur.ttftScale = 1.3
	var mu sync.Mutex
	var need []float64
	parallel(*calReps, func(seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 99))
		runs := []Pair{
			{Endpoint: "e", Scenario: "short", Base: realistic().sample(50, rng), Head: cur.sample(50, rng)},
			{Endpoint: "e", Scenario: "long", Base: realistic().sample(50, rng), Head: realistic().sample(50, rng)},
		}[:*calScen]
		ch := find(t, Compare(runs, c), "short", "ttft", "p50")
		// The estimate an undecided check gives: inconclusive, or not
		// tested because the run was too small for it.
		if (ch.Status == vocab.Inconclusive || ch.Status == vocab.NotTested && ch.Reason == vocab.Underpowered) && ch.NeedN > 0 {
			mu.Lock()
			need = append(need, float64(ch.NeedN))
			mu.Unlock()
		}
	})
	sort.Float64s(need)
	if len(need) == 0 {
		line := fmt.Sprintf("Requests needed (TTFT only +30%%, n = 50, %d suites): no undecided ttft p50 check gave an estimate.", *calReps)
		fmt.Fprintln(b, line+"\n")
		t.Log(line)
		return
	}
	med := int(Quantile(need, 0.5))
	caught := 0
	parallel(*calReps, func(seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 101))
		runs := []Pair{
			{Endpoint: "e", Scenario: "short", Base: realistic().sample(med, rng), Head: cur.sample(med, rng)},
			{Endpoint: "e", Scenario: "long", Base: realistic().sample(med, rng), Head: realistic().sample(med, rng)},
		}[:*calScen]
		if find(t, Compare(runs, c), "short", "ttft", "p50").Status == vocab.Regression {
			mu.Lock()
			caught++
			mu.Unlock()
		}
	})
	line := fmt.Sprintf("Requests needed (TTFT only +30%%, n = 50, %d suites): %d undecided ttft p50 checks (inconclusive, or not tested at 50) gave an estimate; quartiles %.0f / %.0f / %.0f requests per side; at the median (%d) the check was caught in %.1f%% of %d suites (the estimate aims at 80%%).",
		*calReps, len(need), Quantile(need, 0.25), Quantile(need, 0.5), Quantile(need, 0.75), med, 100*float64(caught)/float64(*calReps), *calReps)
	fmt.Fprintln(b, line+"\n")
	t.Log(line)
}

// noiseStudy checks Noise: the median MDE of an A/A comparison at n, and
// the detection reached when the head is slower by exactly that MDE.
func noiseStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	fmt.Fprintf(b, "| check | n per side | A/A noise (median) | MDE at 80%% power (median) | requests for +20%% | caught at +MDE |\n|---|---:|---:|---:|---:|---:|\n")
	for _, n := range ints(*calDriftN) {
		for _, chk := range []struct {
			metric vocab.Metric
			stat   vocab.Stat
		}{{"total", "p50"}, {"ttft", "p50"}, {"total", "p95"}, {"ttft", "p95"}} {
			var mu sync.Mutex
			var noise, mde, need []float64
			reps := min(*calReps, 200)
			parallel(reps, func(seed uint64) {
				rng := rand.New(rand.NewPCG(seed, 55))
				runs := []Pair{
					{Endpoint: "e", Scenario: "short", Base: realistic().sample(n, rng), Head: realistic().sample(n, rng)},
					{Endpoint: "e", Scenario: "long", Base: realistic().sample(n, rng), Head: realistic().sample(n, rng)},
				}[:*calScen]
				cc := c
				cc.Bootstrap = 500
				for _, nc := range Noise(runs, cc) {
					if nc.Scenario == "short" && nc.Metric == chk.metric && nc.Stat == chk.stat {
						mu.Lock()
						noise, mde, need = append(noise, nc.NoisePct), append(mde, nc.MDEPct), append(need, float64(nc.NeedN))
						mu.Unlock()
					}
				}
			})
			sort.Float64s(noise)
			sort.Float64s(mde)
			sort.Float64s(need)
			m := Quantile(mde, 0.5)
			cur := realistic()
			if chk.metric == "ttft" {
				cur.ttftScale = 1 + m/100
			} else {
				cur.scale = 1 + m/100
			}
			caught := 0
			parallel(*calReps, func(seed uint64) {
				rng := rand.New(rand.NewPCG(seed, 57))
				runs := []Pair{
					{Endpoint: "e", Scenario: "short", Base: realistic().sample(n, rng), Head: cur.sample(n, rng)},
					{Endpoint: "e", Scenario: "long", Base: realistic().sample(n, rng), Head: realistic().sample(n, rng)},
				}[:*calScen]
				if find(t, Compare(runs, c), "short", chk.metric, chk.stat).Status == vocab.Regression {
					mu.Lock()
					caught++
					mu.Unlock()
				}
			})
			line := fmt.Sprintf("| %s %s | %d | ±%.1f%% | +%.1f%% | %.0f | %.1f%% |", chk.metric, chk.stat, n,
				Quantile(noise, 0.5), m, Quantile(need, 0.5), 100*float64(caught)/float64(*calReps))
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(b, "\nA/A medians over %d comparisons (500 bootstrap resamples); detection over %d suites with the head slower by the median MDE (for the ttft checks: TTFT only).\n\n", min(*calReps, 200), *calReps)
}

package compare

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

var (
	calAdaptMin     = flag.Int("adaptive-min", 40, "calibration (adaptive): requests.min")
	calAdaptMax     = flag.Int("adaptive-max", 200, "calibration (adaptive): requests.max")
	calAdaptBatch   = flag.Int("adaptive-batch", 0, "calibration (adaptive): requests per batch (0: min)")
	calAdaptSigma   = flag.Float64("adaptive-sigma", 0.10, "calibration (adaptive, ab): per-block drift σ")
	calAdaptInt     = flag.Float64("adaptive-interim", DefaultInterim, "calibration (adaptive): Design.Interim")
	calAdaptOnly    = flag.String("adaptive-only", "", "calibration (adaptive): only rows containing this text (e.g. 'ab | TTFT')")
	calAdaptDesigns = flag.String("adaptive-designs", "gate,ab", "calibration (adaptive): designs (gate, ab)")
)

// prefix is the first n requests of a sample (what a look sees).
func prefix(s *Sample, n int) *Sample {
	out := &Sample{OK: s.OK[:n], Values: map[vocab.Metric][]float64{}, Events: s.Events, Max: max(s.Max, s.N())}
	for k, v := range s.Values {
		out.Values[k] = v[:n]
	}
	if s.Block != nil {
		out.Block = s.Block[:n]
	}
	return out
}

// adaptiveOutcome is one simulated suite under the adaptive and the fixed
// design.
type adaptiveOutcome struct {
	adaptiveFail, fixedFail bool
	requests                int // current-side requests measured, all scenarios
	stops                   map[string]int
	failing                 []string // the adaptive design's failing checks
	// caught holds "p50" and "p95" when the changed scenario's TTFT check
	// of that statistic is a regression (adaptive design).
	caught map[vocab.Stat]bool
	n      int // the changed scenario's requests per side
	// confirmFail: the adaptive design fails and a confirmation run of the
	// scenarios that regressed (as many requests per side, fresh data)
	// confirms a regression (regression.confirm).
	confirmFail bool
}

// adaptiveSuite simulates one suite of *calScen scenarios, the change in
// "short": full runs of max requests per side are drawn, the adaptive
// design looks at their prefixes, and the fixed design compares them whole.
// design "gate": a stored baseline of max requests (recorded by a run,
// which runs adaptive scenarios to max) against the current run; "ab":
// interleaved blocks of *calBlock requests per variant, every block's
// latencies multiplied by exp(N(0, σ)), both variants.
func adaptiveSuite(design string, change func(*model), seed uint64, c Config) adaptiveOutcome {
	rng := rand.New(rand.NewPCG(seed, 0xada9))
	mn, mx := *calAdaptMin, *calAdaptMax
	batch := *calAdaptBatch
	if batch <= 0 {
		batch = mn
	}
	d := Design{Alpha: c.Alpha, Looks: PlannedLooks(mn, mx, batch), Runs: *calScen, Interim: *calAdaptInt}
	var full []Pair
	for _, sc := range []string{"short", "long"}[:*calScen] {
		cur := realistic()
		if sc == "short" {
			change(&cur)
		}
		switch design {
		case "gate":
			full = append(full, Pair{Endpoint: "e", Scenario: sc, Base: realistic().sample(mx, rng), Head: cur.sample(mx, rng)})
		case "ab":
			full = append(full, abPair(realistic(), cur, mx, *calAdaptSigma, rng))
			full[len(full)-1].Scenario = sc
		default:
			panic("unknown design " + design)
		}
	}
	out := adaptiveOutcome{stops: map[string]int{}}
	fixed := Compare(full, c)
	out.fixedFail = fixed.Verdict == "fail"
	var final []Pair
	for _, r := range full {
		n := mn
		status := "max"
		for ; n < mx; n += batch {
			look := r
			look.Head = prefix(r.Head, n)
			if design == "ab" {
				look.Base = prefix(r.Base, n)
			}
			if dec := d.Look(look, c); dec.Stop {
				status = map[vocab.Status]string{vocab.WithinTolerance: "pass", vocab.Regression: "regression"}[dec.Outcome]
				break
			}
		}
		n = min(n, mx)
		if r.Scenario == "short" {
			out.n = n
		}
		out.stops[status]++
		out.requests += n
		fr := r
		fr.Head = prefix(r.Head, n)
		if design == "ab" {
			fr.Base = prefix(r.Base, n)
		}
		final = append(final, fr)
	}
	res := CompareSequential(final, c, d)
	out.adaptiveFail = res.Verdict == "fail"
	if out.adaptiveFail {
		cc := c
		cc.Confirm = true
		out.confirmFail = Confirm(res, final, confirmRuns(design, res, final, change, rng), cc).Verdict == "fail"
	}
	out.caught = map[vocab.Stat]bool{}
	for _, ch := range res.Checks {
		if ch.Scenario == "short" && ch.Metric == vocab.TTFT && ch.Status == vocab.Regression {
			out.caught[ch.Stat] = true
		}
		if ch.Status == vocab.Regression || ch.Status == vocab.OverBudget {
			out.failing = append(out.failing, fmt.Sprintf("%s %s %s %+.1f%% p %.4f n %d/%d", ch.Scenario, ch.Metric, ch.Stat, ch.DeltaPct, ch.PValue, ch.NBase, ch.NCurrent))
		}
	}
	return out
}

var adaptiveConds = []struct {
	name   string
	change func(*model)
}{
	{"unchanged", func(*model) {}},
	{"all latency +10% (the tolerance)", func(m *model) { m.scale = 1.10 }},
	{"all latency +30%", func(m *model) { m.scale = 1.30 }},
	{"all latency +20%", func(m *model) { m.scale = 1.20 }},
	{"TTFT only +20%", func(m *model) { m.ttftScale = 1.20 }},
	{"TTFT only +30%", func(m *model) { m.ttftScale = 1.30 }},
	{"TTFT only +40%", func(m *model) { m.ttftScale = 1.40 }},
	{"TTFT only +100%", func(m *model) { m.ttftScale = 2 }},
}

// confirmRuns draws the confirmation runs of the runs that regressed: as
// many requests per side as they measured, fresh, in the same design.
func confirmRuns(design string, res Result, final []Pair, change func(*model), rng *rand.Rand) []Pair {
	var out []Pair
	for _, r := range final {
		if !slices.ContainsFunc(res.Checks, func(c Check) bool { return c.Scenario == r.Scenario && c.Status == vocab.Regression }) {
			continue
		}
		cur := realistic()
		if r.Scenario == "short" {
			change(&cur)
		}
		n := r.Head.N()
		p := Pair{Endpoint: r.Endpoint, Scenario: r.Scenario, Base: realistic().sample(n, rng), Head: cur.sample(n, rng)}
		if design == "ab" {
			p = abPair(realistic(), cur, n, *calAdaptSigma, rng)
			p.Endpoint, p.Scenario = r.Endpoint, r.Scenario
		}
		out = append(out, p)
	}
	return out
}

// adaptiveStudy: false alarms, detection and requests used by adaptive
// sampling against the fixed design at max requests.
func adaptiveStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	// A pass stops on the intervals: compute them as the program does.
	c.Bootstrap = 1000
	fmt.Fprintf(b, "| design | condition | adaptive fails | … with regression.confirm | ttft p50 / p95 caught | requests used (of max) | changed scenario's requests per side: median, 90th percentile | stopped: pass / regression / max | fixed (max) fails |\n|---|---|---:|---:|---:|---:|---:|---|---:|\n")
	for _, design := range strings.Split(*calAdaptDesigns, ",") {
		for _, cond := range adaptiveConds {
			if *calAdaptOnly != "" && !containsAny(design+" | "+cond.name, *calAdaptOnly) {
				continue
			}
			var mu sync.Mutex
			af, ff, cf, req := 0, 0, 0, 0
			stops, caught := map[string]int{}, map[vocab.Stat]int{}
			var ns []float64
			parallel(*calReps, func(seed uint64) {
				o := adaptiveSuite(design, cond.change, seed+104729, c)
				mu.Lock()
				defer mu.Unlock()
				af, ff, cf, req = af+b2i(o.adaptiveFail), ff+b2i(o.fixedFail), cf+b2i(o.confirmFail), req+o.requests
				for k, v := range o.stops {
					stops[k] += v
				}
				for k := range o.caught {
					caught[k]++
				}
				ns = append(ns, float64(o.n))
			})
			sort.Float64s(ns)
			runs := float64(*calReps * *calScen)
			pc := func(k int, of float64) float64 { return 100 * float64(k) / of }
			reps := float64(*calReps)
			line := fmt.Sprintf("| %s | %s | %.1f%% | %.1f%% | %.1f%% / %.1f%% | %.0f%% | %.0f, %.0f | %.0f%% / %.0f%% / %.0f%% | %.1f%% |", design, cond.name,
				pc(af, reps), pc(cf, reps), pc(caught[vocab.P50], reps), pc(caught[vocab.P95], reps), 100*float64(req)/(runs*float64(*calAdaptMax)),
				Quantile(ns, 0.5), Quantile(ns, 0.9),
				pc(stops["pass"], runs), pc(stops["regression"], runs), pc(stops["max"], runs), pc(ff, reps))
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	batch := *calAdaptBatch
	if batch <= 0 {
		batch = *calAdaptMin
	}
	d := Design{Alpha: c.Alpha, Looks: PlannedLooks(*calAdaptMin, *calAdaptMax, batch), Runs: *calScen, Interim: *calAdaptInt}
	fmt.Fprintf(b, "\nrequests: {min: %d, max: %d}, looks every %d (%d looks; each interim look at alpha %.4g per scenario, the final comparison at %.4g per scenario; a pass when every check's interval is within the tolerance or it cannot be tested at max); %d scenario(s) per suite (the change in one), %d suites per cell, %d permutations; ab: blocks of %d + %d requests, per-block drift σ = %.2f. The fixed design measures max requests per side at alpha %.2f.\n\n",
		*calAdaptMin, *calAdaptMax, batch, d.Looks, d.LookAlpha(), d.RunAlpha(), *calScen, *calReps, *calPerms, *calBlock, *calBlock, *calAdaptSigma, c.Alpha)
}

// TestCalibrationAdaptive is the adaptive part of the calibration study
// (-study adaptive; make calibrate CAL_STUDY=adaptive), and with -study
// init the design init's suite ships (one scenario, A/B, requests {min:
// 100, max: 1000}). With -calibrate-out FILE its tables go to
// FILE.adaptive.md and FILE.init.md.
func TestCalibrationAdaptive(t *testing.T) {
	s := studies()
	if !*calibrate || !s["adaptive"] && !s["init"] {
		t.Skip("run with -calibrate -study adaptive or init (make calibrate CAL_STUDY=adaptive)")
	}
	for _, part := range []string{"adaptive", "init"} {
		if !s[part] {
			continue
		}
		if part == "init" {
			defer initDesign()()
		}
		var b strings.Builder
		start := time.Now()
		adaptiveStudy(t, &b)
		fmt.Fprintf(&b, "(-study %s -reps %d -perms %d; %s on %d cores.)\n", part, *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
		fmt.Println(b.String())
		writeOut(t, "."+part+".md", b.String())
	}
}

// initDesign sets the study's flags to the design of init's suite and
// returns what puts them back.
func initDesign() func() {
	scen, designs, mn, mx := *calScen, *calAdaptDesigns, *calAdaptMin, *calAdaptMax
	*calScen, *calAdaptDesigns, *calAdaptMin, *calAdaptMax = 1, "ab", 100, 1000
	return func() { *calScen, *calAdaptDesigns, *calAdaptMin, *calAdaptMax = scen, designs, mn, mx }
}

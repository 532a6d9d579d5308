package compare

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

var (
	calAdaptMin   = flag.Int("adaptive-min", 40, "calibration (adaptive): requests.min")
	calAdaptMax   = flag.Int("adaptive-max", 200, "calibration (adaptive): requests.max")
	calAdaptBatch = flag.Int("adaptive-batch", 0, "calibration (adaptive): requests per batch (0: min)")
	calAdaptSigma = flag.Float64("adaptive-sigma", 0.10, "calibration (adaptive, ab): per-block drift σ")
	calAdaptFut   = flag.Float64("adaptive-futility", DefaultFutility, "calibration (adaptive): Design.Futility")
	calAdaptInt   = flag.Float64("adaptive-interim", DefaultInterim, "calibration (adaptive): Design.Interim")
	calAdaptOnly  = flag.String("adaptive-only", "", "calibration (adaptive): only rows containing this text (e.g. 'ab | TTFT')")
)

// prefix is the first n requests of a sample (what a look sees).
func prefix(s *Sample, n int) *Sample {
	out := &Sample{OK: s.OK[:n], Values: map[vocab.Metric][]float64{}, Events: s.Events}
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
	d := Design{Alpha: c.Alpha, Looks: PlannedLooks(mn, mx, batch), Runs: *calScen, Interim: *calAdaptInt, Futility: *calAdaptFut}
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
			bs := *calBlock
			base := &Sample{Values: map[vocab.Metric][]float64{}, Events: 128}
			head := &Sample{Values: map[vocab.Metric][]float64{}, Events: 128}
			for b := 0; b*bs < mx; b++ {
				f := math.Exp(*calAdaptSigma * rng.NormFloat64())
				k := min(bs, mx-b*bs)
				for _, side := range []struct {
					s *Sample
					m model
				}{{base, realistic()}, {head, cur}} {
					side.m.scale *= f
					one := side.m.sample(k, rng)
					side.s.OK = append(side.s.OK, one.OK...)
					for key, v := range one.Values {
						side.s.Values[key] = append(side.s.Values[key], v...)
					}
					for range k {
						side.s.Block = append(side.s.Block, b+1)
					}
				}
			}
			full = append(full, Pair{Endpoint: "e", Scenario: sc, Base: base, Head: head})
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
				status = map[vocab.Status]string{vocab.OK: "pass", vocab.Regression: "regression"}[dec.Outcome]
				break
			}
		}
		n = min(n, mx)
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
	for _, ch := range res.Checks {
		if ch.Status == vocab.Regression || ch.Status == vocab.OverBudget {
			out.failing = append(out.failing, fmt.Sprintf("%s %s %s %+.1f%% p %.4f n %d/%d", ch.Scenario, ch.Metric, ch.Stat, ch.DeltaPct, ch.PValue, ch.NBase, ch.NCurrent))
		}
	}
	return out
}

// adaptiveStudy: false alarms, detection and requests used by adaptive
// sampling against the fixed design at max requests.
func adaptiveStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	conds := []struct {
		name   string
		change func(*model)
	}{
		{"unchanged", func(*model) {}},
		{"all latency +30%", func(m *model) { m.scale = 1.30 }},
		{"all latency +20%", func(m *model) { m.scale = 1.20 }},
		{"TTFT only +30%", func(m *model) { m.ttftScale = 1.30 }},
	}
	fmt.Fprintf(b, "| design | condition | adaptive fails | requests used (of max) | stopped: pass / regression / max | fixed (max) fails |\n|---|---|---:|---:|---|---:|\n")
	for _, design := range []string{"gate", "ab"} {
		for _, cond := range conds {
			if !strings.Contains(design+" | "+cond.name, *calAdaptOnly) {
				continue
			}
			var mu sync.Mutex
			af, ff, req := 0, 0, 0
			stops := map[string]int{}
			parallel(*calReps, func(seed uint64) {
				o := adaptiveSuite(design, cond.change, seed+104729, c)
				mu.Lock()
				defer mu.Unlock()
				if o.adaptiveFail {
					af++
				}
				if o.fixedFail {
					ff++
				}
				req += o.requests
				for k, v := range o.stops {
					stops[k] += v
				}
			})
			runs := float64(*calReps * *calScen)
			line := fmt.Sprintf("| %s | %s | %.1f%% | %.0f%% | %.0f%% / %.0f%% / %.0f%% | %.1f%% |", design, cond.name,
				100*float64(af)/float64(*calReps), 100*float64(req)/(runs*float64(*calAdaptMax)),
				100*float64(stops["pass"])/runs, 100*float64(stops["regression"])/runs, 100*float64(stops["max"])/runs,
				100*float64(ff)/float64(*calReps))
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
	batch := *calAdaptBatch
	if batch <= 0 {
		batch = *calAdaptMin
	}
	d := Design{Alpha: c.Alpha, Looks: PlannedLooks(*calAdaptMin, *calAdaptMax, batch), Runs: *calScen, Interim: *calAdaptInt, Futility: *calAdaptFut}
	fmt.Fprintf(b, "\nrequests: {min: %d, max: %d}, looks every %d (%d looks; each interim look at alpha %.4g per scenario, the final comparison at %.4g per scenario; futility from a minimum-effect p-value of %.2g); %d scenario(s) per suite (the change in one), %d suites per cell, %d permutations; ab: blocks of %d + %d requests, per-block drift σ = %.2f. The fixed design measures max requests per side at alpha %.2f.\n\n",
		*calAdaptMin, *calAdaptMax, batch, d.Looks, d.LookAlpha(), d.RunAlpha(), d.Futility, *calScen, *calReps, *calPerms, *calBlock, *calBlock, *calAdaptSigma, c.Alpha)
}

// TestCalibrationAdaptive is the adaptive part of the calibration study
// (-study adaptive; make calibrate CAL_STUDY=adaptive). With
// -calibrate-out FILE its table goes to FILE.adaptive.md.
func TestCalibrationAdaptive(t *testing.T) {
	if !*calibrate || !studies()["adaptive"] {
		t.Skip("run with -calibrate -study adaptive (make calibrate CAL_STUDY=adaptive)")
	}
	var b strings.Builder
	start := time.Now()
	adaptiveStudy(t, &b)
	fmt.Fprintf(&b, "(-study adaptive -reps %d -perms %d; %s on %d cores.)\n", *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	if *calOut != "" {
		if err := os.WriteFile(*calOut+".adaptive.md", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

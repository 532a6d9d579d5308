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
	calPowerN     = flag.String("power-sizes", "100,200,400", "calibration (power): requests per side")
	calPowerConds = flag.String("power-conditions", "", "calibration (power): only conditions containing one of these (comma-separated)")
	calPowerSigma = flag.Float64("power-sigma", 0.10, "calibration (power): per-block drift σ of the A/B design")
	calPowerTests = flag.String("power-tests", "::,:ramp3:,:step2:,:multi:,normal::,log::,::values", "calibration (tests): score sets to compare, each rank:tail:mean (empty: what ships), separated by commas")
)

// powerTests are the score sets the power study compares.
func powerTests() []scoreSet {
	var out []scoreSet
	for _, f := range strings.Split(*calPowerTests, ",") {
		p := strings.Split(f, ":")
		for len(p) < 3 {
			p = append(p, "")
		}
		out = append(out, scoreSet{rank: p[0], tail: p[1], mean: p[2]})
	}
	return out
}

func (s scoreSet) String() string {
	or := func(v, def string) string {
		if v == "" {
			return def
		}
		return v
	}
	return or(s.rank, "wilcoxon") + "/" + or(s.tail, "clamp2.5/1.5") + "/" + or(s.mean, "exceed")
}

// powerCond is a row of the comparison of tests: what the head changes in
// init's one-scenario suite (base nil: the realistic model).
type powerCond struct {
	name   string
	base   func() model
	change func(*model)
}

var powerConds = []powerCond{
	{"unchanged", nil, func(*model) {}},
	{"all latency +10% (the tolerance)", nil, func(m *model) { m.scale = 1.10 }},
	{"TTFT +20%", nil, func(m *model) { m.ttftScale = 1.20 }},
	{"TTFT +40%", nil, func(m *model) { m.ttftScale = 1.40 }},
	{"TTFT tail: spikes 5% → 8.5% (p95 +40%)", nil, func(m *model) { m.spikeP = 0.085 }},
	{"TTFT tail: spikes 5% → 15%", nil, func(m *model) { m.spikeP = 0.15 }},
	{"mix: hits 70% → 50%", func() model { return mixModel(0.7) }, func(m *model) { m.hitShare = 0.5 }},
}

// abPair draws one interleaved A/B run of n requests per side in blocks of
// *calBlock + *calBlock, every block's latencies multiplied by exp(N(0, σ)).
func abPair(base, head model, n int, sigma float64, rng *rand.Rand) Pair {
	p := Pair{Endpoint: "e", Scenario: "chat-short",
		Base: &Sample{Values: map[vocab.Metric][]float64{}}, Head: &Sample{Values: map[vocab.Metric][]float64{}}}
	bs := *calBlock
	for b := 0; b*bs < n; b++ {
		f := math.Exp(sigma * rng.NormFloat64())
		k := min(bs, n-b*bs)
		appendBlock(p.Base, base.sampleWith(k, rng, func(int) float64 { return f }), b)
		appendBlock(p.Head, head.sampleWith(k, rng, func(int) float64 { return f }), b)
	}
	return p
}

// powerStudy: for init's one-scenario suite in A/B, how often the suite
// fails and how often its TTFT p50 and p95 checks are regressions.
func powerStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	sizes := ints(*calPowerN)
	fmt.Fprintf(b, "| tests | condition |")
	for _, n := range sizes {
		fmt.Fprintf(b, " n = %d: fails / ttft p50 / ttft p95 |", n)
	}
	fmt.Fprintf(b, "\n|---|---|%s\n", strings.Repeat("---:|", len(sizes)))
	for _, set := range powerTests() {
		c.scores = set
		powerRows(t, b, set, sizes, c)
	}
	fmt.Fprintf(b, "\nA/B, one scenario, blocks of %d + %d, per-block drift σ %.2f, %d suites per cell, %d permutations.\n\n", *calBlock, *calBlock, *calPowerSigma, *calReps, *calPerms)
}

func powerRows(t *testing.T, b *strings.Builder, set scoreSet, sizes []int, c Config) {
	for _, cond := range powerConds {
		if *calPowerConds != "" && !containsAny(cond.name, *calPowerConds) {
			continue
		}
		line := fmt.Sprintf("| %s | %s |", set, cond.name)
		for _, n := range sizes {
			base := realistic()
			if cond.base != nil {
				base = cond.base()
			}
			head := base
			cond.change(&head)
			var mu sync.Mutex
			var fails, p50, p95 int
			parallel(*calReps, func(seed uint64) {
				rng := rand.New(rand.NewPCG(seed+7727*uint64(n), 0x9017))
				r := Compare([]Pair{abPair(base, head, n, *calPowerSigma, rng)}, c)
				mu.Lock()
				defer mu.Unlock()
				if r.Verdict == "fail" {
					fails++
				}
				for _, ch := range r.Checks {
					if ch.Metric == vocab.TTFT && ch.Status == vocab.Regression {
						switch ch.Stat {
						case vocab.P50:
							p50++
						case vocab.P95:
							p95++
						}
					}
				}
			})
			pc := func(k int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(*calReps)) }
			line += fmt.Sprintf(" %s / %s / %s |", pc(fails), pc(p50), pc(p95))
		}
		fmt.Fprintln(b, line)
		t.Log(line)
	}
}

func containsAny(s, list string) bool {
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f != "" && strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// TestCalibrationTests is the comparison of tests (-study tests; make
// calibrate CAL_STUDY=tests): every score set of -power-tests on the same
// simulated suites. With -calibrate-out FILE its table goes to
// FILE.tests.md.
func TestCalibrationTests(t *testing.T) {
	if !*calibrate || !studies()["tests"] {
		t.Skip("run with -calibrate -study tests (make calibrate CAL_STUDY=tests)")
	}
	var b strings.Builder
	start := time.Now()
	powerStudy(t, &b)
	fmt.Fprintf(&b, "(-study tests -reps %d -perms %d; %s on %d cores.)\n", *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	writeOut(t, ".tests.md", b.String())
}

// writeOut writes a study's tables to -calibrate-out FILE plus suffix.
func writeOut(t *testing.T, suffix, text string) {
	if *calOut == "" {
		return
	}
	if err := os.WriteFile(*calOut+suffix, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

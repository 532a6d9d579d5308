package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// A run drawn from a trace (docs/statistics.md, "Strata of input
// length"): input lengths heavy-tailed like a chat trace's (lognormal,
// median 1,000 tokens, σ 1: a p99 near 10,000), TTFT = (50 ms + 0.05 ms ×
// input tokens) × lognormal noise σ 0.2, a draw stratified into 4 strata
// at the lengths' quartiles. Both sides replay the same draw (the same
// lengths), each request with its own noise.

// lengthStrata are the strata's upper bounds: the quartiles of the
// lengths' distribution, and the cap.
var lengthStrata = []int{509, 1000, 1965, 131072}

// traceLen draws an input length of stratum k (1-based).
func traceLen(k int, rng *rand.Rand) int {
	lo := 0
	if k > 1 {
		lo = lengthStrata[k-2]
	}
	for {
		l := int(math.Exp(math.Log(1000) + rng.NormFloat64()))
		if l > lo && l <= lengthStrata[k-1] {
			return l
		}
	}
}

// traceModel is the TTFT of a request of input length l in stratum k.
type traceModel struct {
	sigma float64
	scale [5]float64 // per stratum (index 1..4): 0 means 1
}

func (m traceModel) ttft(l, k int, rng *rand.Rand) float64 {
	v := (50 + 0.05*float64(l)) * math.Exp(m.sigma*rng.NormFloat64())
	if s := m.scale[k]; s > 0 {
		v *= s
	}
	return v
}

// traceDraw draws counts[k-1] lengths in stratum k: a side's entries.
type traceEntry struct{ l, k int }

func traceDraw(counts [4]int, rng *rand.Rand) []traceEntry {
	var out []traceEntry
	for k, n := range counts {
		for range n {
			out = append(out, traceEntry{traceLen(k+1, rng), k + 1})
		}
	}
	return out
}

// traceSample is one side replaying entries under model m; with blockOf,
// each entry's A/B block, and drift the block's factor.
func traceSample(entries []traceEntry, m traceModel, rng *rand.Rand, block func(i int) (int, float64)) *Sample {
	s := &Sample{Values: map[vocab.Metric][]float64{}, Draw: &Draw{Strata: lengthStrata, Seed: "trace"}}
	for i, e := range entries {
		f := 1.0
		if block != nil {
			b, d := block(i)
			s.Block, f = append(s.Block, b), d
		}
		s.OK = append(s.OK, true)
		s.Stratum = append(s.Stratum, e.k)
		s.Values[vocab.TTFT] = append(s.Values[vocab.TTFT], f*m.ttft(e.l, e.k, rng))
	}
	return s
}

// withoutStrata is r as the comparison sees it without the draw: neither
// blocked by stratum nor checked per stratum.
func withoutStrata(r Pair) Pair {
	strip := func(s *Sample) *Sample {
		t := *s
		t.Draw, t.Stratum = nil, nil
		return &t
	}
	r.Base, r.Head = strip(r.Base), strip(r.Head)
	return r
}

// strataCell is a condition of the study: the strata counts of each side
// and the head's model.
type strataCell struct {
	name       string
	base, head [4]int
	change     traceModel
	ab         bool // interleaved: blocks of 4 + 4 entries, the same on both sides
}

var strataCells = []strataCell{
	{"A/A, same draw (100 a stratum)", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{}, false},
	{"TTFT +10% in every stratum (the tolerance)", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1.1, 1.1, 1.1, 1.1}}, false},
	{"TTFT +10% in the longest stratum only", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1, 1, 1, 1.1}}, false},
	{"TTFT +20% in every stratum", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1.2, 1.2, 1.2, 1.2}}, false},
	{"TTFT +40% in the longest stratum only", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1, 1, 1, 1.4}}, false},
	{"A/A, mix shifted: head 50/50/100/150", [4]int{100, 100, 100, 100}, [4]int{50, 50, 100, 150}, traceModel{}, false},
	{"A/A, mix shifted: head 150/100/100/50", [4]int{100, 100, 100, 100}, [4]int{150, 100, 100, 50}, traceModel{}, false},
	{"A/B A/A, block drift σ 0.1", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{}, true},
	{"A/B, TTFT +40% in the longest stratum only", [4]int{100, 100, 100, 100}, [4]int{100, 100, 100, 100}, traceModel{scale: [5]float64{0, 1, 1, 1, 1.4}}, true},
}

// strataSuite draws one suite of a cell: a stored (or A/B) pair.
func strataSuite(cell strataCell, sigma float64, rng *rand.Rand) Pair {
	base := traceModel{sigma: sigma}
	head := cell.change
	head.sigma = sigma
	if !cell.ab {
		be := traceDraw(cell.base, rng)
		he := be
		if cell.head != cell.base {
			he = traceDraw(cell.head, rng)
		}
		return Pair{Endpoint: "e", Scenario: "prod-mix", Base: traceSample(be, base, rng, nil), Head: traceSample(he, head, rng, nil)}
	}
	// The same entries on both sides, in blocks of 4 + 4 sent together.
	e := traceDraw(cell.base, rng)
	rng.Shuffle(len(e), func(i, j int) { e[i], e[j] = e[j], e[i] })
	drift := make([]float64, (len(e)+3)/4)
	for i := range drift {
		drift[i] = math.Exp(0.1 * rng.NormFloat64())
	}
	blk := func(i int) (int, float64) { return i/4 + 1, drift[i/4] }
	return Pair{Endpoint: "e", Scenario: "prod-mix", Base: traceSample(e, base, rng, blk), Head: traceSample(e, head, rng, blk)}
}

// strataConfig is the study's thresholds: a min_delta of 5 ms (TTFT's
// median is some 100 ms here).
func strataConfig(perms int) Config {
	return Config{Tolerance: 0.10, MinDelta: 5, Alpha: 0.05, Permutations: perms, Bootstrap: -1}
}

// strataOutcome counts, over suites, the failing verdicts and the
// regressions among the overall checks and among the per-stratum checks
// (the longest stratum's apart).
type strataOutcome struct {
	fails, overall, overallP50, stratum, longest int
}

func (o *strataOutcome) add(res Result) {
	var ov, p50, st, lg bool
	for _, c := range res.Checks {
		if c.Status != vocab.Regression {
			continue
		}
		switch {
		case c.Stratum == 0:
			ov = true
			p50 = p50 || c.Metric == vocab.TTFT && c.Stat == vocab.P50
		default:
			st = true
			lg = lg || c.Stratum == len(lengthStrata)
		}
	}
	o.fails += b2i(res.Verdict == vocab.Fail)
	o.overall, o.overallP50, o.stratum, o.longest = o.overall+b2i(ov), o.overallP50+b2i(p50), o.stratum+b2i(st), o.longest+b2i(lg)
}

// runStrataCell compares reps suites of a cell blocked by strata and the
// same suites without the draw.
func runStrataCell(cell strataCell, sigma float64, reps, perms int) (blocked, unblocked strataOutcome) {
	var mu sync.Mutex
	c := strataConfig(perms)
	parallel(reps, func(seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 0x57a7a))
		r := strataSuite(cell, sigma, rng)
		a, b := Compare([]Pair{r}, c), Compare([]Pair{withoutStrata(r)}, c)
		mu.Lock()
		defer mu.Unlock()
		blocked.add(a)
		unblocked.add(b)
	})
	return blocked, unblocked
}

// strataStudy: false alarms and power of the overall and per-stratum
// checks, blocked by strata and not.
func strataStudy(t *testing.T, b *strings.Builder) {
	fmt.Fprintf(b, "| σ | condition | suites | strata: fails | overall regression (p50) | a stratum's regression (the longest's) | without strata: fails | overall regression (p50) |\n|---:|---|---:|---:|---:|---:|---:|---:|\n")
	pc := func(k, n int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n)) }
	for _, sigma := range []float64{0.1, 0.3} {
		for _, cell := range strataCells {
			bl, un := runStrataCell(cell, sigma, *calReps, *calPerms)
			n := *calReps
			line := fmt.Sprintf("| %.1f | %s | %d | %s | %s (%s) | %s (%s) | %s | %s (%s) |", sigma, cell.name, n,
				pc(bl.fails, n), pc(bl.overall, n), pc(bl.overallP50, n), pc(bl.stratum, n), pc(bl.longest, n),
				pc(un.fails, n), pc(un.overall, n), pc(un.overallP50, n))
			fmt.Fprintln(b, line)
			t.Log(line)
		}
	}
}

// TestCalibrationStrata is the study of strata of input length (-study
// strata; make calibrate CAL_STUDY=strata). With -calibrate-out FILE its
// table goes to FILE.strata.md.
func TestCalibrationStrata(t *testing.T) {
	if !*calibrate || !studies()["strata"] {
		t.Skip("run with -calibrate -study strata (make calibrate CAL_STUDY=strata)")
	}
	var b strings.Builder
	start := time.Now()
	strataStudy(t, &b)
	fmt.Fprintf(&b, "\n(-study strata -reps %d -perms %d; %s on %d cores.)\n", *calReps, *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	writeOut(t, ".strata.md", b.String())
}

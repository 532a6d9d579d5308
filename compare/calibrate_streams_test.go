package compare

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// streamCell is a cell of borderline suites: its change sits near the
// threshold, so many of its verdicts hang on a p-value close to alpha.
type streamCell struct {
	name  string
	suite func(rng *rand.Rand) []Pair
}

var streamCells = []streamCell{
	{"stored, all latency +15%, n = 50", func(rng *rand.Rand) []Pair {
		cur := realistic()
		cur.scale = 1.15
		return []Pair{
			{Endpoint: "e", Scenario: "short", Base: realistic().sample(50, rng), Head: cur.sample(50, rng)},
			{Endpoint: "e", Scenario: "long", Base: realistic().sample(50, rng), Head: realistic().sample(50, rng)},
		}
	}},
	{"stored, failing 1% → 5%, n = 100", func(rng *rand.Rand) []Pair {
		cur := realistic()
		cur.errRate = 0.05
		return []Pair{
			{Endpoint: "e", Scenario: "short", Base: realistic().sample(100, rng), Head: cur.sample(100, rng)},
			{Endpoint: "e", Scenario: "long", Base: realistic().sample(100, rng), Head: realistic().sample(100, rng)},
		}
	}},
	{"A/B, TTFT +20%, n = 200", func(rng *rand.Rand) []Pair {
		cur := realistic()
		cur.ttftScale = 1.2
		return []Pair{abPair(realistic(), cur, 200, 0.10, rng)}
	}},
}

// renamed is the suite with other scenario and endpoint names.
func renamed(runs []Pair, k int) []Pair {
	out := slices.Clone(runs)
	for i := range out {
		out[i].Scenario = fmt.Sprintf("renamed-%d-%s", k, out[i].Scenario)
		out[i].Endpoint = fmt.Sprintf("ep%d", k)
	}
	return out
}

// shuffled is the suite with every sample's requests in another order
// (blocks move with their requests).
func shuffled(runs []Pair, rng *rand.Rand) []Pair {
	out := slices.Clone(runs)
	perm := func(s *Sample) *Sample {
		p := rng.Perm(s.N())
		t := &Sample{OK: make([]bool, s.N()), Values: map[vocab.Metric][]float64{}, Events: s.Events}
		for k, v := range s.Values {
			t.Values[k] = make([]float64, len(v))
			for i, j := range p {
				t.Values[k][i] = v[j]
			}
		}
		if s.Block != nil {
			t.Block = make([]int, s.N())
		}
		for i, j := range p {
			t.OK[i] = s.OK[j]
			if s.Block != nil {
				t.Block[i] = s.Block[j]
			}
		}
		return t
	}
	for i := range out {
		out[i].Base, out[i].Head = perm(out[i].Base), perm(out[i].Head)
	}
	return out
}

// streamOutcome compares a suite's statuses with another comparison's:
// whether the verdict flipped, whether any status changed, and whether
// every changed check was marked unsettled on either side.
type streamOutcome struct{ flip, changed, honest bool }

func compareOutcomes(a, b Result) streamOutcome {
	o := streamOutcome{flip: a.Verdict != b.Verdict, honest: true}
	for i, c := range a.Checks {
		d := b.Checks[i]
		if c.Status != d.Status {
			o.changed = true
			if !c.Unsettled && !d.Unsettled {
				o.honest = false
			}
		}
	}
	return o
}

// streamsStudy: renaming scenarios, reordering runs and requests, and
// another random stream (another Config.Seed), on borderline suites.
func streamsStudy(t *testing.T, b *strings.Builder) {
	c := calConfig()
	fmt.Fprintf(b, "| cell | suites | suites whose statuses change under 20 renamings | … reordering the runs | … reordering the requests | … another random stream | … of which every changed check was marked unsettled |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, cell := range streamCells {
		var mu sync.Mutex
		var rename, reorder, requests, stream, honest int
		reps := min(*calReps, 200)
		parallel(reps, func(seed uint64) {
			rng := rand.New(rand.NewPCG(seed, 0x57e))
			runs := cell.suite(rng)
			ref := Compare(runs, c)
			var o [4]bool
			for k := range 20 {
				o[0] = o[0] || compareOutcomes(ref, Compare(renamed(runs, k), c)).changed
			}
			rev := slices.Clone(runs)
			slices.Reverse(rev)
			back := Compare(rev, c)
			o[1] = back.Verdict != ref.Verdict || !sameStatuses(ref, back)
			o[2] = compareOutcomes(ref, Compare(shuffled(runs, rng), c)).changed
			other := c
			other.Seed = 2
			so := compareOutcomes(ref, Compare(runs, other))
			mu.Lock()
			defer mu.Unlock()
			rename, reorder, requests = rename+b2i(o[0]), reorder+b2i(o[1]), requests+b2i(o[2])
			if so.changed {
				stream++
				honest += b2i(so.honest)
			}
		})
		line := fmt.Sprintf("| %s | %d | %d | %d | %d | %d | %d |", cell.name, reps, rename, reorder, requests, stream, honest)
		fmt.Fprintln(b, line)
		t.Log(line)
	}
	fmt.Fprintf(b, "\n%d permutations configured (the drawing goes on to 4×, %d, while a deciding p-value is within Monte Carlo error of alpha).\n\n", *calPerms, 4**calPerms)
}

// sameStatuses reports whether two results of the same runs in another
// order hold the same statuses per (scenario, metric, statistic).
func sameStatuses(a, b Result) bool {
	m := map[string]vocab.Status{}
	for _, c := range a.Checks {
		m[c.Scenario+" "+string(c.Metric)+" "+string(c.Stat)] = c.Status
	}
	for _, c := range b.Checks {
		if m[c.Scenario+" "+string(c.Metric)+" "+string(c.Stat)] != c.Status {
			return false
		}
	}
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCalibrationStreams is the study of what names, order and the random
// stream do to verdicts (-study streams; make calibrate CAL_STUDY=streams),
// at most 200 suites per cell. With -calibrate-out FILE its table goes to
// FILE.streams.md.
func TestCalibrationStreams(t *testing.T) {
	if !*calibrate || !studies()["streams"] {
		t.Skip("run with -calibrate -study streams (make calibrate CAL_STUDY=streams)")
	}
	var b strings.Builder
	start := time.Now()
	streamsStudy(t, &b)
	fmt.Fprintf(&b, "(-study streams -reps %d -perms %d; %s on %d cores.)\n", min(*calReps, 200), *calPerms, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	writeOut(t, ".streams.md", b.String())
}

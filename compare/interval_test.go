package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWeightedStats: a statistic of weighted requests is the statistic of
// the multiset in which each value appears as often as its weight.
func TestWeightedStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	sts := []statDef{{"p50", 0.5}, {"p95", 0.95}, {"p99", 0.99}, {"mean", -1}}
	for _, n := range []int{1, 2, 3, 10, 57, 400} {
		s := &Sample{Values: map[string][]float64{"ttft": nil}}
		for i := range n {
			ok := i%7 != 3
			v := math.Round(rng.ExpFloat64()*100) / 4 // ties happen
			if i%11 == 5 {
				v = math.NaN()
			}
			s.OK = append(s.OK, ok)
			s.Values["ttft"] = append(s.Values["ttft"], v)
		}
		col := newBootCol(s, "ttft")
		for rep := range 20 {
			w := make([]int32, n)
			total := 0
			for i := range w {
				w[i] = int32(rng.IntN(4))
				if rep == 0 {
					w[i] = 1
				}
				total += int(w[i])
			}
			var expanded []float64
			for i, v := range s.Values["ttft"] {
				if s.OK[i] && !math.IsNaN(v) {
					for range w[i] {
						expanded = append(expanded, v)
					}
				}
			}
			slices.Sort(expanded)
			got := make([]float64, len(sts))
			col.stats(w, total, sts, got)
			for j, st := range sts {
				want := st.of(expanded)
				if math.IsNaN(want) != math.IsNaN(got[j]) || math.Abs(got[j]-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("n=%d rep %d %s: got %v, want %v", n, rep, st.name, got[j], want)
				}
			}
		}
	}
}

// TestIntervalsHoldTheChange: the change interval of an unpaired and of an
// interleaved run contains the observed change, and a 30% slowdown's
// interval lies around +30%, away from zero.
func TestIntervalsHoldTheChange(t *testing.T) {
	slow := realistic()
	slow.scale = 1.3
	for _, blockedRun := range []bool{false, true} {
		runs := pair(realistic(), slow, 200, 4)
		if blockedRun {
			for _, s := range []*Sample{runs[0].Base, runs[0].Current} {
				s.Block = make([]int, s.N())
				for i := range s.Block {
					s.Block[i] = i / 10
				}
			}
		}
		r := Compare(runs[:1], cfg())
		for _, c := range r.Checks {
			if math.IsNaN(c.CIPct[0]) {
				continue
			}
			if !(c.CIPct[0] <= c.DeltaPct && c.DeltaPct <= c.CIPct[1]) {
				t.Errorf("blocked %v, %s %s: change %.1f%% outside its interval %v", blockedRun, c.Metric, c.Stat, c.DeltaPct, c.CIPct)
			}
		}
		if c := find(t, r, runs[0].Scenario, "total", "p50"); c.CIPct[0] < 15 || c.CIPct[1] > 45 {
			t.Errorf("blocked %v: total p50 +30%%: interval %v", blockedRun, c.CIPct)
		}
	}
}

package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestWeightedStats: a statistic of weighted requests is the statistic of
// the multiset in which each value appears as often as its weight.
func TestWeightedStats(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	sts := []statDef{{"p50", 0.5}, {"p95", 0.95}, {"p99", 0.99}, {"mean", -1}}
	for _, n := range []int{1, 2, 3, 10, 57, 400} {
		s := &Sample{Values: map[vocab.Metric][]float64{"ttft": nil}}
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
	t.Parallel()
	slow := realistic()
	slow.scale = 1.3
	for _, blockedRun := range []bool{false, true} {
		runs := pair(realistic(), slow, 200, 4)
		if blockedRun {
			for _, s := range []*Sample{runs[0].Base, runs[0].Head} {
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

// TestColumnStatistics: the statistics computed by a column's walk agree
// with their definitions computed from scratch, with and without ties.
func TestColumnStatistics(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 5))
	for _, ties := range []bool{false, true} {
		n := 300
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.ExpFloat64() * 100
			if ties {
				v[i] = math.Round(v[i] / 10)
			}
			if i%17 == 0 {
				v[i] = math.NaN()
			}
		}
		d := newRunData([][]float64{v}, []int{0}, 150, 1, nil)
		c := d.cols[0]
		if (c.rank != nil) != ties {
			t.Fatalf("ties %v: rank array kept %v", ties, c.rank != nil)
		}
		lab := make([]uint8, n)
		for i := 150; i < n; i++ {
			lab[i] = 1
		}
		for rep := range 10 {
			rng.Shuffle(n, func(i, j int) { lab[i], lab[j] = lab[j], lab[i] })
			p := c.walk(lab)
			// From scratch: mid-ranks of the pooled values, mean rank
			// difference scaled by N; exceedance of the baseline's mean.
			var vals []float64
			for _, x := range v {
				if !math.IsNaN(x) {
					vals = append(vals, x)
				}
			}
			slices.Sort(vals)
			rankOf := func(x float64) float64 {
				lo, _ := slices.BinarySearch(vals, x)
				hi := lo
				for hi < len(vals) && vals[hi] == x {
					hi++
				}
				return float64(lo+hi-1)/2 + 1
			}
			var sc, sb, nc, nb, sumB float64
			var cur, base []float64
			for i, x := range v {
				if math.IsNaN(x) {
					continue
				}
				if lab[i] == 1 {
					sc += rankOf(x)
					nc++
					cur = append(cur, x)
				} else {
					sb += rankOf(x)
					nb++
					sumB += x
					base = append(base, x)
				}
			}
			wantRank := (sc/nc - sb/nb) / (nc + nb)
			mean := sumB / nb
			above := func(xs []float64) float64 {
				k := 0.0
				for _, x := range xs {
					if x > mean {
						k++
					}
				}
				return k / float64(len(xs))
			}
			wantMean := above(cur) - above(base)
			gotRank := c.statistic(testDef{kind: kindRank}, lab, &p)
			gotMean := c.statistic(testDef{kind: kindMean, q: -1}, lab, &p)
			if math.Abs(gotRank-wantRank) > 1e-12 || math.Abs(gotMean-wantMean) > 1e-12 {
				t.Errorf("ties %v rep %d: rank statistic %v, want %v; mean exceedance %v, want %v", ties, rep, gotRank, wantRank, gotMean, wantMean)
			}
		}
	}
}

// TestRateMoments: the exact permutation mean and SD of a rate test agree
// with those of many permutations, unpaired and within blocks (singleton
// blocks never move).
func TestRateMoments(t *testing.T) {
	t.Parallel()
	for _, blockedRun := range []bool{false, true} {
		base, cur := realistic(), realistic()
		base.errRate, cur.errRate = 0.1, 0.25
		runs := pair(base, cur, 60, 3)
		if blockedRun {
			for _, s := range []*Sample{runs[0].Base, runs[0].Head} {
				s.Block = make([]int, s.N())
				for i := range s.Block {
					s.Block[i] = i / 7
				}
			}
			runs[0].Base.Block[0] = 1000 // a block of one request
		}
		const B = 20000
		rt, c := preparedRun(runs[0], B)
		for from := 0; from < B; from += permChunk {
			rt.permute(c, from, from+permChunk)
		}
		checked := 0
		for ti, tt := range rt.tests {
			if tt.kind != kindErrors {
				continue
			}
			got, est := rt.moments[ti], estimateMoments(rt.perm[ti])
			if math.Abs(got[0]-est[0]) > 4*est[1]/math.Sqrt(B) || math.Abs(got[1]-est[1]) > 0.03*est[1] {
				t.Errorf("blocked %v, dir %d: exact mean %.5f SD %.5f; %d permutations give %.5f and %.5f", blockedRun, tt.dir, got[0], got[1], B, est[0], est[1])
			}
			checked++
		}
		if checked != 2 {
			t.Fatalf("checked %d error-rate tests, want 2", checked)
		}
	}
}

// TestBlockedIntervalWithAFailedBlock: a block whose requests all failed
// on one side is not a shared block; with fewer than two shared blocks the
// interval falls back to resampling requests, and still holds the change.
func TestBlockedIntervalWithAFailedBlock(t *testing.T) {
	t.Parallel()
	runs := pair(realistic(), realistic(), 80, 6)
	r := runs[0]
	for _, s := range []*Sample{r.Base, r.Head} {
		s.Block = make([]int, s.N())
		for i := range s.Block {
			s.Block[i] = i * 2 / s.N() // two blocks
		}
	}
	for i := range r.Head.OK {
		if r.Head.Block[i] == 0 {
			r.Head.OK[i] = false
			for _, v := range r.Head.Values {
				v[i] = math.NaN()
			}
		}
	}
	res := Compare([]Pair{r}, cfg())
	for _, c := range res.Checks {
		if math.IsNaN(c.CIPct[0]) {
			continue
		}
		if !(c.CIPct[0] <= c.DeltaPct && c.DeltaPct <= c.CIPct[1]) || c.CIPct[1]-c.CIPct[0] < 1 {
			t.Errorf("%s %s: change %.1f%%, interval %v", c.Metric, c.Stat, c.DeltaPct, c.CIPct)
		}
	}
}

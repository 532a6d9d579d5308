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
		col := newBootCol(s, "ttft", 0)
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

// TestScoreStatistics: a rank test's D, the sum of the current requests'
// centred mid-ranks, is the difference of mean ranks times nc·nb/m (the
// Wilcoxon statistic), and the mean test's D counts the current requests
// above the pooled mean, with and without ties and missing values.
func TestScoreStatistics(t *testing.T) {
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
		rank := centred(scoresOf(&scoredCol{v: v}, kindRank, 0.5, scoreSet{}))
		above := centred(scoresOf(&scoredCol{v: v}, kindMean, -1, scoreSet{}))
		var vals []float64
		for _, x := range v {
			if !math.IsNaN(x) {
				vals = append(vals, x)
			}
		}
		slices.Sort(vals)
		m := float64(len(vals))
		mean := 0.0
		for _, x := range vals {
			mean += x / m
		}
		rankOf := func(x float64) float64 {
			lo, _ := slices.BinarySearch(vals, x)
			hi := lo
			for hi < len(vals) && vals[hi] == x {
				hi++
			}
			return float64(lo+hi-1)/2 + 1
		}
		lab := make([]bool, n)
		for i := 150; i < n; i++ {
			lab[i] = true
		}
		for rep := range 10 {
			rng.Shuffle(n, func(i, j int) { lab[i], lab[j] = lab[j], lab[i] })
			var dRank, dMean, sc, sb, nc, nb, ac float64
			for i, x := range v {
				if lab[i] {
					dRank += rank[i]
					dMean += above[i]
				}
				if math.IsNaN(x) {
					continue
				}
				if lab[i] {
					sc, nc = sc+rankOf(x), nc+1
					if x > mean {
						ac++
					}
				} else {
					sb, nb = sb+rankOf(x), nb+1
				}
			}
			wantRank := (sc/nc - sb/nb) * nc * nb / m
			share := 0.0
			for _, x := range vals {
				if x > mean {
					share++
				}
			}
			wantMean := ac - nc*share/m
			if math.Abs(dRank-wantRank) > 1e-9 || math.Abs(dMean-wantMean) > 1e-9 {
				t.Errorf("ties %v rep %d: rank D %v, want %v; mean D %v, want %v", ties, rep, dRank, wantRank, dMean, wantMean)
			}
		}
	}
}

// TestExactMoments: every test's exact permutation mean and SD agree with
// those of many permutations, unpaired and within blocks (a block of one
// request never moves), with failed requests on both sides.
func TestExactMoments(t *testing.T) {
	t.Parallel()
	for _, blockedRun := range []bool{false, true} {
		base, cur := realistic(), realistic()
		base.errRate, cur.errRate = 0.1, 0.25
		cur.scale = 1.2
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
		kinds := map[testKind]bool{}
		for ti, tt := range rt.tests {
			if rt.mom[ti][1] == 0 {
				continue
			}
			// perm holds the standardized statistic: mean 0, SD 1.
			var mean, sq float64
			for _, x := range rt.perm[ti] {
				mean += x / B
			}
			for _, x := range rt.perm[ti] {
				sq += (x - mean) * (x - mean) / B
			}
			if math.Abs(mean) > 4/math.Sqrt(B) || math.Abs(math.Sqrt(sq)-1) > 0.03 {
				t.Errorf("blocked %v, kind %d metric %d dir %d: standardized mean %.4f, SD %.4f over %d permutations", blockedRun, tt.kind, tt.metric, tt.dir, mean, math.Sqrt(sq), B)
			}
			kinds[tt.kind] = true
		}
		if len(kinds) != 4 {
			t.Fatalf("checked kinds %v, want rank, tail, mean and errors", kinds)
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

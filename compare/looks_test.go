package compare

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// looksOf is the thresholds of the looks at alphas hold and fail: the
// most misses each shows within the budget with, the fewest it shows it
// missed with.
func looksOf(share float64, looks []int, hold, fail []float64) (h, f []int) {
	for k, n := range looks {
		cdf := binomialCDF(n, share)
		h, f = append(h, holdThreshold(cdf, hold[k])), append(f, failThreshold(n, cdf, fail[k]))
	}
	return h, f
}

// A p95 objective at 60 requests a level (looks at 60, 120 and 240): the
// first look is decided as a single one (all 60 within), the later ones
// so that a level exactly at 5 % misses is shown within at any look with
// at most 5 % chance (0.0471, exactly), and shown beyond with at most 5 %
// (0.0499): 3 misses of 240 hold, 20 fail.
func TestLookAlphas(t *testing.T) {
	for _, c := range []struct {
		share       float64
		looks       []int
		hold, fail  []int
		size, fsize float64
	}{
		{0.05, []int{60, 120, 240}, []int{0, 0, 3}, []int{7, 12, 20}, 0.0471, 0.0499},
		{0.05, []int{40, 80, 160}, []int{-1, 0, 3}, []int{5, 11, 17}, 0.0483, 0.0499},
		{0.05, []int{100, 200, 400}, []int{1, 3, 10}, []int{10, 18, 30}, 0.0468, 0.0466},
		{0.01, []int{75, 150, 300}, []int{-1, -1, 0}, []int{3, 6, 8}, 0.0490, 0.0478},
		{0.5, []int{60, 120, 240}, []int{23, 45, 99}, []int{37, 75, 141}, 0.0495, 0.0495},
	} {
		ha, fa := LookAlphas(c.share, c.looks, 0.05)
		if ha[0] != 0.05 || fa[0] != 0.05 {
			t.Errorf("%v: the first look at %g and %g, want alpha", c.looks, ha[0], fa[0])
		}
		h, f := looksOf(c.share, c.looks, ha, fa)
		if !slices.Equal(h, c.hold) || !slices.Equal(f, c.fail) {
			t.Errorf("share %g, looks %v: hold at %v misses, fail at %v; want %v and %v", c.share, c.looks, h, f, c.hold, c.fail)
		}
		cdfs := [][]float64{}
		for _, n := range c.looks {
			cdfs = append(cdfs, binomialCDF(n, c.share))
		}
		if p, _ := walk(false, c.share, c.looks, cdfs, 0.05, ha[1]); math.Abs(p-c.size) > 5e-5 {
			t.Errorf("share %g, looks %v: chance to hold at the budget %.4f, want %.4f", c.share, c.looks, p, c.size)
		}
		if p, _ := walk(true, c.share, c.looks, cdfs, 0.05, fa[1]); math.Abs(p-c.fsize) > 5e-5 {
			t.Errorf("share %g, looks %v: chance to fail at the budget %.4f, want %.4f", c.share, c.looks, p, c.fsize)
		}
	}
}

// The walk's chances are those of the looks themselves: 200,000 simulated
// levels exactly at the budget's share, each looked at 60, 120 and 240
// requests and stopped once shown, hold and fail as often as it says.
func TestLookAlphasSimulated(t *testing.T) {
	looks := []int{60, 120, 240}
	ha, fa := LookAlphas(0.05, looks, 0.05)
	h, f := looksOf(0.05, looks, ha, fa)
	rng := rand.New(rand.NewPCG(1, 2))
	held, failed, n := 0, 0, 200000
	for range n {
		miss, prev := 0, 0
		for k, at := range looks {
			for range at - prev {
				if rng.Float64() < 0.05 {
					miss++
				}
			}
			prev = at
			if miss <= h[k] {
				held++
				break
			}
			if miss >= f[k] {
				failed++
				break
			}
		}
	}
	// Stopping at the first decision can only lower the walk's figures
	// (a level shown to fail is not looked at again to hold).
	if p := float64(held) / float64(n); p > 0.05 || p < 0.044 {
		t.Errorf("held %.4f of levels at the budget, want about 0.047 and at most 0.05", p)
	}
	if p := float64(failed) / float64(n); p > 0.05 || p < 0.045 {
		t.Errorf("failed %.4f of levels at the budget, want about 0.05 and at most 0.05", p)
	}
}

// A budget check decided at two alphas: within at the one, beyond at the
// other; a point estimate within is met.
func TestDecideAndMeets(t *testing.T) {
	b := Budget{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}
	one := BudgetTest{Budget: b, Value: 478, Miss: 1, N: 60, Share: 0.05}
	if one.Decide(0.05, 0.05) != vocab.Inconclusive || !one.Meets() {
		t.Errorf("1 slow of 60: %s, meets %v; want inconclusive and met", one.Decide(0.05, 0.05), one.Meets())
	}
	none := BudgetTest{Budget: b, Value: 478, Miss: 0, N: 60, Share: 0.05}
	if none.Decide(0.05, 0.05) != vocab.OK || none.Decide(0.01, 0.05) != vocab.Inconclusive {
		t.Errorf("none slow of 60: %s at 0.05, %s at 0.01", none.Decide(0.05, 0.05), none.Decide(0.01, 0.05))
	}
	over := BudgetTest{Budget: b, Value: 900, Miss: 4, N: 60, Share: 0.05}
	if over.Meets() {
		t.Error("a p95 of 900 ms meets 800 ms")
	}
	many := BudgetTest{Budget: b, Value: 790, Miss: 4, N: 60, Share: 0.05}
	if many.Meets() {
		t.Error("4 misses of 60 (6.7 %) meet a p95")
	}
}

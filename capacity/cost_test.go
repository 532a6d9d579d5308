package capacity

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// A search on a server whose every request takes the same time gives its
// goodput, and so its cost, exactly: 8 slots, each request 1,000 ms with
// its first token at 100 ms and 10 output tokens, so c users up to 8 get c
// requests and 10c output tokens a second, all within a TTFT p95 of 300
// ms; at $3.60 an hour the capacity's 80 tokens a second cost $12.50 per
// million, and each level 3.6 ÷ (10c × 3600) × 1e6. Every request the same,
// the goodput's bounds are the figure itself: the cost's interval is the
// point. The file records the price and the cost; a reader computes it
// again from the levels and refuses a file whose recorded cost disagrees.
func TestCostOnAnExactServer(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(1, 2))}
	sp := spec(p95(300))
	sp.PerHour = 3.6
	f, r := recorded(sp, e)
	if r.Capacity != 8 || !r.Shown() || r.Upper != 8 {
		t.Fatalf("capacity %v (%v to %v)", r.Capacity, r.Lower, r.Upper)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*b }
	if !near(r.GoodTPS, 80) || !near(r.Cost(), 12.5) {
		t.Fatalf("goodput %v tokens/s, cost %v, want 80 and 12.5", r.GoodTPS, r.Cost())
	}
	if lo, hi := r.CostRange(); !near(lo, 12.5) || !near(hi, 12.5) {
		t.Errorf("cost interval %v to %v, want 12.5 to 12.5", lo, hi)
	}
	for _, l := range r.Levels {
		if l.Value <= 8 && l.Meets && !near(CostPerMTok(3.6, l.GoodTPS), 100/l.Value) {
			t.Errorf("level %v: cost %v, want %v", l.Value, CostPerMTok(3.6, l.GoodTPS), 100/l.Value)
		}
	}
	rec := r.Record("e", "s", "", "")
	if rec.CostPerHour == nil || *rec.CostPerHour != 3.6 || rec.CostPerMTok == nil || *rec.CostPerMTok != 12.5 {
		t.Fatalf("recorded %v, %v", rec.CostPerHour, rec.CostPerMTok)
	}
	again, err := Replay(f, rec)
	if err != nil || again.Spec.PerHour != 3.6 || !near(again.Cost(), 12.5) {
		t.Fatalf("replayed: cost %v, %v", again.Cost(), err)
	}
	cheap := 0.41
	rec.CostPerMTok = &cheap
	if _, err := Replay(f, rec); err == nil || !strings.Contains(err.Error(), "cost_per_mtok is recorded as 0.41 USD, but its levels give 12.5 USD: the file is not trusted") {
		t.Fatalf("a recorded cost its levels do not give: %v", err)
	}
	// Merged shards are decided again, their cost with them.
	if d, err := Decide(f, rec); err != nil || !near(d.Cost(), 12.5) {
		t.Fatalf("decided: %v, %v", d.Cost(), err)
	}
}

// Without a price, a capacity or a goodput there is no cost.
func TestNoCost(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(1, 2))}
	_, r := recorded(spec(p95(300)), e)
	if !math.IsNaN(r.Cost()) || r.Record("e", "s", "", "").CostPerHour != nil {
		t.Errorf("a search without a price: cost %v", r.Cost())
	}
	r.Spec.PerHour, r.Capacity = 3.6, math.NaN()
	if !math.IsNaN(r.Cost()) || r.Record("e", "s", "", "").CostPerMTok != nil {
		t.Errorf("no capacity: cost %v", r.Cost())
	}
	// A level that served next to nothing within the SLO (its goodput
	// rounds to 0 tokens/s in the file) has no cost: at the highest price
	// its cost would be beyond what a file may record.
	r.Capacity, r.GoodTPS = 8, 0.0004
	if !math.IsNaN(r.Cost()) || r.Record("e", "s", "", "").CostPerMTok != nil {
		t.Errorf("a goodput of 0.0004 tokens/s: cost %v", r.Cost())
	}
	if !math.IsNaN(CostPerMTok(3.6, 0)) || !math.IsNaN(CostPerMTok(0, 80)) || !math.IsNaN(CostPerMTok(3.6, math.NaN())) {
		t.Error("a cost without a goodput or a price")
	}
}

// CompareCost's statuses: the head's lowest cost above (1 + tolerance) ×
// the base's highest is a regression, each side at its own price; the
// mirror an improvement; point estimates apart beyond the tolerance
// without that, a cut search or a side without a cost, inconclusive.
func TestCompareCost(t *testing.T) {
	side := func(perHour, good, lo, hi float64) Result {
		r := Result{Capacity: 8, Lower: 8, Upper: 8, Shards: 1, Stop: vocab.Found, GoodTPS: good, GoodLo: lo, GoodHi: hi}
		r.Spec.PerHour = perHour
		return r
	}
	tight := func(perHour, good float64) Result { return side(perHour, good, 0.97*good, 1.03*good) }
	cut := tight(3.6, 80)
	cut.Stop = vocab.Capped
	for _, c := range []struct {
		name       string
		base, head Result
		want       vocab.Status
		delta      float64
	}{
		{"same", tight(3.6, 80), tight(3.6, 80), vocab.OK, 0},
		{"a dearer GPU, the same goodput: +30%", tight(3.6, 80), tight(4.68, 80), vocab.Regression, 30},
		{"fewer tokens a second: 80 → 60, +33%", tight(3.6, 80), tight(3.6, 60), vocab.Regression, 100.0 / 3},
		{"+12%: beyond 10% on the points, not with confidence", tight(3.6, 80), tight(4.032, 80), vocab.Inconclusive, 12},
		{"+5%: within", tight(3.6, 80), tight(3.78, 80), vocab.OK, 5},
		{"cheaper", tight(3.6, 80), tight(2.52, 80), vocab.Improvement, -30},
		{"a dearer GPU that serves more for the money", tight(3.6, 80), tight(7.2, 200), vocab.Improvement, -20},
		{"no level shown to hold on the base: no upper end", side(3.6, 80, 0, 90), tight(7.2, 80), vocab.Inconclusive, 100},
		{"no level shown to hold on the head: no upper end, still a regression", tight(3.6, 80), side(7.2, 80, 0, 90), vocab.Regression, 100},
		{"no price on the base", tight(0, 80), tight(3.6, 80), vocab.Inconclusive, math.NaN()},
		{"no capacity on the head", tight(3.6, 80), Result{Capacity: math.NaN(), Lower: math.NaN(), Upper: 0, Stop: vocab.AtBottom}, vocab.Inconclusive, math.NaN()},
		{"cut", tight(3.6, 80), cut, vocab.Inconclusive, 0},
	} {
		got := CompareCost(c.base, c.head, 0.10)
		if got.Status != c.want || !(math.Abs(got.DeltaPct-c.delta) < 1e-9 || math.IsNaN(c.delta) && math.IsNaN(got.DeltaPct)) {
			t.Errorf("%s: %s %.3g%%, want %s %.3g%%", c.name, got.Status, got.DeltaPct, c.want, c.delta)
		}
	}
}

// The goodput's bounds widen with the level's spread: a noisy server's
// cost interval holds its point, and the fewer a level's requests, the
// wider it is.
func TestCostBoundsWidenWithNoise(t *testing.T) {
	width := func(perLevel int) (lo, point, hi float64) {
		e := &engine{slots: 8, service: 1000, ttft: 100, sigma: 0.3, rng: rand.New(rand.NewPCG(3, 4))}
		sp := spec(p95(400))
		sp.PerHour, sp.Requests = 3.6, perLevel
		_, r := recorded(sp, e)
		lo, hi = r.CostRange()
		return lo, r.Cost(), hi
	}
	lo60, c60, hi60 := width(60)
	lo240, c240, hi240 := width(240)
	if !(lo60 < c60 && c60 < hi60) || !(lo240 < c240 && c240 < hi240) {
		t.Fatalf("intervals %v–%v around %v, %v–%v around %v", lo60, hi60, c60, lo240, hi240, c240)
	}
	if !(hi240/lo240 < hi60/lo60) {
		t.Errorf("240 a level: %v–%v, no narrower than 60's %v–%v", lo240, hi240, lo60, hi60)
	}
	t.Logf("60 a level: $%.3g (%.3g to %.3g); 240: $%.3g (%.3g to %.3g)", c60, lo60, hi60, c240, lo240, hi240)
}

package capacity

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// engine is a model of a server for the search's own tests (the simulator
// has the real one, tested through the whole pipeline in package gate):
// slots requests served at once, each in service ms, its first token
// after ttft ms of it (spread log-normally by sigma); closed-loop users
// each send again when answered, and beyond the slots a request waits in
// arrival order for a free one, before its first token.
type engine struct {
	slots          int
	service, ttft  float64
	sigma          float64
	failEvery      int  // every failEvery-th request fails at once (0: none)
	unstreamed     bool // no first token: the answer comes whole
	slowEvery      int  // every slowEvery-th request takes slow ms more (0: none)
	slow           float64
	rng            *rand.Rand
	measured, sent int
}

func ptr(v float64) *float64 { return &v }

// level measures n requests at concurrency c, stopping early when stop
// says so at every Batch requests.
func (e *engine) level(c float64, n int, stop func(*results.Run) bool) *results.Run {
	run := &results.Run{Level: &results.Level{Vary: vocab.VaryConcurrency, Value: c}}
	free := make([]float64, e.slots)         // when each slot is next free
	users := make([]float64, max(int(c), 1)) // when each user sends next
	for i := range n {
		u := slices.Index(users, slices.Min(users))
		k := slices.Index(free, slices.Min(free))
		sent := users[u]
		start := math.Max(sent, free[k])
		e.sent++
		if e.failEvery > 0 && e.sent%e.failEvery == 0 {
			run.Requests = append(run.Requests, results.Request{Error: "503", Status: 503, SentMs: sent})
			users[u] = sent + 1
		} else {
			ttft := start - sent + e.ttft*math.Exp(e.sigma*e.rng.NormFloat64())
			if e.slowEvery > 0 && e.sent%e.slowEvery == 0 {
				ttft += e.slow
			}
			total := ttft + e.service - e.ttft
			q := results.Request{OK: true, TTFTMs: ptr(ttft), TotalMs: ptr(total), OutputTokens: 10, SentMs: sent}
			if e.unstreamed {
				q.TTFTMs = nil
			}
			run.Requests = append(run.Requests, q)
			free[k], users[u] = sent+total, sent+total
		}
		if stop != nil && (i+1)%Batch == 0 && i+1 < n && stop(run) {
			break
		}
	}
	e.measured += len(run.Requests)
	return run
}

func p95(ms float64) []compare.Budget {
	return []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: ms}}
}

func spec(slo []compare.Budget) Spec {
	return Spec{Vary: vocab.VaryConcurrency, From: 1, To: 64, Step: 1, Requests: 60, SLO: slo, Alpha: 0.05}
}

// search runs a whole search against e and returns its result.
func search(t *testing.T, sp Spec, e *engine) Result {
	t.Helper()
	s := New(sp)
	for {
		c, ok := s.Next()
		if !ok {
			break
		}
		s.Add(e.measure(s, c))
	}
	return s.Result()
}

// measure is the measurement of level c that s asks for, its sent
// requests and its time: a level's first stops early once hopeless.
func (e *engine) measure(s *Search, c float64) (*results.Run, int, float64) {
	round, n := s.Round(c)
	stop := s.spec.Hopeless
	if round > 1 {
		stop = nil
	}
	run := e.level(c, n, stop)
	run.Level.Round = round
	if round == 1 {
		run.Level.Round = 0
	}
	return run, len(run.Requests) + s.spec.Warmup, float64(len(run.Requests)) * e.service / c
}

// recorded is a search of sp against e as its results file holds it: each
// measurement a run labelled with its step, round and status.
func recorded(sp Spec, e *engine) (*results.File, Result) {
	s := New(sp)
	f := &results.File{}
	for step := 1; ; step++ {
		c, ok := s.Next()
		if !ok {
			return f, s.Result()
		}
		run, sent, ms := e.measure(s, c)
		run.Endpoint, run.Scenario, run.Level.Step = "e", "s", step
		run.Level.Status = s.Add(run, sent, ms).Status
		f.Runs = append(f.Runs, *run)
	}
}

func values(ls []Level) []float64 {
	var out []float64
	for _, l := range ls {
		out = append(out, l.Value)
	}
	return out
}

// A server of 8 slots whose queueing misses the SLO: the search brackets
// 1, 2, 4, 8, 16, then bisects 12, 10, 9, and finds 8 exactly, the levels
// from 10 failing on the SLO, stopped early, 9 saturated (its one user
// in nine who waits misses the SLO, but not soon enough to stop it); 7 is
// measured last, to judge 8 against the level a step below it (judged
// against 4, its throughput might have stopped rising anywhere above 5).
func TestSearchFindsTheSlots(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(1, 2))}
	r := search(t, spec(p95(200)), e)
	if got, want := values(r.Levels), []float64{1, 2, 4, 8, 16, 12, 10, 9, 7}; !slices.Equal(got, want) {
		t.Fatalf("levels %v, want %v", got, want)
	}
	if r.Capacity != 8 || r.Lower != 8 || r.Upper != 8 || !r.Shown() || r.Stop != vocab.Found || !r.Complete() {
		t.Fatalf("capacity %v (%v to %v), stop %s; want 8 (8 to 8), found", r.Capacity, r.Lower, r.Upper, r.Stop)
	}
	for _, l := range r.Levels {
		switch {
		case l.Value <= 8 && (!l.Holds() || l.N != 60 || l.Stopped || l.Rounds != 1):
			t.Errorf("level %v: %s with %d requests, want it held with 60", l.Value, l.Status, l.N)
		case l.Value == 9 && (l.Status != vocab.Fails || l.Limit != vocab.LimitSaturated || l.AgainstLoad != 8):
			t.Errorf("level 9: %s (%s against %v), want saturated against 8", l.Status, l.Limit, l.AgainstLoad)
		case l.Value > 9 && (l.Status != vocab.Fails || l.Limit != vocab.LimitSLO):
			t.Errorf("level %v: %s (%s), want a failure on the SLO", l.Value, l.Status, l.Limit)
		case l.Value >= 10 && (!l.Stopped || l.N > 30):
			t.Errorf("level %v: %s after %d requests, want a failure with confidence stopped early", l.Value, l.Status, l.N)
		}
	}
	// Eight users in 1 s each: 8 requests/s past the first wave, all good
	// (over the level's span, seven waves of eight and one of four, it
	// would be 7.5).
	if want := 8.0; math.Abs(r.GoodRPS-want) > 0.01 || math.Abs(r.GoodTPS-10*want) > 0.1 {
		t.Errorf("goodput %.2f req/s, %.1f tok/s; want %.2f and %.1f", r.GoodRPS, r.GoodTPS, want, 10*want)
	}
	if r.Requests != e.measured || r.Requests > 6*60+3*30 {
		t.Errorf("the search sent %d requests (the engine measured %d), want at most 450", r.Requests, e.measured)
	}
	t.Logf("levels %v: %d requests", values(r.Levels), r.Requests)
}

func TestSearchEnds(t *testing.T) {
	for _, c := range []struct {
		name     string
		slots    int
		sp       func(Spec) Spec
		stop     vocab.Stop
		capacity float64
		levels   []float64
	}{
		{"the top holds", 100, func(s Spec) Spec { return s }, vocab.AtTop, 64, []float64{1, 2, 4, 8, 16, 32, 64, 63}},
		{"the bottom fails", 8, func(s Spec) Spec { s.From, s.To = 12, 20; return s }, vocab.AtBottom, math.NaN(), []float64{12}},
		{"from 3 on its grid", 8, func(s Spec) Spec { s.From, s.To, s.Step = 3, 40, 3; return s }, vocab.Found, 6, []float64{3, 6, 12, 9}},
		{"a fractional grid", 8, func(s Spec) Spec { s.From, s.To, s.Step = 1.5, 40, 0.5; return s }, vocab.Found, 8.5, []float64{1.5, 3, 6, 12, 9, 7.5, 8, 8.5}}, // 8.5 users are 8
		{"a range of one", 8, func(s Spec) Spec { s.From, s.To = 5, 5; return s }, vocab.AtTop, 5, []float64{5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &engine{slots: c.slots, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(3, 4))}
			r := search(t, c.sp(spec(p95(200))), e)
			if r.Stop != c.stop || !(r.Capacity == c.capacity || math.IsNaN(c.capacity) && math.IsNaN(r.Capacity)) || !slices.Equal(values(r.Levels), c.levels) {
				t.Fatalf("stop %s, capacity %v, levels %v; want %s, %v, %v", r.Stop, r.Capacity, values(r.Levels), c.stop, c.capacity, c.levels)
			}
		})
	}
}

// With an SLO that queueing does not break, throughput that stops rising
// ends the search: 16, 12, 10 and 9 are saturated (no more requests per
// second than 8, with confidence), 7 is measured to judge 8 against the
// level a step below it, and the capacity is 8 (8 to 8). On 6 slots, 8 is
// within the SLO against 4 (its throughput rose by half), but saturated
// against 7, measured below it, as 7 is against 6: the capacity is 6. An
// answer that is not streamed (no first token) is judged the same, its
// spread taken from the lowest level's whole times (at an SLO on the
// total time).
func TestSearchStopsAtSaturation(t *testing.T) {
	for _, c := range []struct {
		slots      int
		unstreamed bool
		levels     []float64
		capacity   float64
	}{
		{8, false, []float64{1, 2, 4, 8, 16, 12, 10, 9, 7}, 8},
		{6, false, []float64{1, 2, 4, 8, 16, 12, 10, 9, 7, 5, 6}, 6},
		{8, true, []float64{1, 2, 4, 8, 16, 12, 10, 9, 7}, 8},
		{6, true, []float64{1, 2, 4, 8, 16, 12, 10, 9, 7, 5, 6}, 6},
	} {
		e := &engine{slots: c.slots, service: 1000, ttft: 100, sigma: 0.1, unstreamed: c.unstreamed, rng: rand.New(rand.NewPCG(5, 6))}
		slo := p95(60000)
		if c.unstreamed {
			slo[0].Metric = vocab.Total
		}
		r := search(t, spec(slo), e)
		if got := values(r.Levels); !slices.Equal(got, c.levels) {
			t.Fatalf("%d slots (unstreamed %v): levels %v, want %v", c.slots, c.unstreamed, got, c.levels)
		}
		for _, l := range r.Levels {
			if (l.Value > c.capacity) != (l.Limit == vocab.LimitSaturated && l.Status == vocab.Fails) {
				t.Errorf("%d slots: level %v: %s (%q)", c.slots, l.Value, l.Status, l.Limit)
			}
		}
		if r.Capacity != c.capacity || r.Upper != c.capacity || r.Lower != c.capacity || r.Stop != vocab.Found {
			t.Errorf("%d slots: capacity %v (%v to %v), %s; want %v", c.slots, r.Capacity, r.Lower, r.Upper, r.Stop, c.capacity)
		}
	}
}

// A level is judged saturated against the highest level within the SLO
// measured before it (held, or undecided within it on its estimates),
// when at least 1.5 times as loaded: 12 against 8, 10 against none (too
// close to 8).
func TestAgainst(t *testing.T) {
	levels := []Level{{Value: 4, Status: vocab.Holds, Meets: true}, {Value: 8, Status: vocab.Undecided, Meets: true}, {Value: 16, Status: vocab.Fails}}
	if b := Against(levels, 12); b == nil || b.Value != 8 {
		t.Errorf("12 against %v, want 8", b)
	}
	if b := Against(levels, 10); b != nil {
		t.Errorf("10 against %v, want none", b.Value)
	}
	if b := Against(levels[:0], 12); b != nil {
		t.Errorf("12 against %v with nothing measured, want none", b.Value)
	}
}

// A level whose requests fail is limited by errors, and stops early.
func TestSearchErrors(t *testing.T) {
	e := &engine{slots: 100, service: 100, ttft: 10, failEvery: 3, rng: rand.New(rand.NewPCG(7, 8))}
	r := search(t, spec(p95(300)), e)
	l := r.Levels[0]
	if r.Stop != vocab.AtBottom || l.Limit != vocab.LimitErrors || l.Status != vocab.Fails || !l.Stopped {
		t.Fatalf("stop %s; level 1: %s, %s, stopped %v after %d; want at_bottom on errors", r.Stop, l.Status, l.Limit, l.Stopped, l.N)
	}
}

// Caps cut the search: it says so and is not complete.
func TestSearchCaps(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(9, 10))}
	sp := spec(p95(300))
	sp.MaxRequests, sp.Warmup = 200, 2 // three levels of 62
	r := search(t, sp, e)
	if r.Stop != vocab.Capped || r.Complete() || len(r.Levels) != 3 || r.Requests != 186 {
		t.Fatalf("stop %s, %d levels, %d requests; want capped after three levels (186 requests)", r.Stop, len(r.Levels), r.Requests)
	}
	sp = spec(p95(300))
	sp.MaxDurationMs = 20000 // 60 s at level 1
	if r := search(t, sp, e); r.Stop != vocab.Capped || len(r.Levels) != 1 {
		t.Fatalf("time cap: stop %s after %d levels; want capped after one", r.Stop, len(r.Levels))
	}
}

// The median over the budget stops a level after ten requests.
func TestHopelessMedian(t *testing.T) {
	sp := spec(p95(300))
	run := &results.Run{Level: &results.Level{Vary: vocab.VaryConcurrency, Value: 4}}
	stopped := 0
	for i := range 60 {
		ttft := 100.0
		if i%2 == 1 {
			ttft = 900 // half the requests over the budget
		}
		run.Requests = append(run.Requests, results.Request{OK: true, TTFTMs: ptr(ttft), TotalMs: ptr(ttft)})
		if (i+1)%Batch == 0 && sp.Hopeless(run) {
			stopped = i + 1
			break
		}
	}
	if stopped == 0 || stopped > 15 {
		t.Fatalf("stopped after %d requests, want within 15", stopped)
	}
	// One request over the budget of 60 leaves p95 unable to hold, but is
	// not a failure with confidence: the level goes on.
	run.Requests = run.Requests[:0]
	for range 20 {
		run.Requests = append(run.Requests, results.Request{OK: true, TTFTMs: ptr(100), TotalMs: ptr(100)})
	}
	run.Requests[3].TTFTMs = ptr(900)
	if sp.Hopeless(run) {
		t.Fatal("one slow request of 20 stopped the level")
	}
}

// In an open loop the search times a request from its scheduled send: a
// request sent 500 ms late because every worker was busy waited 500 ms.
func TestSampleCountsTheLag(t *testing.T) {
	run := &results.Run{Level: &results.Level{Vary: vocab.VaryRate, Value: 2}, Requests: []results.Request{
		{OK: true, TTFTMs: ptr(100), TotalMs: ptr(400), ITLMs: []float64{10, 20}, LagMs: ptr(500)},
		{OK: true, TTFTMs: ptr(100), TotalMs: ptr(400), ITLMs: []float64{10, 20}, LagMs: ptr(0)},
	}}
	s := SampleOf(run)
	if got := s.Values[vocab.TTFT]; got[0] != 600 || got[1] != 100 {
		t.Errorf("ttft %v, want [600 100]", got)
	}
	if got := s.Values[vocab.Total]; got[0] != 900 {
		t.Errorf("total %v, want 900 first", got)
	}
	if got := s.Values[vocab.ITL]; got[0] != 15 {
		t.Errorf("itl %v: a gap does not move", got)
	}
}

func TestCompare(t *testing.T) {
	res := func(c, u float64) Result {
		return Result{Capacity: c, Lower: c, Upper: u, Shards: 1, Stop: vocab.Found}
	}
	est := func(c, l, u float64) Result {
		return Result{Capacity: c, Lower: l, Upper: u, Shards: 1, Stop: vocab.Found}
	}
	for _, c := range []struct {
		name       string
		base, head Result
		want       vocab.Status
	}{
		{"same", res(8, 8), res(8, 8), vocab.OK},
		{"a quarter less", res(8, 8), res(6, 6), vocab.Regression},
		{"one level less of ten is within 10%", res(10, 10), res(9, 9), vocab.OK},
		{"one level less of nine is beyond it", res(9, 9), res(8, 8), vocab.Regression},
		{"lower without confidence", res(8, 8), res(6, 8), vocab.Inconclusive},
		{"more", res(6, 6), res(8, 8), vocab.Improvement},
		{"none passes on head", res(8, 8), res(math.NaN(), 0), vocab.Regression},
		{"none passes on head, not shown to fail", res(8, 8), res(math.NaN(), 64), vocab.Inconclusive},
		{"cut", res(8, 8), Result{Capacity: 8, Lower: 8, Upper: 8, Shards: 1, Stop: vocab.Capped}, vocab.Inconclusive},
		{"sharded", Result{Capacity: 8, Lower: 8, Upper: 8, Shards: 4, Stop: vocab.Found}, res(32, 32), vocab.OK},
		// A capacity on its point estimates is not a confident one: the
		// base must be shown to hold above the head's interval.
		{"the base's capacity on its estimate", est(8, math.NaN(), 8), res(6, 6), vocab.Inconclusive},
		{"the base shown to hold lower", est(8, 7, 8), res(6, 6), vocab.Regression},
		{"the base shown to hold within the tolerance", est(8, 6, 8), res(6, 6), vocab.Inconclusive},
		{"the head on its estimate, below", res(8, 8), est(6, math.NaN(), 6), vocab.Regression},
	} {
		if got := Compare(c.base, c.head, 0.10).Status; got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// A search decided again from its recorded levels finds the same; a
// level that is not the one the search asks for is refused.
func TestReplay(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(11, 12))}
	sp := spec(p95(300))
	f, live := recorded(sp, e)
	rec := live.Record("e", "s", "", "")
	got, err := Replay(f, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got.Capacity != live.Capacity || got.Upper != live.Upper || got.Lower != live.Lower || got.Stop != live.Stop || len(got.Levels) != len(live.Levels) || got.Requests != live.Requests {
		t.Fatalf("replayed %v/%v %s (%d levels), live %v/%v %s (%d levels)", got.Capacity, got.Upper, got.Stop, len(got.Levels), live.Capacity, live.Upper, live.Stop, len(live.Levels))
	}
	f.Runs[4].Level.Value = 15
	if _, err := Replay(f, rec); err == nil {
		t.Fatal("a level the search did not ask for was replayed")
	}
	f.Runs[4].Level.Value = 16
	rec.Stop = vocab.AtTop
	if _, err := Replay(f, rec); err == nil {
		t.Fatal("a search that ends otherwise than recorded was replayed")
	}
}

// The most levels of a search of 1–64 by 1: seven doublings when all
// pass; a capacity of 32 takes 64, then 48, 40, 36, 34, 33 (12), 31 below
// it (32 is judged against 16), and should 32 be saturated against 31, a
// bisection of 17–30 and the level below where it ends (5): 18. A search
// of the first or second design has no level below its capacity: 12.
func TestMostLevels(t *testing.T) {
	sp := spec(p95(200))
	if got := sp.MostLevels(); got != 18 {
		t.Errorf("MostLevels(1–64) = %d, want 18", got)
	}
	sp.Warmup = 1
	if got := sp.MostRequests(); got != 18*61 {
		t.Errorf("MostRequests = %d, want %d", got, 18*61)
	}
	sp.MaxRequests = 500
	if got := sp.MostRequests(); got != 500 {
		t.Errorf("MostRequests with a cap = %d, want 500", got)
	}
	for _, v := range []int{1, 2} {
		if sp := (Spec{From: 1, To: 64, Step: 1, Version: v}); sp.MostLevels() != 12 {
			t.Errorf("version %d: MostLevels(1–64) = %d, want 12", v, sp.MostLevels())
		}
	}
	// At its default cap (the most levels measured once each), no search
	// of the engine model is cut, whatever it measures again, whether the
	// SLO or saturation ends it (at 60 s, the SLO never does); and no
	// saturation is claimed at or below the slots (no capacity below them,
	// at 60 s).
	again := 0
	for _, slo := range []float64{200, 60000} {
		sp = spec(p95(slo))
		sp.MaxRequests = sp.MostRequests()
		for slots := 1; slots <= 70; slots++ {
			for seed, sigma := range []float64{0, 0.1, 0.3} {
				e := &engine{slots: slots, service: 1000, ttft: 100, sigma: sigma, rng: rand.New(rand.NewPCG(uint64(slots), uint64(seed)))}
				r := search(t, sp, e)
				if !r.Complete() || r.Requests > sp.MaxRequests {
					t.Errorf("slo %g ms, %d slots, σ %g: %s after %d requests (cap %d)", slo, slots, sigma, r.Stop, r.Requests, sp.MaxRequests)
				}
				if slo > 1000 && r.Capacity < float64(min(slots, 64)) {
					t.Errorf("slo %g ms, %d slots, σ %g: capacity %v, levels %v", slo, slots, sigma, r.Capacity, values(r.Levels))
				}
				again += len(r.Steps) - len(r.Levels)
			}
		}
	}
	if again == 0 {
		t.Error("no level of 420 searches was measured again")
	}
	t.Logf("%d levels measured again in 420 searches", again)
}

package capacity

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// runOf is a level's run of n requests at load c with a TTFT of 400 ms,
// slow of them 1,200 ms.
func runOf(c float64, n, slow int) *results.Run {
	run := &results.Run{Level: &results.Level{Vary: vocab.VaryConcurrency, Value: c}}
	for i := range n {
		ttft := 400.0
		if i < slow {
			ttft = 1200
		}
		run.Requests = append(run.Requests, results.Request{OK: true, TTFTMs: ptr(ttft), TotalMs: ptr(ttft + 500), SentMs: float64(i) * 100, OutputTokens: 10})
	}
	return run
}

// A level holds, fails or is undecided on every request it measured; an
// undecided one within the SLO on its estimates meets it: one slow request
// of 60 against a p95 of 800 ms (the p95 at 400 ms, the SLO not shown to
// hold: that would take all 60 within) meets it, and measured again it
// holds once 240 requests have at most 3 slow ones.
func TestLevelStatus(t *testing.T) {
	for _, c := range []struct {
		name   string
		slow   []int // per measurement
		status vocab.LevelStatus
		meets  bool
		n      int
	}{
		{"all within", []int{0}, vocab.Holds, true, 60},
		{"one slow of 60", []int{1}, vocab.Undecided, true, 60},
		{"four slow of 60 (6.7 %)", []int{4}, vocab.Undecided, false, 60},
		{"ten slow of 60", []int{10}, vocab.Fails, false, 60},
		{"one slow of 120", []int{1, 0}, vocab.Undecided, true, 120},
		{"two slow of 240", []int{1, 0, 1}, vocab.Holds, true, 240},
		{"four slow of 240", []int{1, 1, 2}, vocab.Undecided, true, 240},
		{"twenty slow of 240", []int{4, 4, 12}, vocab.Fails, false, 240},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := New(spec(p95(800)))
			var l Level
			for i, slow := range c.slow {
				_, n := s.Round(4)
				if i > 0 && !slices.Contains(s.again(s.bracket()), 0) {
					t.Fatalf("measurement %d: level 4 (%s) may not be measured again", i+1, l.Status)
				}
				l = s.Add(runOf(4, n, slow), n, 1000)
			}
			if l.Status != c.status || l.Meets != c.meets || l.N != c.n || l.Rounds != len(c.slow) {
				t.Fatalf("%s, meets %v, %d requests in %d measurements; want %s, %v, %d", l.Status, l.Meets, l.N, l.Rounds, c.status, c.meets, c.n)
			}
			if (l.Limit == "") != (l.Status == vocab.Holds) {
				t.Errorf("limit %q for a level that %s", l.Limit, l.Status)
			}
		})
	}
}

// One request of 80 to this server is slow (a p95 of 800 ms at 400 ms):
// few levels can be shown to hold at 60 requests, yet its capacity is 8,
// as its curve says. Measured again, the capacity's level is shown to hold
// (3 slow of 240) when the search's cap leaves room for it (the default
// cap does: the levels above 8 stop early), and is the capacity on its
// estimate when not (a cap of 420 requests: the path takes 400, 7 the
// level below 8 measured last).
func TestCapacityOnItsEstimate(t *testing.T) {
	for _, c := range []struct {
		name  string
		cap   int
		shown bool
	}{{"the default cap", 0, true}, {"no room to measure again", 420, false}} {
		t.Run(c.name, func(t *testing.T) {
			e := &engine{slots: 8, service: 20000, ttft: 400, slowEvery: 80, slow: 800, rng: rand.New(rand.NewPCG(1, 2))}
			sp := spec(p95(800))
			sp.MaxRequests = c.cap
			if c.cap == 0 {
				sp.MaxRequests = sp.MostRequests()
			}
			r := search(t, sp, e)
			if r.Capacity != 8 || r.Upper != 8 || r.Stop != vocab.Found || !r.Complete() || r.Requests > sp.MaxRequests {
				t.Fatalf("capacity %v (upper %v), %s after %d requests; want 8 (upper 8), found within %d", r.Capacity, r.Upper, r.Stop, r.Requests, sp.MaxRequests)
			}
			if r.Shown() != c.shown || c.shown && r.Lower != 8 {
				t.Errorf("capacity %v, shown to hold up to %v: shown %v, want %v", r.Capacity, r.Lower, r.Shown(), c.shown)
			}
			at8 := r.Levels[slices.IndexFunc(r.Levels, func(l Level) bool { return l.Value == 8 })]
			if c.shown && at8.Rounds < 2 {
				t.Errorf("level 8 (%s) was measured %d times: the capacity's undecided level is measured again", at8.Status, at8.Rounds)
			}
			t.Logf("levels %v in %d steps, %d requests; 8: %s after %d", values(r.Levels), len(r.Steps), r.Requests, at8.Status, at8.N)
		})
	}
}

// requests_per_level: 40 cannot show a p95 within the SLO at its first
// look (0.95⁴⁰ = 13 %), but a level measured again to 80 within it can.
func TestFortyPerLevel(t *testing.T) {
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(3, 4))}
	sp := spec(p95(200))
	sp.Requests = 40
	sp.MaxRequests = sp.MostRequests()
	r := search(t, sp, e)
	if r.Capacity != 8 || r.Upper != 8 || !r.Complete() {
		t.Fatalf("capacity %v (upper %v), %s; want 8", r.Capacity, r.Upper, r.Stop)
	}
	if !r.Shown() {
		t.Errorf("level 8 is not shown to hold (shown up to %v): measured again to 80 within the SLO, it holds", r.Lower)
	}
	for _, l := range r.Levels {
		if l.Rounds == 1 && l.Holds() {
			t.Errorf("level %v holds after %d requests", l.Value, l.N)
		}
	}
}

// The capacity is never above a level that is not within the SLO: a level
// that holds above one that fails is not the capacity.
func TestCapacityBelowAFailure(t *testing.T) {
	sp := spec(p95(800))
	b := sp.bracket([]point{{1, true}, {2, false}, {4, true}})
	if b.lo != 0 || b.hi != 1 || b.stop != vocab.Found {
		t.Fatalf("bracket %+v, want lo 1, hi 2, found", b)
	}
	s := New(sp)
	s.Add(runOf(1, 60, 0), 60, 1000)
	s.Add(runOf(2, 60, 10), 60, 1000)
	s.Add(runOf(4, 60, 0), 60, 1000)
	if r := s.Result(); r.Capacity != 1 || r.Lower != 1 || r.Upper != 1 {
		t.Fatalf("capacity %v (%v to %v), want 1 (1 to 1)", r.Capacity, r.Lower, r.Upper)
	}
}

// A search whose levels were measured again is decided again from its
// file as it was: each measurement is a run of its own, labelled with its
// round and status; a round or status that is not the search's is refused.
func TestReplayMeasuredAgain(t *testing.T) {
	e := &engine{slots: 8, service: 20000, ttft: 400, slowEvery: 80, slow: 800, rng: rand.New(rand.NewPCG(1, 2))}
	sp := spec(p95(800))
	sp.MaxRequests = 2000
	f, live := recorded(sp, e)
	if len(live.Steps) == len(live.Levels) {
		t.Fatal("no level was measured again")
	}
	rec := live.Record("e", "s", "", "")
	if rec.Version != Design || rec.Lower == nil {
		t.Fatalf("recorded version %d, lower %v", rec.Version, rec.Lower)
	}
	got, err := Replay(f, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got.Capacity != live.Capacity || got.Lower != live.Lower || got.Upper != live.Upper || len(got.Steps) != len(live.Steps) {
		t.Fatalf("replayed %v (%v to %v) in %d steps, live %v (%v to %v) in %d", got.Capacity, got.Lower, got.Upper, len(got.Steps), live.Capacity, live.Lower, live.Upper, len(live.Steps))
	}
	again := slices.IndexFunc(f.Runs, func(r results.Run) bool { return r.Level.Round > 1 })
	for _, tamper := range []struct {
		name string
		edit func(l *results.Level)
	}{
		{"a measurement again labelled as the first", func(l *results.Level) { l.Round = 0 }},
		{"a status its requests do not decide", func(l *results.Level) {
			l.Status = map[vocab.LevelStatus]vocab.LevelStatus{vocab.Holds: vocab.Fails}[l.Status]
			if l.Status == "" {
				l.Status = vocab.Holds
			}
		}},
	} {
		g := *f
		g.Runs = slices.Clone(f.Runs)
		lv := *g.Runs[again].Level
		tamper.edit(&lv)
		g.Runs[again].Level = &lv
		if _, err := Replay(&g, rec); err == nil {
			t.Errorf("%s was replayed", tamper.name)
		}
	}
}

// A file written before levels could be undecided (no version) is decided
// by its own design: its level of one slow request in 60 did not pass, so
// the search ended at its bottom, and replays as it was recorded.
func TestReplayVersion1(t *testing.T) {
	run := runOf(1, 60, 1)
	run.Endpoint, run.Scenario, run.Level.Step = "e", "s", 1
	f := &results.File{Runs: []results.Run{*run}}
	rec := results.Search{Endpoint: "e", Scenario: "s", Vary: vocab.VaryConcurrency, From: 1, To: 64, Step: 1, RequestsPerLevel: 60,
		Alpha: 0.05, SLO: []results.Objective{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}}, Stop: vocab.AtBottom}
	r, err := Replay(f, rec)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(r.Capacity) || r.Stop != vocab.AtBottom || r.Levels[0].Meets || r.Spec.Version != 1 {
		t.Fatalf("capacity %v, %s, level 1 meets %v, version %d: want none, at_bottom, the first design", r.Capacity, r.Stop, r.Levels[0].Meets, r.Spec.Version)
	}
	if again := r.Record("e", "s", "", ""); again.Version != 0 || again.Lower != nil {
		t.Errorf("re-recorded as version %d with lower %v: a version 1 search stays one", again.Version, again.Lower)
	}
	// The same level decided by this design is within the SLO.
	rec.Version = Design
	if _, err := Replay(f, rec); err == nil {
		t.Error("a version 2 search that stops at a level within its SLO was replayed")
	}
}

// A file of the second design is decided by its own: on an engine of 8
// slots whose queueing the SLO (60 s) never breaks, its search judged 10
// and 11 against nothing (too close to 8) and found 11, and replays so;
// the same levels decided by this design are not the search it recorded
// (10 is saturated against 8, and 7 is missing). This design finds 8.
func TestReplayVersion2(t *testing.T) {
	sp := spec(p95(60000))
	sp.Version = 2
	e := &engine{slots: 8, service: 1000, ttft: 100, sigma: 0.1, rng: rand.New(rand.NewPCG(5, 6))}
	f, live := recorded(sp, e)
	if got := values(live.Levels); !slices.Equal(got, []float64{1, 2, 4, 8, 16, 12, 10, 11}) || live.Capacity != 11 {
		t.Fatalf("version 2: levels %v, capacity %v; want 1 2 4 8 16 12 10 11, 11", got, live.Capacity)
	}
	rec := live.Record("e", "s", "", "")
	if rec.Version != 2 {
		t.Fatalf("recorded as version %d", rec.Version)
	}
	got, err := Replay(f, rec)
	if err != nil || got.Capacity != 11 || got.Spec.Version != 2 {
		t.Fatalf("replayed: capacity %v, version %d, %v", got.Capacity, got.Spec.Version, err)
	}
	rec.Version = Design
	if _, err := Replay(f, rec); err == nil {
		t.Error("a version 2 search was replayed as this design's")
	}
	sp.Version = 0
	if r := search(t, sp, &engine{slots: 8, service: 1000, ttft: 100, sigma: 0.1, rng: rand.New(rand.NewPCG(5, 6))}); r.Capacity != 8 {
		t.Errorf("this design: capacity %v, levels %v; want 8", r.Capacity, values(r.Levels))
	}
}

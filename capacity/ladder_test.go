package capacity

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// ladderFile measures every level the ladder of sp asks for against e,
// each to its count (a ladder stops no level early), and returns the file
// and its record, as the gate writes them.
func ladderFile(t *testing.T, sp Spec, e *engine) (*results.File, results.Search, Result) {
	t.Helper()
	s := New(sp)
	f := &results.File{}
	for step := 1; ; step++ {
		c, ok := s.Next()
		if !ok {
			break
		}
		if round, n := s.Round(c); round != 1 || n != sp.Requests {
			t.Fatalf("level %g asked as measurement %d of %d requests", c, round, n)
		}
		run := e.level(c, sp.Requests, nil)
		run.Endpoint, run.Scenario, run.Level.Step = "e", "s", step
		run.Level.Status = s.Add(run, len(run.Requests), float64(len(run.Requests))*e.service/c).Status
		f.Runs = append(f.Runs, *run)
	}
	r := s.Result()
	return f, r.Record("e", "s", "", ""), r
}

// A ladder on 8 slots at TTFT p95 ≤ 300 ms measures 2, 4, 8, 16 and 32
// users once each, in order — 16 fails and 32 is measured all the same, to
// its 60 requests (no early stop, no level measured again or below): the
// capacity is 8, shown to hold, and its interval ends one user below the
// lowest level shown to fail (15), not at the ladder's level below it.
func TestLadderMeasuresEveryLevelOnce(t *testing.T) {
	t.Parallel()
	e := &engine{slots: 8, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(1, 2))}
	sp := spec(p95(300))
	sp.Levels, sp.From, sp.To, sp.Step = []float64{2, 4, 8, 16, 32}, 2, 32, LadderStep(vocab.VaryConcurrency)
	f, rec, r := ladderFile(t, sp, e)
	if got := values(r.Levels); !slices.Equal(got, sp.Levels) || len(r.Steps) != 5 {
		t.Fatalf("levels %v, %d steps", got, len(r.Steps))
	}
	for _, l := range r.Levels {
		if l.N != 60 || l.Rounds != 1 || l.Stopped {
			t.Errorf("level %g: %d requests over %d measurements, stopped %v", l.Value, l.N, l.Rounds, l.Stopped)
		}
		if want := l.Value <= 8; l.Holds() != want || !want && l.Status != vocab.Fails {
			t.Errorf("level %g is %s", l.Value, l.Status)
		}
	}
	if r.Capacity != 8 || r.Lower != 8 || r.Upper != 15 || r.Stop != vocab.Found || !r.Complete() {
		t.Fatalf("capacity %g [%g, %g], stop %s", r.Capacity, r.Lower, r.Upper, r.Stop)
	}
	if !slices.Equal(rec.Levels, sp.Levels) {
		t.Fatalf("record's levels %v", rec.Levels)
	}
	again, err := Replay(f, rec)
	if err != nil || again.Capacity != 8 || again.Upper != 15 {
		t.Fatalf("replayed %v [%v, %v]: %v", again.Capacity, again.Lower, again.Upper, err)
	}
	// A search of the same range asks for other levels: the record's
	// levels are what make it a ladder.
	search := rec
	search.Levels = nil
	if _, err := Replay(f, search); err == nil || !strings.Contains(err.Error(), "but the search asks for") {
		t.Fatalf("replayed as a search: %v", err)
	}
	// A level left out, or measured out of order, is not the ladder's.
	for name, runs := range map[string][]results.Run{
		"a level left out": slices.Delete(slices.Clone(f.Runs), 2, 3),
		"out of order":     {f.Runs[1], f.Runs[0], f.Runs[2], f.Runs[3], f.Runs[4]},
	} {
		g := *f
		g.Runs = slices.Clone(runs)
		for i := range g.Runs {
			g.Runs[i].Level = &results.Level{Vary: vocab.VaryConcurrency, Value: runs[i].Level.Value, Step: i + 1, Status: runs[i].Level.Status}
		}
		if _, err := Replay(&g, rec); err == nil {
			t.Errorf("%s: replayed", name)
		}
	}
}

// A ladder every level of which holds ends at its top, its interval's
// upper end the top; one whose lowest level fails ends at its bottom,
// with no capacity.
func TestLadderEnds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		budget float64
		stop   vocab.Stop
		capac  float64
	}{{5000, vocab.AtTop, 16}, {50, vocab.AtBottom, math.NaN()}} {
		e := &engine{slots: 64, service: 1000, ttft: 100, rng: rand.New(rand.NewPCG(3, 4))}
		sp := spec(p95(tt.budget))
		sp.Levels, sp.From, sp.To = []float64{4, 8, 16}, 4, 16
		_, _, r := ladderFile(t, sp, e)
		if r.Stop != tt.stop || !same(nanAs0(r.Capacity), nanAs0(tt.capac)) || len(r.Levels) != 3 {
			t.Errorf("budget %g: stop %s, capacity %g, %d levels", tt.budget, r.Stop, r.Capacity, len(r.Levels))
		}
	}
}

// The most a ladder measures is its levels once each.
func TestLadderMost(t *testing.T) {
	t.Parallel()
	sp := spec(p95(300))
	sp.Levels, sp.From, sp.To, sp.Warmup = []float64{8, 16, 32, 64}, 8, 64, 2
	if got := sp.MostLevels(); got != 4 {
		t.Errorf("most levels %d, want 4", got)
	}
	if got := sp.MostRequests(); got != 4*62 {
		t.Errorf("most requests %d, want %d", got, 4*62)
	}
	sp.MaxRequests = 1000
	if got := sp.MostRequests(); got != 4*62 {
		t.Errorf("most requests under a cap %d, want %d", got, 4*62)
	}
}

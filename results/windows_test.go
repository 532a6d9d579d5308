package results

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// windowLeg is a leg of a sharded ladder of one level (8 users) in a
// 60 s window from 10:00:00: its measured requests sent from `from`
// seconds into the window to `to`, each answered in 0.5 s, the leg's
// sent_ms counting from a second of its own (skew).
func windowLeg(id string, from, to, skew float64) *File {
	start := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	sentFrom := start.Add(time.Duration(skew * float64(time.Second)))
	r := run("e", "s", "fp", nil)
	r.Level = &Level{Vary: vocab.VaryConcurrency, Value: 8, Step: 1, Window: &Window{Start: start, Ms: 60000, SentFrom: sentFrom}}
	r.Requests = nil
	for at := from; at <= to; at += 0.25 {
		total := 500.0
		ttft := 100.0
		r.Requests = append(r.Requests, Request{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total, SentMs: (at-skew)*1000 + float64(len(id))/1e3})
	}
	f := file(r)
	f.ID = fmt.Sprintf("%032x", len(id))
	s := search()
	s.From, s.To, s.Levels = 8, 8, []float64{8}
	f.Capacity = []Search{s}
	return f
}

// TestMergeShardsWindows: legs whose requests in a level's window do not
// overlap at all are refused, naming the two legs that missed each other;
// an overlap of every leg below 90 % of the window is a note of the merged
// file, naming the leg that began last and the one that ended first; legs
// that drove the whole window together merge without one, each leg's
// sent_ms counted from the earliest leg's start.
func TestMergeShardsWindows(t *testing.T) {
	t.Parallel()
	names := []string{"a.json", "b.json", "c.json"}
	m, err := MergeShards([]*File{windowLeg("a", 0.5, 59.5, 0.2), windowLeg("bb", 0.5, 59.5, 0.1), windowLeg("ccc", 0.5, 59.5, 0.3)}, names)
	if err != nil || len(m.Notes) != 1 {
		t.Fatalf("legs together: %v, notes %q", err, m.Notes)
	}
	w := m.Runs[0].Level.Window
	if first := m.Runs[0].Requests[0]; !w.SentFrom.Equal(time.Date(2025, 6, 1, 10, 0, 0, 1e8, time.UTC)) || first.SentMs != 400.001 || math.Abs(*w.TogetherMs-59500) > 0.01 {
		t.Errorf("merged window %+v, first request sent at %g ms", w, first.SentMs)
	}
	m, err = MergeShards([]*File{windowLeg("a", 0, 59.5, 0), windowLeg("bb", 20, 59.5, 0), windowLeg("ccc", 0, 45, 0)}, names)
	want := `endpoint "e", scenario "s" at concurrency 8: the 3 legs drove it together for 25.5 s of its 60 s window (43 %, below 90 %: b.json began last, c.json ended first)`
	if err != nil || len(m.Notes) != 2 || m.Notes[1] != want+": the merged level's load was the legs' together for that long only" {
		t.Errorf("legs a part of the window together: %v, notes %q", err, m.Notes)
	}
	_, err = MergeShards([]*File{windowLeg("a", 0, 59.5, 0), windowLeg("bb", 0, 20, 0), windowLeg("ccc", 30, 59.5, 0)}, names)
	if err == nil || !strings.Contains(err.Error(), `b.json and c.json did not drive endpoint "e", scenario "s" at concurrency 8 together: one's requests ended at 10:00:20.500Z, before the other's began at 10:00:30.000Z; give every leg the same --start-at`) {
		t.Errorf("legs apart: %v", err)
	}
	noWindow := windowLeg("bb", 0, 59.5, 0)
	noWindow.Runs[0].Level.Window = nil
	if _, err := MergeShards([]*File{windowLeg("a", 0, 59.5, 0), noWindow}, names[:2]); err == nil || !strings.Contains(err.Error(), "has a window in 1 of the 2 legs") {
		t.Errorf("a leg without a window: %v", err)
	}
	ladder := func(id string) *File {
		f := windowLeg(id, 0, 59.5, 0)
		f.Runs[0].Level.Window = nil
		f.Capacity[0].Levels, f.Capacity[0].To = []float64{8, 16}, 16
		return f
	}
	if _, err := MergeShards([]*File{ladder("a"), ladder("bb")}, names[:2]); err == nil || !strings.Contains(err.Error(), `a.json: endpoint "e", scenario "s" is a ladder of 2 levels measured without --start-at`) {
		t.Errorf("a ladder without windows: %v", err)
	}
	longer := windowLeg("bb", 0, 59.5, 0)
	longer.Runs[0].Level.Window.Ms = 90000
	if _, err := MergeShards([]*File{windowLeg("a", 0, 59.5, 0), longer}, names[:2]); err == nil || !strings.Contains(err.Error(), "in windows of 60 s and 90 s") {
		t.Errorf("another window: %v", err)
	}
}

// A ladder and its windows are checked as a file is read: levels
// ascending, whole users, from and to its ends, at most vocab.MaxLadder;
// a window only on a ladder's level, with its start and a length.
func TestLadderChecked(t *testing.T) {
	t.Parallel()
	if err := windowLeg("a", 0, 10, 0).Validate(); err != nil {
		t.Fatal(err)
	}
	merged := windowLeg("a", 0, 10, 0)
	merged.Runs[0].Shards, merged.Runs[0].Level.Window.TogetherMs = 2, ptr(10500.0)
	if err := merged.Validate(); err != nil {
		t.Fatalf("a merged level together for all its requests' time: %v", err)
	}
	many := make([]float64, vocab.MaxLadder+1)
	for i := range many {
		many[i] = float64(i + 1)
	}
	for _, c := range []struct {
		name string
		edit func(f *File)
		want string
	}{
		{"down", func(f *File) { f.Capacity[0].Levels, f.Capacity[0].To = []float64{8, 16, 12}, 12 }, "levels[2] is 12 after 16: a ladder goes up"},
		{"fractional", func(f *File) { f.Capacity[0].Levels, f.Capacity[0].To = []float64{8, 8.5}, 8.5 }, "levels[1] is 8.5: users are whole"},
		{"ends", func(f *File) { f.Capacity[0].To = 16 }, "from 8 and to 16 are not the ladder's first and last (8, 8)"},
		{"too many", func(f *File) {
			f.Capacity[0].Levels, f.Capacity[0].From, f.Capacity[0].To = many, 1, float64(len(many))
		}, fmt.Sprintf("levels: %d levels, at most %d", len(many), vocab.MaxLadder)},
		{"a search's window", func(f *File) { f.Capacity[0].Levels = nil }, "a window on a level of a search"},
		{"no length", func(f *File) { f.Runs[0].Level.Window.Ms = 0 }, "window: want a start, sent_from and a length"},
		{"no start", func(f *File) { f.Runs[0].Level.Window.Start = time.Time{} }, "window: want a start"},
		// windowLeg("a", 0, 10, 0) drives its level 10.5 s: sends from 0 to
		// 10 s, each answered in 0.5 s.
		{"together on one leg", func(f *File) { f.Runs[0].Level.Window.TogetherMs = ptr(5000.0) }, "window: together_ms on a run of one leg"},
		{"together longer than its requests", func(f *File) {
			f.Runs[0].Shards, f.Runs[0].Level.Window.TogetherMs = 2, ptr(10500.5)
		}, "window: together_ms 10500.5 is longer than the level's requests ran"},
	} {
		f := windowLeg("a", 0, 10, 0)
		c.edit(f)
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func ptr(v float64) *float64 { return &v }

package results

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Window is when a level of a ladder was driven in a run started at a
// time every leg of a sharded matrix shares (--start-at): its window began
// at Start and lasted Ms milliseconds (the same on every leg), and its
// measured requests' sent_ms count from SentFrom (the run's clock when
// its measured requests began, past the level's warmup). A request of it
// was sent at SentFrom + sent_ms: merge --shards checks from these that
// the legs drove the level together (checkWindows).
type Window struct {
	Start    time.Time `json:"start"`
	Ms       float64   `json:"ms"`
	SentFrom time.Time `json:"sent_from"`
	// TogetherMs, in a file merged from legs (merge --shards), is how long
	// every leg drove the level at once: from the latest first send to the
	// earliest last end.
	TogetherMs *float64 `json:"together_ms,omitempty"`
}

// OverlapFlag is the share of a level's window below which merge --shards
// notes that its legs drove it together for less of it (the merged
// level's load was four legs' for less of its time).
const OverlapFlag = 0.9

// checkLadder refuses a ladder no suite writes: more than
// vocab.MaxLadder levels, levels not ascending, not positive, not whole
// users, or from and to not its first and last.
func (s Search) checkLadder() error {
	n := len(s.Levels)
	switch {
	case n == 0:
		return nil
	case n > vocab.MaxLadder:
		return fmt.Errorf("levels: %d levels, at most %d", n, vocab.MaxLadder)
	case s.From != s.Levels[0] || s.To != s.Levels[n-1]:
		return fmt.Errorf("levels: from %g and to %g are not the ladder's first and last (%g, %g)", s.From, s.To, s.Levels[0], s.Levels[n-1])
	}
	for i, v := range s.Levels {
		switch {
		case !finite(v) || !(v > 0 && v <= MaxMs):
			return fmt.Errorf("levels[%d] is %g: want a positive load", i, v)
		case s.Vary == vocab.VaryConcurrency && v != math.Trunc(v):
			return fmt.Errorf("levels[%d] is %g: users are whole", i, v)
		case i > 0 && !(v > s.Levels[i-1]):
			return fmt.Errorf("levels[%d] is %g after %g: a ladder goes up", i, v, s.Levels[i-1])
		}
	}
	return nil
}

// checkWindow refuses a window no run writes: on a level of a search that
// is no ladder, without a start or a length.
func (l Level) checkWindow(s *Search) error {
	w := l.Window
	switch {
	case w == nil:
		return nil
	case len(s.Levels) == 0:
		return fmt.Errorf("a window on a level of a search: only a ladder's levels have windows")
	case !finite(w.Ms) || !(w.Ms > 0 && w.Ms <= MaxMs) || w.Start.IsZero() || w.SentFrom.IsZero():
		return fmt.Errorf("window: want a start, sent_from and a length from 0 to %g ms, got %g", MaxMs, w.Ms)
	case w.TogetherMs != nil && !(finite(*w.TogetherMs) && *w.TogetherMs >= 0 && *w.TogetherMs <= MaxMs):
		return fmt.Errorf("window: together_ms is %g: want 0 to %g ms", *w.TogetherMs, MaxMs)
	}
	return nil
}

// checkTogether refuses a together_ms no merge writes: on a run that no
// merge of legs made (shards), or longer than the run's own requests, from
// the first send to the last end: the legs cannot have driven the level
// together for longer than they drove it at all.
func (r *Run) checkTogether() error {
	if r.Level == nil || r.Level.Window == nil || r.Level.Window.TogetherMs == nil {
		return nil
	}
	together := *r.Level.Window.TogetherMs
	if r.Shards < 2 {
		return fmt.Errorf("window: together_ms on a run of one leg: only merge --shards writes it, on a run of its legs (shards)")
	}
	from, to, ok := r.span()
	if !ok || together > float64(to.Sub(from))/1e6+1e-3 {
		return fmt.Errorf("window: together_ms %g is longer than the level's requests ran (from its first send to its last end)", together)
	}
	return nil
}

// span is when a leg's run of a windowed level drove its requests: from
// its first send to its last end (a failed request's end is its send,
// when it has no total); false without a window or a request.
func (r *Run) span() (from, to time.Time, ok bool) {
	if r.Level == nil || r.Level.Window == nil || len(r.Requests) == 0 {
		return time.Time{}, time.Time{}, false
	}
	first, last := math.Inf(1), math.Inf(-1)
	for _, q := range r.Requests {
		end := q.SentMs
		if q.TotalMs != nil {
			end += *q.TotalMs
		}
		first, last = math.Min(first, q.SentMs), math.Max(last, end)
	}
	at := func(ms float64) time.Time { return r.Level.Window.SentFrom.Add(time.Duration(ms * 1e6)) }
	return at(first), at(last), true
}

// checkWindows checks that the legs drove each windowed level of run j
// together: their spans (span) overlap. Legs two of which do not overlap
// at all are refused, naming them; an overlap of every leg below
// OverlapFlag of the window is a note for the merged file. A level some
// leg ran without a window while another had one is refused: the legs
// did not share a start.
func checkWindows(files []*File, names []string, j int) (note string, together float64, err error) {
	r0 := &files[0].Runs[j]
	if r0.Level == nil {
		return "", 0, nil
	}
	latest, earliest := -1, -1 // the leg whose span starts last, and the one whose span ends first
	var from, to time.Time
	windowed := 0
	for i, f := range files {
		r := &f.Runs[j]
		if r.Level.Window == nil {
			continue
		}
		windowed++
		if w0 := files[0].Runs[j].Level.Window; w0 != nil && w0.Ms != r.Level.Window.Ms {
			return "", 0, fmt.Errorf("%s and %s drove endpoint %q, scenario %q%s in windows of %s and %s: the legs of a sharded ladder run the same suite", names[0], names[i], r.Endpoint, r.Scenario, levelLabel(r), seconds(w0.Ms), seconds(r.Level.Window.Ms))
		}
		a, b, ok := r.span()
		if !ok {
			return "", 0, fmt.Errorf("%s: endpoint %q, scenario %q%s measured no request in its window: it did not drive the level with the other legs", names[i], r.Endpoint, r.Scenario, levelLabel(r))
		}
		if latest < 0 || a.After(from) {
			latest, from = i, a
		}
		if earliest < 0 || b.Before(to) {
			earliest, to = i, b
		}
	}
	switch {
	case windowed == 0:
		return "", 0, nil
	case windowed < len(files):
		return "", 0, fmt.Errorf("endpoint %q, scenario %q%s has a window in %d of the %d legs: every leg of a sharded ladder starts at the same --start-at", r0.Endpoint, r0.Scenario, levelLabel(r0), windowed, len(files))
	case !to.After(from):
		return "", 0, fmt.Errorf("%s and %s did not drive endpoint %q, scenario %q%s together: one's requests ended at %s, before the other's began at %s; give every leg the same --start-at",
			names[earliest], names[latest], r0.Endpoint, r0.Scenario, levelLabel(r0), stamp(to), stamp(from))
	}
	w, together := r0.Level.Window.Ms, math.Round(float64(to.Sub(from))/1e3)/1e3
	share := together / w
	if share >= OverlapFlag {
		return "", together, nil
	}
	return fmt.Sprintf("endpoint %q, scenario %q%s: the %d legs drove it together for %s of its %s window (%.0f %%, below %.0f %%: %s began last, %s ended first): the merged level's load was the legs' together for that long only",
		r0.Endpoint, r0.Scenario, levelLabel(r0), len(files), seconds(float64(to.Sub(from))/1e6), seconds(w), 100*share, 100*OverlapFlag, names[latest], names[earliest]), together, nil
}

// alignLegs makes the merged windowed run's requests count from the
// earliest leg's SentFrom: each leg's sent_ms moved by how much later its
// own began, so the merged level's requests are in the order the server
// met them; its window says how long the legs drove it together.
func alignLegs(files []*File, j int, merged *Run, together float64) {
	if merged.Level == nil || merged.Level.Window == nil {
		return
	}
	from := files[0].Runs[j].Level.Window.SentFrom
	for _, f := range files {
		if w := f.Runs[j].Level.Window; w.SentFrom.Before(from) {
			from = w.SentFrom
		}
	}
	w := *merged.Level.Window
	w.SentFrom, w.TogetherMs = from, &together
	label := *merged.Level
	label.Window = &w
	merged.Level = &label
	k := 0
	for _, f := range files {
		shift := float64(f.Runs[j].Level.Window.SentFrom.Sub(from)) / 1e6
		for range f.Runs[j].Requests {
			merged.Requests[k].SentMs = math.Round((merged.Requests[k].SentMs+shift)*1e3) / 1e3
			k++
		}
	}
}

func stamp(t time.Time) string { return t.UTC().Format("15:04:05.000Z") }

// seconds says milliseconds as seconds, to the tenth.
func seconds(ms float64) string {
	return fmt.Sprintf("%s s", trimZero(fmt.Sprintf("%.1f", ms/1000)))
}

func trimZero(s string) string {
	t, _ := strings.CutSuffix(s, ".0")
	return t
}

// unwindowed refuses the legs of a ladder of several levels measured
// without windows: each leg went from level to level on its own requests'
// time, so its later levels met the others' at no load in particular.
func unwindowed(f *File, name string) error {
	for _, s := range f.Capacity {
		if len(s.Levels) < 2 {
			continue
		}
		for _, r := range f.Levels(s) {
			if r.Level.Window == nil {
				return fmt.Errorf("%s: endpoint %q, scenario %q is a ladder of %d levels measured without --start-at: its legs did not drive each level at the same time; give every leg the same --start-at", name, s.Endpoint, s.Scenario, len(s.Levels))
			}
		}
	}
	return nil
}

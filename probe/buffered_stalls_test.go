package probe

import (
	"context"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/clock"
)

// lateClock is a clock whose waits come back late by the next of its
// script's delays; once the script ends, a wait lasts until its context
// ends (done is closed then).
type lateClock struct {
	now    time.Time
	script []time.Duration
	done   chan struct{}
}

func (c *lateClock) Now() time.Time { return c.now }

func (c *lateClock) Until(ctx context.Context, t time.Time) bool {
	if len(c.script) == 0 {
		close(c.done)
		<-ctx.Done()
		return false
	}
	c.now, c.script = t.Add(c.script[0]), c.script[1:]
	return true
}

func (c *lateClock) AfterFunc(time.Duration, func()) clock.Timer { panic("unused") }

// TestStallWatch: the watch notes each wake-up stallMin or more late as a
// stall that ended then and began that much earlier, and none shorter;
// since gives those that ended after a request's t0, from it (clipped),
// and the watch stops with its last request.
func TestStallWatch(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1000, 0)
	clk := &lateClock{now: t0, done: make(chan struct{}),
		script: []time.Duration{0, 14 * ms, 0, 100 * ms, 0, 0, stallMin}}
	var w stallWatch
	end := w.begin(clk)
	<-clk.done
	end()
	// Wake-ups at 10, 34 (14 late: no stall), 44, 154 (100 late), 164,
	// 174, 199 (15 late).
	want := []span{{from: 54 * ms, to: 154 * ms}, {from: 184 * ms, to: 199 * ms}}
	got := w.since(t0)
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("stalls %v, want %v", got, want)
	}
	if got := w.since(t0.Add(100 * ms)); len(got) != 2 || got[0] != (span{0, 54 * ms}) {
		t.Errorf("since 100 ms: %v, want the first clipped to [0, 54 ms]", got)
	}
	if w.users != 0 {
		t.Errorf("%d users after the last request ended", w.users)
	}
	if d := stalledIn(want, 100*ms, 190*ms); d != 60*ms {
		t.Errorf("stalled in [100, 190] ms: %v, want 54 + 6 ms", d)
	}
}

package clock

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// The Real clock inside a synctest bubble reads and waits on virtual time:
// every wait ends exactly when it is due.
func TestRealUntil(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var c Clock = Real{}
		start := c.Now()
		if !c.Until(context.Background(), start.Add(-time.Second)) || c.Now() != start {
			t.Error("a past deadline on a live context should report true at once")
		}
		if !c.Until(context.Background(), start.Add(250*time.Millisecond)) {
			t.Error("a deadline on a live context should be reached")
		}
		if got := c.Now().Sub(start); got != 250*time.Millisecond {
			t.Errorf("Until returned after %v, want 250ms", got)
		}
		ctx, cancel := context.WithCancel(context.Background())
		c.AfterFunc(40*time.Millisecond, cancel)
		at := c.Now()
		if c.Until(ctx, at.Add(time.Hour)) {
			t.Error("a context canceled while waiting should report false")
		}
		if got := c.Now().Sub(at); got != 40*time.Millisecond {
			t.Errorf("Until returned %v after the start, want 40ms (when ctx was canceled)", got)
		}
		if c.Until(ctx, at) {
			t.Error("a canceled context should report false even for a past deadline")
		}
	})
}

func TestRealAfterFunc(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var c Clock = Real{}
		start := c.Now()
		fired := make(chan time.Duration, 1)
		tm := c.AfterFunc(30*time.Millisecond, func() { fired <- c.Now().Sub(start) })
		time.Sleep(20 * time.Millisecond)
		if !tm.Reset(30 * time.Millisecond) { // now due at 50ms
			t.Error("Reset of a pending call should report true")
		}
		if got := <-fired; got != 50*time.Millisecond {
			t.Errorf("fired at %v, want 50ms", got)
		}
		stopped := c.AfterFunc(time.Millisecond, func() { t.Error("a stopped call ran") })
		if !stopped.Stop() {
			t.Error("Stop of a pending call should report true")
		}
		time.Sleep(time.Second)
	})
}

func TestOr(t *testing.T) {
	t.Parallel()
	if _, ok := Or(nil).(Real); !ok {
		t.Error("Or(nil) is not Real")
	}
	var c fixed
	if Or(c) != Clock(c) {
		t.Error("Or(c) is not c")
	}
}

type fixed struct{ Real }

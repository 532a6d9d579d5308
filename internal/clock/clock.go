// Package clock is where the program reads time and waits for it: the
// probe's timestamps, timeouts and stall timer, the runner's open-loop
// arrivals and the simulator's delays all go through a Clock, so a caller
// chooses the clock and nothing else calls time.Now or starts a timer.
//
// Real is the clock of the running program (time.Now, with its monotonic
// reading). Tests run the same code on virtual time: inside a
// testing/synctest bubble package time's clock is virtual and advances
// only when every goroutine of the bubble is blocked, so Real there reads
// and waits on virtual time (see internal/clocktest for the in-memory
// network such a test needs between a simulator and a prober).
package clock

import (
	"context"
	"time"
)

// Clock tells the time and waits for it.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// Until waits until t or until ctx is done; it reports whether ctx is
	// still live (true: t was reached).
	Until(ctx context.Context, t time.Time) bool
	// AfterFunc calls f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call (as *time.Timer).
type Timer interface {
	// Stop prevents the call; it reports whether it did.
	Stop() bool
	// Reset makes the call due d from now; it reports whether it was
	// pending.
	Reset(d time.Duration) bool
}

// Real is the running program's clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// Until waits on a timer until t or until ctx is done.
func (Real) Until(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-tm.C:
		return true
	}
}

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Or is c, or Real when c is nil: the clock of a struct whose Clock field
// was left unset.
func Or(c Clock) Clock {
	if c == nil {
		return Real{}
	}
	return c
}

package sim

import (
	"sync"
	"time"
)

// scaler is a server's scale to zero (Profile.ColdStart, IdleAfter): it
// sleeps once no request has been in flight for IdleAfter, and before its
// first request; a request that wakes it waits ColdStart before its answer
// starts, and a request that arrives while it starts waits the rest.
type scaler struct {
	mu       sync.Mutex
	inFlight int
	woke     bool      // a request has arrived
	lastEnd  time.Time // when the last request in flight ended
	readyAt  time.Time // when the last cold start ended (or ends)
}

// arrive counts a request arriving at now, served at p, in flight, and
// returns when the server can start working on it (at or before now when
// it is up).
func (c *scaler) arrive(p Profile, now time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	asleep := !c.woke || p.IdleAfter > 0 && c.inFlight == 0 && now.Sub(c.lastEnd) >= p.IdleAfter
	if asleep && p.ColdStart > 0 {
		c.readyAt = now.Add(p.ColdStart)
	}
	c.woke = true
	c.inFlight++
	return c.readyAt
}

// leave counts a request in flight as ended at now.
func (c *scaler) leave(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inFlight--
	c.lastEnd = now
}

package sim

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/latgate/latgate/internal/clock"
)

// Capacity is a serving engine's capacity: Slots requests are served at
// once (a continuous batch, as vLLM's max_num_seqs or Ollama's
// OLLAMA_NUM_PARALLEL), later ones wait in arrival order for a free slot,
// and a request's prefill grows with the batch it joins. Its answer starts
// when it gets a slot: the header delay, the TTFT and every gap count from
// then, the TTFT longer by PrefillPerRequest for each other request in the
// batch at that moment (scaled by the profile's speed). Its slot is freed
// when its answer ends or its client goes away. With Queue > 0, a request
// that finds Queue requests already waiting is refused at once with a 429
// (an engine's max queue length). The zero Capacity serves every request
// at once, as a profile without one always did.
//
// So the capacity at an SLO is known in advance: with closed-loop users
// and fixed delays, up to Slots users never wait and their first token
// comes after TTFT + (users − 1) × PrefillPerRequest; one user more waits
// for a slot, on average a Slots-th of an answer's time (Little's law).
type Capacity struct {
	Slots             int
	Queue             int
	PrefillPerRequest time.Duration
}

// engine is the state of one profile's slots on a Server.
type engine struct {
	mu      sync.Mutex
	slots   int
	busy    int
	waiting []chan struct{} // in arrival order; closed when given a slot
}

// engineFor is the slots of profile p on s (one set per profile name).
func (s *Server) engineFor(p Profile) *engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.engines == nil {
		s.engines = map[string]*engine{}
	}
	e := s.engines[p.Name]
	if e == nil {
		e = &engine{slots: p.Capacity.Slots}
		s.engines[p.Name] = e
	}
	return e
}

// acquire waits for a slot and returns the batch the request joins (its
// own slot included); ok is false when ctx ended first, full when the
// queue was full.
func (e *engine) acquire(ctx context.Context, queue int) (batch int, ok, full bool) {
	e.mu.Lock()
	if e.busy < e.slots {
		e.busy++
		b := e.busy
		e.mu.Unlock()
		return b, true, false
	}
	if queue > 0 && len(e.waiting) >= queue {
		e.mu.Unlock()
		return 0, false, true
	}
	ch := make(chan struct{})
	e.waiting = append(e.waiting, ch)
	e.mu.Unlock()
	select {
	case <-ch:
		e.mu.Lock()
		b := e.busy // the slot was handed over: busy did not change
		e.mu.Unlock()
		return b, true, false
	case <-ctx.Done():
		e.mu.Lock()
		defer e.mu.Unlock()
		for i, w := range e.waiting {
			if w == ch {
				e.waiting = append(e.waiting[:i], e.waiting[i+1:]...)
				return 0, false, false
			}
		}
		e.release() // given a slot just as the client left: pass it on
		return 0, false, false
	}
}

// release frees a slot: the first waiting request gets it. Call with mu.
func (e *engine) release() {
	if len(e.waiting) > 0 {
		close(e.waiting[0])
		e.waiting = e.waiting[1:]
		return
	}
	e.busy--
}

func (e *engine) free() {
	e.mu.Lock()
	e.release()
	e.mu.Unlock()
}

// admit holds a request of profile p until it has a slot of the capacity
// model (at once without one): its answer then starts, and its prefill is
// longer for the others in the batch. It returns what frees the slot, or
// false when the request was refused (a full queue) or its client left.
func (s *Server) admit(ctx context.Context, clk clock.Clock, w http.ResponseWriter, a api, p Profile, start *time.Time, pl *plan) (func(), bool) {
	c := p.Capacity
	if c.Slots <= 0 {
		return func() {}, true
	}
	e := s.engineFor(p)
	batch, ok, full := e.acquire(ctx, c.Queue)
	if full {
		writeAPIError(w, a, http.StatusTooManyRequests, "rate_limit_error",
			fmt.Sprintf("The server is at capacity (simulated: %d requests served, %d waiting).", c.Slots, c.Queue), "1")
		return nil, false
	}
	if !ok {
		return nil, false
	}
	*start = clk.Now()
	pl.ttft += pl.scale(time.Duration(batch-1) * c.PrefillPerRequest)
	return e.free, true
}

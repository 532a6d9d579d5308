package probe

import (
	"context"
	"sync"
	"time"

	"github.com/latgate/latgate/internal/clock"
)

// A client that does not run for a while (a CPU hog, a browser starting
// beside it, a simulator in the same process writing late) reads the
// bytes that came meanwhile in one piece, as a buffering proxy gives
// them: from the stream alone the two cannot be told apart. The prober
// watches its own process while requests are in flight: a goroutine that
// wakes every stallTick and notes each time it woke stallMin or more late
// (the process, or its scheduler, did not run it). An answer whose wait
// was half or more such stalls cannot tell (answerShape.buffered): what
// it waited for may have come while the client did not run.
const (
	stallTick = 5 * time.Millisecond
	stallMin  = 15 * time.Millisecond
	// stallKeep bounds the stalls kept (the oldest go first): at a
	// stall every 20 ms, the most a machine at load average 30 on 2
	// cores gave, they cover 80 s of the longest request.
	stallKeep = 4096
)

// span is a time the process did not run, from a request's t0.
type span struct{ from, to time.Duration }

// stallWatch watches the process for stalls while requests are in
// flight (begin and its end func bracket each request). The zero value
// is ready.
type stallWatch struct {
	mu     sync.Mutex
	users  int
	cancel context.CancelFunc
	stalls []stall
}

// stall is a time the process did not run.
type stall struct{ from, to time.Time }

// begin counts a request in flight, starting the watch on clk for the
// first; the func it returns ends it, stopping the watch after the last.
func (w *stallWatch) begin(clk clock.Clock) func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.users++; w.users == 1 {
		ctx, cancel := context.WithCancel(context.Background())
		w.cancel = cancel
		go w.run(ctx, clk)
	}
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.users--; w.users == 0 {
			w.cancel()
		}
	}
}

// run wakes every stallTick until ctx ends, noting each wake-up stallMin
// or more late.
func (w *stallWatch) run(ctx context.Context, clk clock.Clock) {
	prev := clk.Now()
	for clk.Until(ctx, prev.Add(stallTick)) {
		now := clk.Now()
		if late := now.Sub(prev) - stallTick; late >= stallMin {
			w.mu.Lock()
			if len(w.stalls) == stallKeep {
				w.stalls = append(w.stalls[:0], w.stalls[1:]...)
			}
			w.stalls = append(w.stalls, stall{from: now.Add(-late), to: now})
			w.mu.Unlock()
		}
		prev = now
	}
}

// since lists the stalls that ended after t0, from t0.
func (w *stallWatch) since(t0 time.Time) []span {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []span
	for _, s := range w.stalls {
		if s.to.After(t0) {
			out = append(out, span{from: max(0, s.from.Sub(t0)), to: s.to.Sub(t0)})
		}
	}
	return out
}

// stalledIn is how long the stalls ran within [from, to]: their sum. On a
// machine that gives the process the CPU in slices, the watch sees many
// short stalls, and a reader, one of many goroutines, may not run in the
// moments between them: what counts is how much of a wait the process
// spent not running, not its longest stall (TestBufferedOnLoopback
// under -race judged 4 of 16 honest streams buffered with the longest).
func stalledIn(stalls []span, from, to time.Duration) time.Duration {
	var d time.Duration
	for _, s := range stalls {
		if lo, hi := max(s.from, from), min(s.to, to); hi > lo {
			d += hi - lo
		}
	}
	return d
}

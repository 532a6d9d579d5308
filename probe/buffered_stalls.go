package probe

import (
	"context"
	"slices"
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
// (the process, or its scheduler, did not run it), and, on Linux on the
// real clock, each stallMin or more that one of the process's threads
// waited to run (its schedstat): a thread the system does not run while
// it holds one of the Go scheduler's Ps holds that P's goroutines and
// timers too, while the others (the watch's among them) run on. An answer whose wait was half
// or more such stalls cannot tell (answerShape.buffered): what it waited
// for may have come while the client did not run.
const (
	stallTick = 10 * time.Millisecond // about 2 % of a core at load average 11
	stallMin  = 15 * time.Millisecond
	// threadScan is how often the watch reads the threads' waits (a
	// wait is read when it ended, so this only places it: at most
	// threadScan late; a stream judged reads them then).
	threadScan = 25 * time.Millisecond
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
	mu      sync.Mutex
	users   int
	cancel  context.CancelFunc
	clk     clock.Clock
	woke    time.Time    // the watch's last wake-up (zero: not watching)
	scanned time.Time    // the threads' last scan
	threads *threadWaits // nil: not on Linux, or not on the real clock
	stalls  []stall      // ended, in order, none overlapping
}

// stall is a time the process (or one of its threads) did not run.
type stall struct{ from, to time.Time }

// begin counts a request in flight, starting the watch on clk for the
// first; the func it returns ends it, stopping the watch after the last.
func (w *stallWatch) begin(clk clock.Clock) func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.users++; w.users == 1 {
		ctx, cancel := context.WithCancel(context.Background())
		w.cancel, w.clk, w.woke = cancel, clk, clk.Now()
		w.threads = newThreadWaits(w.woke)
		go w.run(ctx, clk)
	}
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.users--; w.users == 0 {
			w.cancel()
			w.woke = time.Time{}
			w.threads.close()
			w.threads = nil
		}
	}
}

// run wakes every stallTick until ctx ends, noting each wake-up stallMin
// or more late, and the threads' waits.
func (w *stallWatch) run(ctx context.Context, clk clock.Clock) {
	prev := clk.Now()
	for clk.Until(ctx, prev.Add(stallTick)) {
		now := clk.Now()
		w.mu.Lock()
		if ctx.Err() == nil {
			if late := now.Sub(prev) - stallTick; late >= stallMin {
				w.add(stall{from: now.Add(-late), to: now})
			}
			if now.Sub(w.scanned) >= threadScan {
				w.scan(now)
			}
			w.woke = now
		}
		w.mu.Unlock()
		prev = now
	}
}

// scan adds the threads' stalls that ended by now (w.mu held).
func (w *stallWatch) scan(now time.Time) {
	for _, s := range w.threads.scan(now) {
		w.add(s)
	}
	w.scanned = now
}

// add records a stall (w.mu held), merged with those it overlaps.
func (w *stallWatch) add(s stall) {
	for n := len(w.stalls); n > 0 && !w.stalls[n-1].to.Before(s.from); n = len(w.stalls) {
		last := w.stalls[n-1]
		s = stall{from: minTime(s.from, last.from), to: maxTime(s.to, last.to)}
		w.stalls = w.stalls[:n-1]
	}
	if len(w.stalls) == stallKeep {
		w.stalls = append(w.stalls[:0], w.stalls[1:]...)
	}
	w.stalls = append(w.stalls, s)
}

// merged is stalls in order, those that overlap merged.
func merged(stalls []stall) []stall {
	s := append([]stall(nil), stalls...)
	slices.SortFunc(s, func(a, b stall) int { return a.from.Compare(b.from) })
	var out []stall
	for _, x := range s {
		if n := len(out); n > 0 && !out[n-1].to.Before(x.from) {
			out[n-1].to = maxTime(out[n-1].to, x.to)
			continue
		}
		out = append(out, x)
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// since lists the stalls that ended after t0, from t0, with the watch's
// own lateness now: a stream read right after a stall is judged before
// the watch wakes again, so its lateness and the threads' waits are read
// now too.
func (w *stallWatch) since(t0 time.Time) []span {
	w.mu.Lock()
	defer w.mu.Unlock()
	all := w.stalls
	if !w.woke.IsZero() {
		now := w.clk.Now()
		all = nil
		if late := now.Sub(w.woke) - stallTick; late >= stallMin {
			all = append(all, stall{from: now.Add(-late), to: now})
		}
		w.scan(now)
		all = append(all, w.stalls...)
	}
	var out []span
	for _, s := range merged(all) {
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

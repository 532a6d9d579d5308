package probe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latgate/latgate/internal/wait"
)

// Group is one (scenario, endpoint) pair to measure.
type Group struct {
	Request     Request
	Requests    int     // measured requests
	Warmup      int     // requests sent first and not measured
	Concurrency int     // closed loop: requests in flight (default 1)
	Rate        float64 // open loop: Poisson arrivals per second (overrides Concurrency)
	MaxInFlight int     // open loop: worker pool size (default 64)
	// BodyFor, if set, gives the body of the i-th request (from 1, warmup
	// included), e.g. a unique prefix per request to defeat prompt caching.
	BodyFor func(i int) []byte
}

// Limits are run-wide caps; zero means none.
type Limits struct {
	MaxRequests     int // requests sent, warmup included
	MaxOutputTokens int // output tokens received, warmup included
}

// Runner sends groups of requests: a pacer feeds a fixed pool of workers and
// one aggregator collects their records. Cancel ctx to stop: in-flight
// streams are aborted and what was measured is returned.
type Runner struct {
	Prober *Prober
	Limits Limits
	Seed   uint64 // seeds the open-loop arrival process
	// OnRecord, if set, is called from the aggregator goroutine after each
	// request (measured or warmup).
	OnRecord func(group int, rec Record, warmup bool)
	// Sink, if set, receives each measured record instead of Result.Groups,
	// so a long run keeps only what the caller keeps.
	Sink func(group int, rec Record)
}

// Result is what a run measured.
type Result struct {
	Groups       [][]Record // measured records per group, in completion order
	Sent         int        // requests sent, warmup included
	OutputTokens int        // output tokens received, warmup included
	Stopped      string     // why the run stopped early ("" if it did not)
	Interrupted  bool       // ctx was canceled
}

type budget struct {
	limits  Limits
	sent    atomic.Int64
	tokens  atomic.Int64
	mu      sync.Mutex
	stopped string
}

// take reserves one request, or reports why not.
func (b *budget) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped != "" {
		return false
	}
	if b.limits.MaxRequests > 0 && b.sent.Load() >= int64(b.limits.MaxRequests) {
		b.stopped = fmt.Sprintf("stopped early: limits.max_requests (%d) reached", b.limits.MaxRequests)
		return false
	}
	if b.limits.MaxOutputTokens > 0 && b.tokens.Load() >= int64(b.limits.MaxOutputTokens) {
		b.stopped = fmt.Sprintf("stopped early: limits.max_output_tokens (%d) reached", b.limits.MaxOutputTokens)
		return false
	}
	b.sent.Add(1)
	return true
}

func (b *budget) isStopped() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stopped != ""
}

// Run measures every group in order.
func (r *Runner) Run(ctx context.Context, groups []Group) Result {
	b := &budget{limits: r.Limits}
	res := Result{Groups: make([][]Record, len(groups))}
	for gi, g := range groups {
		if ctx.Err() != nil {
			break
		}
		rng := rand.New(rand.NewPCG(r.Seed, uint64(gi)))
		var seq atomic.Int64 // numbers requests across warmup and measurement
		r.phase(ctx, gi, g, g.Warmup, true, b, rng, &seq)
		res.Groups[gi] = r.phase(ctx, gi, g, g.Requests, false, b, rng, &seq)
	}
	res.Sent = int(b.sent.Load())
	res.OutputTokens = int(b.tokens.Load())
	res.Stopped = b.stopped
	res.Interrupted = ctx.Err() != nil
	return res
}

func (r *Runner) phase(ctx context.Context, gi int, g Group, n int, warmup bool, b *budget, rng *rand.Rand, seq *atomic.Int64) []Record {
	if n <= 0 {
		return nil
	}
	workers := max(g.Concurrency, 1)
	if g.Rate > 0 {
		workers = g.MaxInFlight
		if workers <= 0 {
			workers = 64
		}
	}
	workers = min(workers, n)
	jobs := make(chan struct{})
	results := make(chan Record)

	// Pacer: closed loop hands a job to the next free worker; open loop
	// releases jobs at exponentially distributed intervals.
	go func() {
		defer close(jobs)
		next := time.Now()
		for i := 0; i < n; i++ {
			if g.Rate > 0 && i > 0 {
				next = next.Add(time.Duration(rng.ExpFloat64() / g.Rate * float64(time.Second)))
				if !wait.Until(ctx, next) {
					return
				}
			}
			if ctx.Err() != nil || b.isStopped() {
				return
			}
			select {
			case jobs <- struct{}{}:
			case <-ctx.Done():
				return
			}
		}
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				// Reserve the request when it starts, so the caps see the
				// tokens of every request that finished before it.
				if !b.take() {
					continue
				}
				req := g.Request
				if g.BodyFor != nil {
					req.Body = g.BodyFor(int(seq.Add(1)))
				}
				rec := r.Prober.Do(ctx, req)
				b.tokens.Add(int64(rec.OutputTokens))
				results <- rec
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var recs []Record
	for rec := range results {
		if ctx.Err() != nil && !rec.OK {
			continue // aborted by the interrupt: not a server failure
		}
		if r.OnRecord != nil {
			r.OnRecord(gi, rec, warmup)
		}
		switch {
		case warmup:
		case r.Sink != nil:
			r.Sink(gi, rec)
		default:
			recs = append(recs, rec)
		}
	}
	return recs
}

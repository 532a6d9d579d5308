package probe

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/vocab"
)

// Group is one (scenario, endpoint) pair to measure.
//
// With Head set it is an interleaved A/B group: Request and Prepare are the
// base variant, Head and HeadPrepare the head variant. Requests and Warmup
// then count per variant, and requests are issued in blocks of BlockSize
// requests of each variant, in a seeded random order within every block, at
// the group's concurrency or rate: both variants meet the same load at the
// same moments. Concurrency and Rate are totals over both variants, so a
// shared provider sees the scenario's load (two separate deployments each
// see about half of it). Each record carries its Variant and Block.
type Group struct {
	Request     Request
	Requests    int     // measured requests (per variant in an A/B group)
	Warmup      int     // requests sent first and not measured (per variant)
	Concurrency int     // closed loop: requests in flight (default 1)
	Rate        float64 // open loop: Poisson arrivals per second (overrides Concurrency)
	MaxInFlight int     // open loop: worker pool size (default 64)
	// At, when set, is an open loop at given times (a replayed trace): the
	// k-th measured request of each variant (its item, see Item) is due At[k]
	// from the start of the phase. It overrides Rate and Concurrency, needs
	// one lane, and holds at least Requests times, in increasing order.
	At []time.Duration
	// Item, if set, makes each measured request from its item k (from 0,
	// the same k for both variants of an A/B group: the k-th request of
	// each, planned in the same block), after Prepare; the record says k
	// (Record.Item). Items are dealt to lanes in turn: lane l of L sends
	// items l, l+L, l+2L, …
	Item func(k int, req *Request)
	// HeadItem is Item for Head (nil: Item's).
	HeadItem func(k int, req *Request)
	// Prepare, if set, makes the i-th request (from 1, warmup included)
	// from a copy of Request: e.g. a unique prefix per request to defeat
	// prompt caching, in its body or its session's first message.
	Prepare func(i int, req *Request)

	Head        *Request                  // the head variant; nil for a single-variant group
	HeadPrepare func(i int, req *Request) // as Prepare, numbered separately, for Head
	BlockSize   int                       // A/B: requests of each variant per block (default 1)

	// Lanes runs the group as this many copies of its load at once (default
	// 1): each lane has its own Concurrency workers (or its own Rate and
	// MaxInFlight), takes an equal share of the requests and, in an A/B
	// group, interleaves both variants in its own blocks. The provider
	// meets lanes times the group's load; both variants meet it alike.
	Lanes int

	// Adaptive sampling: with Decide set and 0 < MinRequests < Requests,
	// the aggregator calls Decide(n) each time the group's measured records
	// (failures included; per variant in an A/B group, counting the
	// variant that has fewer) reach n = MinRequests, MinRequests+Batch, …,
	// below Requests, after those records went to Sink; recording why it
	// stopped is the caller's business. No record is taken while Decide
	// runs, so a worker that finishes meanwhile starts nothing new, and the
	// worker whose record completed the look waits for it too. When it
	// says stop, no further planned request of the group is sent, in any
	// lane: requests in flight finish and are recorded, and an A/B group
	// then sends only the variant sent fewer times until both were sent as
	// often (completing every lane's block would cost up to a block's
	// time). An early stop leaves the run complete. Batch 0 means
	// MinRequests.
	MinRequests int
	Batch       int
	Decide      func(n int) (stop bool)

	// Cold, when its Samples > 0, follows the measured requests with cold
	// samples (cold.go); they count as measured requests, not as Requests.
	Cold Cold
}

// adaptive reports whether the group samples adaptively, and its batch.
func (g Group) adaptive() (bool, int) {
	if g.Decide == nil || g.MinRequests <= 0 || g.MinRequests >= g.Requests {
		return false, 0
	}
	b := g.Batch
	if b <= 0 {
		b = g.MinRequests
	}
	return true, b
}

// Limits are run-wide caps; zero means none.
type Limits struct {
	MaxRequests     int // requests sent, warmup included
	MaxOutputTokens int // output tokens received, warmup included
	// MaxCost stops the run once the requests received so far cost this
	// much (USD, warmup included), as priced by Cost (group, record).
	MaxCost float64
	Cost    func(group int, rec Record) float64
}

// DefaultFailFast is how many requests in a row failing the same way
// (an authentication or not-found status, a refused connection, a stall,
// a timeout) stop a run.
const DefaultFailFast = 5

// Runner sends groups of requests: a pure pacer plans every request of a
// phase, a fixed pool of workers sends them and one aggregator collects
// their records. Cancel ctx to stop: in-flight streams are aborted and what
// was measured has already gone to Sink. The run's clock is its Prober's:
// it times the open-loop arrivals and the records' send times.
type Runner struct {
	Prober *Prober
	Limits Limits
	Seed   uint64 // seeds the open-loop arrivals and the A/B block orders
	// FailFast is the number of requests in a row (within a group and
	// variant) failing the same way — a 401, 403 or 404, a connection that
	// cannot be made, a stall, a timeout — that stops the run: every
	// further request would fail the same way. 0 means DefaultFailFast;
	// negative disables it.
	FailFast int
	// OnRecord, if set, is called from the aggregator goroutine after each
	// request, measured or warmup (for progress).
	OnRecord func(group int, rec Record, warmup bool)
	// Sink receives each measured record, from the aggregator goroutine, in
	// completion order. It is the run's only output of records.
	Sink func(group int, rec Record)
	// Measuring, if set, is called as a group's measured phase begins (its
	// warmup done) and returns what to call when the phase has ended, every
	// request of it recorded: the window a server's own metrics are
	// scraped in.
	Measuring func(group int) (done func())
	// GroupDone, if set, is called once a group's every measured record
	// went to Sink (from Run's goroutine, before the next group starts).
	GroupDone func(group int)
}

// Result is what a run did (the records went to Runner.Sink).
type Result struct {
	Sent         int // requests sent, warmup included
	OutputTokens int // output tokens received, warmup included
	// Cause is why the run stopped early: vocab.Interrupted, vocab.Capped
	// or vocab.FailedFast; "" when it ran to completion. An interruption
	// wins over a cap or fail-fast that came before it.
	Cause vocab.Stop
	// Cap is the limit that capped the run (Cause vocab.Capped).
	Cap Cap
	// Failure is the request that made the run fail fast (Cause
	// vocab.FailedFast), the last of Streak in a row that failed the same
	// way; Misread when its stream could not be read as configured.
	Failure *Record
	Streak  int
	Misread bool
}

// Cap is a run-wide limit reached: which one, its value and, for the
// cost, what had been spent (warmup included).
type Cap struct {
	Limit        CapKind
	Value, Spent float64
}

// CapKind names a run-wide limit.
type CapKind string

// The run-wide limits (Limits).
const (
	CapRequests     CapKind = "max_requests"
	CapOutputTokens CapKind = "max_output_tokens"
	CapCost         CapKind = "max_cost"
)

// Complete reports whether the run measured everything it planned: not
// interrupted, not capped, not stopped by fail-fast. An incomplete run must
// not be recorded as a baseline or pass a gate.
func (r Result) Complete() bool { return r.Cause == "" }

type budget struct {
	limits Limits
	sent   atomic.Int64
	tokens atomic.Int64
	mu     sync.Mutex
	cost   float64 // under mu
	res    Result  // under mu: why it stopped
}

// take reserves one request, or reports why not.
func (b *budget) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.res.Cause != "" {
		return false
	}
	var reached *Cap
	switch l := b.limits; {
	case l.MaxRequests > 0 && b.sent.Load() >= int64(l.MaxRequests):
		reached = &Cap{Limit: CapRequests, Value: float64(l.MaxRequests)}
	case l.MaxOutputTokens > 0 && b.tokens.Load() >= int64(l.MaxOutputTokens):
		reached = &Cap{Limit: CapOutputTokens, Value: float64(l.MaxOutputTokens)}
	case l.MaxCost > 0 && b.cost >= l.MaxCost:
		reached = &Cap{Limit: CapCost, Value: l.MaxCost, Spent: b.cost}
	}
	if reached != nil {
		b.res.Cause, b.res.Cap = vocab.Capped, *reached
		return false
	}
	b.sent.Add(1)
	return true
}

// spend adds a received request's cost.
func (b *budget) spend(usd float64) {
	b.mu.Lock()
	b.cost += usd
	b.mu.Unlock()
}

// failFast stops the run on rec, the last of streak requests in a row that
// failed the same way (a misread stream stops at its first).
func (b *budget) failFast(rec Record, streak int, misread bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.res.Cause == "" {
		b.res.Cause, b.res.Failure, b.res.Streak, b.res.Misread = vocab.FailedFast, &rec, streak, misread
	}
}

func (b *budget) isStopped() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.res.Cause != ""
}

// Run measures every group in order.
func (r *Runner) Run(ctx context.Context, groups []Group) Result {
	b := &budget{limits: r.Limits}
	for gi, g := range groups {
		if ctx.Err() != nil || b.isStopped() {
			break
		}
		seeds := newSeeds(r.Seed, gi)
		warmSeed, measSeed := seeds.Uint64(), seeds.Uint64()
		gs := newGroupState(r.FailFast)
		r.phase(ctx, gi, g, warmupPlan(g, g.Warmup, warmSeed), true, b, gs)
		done := func() {}
		if r.Measuring != nil {
			done = r.Measuring(gi)
		}
		measured := plan(g, g.Requests, measSeed)
		r.phase(ctx, gi, g, measured, false, b, gs)
		done()
		r.cold(ctx, gi, g, lastBlock(measured), b, gs)
		if r.GroupDone != nil {
			r.GroupDone(gi)
		}
	}
	b.mu.Lock()
	res := b.res
	b.mu.Unlock()
	res.Sent, res.OutputTokens = int(b.sent.Load()), int(b.tokens.Load())
	if ctx.Err() != nil {
		res.Cause = vocab.Interrupted
	}
	return res
}

// newSeeds draws a group's seeds (warmup phase first, then measurement)
// from the run's seed and the group's position.
func newSeeds(seed uint64, group int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(group)))
}

// failFast counts the requests in a row that failed the same way, for the
// failures every further request would repeat: an authentication or
// not-found status (401, 403, 404), a connection that cannot be made, a
// stall or a timeout (a server that accepts and never answers).
type failFast struct {
	limit  int
	same   string // the kind of the streak's failures
	streak int
}

// see records one outcome and reports whether the run must stop.
func (f *failFast) see(rec Record) bool {
	limit := f.limit
	if limit == 0 {
		limit = DefaultFailFast
	}
	if limit < 0 {
		return false
	}
	kind := repeats(rec)
	switch {
	case kind == "":
		f.same, f.streak = "", 0
	case kind == f.same:
		f.streak++
	default:
		f.same, f.streak = kind, 1
	}
	return f.streak >= limit
}

// repeats is the kind of a failure that every further request would
// repeat, "" for others (and for a success).
func repeats(rec Record) string {
	switch {
	case rec.OK:
		return ""
	case rec.Failure == vocab.HTTPStatus && (rec.Status == 401 || rec.Status == 403 || rec.Status == 404):
		return fmt.Sprintf("http %d", rec.Status)
	case rec.Failure == vocab.Connection, rec.Failure == vocab.Stall, rec.Failure == vocab.Timeout:
		return string(rec.Failure)
	}
	return ""
}

// groupState is what a group's two phases share: request numbers and
// fail-fast streaks, both per variant.
type groupState struct {
	// seq numbers requests per variant across warmup and measurement.
	seq map[vocab.Side]*atomic.Int64
	// ff counts fail-fast streaks per variant: a broken head must not
	// hide behind a working base in the same blocks.
	ff map[vocab.Side]*failFast
}

func newGroupState(failFastLimit int) *groupState {
	return &groupState{
		seq: map[vocab.Side]*atomic.Int64{"": {}, vocab.Base: {}, vocab.Head: {}},
		ff:  map[vocab.Side]*failFast{"": {limit: failFastLimit}, vocab.Base: {limit: failFastLimit}, vocab.Head: {limit: failFastLimit}},
	}
}

// phase is one phase (warmup or measurement) of a group in flight: each
// lane's fixed pool of workers takes the lane's planned slots in order
// (the pacer's plan, dispatched as workers become free, or at each slot's
// intended time in open loop), and one aggregator collects the records.
type phase struct {
	r      *Runner
	ctx    context.Context
	gi     int
	g      Group
	warmup bool
	b      *budget
	gs     *groupState
	clk    clock.Clock
	start  time.Time // SentAt and the open-loop arrivals count from here
	// cold marks a round of cold samples (Group.Cold): measured, never
	// looked at, its records Cold.
	cold bool
	// enough is set when the group's decider stopped it (adaptive sampling).
	enough atomic.Bool
	// taken is, in a phase that looks (adaptive sampling), the
	// aggregator's word to the worker whose record it took that it is done
	// with it (the look taken): only then does the worker take its next
	// slot, so that a look that stops the group stops the worker that
	// brought it the record too. Nil in a phase that does not look.
	taken chan struct{}
	// mu guards sent: the requests dispatched per variant, which an A/B
	// group's stop balances.
	mu   sync.Mutex
	sent map[vocab.Side]int
}

// lane is one lane's planned slots and the next one to dispatch.
type lane struct {
	mu    sync.Mutex
	slots []slot
	next  int
}

// phase runs the planned slots of one phase of group gi, each lane on its
// own fixed pool of workers, and returns when every record sent has been
// aggregated (by the one aggregator).
func (r *Runner) phase(ctx context.Context, gi int, g Group, lanes [][]slot, warmup bool, b *budget, gs *groupState) {
	clk := clock.Or(r.Prober.Clock)
	r.run(&phase{r: r, ctx: ctx, gi: gi, g: g, warmup: warmup, b: b, gs: gs, clk: clk, start: clk.Now(), sent: map[vocab.Side]int{}}, lanes)
}

// run sends a phase's planned slots and aggregates their records.
func (r *Runner) run(ph *phase, lanes [][]slot) {
	if len(lanes) == 0 {
		return
	}
	if looks, _ := ph.g.adaptive(); looks && !ph.warmup && !ph.cold {
		ph.taken = make(chan struct{})
	}
	records := make(chan Record)
	var wg sync.WaitGroup
	for _, slots := range lanes {
		l := &lane{slots: slots}
		for range ph.workers(len(slots)) {
			wg.Go(func() { ph.work(l, records) })
		}
	}
	go func() { wg.Wait(); close(records) }()
	ph.aggregate(records)
}

// workers is the size of a lane's pool: the concurrency (closed loop) or
// MaxInFlight (open loop, default 64), at most one per slot.
func (ph *phase) workers(slots int) int {
	n := max(ph.g.Concurrency, 1)
	if ph.g.Rate > 0 || (ph.g.At != nil && !ph.warmup) {
		n = ph.g.MaxInFlight
		if n <= 0 {
			n = 64
		}
	}
	return min(n, slots)
}

// take dispatches the lane's next slot to a free worker; false when the
// lane has none left to send. After an adaptive stop nothing more is sent,
// except, in an A/B group, slots of the variant that has been sent fewer
// times, until both have been sent as often: the variants stay balanced
// without completing every lane's block (a block may then hold more of
// one variant: within it the labels are still exchangeable).
func (ph *phase) take(l *lane) (slot, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.next < len(l.slots) {
		s := l.slots[l.next]
		l.next++
		if ph.admit(s) {
			return s, true
		}
		if ph.g.Head == nil {
			return slot{}, false
		}
	}
	return slot{}, false
}

// admit counts a slot as sent unless the group has stopped (and its
// variant is not behind the other's).
func (ph *phase) admit(s slot) bool {
	ph.mu.Lock()
	defer ph.mu.Unlock()
	if ph.enough.Load() {
		other := vocab.Base
		if s.variant == vocab.Base {
			other = vocab.Head
		}
		if ph.g.Head == nil || ph.sent[s.variant] >= ph.sent[other] {
			return false
		}
	}
	ph.sent[s.variant]++
	return true
}

// release uncounts a slot dispatched but not sent.
func (ph *phase) release(s slot) {
	ph.mu.Lock()
	ph.sent[s.variant]--
	ph.mu.Unlock()
}

// work sends the lane's slots it takes, each at its intended time in open
// loop and once the budget allows it, and passes their records on. A slot
// whose time comes after an adaptive stop is given back.
func (ph *phase) work(l *lane, records chan<- Record) {
	g := ph.g
	for {
		s, ok := ph.take(l)
		if !ok {
			return
		}
		if s.intended != Missing {
			if !ph.clk.Until(ph.ctx, ph.start.Add(s.intended)) {
				return
			}
			if ph.enough.Load() {
				ph.release(s)
				continue
			}
		}
		// Reserve the request when it starts, so the caps see the tokens
		// of every request that finished before it.
		if ph.ctx.Err() != nil || !ph.b.take() {
			return
		}
		req, prepare := g.Request, g.Prepare
		if s.variant == vocab.Head {
			req, prepare = *g.Head, g.HeadPrepare
		}
		if prepare != nil {
			prepare(int(ph.gs.seq[s.variant].Add(1)), &req)
		}
		if item := g.itemOf(s.variant); item != nil && !ph.warmup && !ph.cold {
			item(s.item, &req)
		}
		rec := ph.r.Prober.Do(ph.ctx, req)
		rec.IntendedAt, rec.SentAt = s.intended, rec.Start.Sub(ph.start)
		if !ph.warmup && !ph.cold {
			rec.Item = s.item + 1
		}
		rec.Variant, rec.Block, rec.Cold = s.variant, s.block, ph.cold
		ph.b.tokens.Add(int64(rec.OutputTokens))
		if ph.b.limits.Cost != nil {
			ph.b.spend(ph.b.limits.Cost(ph.gi, rec))
		}
		records <- rec
		if ph.taken != nil {
			<-ph.taken
		}
	}
}

// aggregate hands each record to the caller, takes the adaptive looks and
// stops the run on fail-fast, until the workers are done. It tells the
// worker whose record it took when it is done with it (ph.taken, in a
// phase that looks).
func (ph *phase) aggregate(records <-chan Record) {
	isAdaptive, batch := ph.g.adaptive()
	lk := &looks{on: isAdaptive && !ph.warmup && !ph.cold, batch: batch, next: ph.g.MinRequests, count: map[vocab.Side]int{}}
	for rec := range records {
		ph.hand(rec, lk)
		if ph.taken != nil {
			ph.taken <- struct{}{}
		}
	}
}

// looks is where a group's adaptive looks stand: the next one, in records
// per variant, and the records per variant so far.
type looks struct {
	on          bool
	batch, next int
	count       map[vocab.Side]int
}

// hand gives one record to the caller, then takes the adaptive look it
// completes, if any, and checks fail-fast.
func (ph *phase) hand(rec Record, lk *looks) {
	r, g := ph.r, ph.g
	if ph.ctx.Err() != nil && !rec.OK {
		return // aborted by the interrupt: not a server failure
	}
	if r.OnRecord != nil {
		r.OnRecord(ph.gi, rec, ph.warmup)
	}
	if !ph.warmup && r.Sink != nil {
		r.Sink(ph.gi, rec)
	}
	if lk.on && !ph.enough.Load() {
		lk.count[rec.Variant]++
		have := lk.count[rec.Variant]
		if g.Head != nil {
			have = min(lk.count[vocab.Base], lk.count[vocab.Head])
		}
		if have >= lk.next && lk.next < g.Requests {
			if g.Decide(lk.next) {
				ph.enough.Store(true)
			}
			lk.next += lk.batch
		}
	}
	ph.failFast(rec)
}

// failFast stops the run on a stream that cannot be read as configured
// and on a streak of the same authentication or not-found failure.
func (ph *phase) failFast(rec Record) {
	if rec.misread {
		ph.b.failFast(rec, 1, true)
	}
	if f := ph.gs.ff[rec.Variant]; f.see(rec) {
		ph.b.failFast(rec, f.streak, false)
	}
}

// itemOf is the function that makes a variant's requests from their items.
func (g Group) itemOf(v vocab.Side) func(int, *Request) {
	if v == vocab.Head && g.HeadItem != nil {
		return g.HeadItem
	}
	return g.Item
}

package probe

import (
	"context"
	"time"

	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/vocab"
)

// Cold is a group's cold samples: after its measured requests, Samples
// rounds, each sent once Idle has passed, on the Prober's clock, since the
// previous round (the first: the measured requests) ended, the group
// sending nothing meanwhile. A round is one request, or in an A/B group
// one of each variant sent at once in a block of their own, so that both
// meet the same idle server. Their records are measured, marked Cold, and
// never counted by an adaptive look.
type Cold struct {
	Idle    time.Duration
	Samples int
}

// cold sends group g's cold samples, after the measured phase whose
// highest block was last; a stop of the run (interrupt, cap, fail-fast)
// ends them.
func (r *Runner) cold(ctx context.Context, gi int, g Group, last int, b *budget, gs *groupState) {
	clk := clock.Or(r.Prober.Clock)
	start := clk.Now() // the records' SentAt count from the end of the measured phase
	for k := range g.Cold.Samples {
		if ctx.Err() != nil || b.isStopped() || !clk.Until(ctx, clk.Now().Add(g.Cold.Idle)) {
			return
		}
		lanes := [][]slot{{{intended: Missing}}}
		if g.Head != nil {
			block := last + k + 1
			lanes = [][]slot{{{variant: vocab.Base, block: block, intended: Missing}}, {{variant: vocab.Head, block: block, intended: Missing}}}
		}
		r.run(&phase{r: r, ctx: ctx, gi: gi, g: g, b: b, gs: gs, clk: clk, start: start, cold: true, sent: map[vocab.Side]int{}}, lanes)
	}
}

// lastBlock is the highest A/B block of a phase's plan (0 without blocks).
func lastBlock(lanes [][]slot) int {
	n := 0
	for _, l := range lanes {
		for _, s := range l {
			n = max(n, s.block)
		}
	}
	return n
}

package probe

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Schedule is the open-loop pacer: the intended send times of count
// requests arriving as a Poisson process of rate requests per second, as
// offsets from the start of the phase. The first request is due at once;
// the gaps are exponentially distributed with mean 1/rate. It is a pure
// function: the same (rate, seed, count) always give the same schedule.
//
// The runner sends each request at its intended time when a worker is free,
// and records both the intended and the actual send time, so a pool too
// small for the rate shows as schedule lag (coordinated omission) instead of
// silently lowering the load. It returns nil when rate <= 0 or count <= 0.
func Schedule(rate float64, seed uint64, count int) []time.Duration {
	if rate <= 0 || count <= 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x9ace))
	out := make([]time.Duration, count)
	at := 0.0 // seconds, summed in float64 so rounding does not accumulate
	for i := 1; i < count; i++ {
		at += rng.ExpFloat64() / rate
		out[i] = time.Duration(at * float64(time.Second))
	}
	return out
}

// slot is one request of a phase, planned before anything is sent.
type slot struct {
	variant  vocab.Side
	block    int           // A/B block number from 1; 0 for a single-variant group
	intended time.Duration // open loop: from Schedule; closed loop: Missing
	item     int           // the variant's request number in the group, from 0 (Group.Item)
}

// interleave plans n requests of each variant in blocks of size requests of
// each (the last block holds the remainder of both), every block in its own
// random order drawn from seed. Both variants are in every block, so they
// see the same load at the same moments.
func interleave(n, size int, seed uint64) []slot {
	if n <= 0 {
		return nil
	}
	size = max(size, 1)
	rng := rand.New(rand.NewPCG(seed, 0xab))
	out := make([]slot, 0, 2*n)
	for block, done := 1, 0; done < n; block++ {
		k := min(size, n-done)
		start := len(out)
		for range k {
			out = append(out, slot{variant: vocab.Base, block: block}, slot{variant: vocab.Head, block: block})
		}
		b := out[start:]
		rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		done += k
	}
	return out
}

// plan lays out a phase of n requests (per variant for an A/B group) over
// the group's lanes: which variant and block each is, and when it is due
// in open loop, per lane. Each lane is a copy of the group's load (its
// concurrency, or its rate) and takes an equal share of the requests
// (the first lanes one more when they do not divide evenly); in an A/B
// group each lane interleaves both variants in its own blocks, so that
// both always meet the same load. Lane l's k-th block is block
// (k−1)·lanes + l + 1: blocks are numbered in the order they are due, and
// one lane's plan is the whole group's.
func plan(g Group, n int, seed uint64) [][]slot {
	lanes := max(g.Lanes, 1)
	out := make([][]slot, 0, lanes)
	for l := range lanes {
		k := n / lanes
		if l < n%lanes {
			k++
		}
		if k == 0 {
			continue
		}
		ls := seed // lane 0 keeps the group's seed: one lane plans as before lanes existed
		if l > 0 {
			ls = rand.New(rand.NewPCG(seed, uint64(l))).Uint64()
		}
		var slots []slot
		if g.Head != nil {
			slots = interleave(k, g.BlockSize, ls)
			for i := range slots {
				slots[i].block = (slots[i].block-1)*lanes + l + 1
			}
		} else {
			slots = make([]slot, k)
		}
		sched := Schedule(g.Rate, ls, len(slots))
		seen := map[vocab.Side]int{}
		for i := range slots {
			slots[i].item = seen[slots[i].variant]*lanes + l
			seen[slots[i].variant]++
			slots[i].intended = Missing
			switch {
			case g.At != nil:
				slots[i].intended = g.At[slots[i].item]
			case sched != nil:
				slots[i].intended = sched[i]
			}
		}
		if g.At != nil { // workers take the slots in the order they are due
			slices.SortStableFunc(slots, func(a, b slot) int { return cmp.Compare(a.intended, b.intended) })
		}
		out = append(out, slots)
	}
	return out
}

// warmupPlan lays out a warmup phase of n requests (per variant): one
// lane's plan dealt to the lanes in turn, so that the warmup takes as few
// request times as the lanes allow (warmup requests are not measured:
// their blocks do not matter).
func warmupPlan(g Group, n int, seed uint64) [][]slot {
	lanes := max(g.Lanes, 1)
	one := g
	one.Lanes, one.At = 1, nil // a warmup is not the replay
	all := plan(one, n, seed)
	if len(all) == 0 || lanes == 1 {
		return all
	}
	out := make([][]slot, min(lanes, len(all[0])))
	for i, s := range all[0] {
		out[i%len(out)] = append(out[i%len(out)], s)
	}
	return out
}

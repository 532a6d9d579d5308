package workload

import (
	"cmp"
	"container/heap"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"time"
)

// Draw is a sample of a trace (Sample).
type Draw struct {
	// Entries are those drawn, sorted by At (from the trace's earliest
	// entry), then Line.
	Entries []Entry
	// Strata are the upper bounds of input length (inclusive) of the
	// report's strata, increasing; Stratum indexes them.
	Strata []int
	// Format is the trace's format; Lines the entries read, Sessions the
	// distinct sessions among them, Skipped the records left out (failed
	// requests, spans without token counts).
	Format                   string
	Lines, Sessions, Skipped int
	// Seed is a digest of the trace's entries (their fields, not their
	// order), 16 hex digits: the draw is a function of the entries alone.
	Seed string
}

// Stratum is the stratum (from 1) of an input length: the first whose
// bound is at least input, the last for one above every bound; 0 for a
// draw without strata.
func (d Draw) Stratum(input int) int {
	if len(d.Strata) == 0 {
		return 0
	}
	return min(sort.SearchInts(d.Strata, input)+1, len(d.Strata))
}

// Bounds of a draw.
const (
	// MaxSample is the largest sample drawn.
	MaxSample = 100_000
	// MaxSessions is the most distinct sessions a trace may hold.
	MaxSessions = 2_000_000
)

// buckets are the strata of the draw's allocation: input lengths by
// powers of 2 (bucket k holds 2^(k-1) to 2^k-1 tokens; 0 holds 0).
const buckets = 25 // bits.Len(MaxTokens) + 1

func bucketOf(input int) int { return bits.Len(uint(input)) }

// Sample draws about n requests from a trace, the same for the same
// entries in any order: stratified by input length, each power-of-2
// bucket of input length given a share of n proportional to its requests
// (largest remainders), in one pass with memory bounded by n; sessions
// drawn whole. open opens the trace, twice when the entries drawn carry
// hash_ids or sessions (a second pass collects them). See
// docs/formats.md, "Traces", for how the draw is made.
func Sample(open func() (io.ReadCloser, error), file, format string, n int) (Draw, error) {
	if n < 1 || n > MaxSample {
		return Draw{}, fmt.Errorf("%s: a sample of %d: draw from 1 to %d requests", file, n, MaxSample)
	}
	p := newPass1(file, n)
	name, err := readWith(open, file, format, p.add, func(int) { p.skipped++ })
	if err != nil {
		return Draw{}, err
	}
	if p.lines == 0 {
		return Draw{}, &Error{File: file, Why: fmt.Sprintf("no entries (%d skipped): nothing to draw", p.skipped)}
	}
	singles, sessions := p.choose()
	d := Draw{Format: name, Lines: p.lines, Sessions: len(p.sessions), Skipped: p.skipped, Seed: p.seed()}
	if d.Entries, err = p.collect(open, name, singles, sessions); err != nil {
		return Draw{}, err
	}
	for i := range d.Entries {
		d.Entries[i].At -= p.minAt
	}
	slices.SortFunc(d.Entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Line, b.Line), cmp.Compare(entryKey(a), entryKey(b)))
	})
	d.Strata = reportStrata(d.Entries)
	return d, nil
}

// readWith opens the trace and reads it.
func readWith(open func() (io.ReadCloser, error), file, format string, emit func(Entry) error, skip func(int)) (string, error) {
	rc, err := open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	return read(rc, file, format, emit, skip)
}

// unit is an entry as the first pass keeps it: no hash_ids, no session.
type unit struct {
	key           uint64
	at            time.Duration
	ord, line     int
	input, output int
	hashes        bool
}

// before orders units by key, then arrival, then position.
func before(a, b *unit) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.at != b.at {
		return a.at < b.at
	}
	return a.ord < b.ord
}

// session is a session as the first pass keeps it.
type session struct {
	key      uint64
	first    time.Duration // its earliest turn's arrival
	firstKey uint64        // and key, to choose among turns at once
	input    int           // its earliest turn's input
	turns    int
}

// maxHeap keeps a bucket's n smallest units, the largest on top.
type maxHeap []unit

func (h maxHeap) Len() int           { return len(h) }
func (h maxHeap) Less(i, j int) bool { return before(&h[j], &h[i]) }
func (h maxHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *maxHeap) Push(x any)        { *h = append(*h, x.(unit)) }
func (h *maxHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// pass1 is the first pass: every entry counted, each bucket's n smallest
// entries without a session kept, every session counted.
type pass1 struct {
	file     string
	n        int
	lines    int
	skipped  int
	minAt    time.Duration
	digest   uint64
	heaps    [buckets]maxHeap
	singles  [buckets]int
	sessions map[uint64]*session
}

func newPass1(file string, n int) *pass1 {
	return &pass1{file: file, n: n, sessions: map[uint64]*session{}}
}

func (p *pass1) add(e Entry) error {
	k := entryKey(e)
	p.digest += mix(k)
	if p.lines == 0 || e.At < p.minAt {
		p.minAt = e.At
	}
	ord := p.lines
	p.lines++
	if e.Session != "" {
		return p.addTurn(e, k)
	}
	b := bucketOf(e.Input)
	p.singles[b]++
	u := unit{key: k, at: e.At, ord: ord, line: e.Line, input: e.Input, output: e.Output, hashes: len(e.Hashes) > 0}
	h := &p.heaps[b]
	if h.Len() < p.n {
		heap.Push(h, u)
	} else if before(&u, &(*h)[0]) {
		(*h)[0] = u
		heap.Fix(h, 0)
	}
	return nil
}

func (p *pass1) addTurn(e Entry, k uint64) error {
	sk := sessionKey(e.Session)
	s := p.sessions[sk]
	if s == nil {
		if len(p.sessions) >= MaxSessions {
			return &Error{File: p.file, Line: e.Line, Why: fmt.Sprintf("more than %d sessions: a trace latgate draws from holds at most that", MaxSessions)}
		}
		s = &session{key: mix(sk), first: e.At, firstKey: k, input: e.Input}
		p.sessions[sk] = s
	} else if e.At < s.first || e.At == s.first && k < s.firstKey {
		s.first, s.firstKey, s.input = e.At, k, e.Input
	}
	s.turns++
	return nil
}

// seed is the trace's digest: its entries' keys summed, with their count.
func (p *pass1) seed() string {
	return fmt.Sprintf("%016x", mix(p.digest^mix(uint64(p.lines))))
}

// share gives each bucket its part of n in proportion to its requests
// (sessions' turns capped at n), by largest remainders; all of them when
// n is at least the trace's entries.
func (p *pass1) share(reqs [buckets]int) [buckets]int {
	if p.n >= p.lines {
		return reqs
	}
	total := 0
	for _, r := range reqs {
		total += r
	}
	var alloc [buckets]int
	type rem struct{ b, num int }
	var rems []rem
	left := p.n
	for b, r := range reqs {
		q := p.n * r // ≤ MaxSample × MaxRecords: no overflow
		alloc[b] = q / total
		left -= alloc[b]
		rems = append(rems, rem{b, q % total})
	}
	slices.SortStableFunc(rems, func(x, y rem) int { return cmp.Compare(y.num, x.num) })
	for i := 0; i < left; i++ {
		alloc[rems[i].b]++
	}
	return alloc
}

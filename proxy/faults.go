package proxy

import (
	"fmt"
	"math"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Fault is one fault of a phase: its kind, on a share of the requests the
// proxy sees in the phase.
type Fault struct {
	Kind vocab.FaultKind
	// Share is the fraction of the phase's requests hit, in [0, 1]: the
	// k-th request (from 0) is due a hit iff ⌊(k+1)·Share⌋ > ⌊k·Share⌋,
	// so exactly ⌊n·Share⌋ of the first n are hit (0.25: the 4th, 8th, …).
	Share float64
	// Delay is how late slow_first_token asks the upstream: its whole
	// answer arrives that much later, at its own pace.
	Delay time.Duration
	// After is how many events stall_mid_stream forwards before it holds
	// the stream: SSE events (text/event-stream: ended by a blank line)
	// or, for any other content type, non-empty lines (NDJSON).
	After int
	// Status is http's status (0: 503), RetryAfter its Retry-After header
	// ("": none).
	Status     int
	RetryAfter string
}

// SetFaults starts a phase: its faults and a count of its requests from 0.
// Faults of one phase share the requests: each is due its own ⌊n·Share⌋
// hits among the first n, the shares sum to at most 1, and a request due
// to two faults gets the one more behind (the first listed on a tie) while
// the other hits the next request (one fault lags at most by the number of
// faults − 1). A bad fault is an error and changes nothing.
func (p *Proxy) SetFaults(faults []Fault) error {
	sum := 0.0
	for i, f := range faults {
		if err := checkFault(f); err != nil {
			return fmt.Errorf("upstream %s: fault %d (%s): %w", p.name, i+1, f.Kind, err)
		}
		sum += f.Share
	}
	if sum > 1+1e-9 {
		return fmt.Errorf("upstream %s: the faults' shares sum to %g, more than 1", p.name, sum)
	}
	p.mu.Lock()
	p.plan = plan{faults: append([]Fault(nil), faults...), given: make([]int, len(faults))}
	p.mu.Unlock()
	return nil
}

func checkFault(f Fault) error {
	known := false
	for _, k := range vocab.FaultKinds {
		known = known || k == f.Kind
	}
	switch {
	case !known:
		return fmt.Errorf("unknown kind %q", f.Kind)
	case math.IsNaN(f.Share) || f.Share < 0 || f.Share > 1:
		return fmt.Errorf("share %g: not in [0, 1]", f.Share)
	case f.Delay < 0:
		return fmt.Errorf("delay %v: negative", f.Delay)
	case f.After < 0:
		return fmt.Errorf("after %d: negative", f.After)
	case f.Kind == vocab.HTTPError && f.Status != 0 && (f.Status < 400 || f.Status > 599):
		return fmt.Errorf("status %d: not an error status (400-599)", f.Status)
	case containsAny(f.RetryAfter, "\r\n\x00"):
		return fmt.Errorf("retry_after %q: not a header value", f.RetryAfter)
	}
	return nil
}

func containsAny(s, chars string) bool {
	for _, c := range s {
		for _, d := range chars {
			if c == d {
				return true
			}
		}
	}
	return false
}

// plan is a phase's faults and how many requests each has hit.
type plan struct {
	faults []Fault
	given  []int
	k      int // requests seen in the phase
}

// due is the index of the fault due to hit the next request, -1 for none.
func (pl *plan) due() int {
	best, behind := -1, 0
	for i, f := range pl.faults {
		if d := hits(pl.k+1, f.Share) - pl.given[i]; d > behind {
			best, behind = i, d
		}
	}
	return best
}

// take counts the next request in and returns the fault that hits it.
func (pl *plan) take() (Fault, bool) {
	i := pl.due()
	pl.k++
	if i < 0 {
		return Fault{}, false
	}
	pl.given[i]++
	return pl.faults[i], true
}

// hits is ⌊n·share⌋, the hits due among n requests (a share written in
// decimal, 0.29, is 29 of 100 despite 0.29·100 = 28.999… in binary).
func hits(n int, share float64) int {
	return int(math.Floor(float64(n)*share + 1e-9))
}

// next counts a request in: its fault, if one hits it.
func (p *Proxy) next() (Fault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.plan.take()
}

// refuseNext reports whether the next request is due a refuse fault; if
// so it is counted in (and logged) now, at accept, before it is read.
func (p *Proxy) refuseNext() bool {
	p.mu.Lock()
	i := p.plan.due()
	if i < 0 || p.plan.faults[i].Kind != vocab.Refuse {
		p.mu.Unlock()
		return false
	}
	p.plan.take()
	p.mu.Unlock()
	p.log.add(Event{Arrived: p.clk.Now(), Fault: vocab.Refuse})
	return true
}

package results

import (
	"fmt"
	"slices"

	"github.com/latgate/latgate/vocab"
)

// Fault is a fault a phase injected through an upstream's proxy.
type Fault struct {
	Upstream string          `json:"upstream"`
	Kind     vocab.FaultKind `json:"kind"`
	// Share is the fraction of the upstream's requests it hit (0 to 1).
	Share float64 `json:"share"`
	// DelayMs (slow_first_token), AfterEvents (stall_mid_stream), Status
	// and RetryAfter (http): the fault's parameters; 0 or "" when unused.
	DelayMs     float64 `json:"delay_ms,omitempty"`
	AfterEvents int     `json:"after_events,omitempty"`
	Status      int     `json:"status,omitempty"`
	RetryAfter  string  `json:"retry_after,omitempty"`
	// Hit is how many requests the proxy faulted in the phase.
	Hit int `json:"hit"`
}

// checkPhase refuses a run's phase and faults that no run gives: a phase
// or an upstream that is not a name, a fault kind latgate does not
// inject, a share outside [0, 1], a count or time out of range.
func (r Run) checkPhase() error {
	if r.Phase != "" && !plainText(r.Phase, 64) {
		return fmt.Errorf("phase: over 64 bytes or not printable text")
	}
	if len(r.Faults) > 100 {
		return fmt.Errorf("faults: %d, at most 100", len(r.Faults))
	}
	for i, f := range r.Faults {
		switch {
		case !plainText(f.Upstream, 64) || f.Upstream == "":
			return fmt.Errorf("faults[%d].upstream: empty, over 64 bytes or not printable text", i)
		case !slices.Contains(vocab.FaultKinds, f.Kind):
			return fmt.Errorf("faults[%d].kind is %q: not a kind of fault", i, f.Kind)
		case !(f.Share >= 0 && f.Share <= 1):
			return fmt.Errorf("faults[%d].share is %g: a share is from 0 to 1", i, f.Share)
		case f.Hit < 0 || f.Hit > maxCount || f.AfterEvents < 0 || f.AfterEvents > maxCount || (f.Status != 0 && (f.Status < 100 || f.Status > 599)):
			return fmt.Errorf("faults[%d]: a count or status out of range", i)
		case !(f.DelayMs >= 0 && f.DelayMs <= MaxMs) || !plainText(f.RetryAfter, 64):
			return fmt.Errorf("faults[%d]: delay_ms or retry_after out of range", i)
		}
	}
	return nil
}

// checkUpstream refuses a request's upstream and failover no proxy gives.
func (q *Request) checkUpstream() error {
	if !plainText(q.Upstream, 64) {
		return fmt.Errorf("upstream: over 64 bytes or not printable text")
	}
	if q.FailoverMs != nil && !(*q.FailoverMs >= 0 && *q.FailoverMs <= MaxMs) {
		return fmt.Errorf("failover_ms is %g: a time is from 0 to %g ms", *q.FailoverMs, MaxMs)
	}
	return nil
}

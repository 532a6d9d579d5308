package results

import "github.com/latgate/latgate/vocab"

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

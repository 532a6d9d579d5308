package probe

import (
	"fmt"

	"github.com/latgate/latgate/vocab"
)

// What one model call may hold, whatever its server streams: a request's
// memory and CPU are bounded by these, not by the server (docs/metrics.md,
// "Limits"). A stream beyond one fails the request (event_limit or
// tool_limit) and is read no further.
const (
	// MaxEvents is the most events one call keeps on its timeline (an
	// answer of 65,536 tokens one per event fits; about 140 bytes each).
	MaxEvents = 100_000
	// MaxHeldBytes bounds the answer text and tool-call pieces (ids, names,
	// arguments) one call keeps: a session sends them back with the next
	// step.
	MaxHeldBytes = 8 << 20
	// MaxToolCalls is the most tool calls one step may make (OpenAI
	// accepts at most 128 tools in a request).
	MaxToolCalls = 128
	// MaxMarkedSteps is the most steps one server-driven call may mark:
	// a stream with more is broken or hostile (malformed).
	MaxMarkedSteps = 1000
)

// holding counts what a call's timeline holds, to stop at the limits.
type holding struct {
	events, bytes, steps int
	// calls are the tool calls of the current step, by their position.
	calls map[int]struct{}
}

// add counts e in, and says why the call must stop ("" when it need not).
func (h *holding) add(e event) (string, vocab.Failure) {
	h.events++
	h.bytes += len(e.text)
	if e.step {
		h.steps++
		clear(h.calls)
	}
	for _, c := range e.calls {
		h.bytes += len(c.id) + len(c.name) + len(c.args)
		if h.calls == nil {
			h.calls = map[int]struct{}{}
		}
		h.calls[c.index] = struct{}{}
	}
	switch {
	case h.events > MaxEvents:
		return fmt.Sprintf("the stream sent more than %d events in one call (the most a request holds)", MaxEvents), vocab.EventLimit
	case h.bytes > MaxHeldBytes:
		return fmt.Sprintf("the stream sent more than %d MiB of answer text and tool calls in one call (the most a request holds)", MaxHeldBytes>>20), vocab.EventLimit
	case h.steps > MaxMarkedSteps:
		return fmt.Sprintf("the stream marked more than %d steps in one call, more than an agent runs", MaxMarkedSteps), vocab.Malformed
	case len(h.calls) > MaxToolCalls:
		return fmt.Sprintf("the model made more than %d tool calls in one step (the most a step may make)", MaxToolCalls), vocab.ToolLimit
	}
	return "", ""
}

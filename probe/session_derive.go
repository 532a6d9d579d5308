package probe

import (
	"github.com/latgate/latgate/vocab"

	"fmt"
	"time"

	"github.com/latgate/latgate/internal/redact"
)

// sessionRecord derives a session's record from its calls: the stream
// metrics over the whole session (one timeline of every call's events at
// their time from t0, a step mark where each step begins: inter-token gaps
// and stalls within steps only), the transport of its first call, and the
// steps and session metrics (docs/metrics.md).
func (p *Prober) sessionRecord(calls []sessionCall, end string, maxSteps int, unknown []string, hide *redact.Set) Record {
	rate := p.ReadingRate
	if rate <= 0 {
		rate = 10
	}
	tl, starts := combine(calls)
	tl.stalls = p.watch.since(calls[0].rec.Start)
	rec := derive(tl, rate)
	first, last := calls[0].rec, calls[len(calls)-1].rec
	rec.Status, rec.Start, rec.TTFB, rec.Reused = last.Status, first.Start, first.TTFB, first.Reused
	rec.DNS, rec.Connect, rec.TLS = first.DNS, first.Connect, first.TLS
	s := &SessionRecord{End: end, UnknownTools: unknown, FirstToolCall: Missing, Answer: Missing}
	s.Steps = sessionSteps(calls, tl, starts, hide)
	rec.PromptTokens, rec.CachedTokens, rec.OutputTokens = 0, 0, 0
	for _, st := range s.Steps {
		s.ToolTime += st.ToolTime
		rec.PromptTokens += st.PromptTokens
		rec.CachedTokens += st.CachedTokens
		rec.OutputTokens += st.OutputTokens
	}
	rec.Server = s.Steps[0].Server
	if st := s.Steps[0]; st.FirstToolCall != Missing {
		s.FirstToolCall = st.Start + st.FirstToolCall
	}
	switch {
	case !last.OK:
		s.End, rec.OK = EndError, false
		s.Steps[len(s.Steps)-1].Error = last.Error
		rec.Error, rec.Failure = fmt.Sprintf("step %d: %s", len(s.Steps), last.Error), last.Failure
	case end == EndMaxSteps:
		rec.OK = false
		rec.Error = fmt.Sprintf("max_steps (%d) reached without a final answer: the model called tools at every step", maxSteps)
		if len(calls[len(calls)-1].calls) == 0 {
			rec.Error = fmt.Sprintf("max_steps (%d) reached before the last turn was sent: tool steps used the model calls", maxSteps)
		}
		rec.Failure = vocab.MaxSteps
	case end == EndAnswer:
		if st := s.Steps[len(s.Steps)-1]; st.TTFC != Missing {
			s.Answer = st.Start + st.TTFC
		}
	}
	rec.Session = s
	return rec
}

// combine puts a session's calls on one timeline from t0 and returns the
// starts of its steps: a client-driven call is a step from its send; a
// server-driven one has a step at each of its step marks, which starts
// where the step before it ended (at its last event; the first at the
// call's send): the AI SDK marks a step when its model's first chunk
// comes, not when the model is called, so timed from the mark a step
// would miss its model's wait.
func combine(calls []sessionCall) (timeline, []time.Duration) {
	tl := timeline{session: true}
	var starts []time.Duration
	for _, c := range calls {
		tl.sends = append(tl.sends, c.start)
		marked := stepMarks(c.tl) > 0
		if !marked {
			starts = append(starts, c.start)
		}
		// Where the call's next step starts: its send, then the last
		// event of a step.
		ended, stepped := c.start, false
		for i, e := range c.tl.events {
			e.at += c.start
			if !marked && i == 0 {
				e.step = true // the first event of a call is a step's
			}
			if e.step && marked {
				starts = append(starts, ended)
				stepped = true
			}
			if stepped {
				ended = e.at
			}
			tl.events = append(tl.events, e)
		}
		tl.end, tl.failure, tl.ends, tl.eofEnds, tl.hint = Missing, c.tl.failure, c.tl.ends, c.tl.eofEnds, c.tl.hint
		if c.tl.end != Missing {
			tl.end = c.tl.end + c.start
		}
	}
	return tl, starts
}

// sessionSteps measures each step on the session's timeline: the events
// from its start to the next step's (or the session's end); the names of
// its tools have the secrets of hide hidden.
func sessionSteps(calls []sessionCall, tl timeline, starts []time.Duration, hide *redact.Set) []Step {
	steps := make([]Step, len(starts))
	names := make([]toolNames, len(starts)) // each step's tools, a set
	for i := range names {
		names[i].hide = hide
	}
	si := -1
	for _, e := range tl.events {
		for si+1 < len(starts) && e.at >= starts[si+1] && (e.step || si < 0) {
			si++
			steps[si] = Step{Start: starts[si], TTFT: Missing, TTFC: Missing, FirstToolCall: Missing, ToolCall: Missing, Server: NoServerTiming()}
		}
		if si < 0 {
			continue
		}
		steps[si].see(e, &names[si])
	}
	// Ends, tool time and tokens: a client-driven call is one step with its
	// usage; a server-driven call's steps count their output events.
	ci := 0
	client := make([]bool, len(calls)) // clientStep of each call, once
	for i, c := range calls {
		client[i] = clientStep(c)
	}
	for i := range steps {
		st := &steps[i]
		stepEnd := tl.end
		if i+1 < len(starts) {
			stepEnd = starts[i+1]
		}
		for ci+1 < len(calls) && calls[ci+1].start <= st.Start {
			ci++
		}
		c := calls[ci]
		st.Turn = c.turn
		if client[ci] {
			st.Tools = nil // the assembled calls name them once
			stepEnd = c.start + c.tl.end
			if c.tl.end == Missing {
				stepEnd = Missing
			}
			st.ToolTime = c.tools
			st.OutputTokens, st.PromptTokens, st.CachedTokens = c.rec.OutputTokens, c.rec.PromptTokens, c.rec.CachedTokens
			st.Server = c.rec.Server
			st.ToolCalls = len(c.calls)
			for _, tc := range c.calls {
				st.Tools = append(st.Tools, hide.Clip(tc.Name, MaxToolName))
			}
		}
		st.Total = Missing
		if stepEnd != Missing {
			st.Total = stepEnd - st.Start
		}
	}
	return steps
}

// clientStep reports whether a call is one step of a client-driven loop
// (no step marks of its own).
func clientStep(c sessionCall) bool { return stepMarks(c.tl) == 0 }

// see takes one event of the step into its times and counts (a
// server-driven step counts its output events and tool calls itself).
func (st *Step) see(e event, names *toolNames) {
	at := e.at - st.Start
	if e.output() > 0 && st.TTFT == Missing {
		st.TTFT = at
	}
	if e.content > 0 && st.TTFC == Missing {
		st.TTFC = at
	}
	if (e.tool > 0 || e.toolStart) && st.FirstToolCall == Missing {
		st.FirstToolCall = at
	}
	if e.callsDone > 0 && st.ToolCall == Missing {
		st.ToolCall = at
	}
	if e.output() > 0 {
		st.OutputTokens++ // replaced by the call's usage for a client-driven step
	}
	for _, c := range e.calls {
		if c.name != "" {
			names.add(c.name)
			st.Tools = names.names
		}
	}
	st.ToolCalls += e.callsDone
	if e.toolResult && st.ToolCall != Missing {
		// A server-driven agent ran the tool: from its arguments' end to
		// its result.
		st.ToolTime = max(st.ToolTime, at-st.ToolCall)
	}
}

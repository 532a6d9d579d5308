package probe

import (
	"github.com/latgate/latgate/vocab"

	"fmt"
	"time"
)

// event is one wire event (an SSE event, an NDJSON line, a chunk of text)
// as a decoder classified it, stamped with its arrival time by the reader.
type event struct {
	at time.Duration
	// Characters of generated output the event carries, by kind: the
	// visible answer, reasoning, and tool-call arguments. An event with none
	// (a role-only chunk, a ping, a metadata frame) is not an output event.
	content, reasoning, tool int
	// usage holds the token counts the event reports, if any; a later
	// report replaces an earlier one (decoders merge partial reports).
	usage *usage
	// finish is the reason the answer ended ("stop", "length", …), when
	// the event says so; a stream may still send usage after it.
	finish string
	// done marks the end-of-stream event: nothing more is read after it.
	done bool
	// err is the provider's message of an error event.
	err string

	// text is the visible text the event carries (a session keeps the
	// answer to send it back with the next turn).
	text string
	// calls are the pieces of tool calls the event carries: a call's id and
	// name when first seen, and a piece of its arguments.
	calls []callPart
	// callsDone counts the tool calls whose arguments became complete with
	// this event (a tool can start).
	callsDone int
	// toolStart: a tool call begins with this event, which names the tool
	// (chat's first tool_calls delta, Responses' function_call item,
	// Anthropic's tool_use block, the AI SDK's tool-input-start): the
	// model has decided to call it, maybe before any argument.
	toolStart bool
	// toolResult: a tool's result arrived (a server-driven agent streams
	// the tools it runs).
	toolResult bool
	// step: a new step (model call) of a server-driven agent begins.
	step bool
	// skip: the event is not this request's to time (a Realtime event of
	// an earlier response, or of a type latgate does not know: counted by
	// its decoder, kept out of the timeline).
	skip bool
}

// callPart is a piece of one tool call of an answer: the call's position
// in the answer, its id and name (when the event names them) and a piece of
// its arguments (JSON text).
type callPart struct {
	index          int
	id, name, args string
}

func (e event) output() int { return e.content + e.reasoning + e.tool }

// usage is what a server reports about tokens.
type usage struct {
	prompt, output, cached, reasoning int
}

// timeline is what the reader saw of one response stream, in order. Every
// time is from t0.
type timeline struct {
	events []event
	// end is when the stream ended (EOF or the end-of-stream event);
	// Missing when reading failed before that.
	end time.Duration
	// failure says why reading stopped before the end ("" when it did
	// not): a read error, a stall, a timeout, a malformed or error event;
	// kind is its kind.
	failure string
	kind    vocab.Failure
	// ends says how a proper stream of this API ends, for the message of a
	// truncated one (e.g. "finish_reason or [DONE]").
	ends string
	// eofEnds: EOF is a proper end for this API.
	eofEnds bool
	// hint is the decoder's explanation of a stream without output.
	hint string
	// session: the timeline of a session's steps, whose tool-call
	// arguments are the agent's, not what its user reads.
	session bool
	// sends are when a session's calls were sent, in order (nil: one
	// call, sent at t0).
	sends []time.Duration
	// stalls are when the client's process did not run (buffered_stalls.go).
	stalls []span
}

// derive computes every stream metric of a request from its timeline: a
// pure function of what arrived when (docs/metrics.md). It fills the
// stream fields of a Record (first event, ttft, ttfc, total, itl, tpot,
// max stall, perceived, tokens, ok and error) and leaves the transport
// fields (status, network times, ttfb) to the caller.
func derive(tl timeline, readingRate float64) Record {
	rec := newRecord()
	rec.Total = tl.end
	var (
		outs    []outputEvent
		visible []int     // characters of each output event a reader sees
		last    = Missing // the step's last event after its first output
		end     streamEnd
		step    int
	)
	for i, e := range tl.events {
		if i == 0 {
			rec.FirstEvent = e.at
		}
		if e.step && i > 0 {
			// A session's next step: the tool's time before it and its
			// model's wait for its first output are no stall.
			step++
			last = Missing
		}
		// Stalls are gaps between any two events of a step after its
		// first output.
		if last != Missing && e.at-last > rec.MaxStall {
			rec.MaxStall = e.at - last
		}
		n := e.output()
		if last != Missing || n > 0 {
			last = e.at
		}
		end.see(e)
		if n > 0 {
			if len(outs) == 0 {
				rec.TTFT = e.at
				rec.MaxStall = 0
			}
			if e.content > 0 && rec.TTFC == Missing {
				rec.TTFC = e.at
			}
			outs = append(outs, outputEvent{at: e.at, chars: n, step: step})
			seen := e.content + e.tool
			if tl.session {
				seen = e.content
			}
			visible = append(visible, seen)
		}
	}
	u, fromUsage := tokens(tl)
	rec.OutputTokens, rec.TokensSource = u.output, "events"
	rec.PromptTokens, rec.CachedTokens, rec.ReasoningTokens = u.prompt, u.cached, u.reasoning
	if fromUsage {
		rec.TokensSource = "usage"
	}
	if len(outs) > 0 {
		var span time.Duration // generation time: within steps
		steps := 1
		rec.ITL = make([]time.Duration, 0, len(outs)-1)
		for i := 1; i < len(outs); i++ {
			if outs[i].step != outs[i-1].step {
				steps++ // the gap between steps is a tool's or a turn's
				continue
			}
			rec.ITL = append(rec.ITL, outs[i].at-outs[i-1].at)
			span += outs[i].at - outs[i-1].at
		}
		if rec.OutputTokens > steps {
			rec.TPOT = span / time.Duration(rec.OutputTokens-steps)
		}
		rec.Perceived = perceived(outs, visible, rec.TokensSource == "usage", rec.OutputTokens, rec.ReasoningTokens, readingRate)
	}
	rec.buffered, rec.unsure = arrivedBuffered(tl)
	rec.Error, rec.Failure = end.failure(tl, len(outs))
	rec.OK = rec.Error == ""
	// A text pointer that matched nothing misreads the stream only when
	// nothing else was output either: an answer of reasoning or tool calls
	// alone (cut by max_tokens, or a step of an agent) is a proper one.
	rec.misread = tl.hint != "" && !rec.OK && len(outs) == 0
	return rec
}

// tokens is what a stream used: its latest usage report (each holds the
// call's counts so far), else its output events counted; in a session,
// each step's, added up. fromUsage: every step's output count was
// reported.
func tokens(tl timeline) (u usage, fromUsage bool) {
	var step *usage
	outs := 0
	fromUsage = true
	add := func() {
		if step != nil {
			u.prompt, u.cached, u.reasoning = u.prompt+step.prompt, u.cached+step.cached, u.reasoning+step.reasoning
		}
		if step != nil && step.output > 0 {
			u.output += step.output
		} else {
			u.output += outs
			fromUsage = fromUsage && outs == 0 && step != nil
		}
		step, outs = nil, 0
	}
	for i, e := range tl.events {
		if tl.session && e.step && i > 0 {
			add()
		}
		if e.usage != nil {
			step = e.usage
		}
		if e.output() > 0 {
			outs++
		}
	}
	add()
	return u, fromUsage
}

// streamEnd is what the events said about the end of the answer.
type streamEnd struct {
	finished bool   // an event gave a finish reason
	why      string // the last finish reason
	done     bool   // the end-of-stream event came
}

func (s *streamEnd) see(e event) {
	if e.finish != "" {
		s.finished, s.why = true, e.finish
	}
	s.done = s.done || e.done
}

// failure says why a stream of outputs output events is not a proper
// answer: a read failure, a truncated stream, a stream without output; ""
// when it is one; and its kind.
func (s streamEnd) failure(tl timeline, outputs int) (string, vocab.Failure) {
	switch {
	case tl.failure != "":
		return tl.failure, tl.kind
	case !s.done && !s.finished && !(tl.eofEnds && tl.end != Missing):
		msg := fmt.Sprintf("truncated: stream ended without %s after %d output events", tl.ends, outputs)
		if outputs == 0 && tl.hint != "" {
			msg += ": " + tl.hint
		}
		return msg, vocab.Truncated
	case outputs == 0:
		why := ""
		if s.why != "" {
			why = " (finish_reason " + s.why + ")"
		}
		msg := "no output tokens: the stream finished without any content, reasoning or tool-call delta" + why
		if tl.hint != "" {
			msg += ": " + tl.hint
		}
		return msg, vocab.NoOutput
	}
	return "", ""
}

// perceived runs the reader model over what a reader sees: the visible
// answer and tool-call arguments (in a session, the text alone), never
// hidden reasoning. The reader starts
// at the first visible event, so perceived >= ttfc. Visible tokens are the
// usage count minus the reported reasoning tokens, spread over the visible
// events by their characters; without a reasoning count, each event's share
// of the usage count by characters, less its reasoning characters' share;
// without usage, one token per visible event.
func perceived(outs []outputEvent, visible []int, fromUsage bool, tokens, reasoning int, rate float64) time.Duration {
	var vis []outputEvent
	var share []float64
	all := spreadTokens(outs, 0)
	if fromUsage {
		all = spreadTokens(outs, tokens)
	}
	for i, o := range outs {
		if visible[i] > 0 {
			vis = append(vis, outputEvent{at: o.at, chars: visible[i]})
			share = append(share, all[i]*float64(visible[i])/float64(o.chars))
		}
	}
	switch {
	case len(vis) == 0:
		return Missing
	case fromUsage && reasoning > 0 && tokens > reasoning:
		share = spreadTokens(vis, tokens-reasoning)
	case !fromUsage:
		share = spreadTokens(vis, 0)
	}
	return readerModel(vis, share, rate)
}

package probe

import (
	"github.com/latgate/latgate/vocab"
	"strings"

	"context"
	"fmt"
	"slices"
	"time"

	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/internal/redact"
)

// Session is a request of several dependent model calls, measured as one
// (docs/metrics.md): an agent's tool loop and a conversation's further
// turns.
//
// On an API that returns tool calls to the client (chat, Responses,
// Anthropic, Gemini, Azure) the probe drives the loop: when a step's answer
// holds tool calls it waits the longest of the called tools' Latency (the
// tools run in parallel), appends the assistant's calls and each tool's
// Result in the API's own format, and sends the next step. A tool the
// session does not define answers {"error": "unknown tool"}. On a
// server-driven agent (AISDK, or Custom with stream types) one call
// streams several steps, the tools run on the server; the probe reads them.
// Either way, an answer without tool calls is followed by the next of
// Turns, sent with the conversation so far, and the session ends at the
// answer to the last turn, or fails at MaxSteps model calls without one.
type Session struct {
	// Params are the first step's body: model, messages, tools offered.
	Params   BodyParams
	Tools    map[string]Tool
	MaxSteps int
	Turns    []string
}

// Tool is a scripted tool of a client-driven loop: what it answers and how
// long it takes.
type Tool struct {
	Result  string
	Latency time.Duration
}

// UnknownToolResult is what a tool the session does not define answers.
const UnknownToolResult = `{"error": "unknown tool"}`

// SessionRecord is what a session measured beyond a single call. Times
// are from the session's t0 (the first step's send) unless said otherwise.
type SessionRecord struct {
	Steps []Step
	// FirstToolCall is the first step's first tool-call delta; Answer the
	// first visible token of the final answer; Missing when there is none.
	FirstToolCall, Answer time.Duration
	// ToolTime adds up the tool time of every step.
	ToolTime time.Duration
	// End is how the session ended: "answer", "max_steps" or "error".
	End          string
	UnknownTools []string
}

// Session ends.
const (
	EndAnswer   = "answer"
	EndMaxSteps = "max_steps"
	EndError    = "error"
)

// Step is one model call of a session. Start is from the session's t0;
// the other times from the step's start (its send, or the start event of a
// server-driven step); Missing when not observed.
type Step struct {
	Turn                                       int
	Start                                      time.Duration
	TTFT, TTFC, FirstToolCall, ToolCall, Total time.Duration
	ToolCalls                                  int
	Tools                                      []string
	// ToolTime is the tool time after the step, before the next one.
	ToolTime                                 time.Duration
	OutputTokens, PromptTokens, CachedTokens int
	// Error is why the step failed ("" when it did not).
	Error string
	// Server is what the server reported of its own time on the step's
	// call (a client-driven step is one call); nothing for a step of a
	// server-driven agent, whose call reports the whole stream's.
	Server ServerTiming
}

// sessionCall is one HTTP call of a session: its record and timeline, when
// it was sent (from the session's t0), its turn, and the tool time the
// client waited after it.
type sessionCall struct {
	rec   Record
	tl    timeline
	start time.Duration
	turn  int
	tools time.Duration
	calls []ToolCall
}

// session runs a session: its calls in turn, then one record of them all.
func (p *Prober) session(ctx context.Context, req Request) Record {
	s := req.Session
	conv := slices.Clone(s.Params.Messages)
	var calls []sessionCall
	var t0 time.Time
	hide := p.secretsOf(req)
	unknown := &toolNames{hide: hide}
	turn, steps, end, held := 0, 0, EndError, 0
	for {
		params := s.Params
		params.Messages = conv
		body, err := Body(req.API, params)
		if err != nil {
			rec := newRecord()
			rec.Error, rec.Failure = "building request: "+err.Error(), vocab.Request
			return rec
		}
		one := req
		one.Body, one.Session = body, nil
		rec, tl := p.call(ctx, one)
		if len(calls) == 0 {
			t0 = rec.Start
		}
		c := sessionCall{rec: rec, tl: tl, start: rec.Start.Sub(t0), turn: turn}
		steps++ // model calls latgate made: a server-driven call's own steps are the server's
		held += len(c.tl.events)
		if held > MaxEvents && rec.OK {
			// Each call is bounded; the session, however many steps it
			// may take, is one request and holds what one may.
			c.rec.OK, c.rec.Failure = false, vocab.EventLimit
			c.rec.Error = fmt.Sprintf("the session's streams sent more than %d events (the most a request holds)", MaxEvents)
			rec = c.rec
		}
		if !rec.OK {
			calls = append(calls, c)
			break
		}
		text, toolCalls := answerOf(tl)
		c.calls = toolCalls
		next, stop := "", ""
		switch {
		case clientDriven(req.API) && len(toolCalls) > 0 && steps >= s.MaxSteps:
			stop = EndMaxSteps
		case clientDriven(req.API) && len(toolCalls) > 0:
			conv, c.tools = p.runTools(ctx, s, conv, text, toolCalls, unknown)
		case turn < len(s.Turns) && steps >= s.MaxSteps:
			stop = EndMaxSteps
		case turn < len(s.Turns):
			next = s.Turns[turn]
			conv = append(conv, Message{Role: "assistant", Content: text}, Message{Role: "user", Content: next})
			turn++
		default:
			stop = EndAnswer
		}
		calls = append(calls, c)
		if stop != "" || ctx.Err() != nil {
			end = stop
			break
		}
	}
	return p.sessionRecord(calls, end, s.MaxSteps, unknown.names, hide)
}

// runTools answers a step's tool calls: it waits the longest latency of
// the called tools (they run in parallel) and appends the assistant's
// calls and each tool's result to the conversation. It returns the
// conversation, the time waited and the unknown tools seen so far.
func (p *Prober) runTools(ctx context.Context, s *Session, conv []Message, text string, calls []ToolCall, unknown *toolNames) ([]Message, time.Duration) {
	conv = append(conv, Message{Role: "assistant", Content: text, ToolCalls: calls})
	wait := time.Duration(0)
	for _, c := range calls {
		t, ok := s.Tools[c.Name]
		result := t.Result
		if !ok {
			result = UnknownToolResult
			unknown.add(c.Name)
		}
		wait = max(wait, t.Latency)
		conv = append(conv, Message{Role: "tool", ToolCallID: c.ID, Name: c.Name, Content: result})
	}
	clk := clock.Or(p.Clock)
	start := clk.Now()
	clk.Until(ctx, start.Add(wait))
	return conv, clk.Now().Sub(start)
}

// toolNames is a set of tool names in the order first seen, as a record
// keeps them: at most MaxToolNames, each with the secrets of hide hidden,
// then clipped to MaxToolName bytes (a server names its calls, and a
// results file is no place for megabytes, nor for a key it echoes).
type toolNames struct {
	names []string
	seen  map[string]struct{}
	hide  *redact.Set
}

// The most tool names a record keeps, and the longest.
const (
	MaxToolNames = 32
	MaxToolName  = 100
)

func (t *toolNames) add(name string) {
	if _, ok := t.seen[name]; ok || len(t.names) == MaxToolNames {
		return // kept already as it came: not hidden again
	}
	name = t.hide.Clip(name, MaxToolName)
	if _, ok := t.seen[name]; ok {
		return
	}
	if t.seen == nil {
		t.seen = map[string]struct{}{}
	}
	t.seen[name] = struct{}{}
	t.names = append(t.names, name)
}

// answerOf is a call's visible text and its tool calls, assembled from the
// pieces its events carried (a call without id gets one by its position).
func answerOf(tl timeline) (string, []ToolCall) {
	var text []byte
	var calls []ToolCall
	var args []strings.Builder // each call's arguments, in pieces
	index := map[int]int{}
	for _, e := range tl.events {
		text = append(text, e.text...)
		for _, part := range e.calls {
			i, ok := index[part.index]
			if !ok {
				i = len(calls)
				index[part.index] = i
				calls, args = append(calls, ToolCall{}), append(args, strings.Builder{})
			}
			c := &calls[i]
			if c.ID == "" {
				c.ID = part.id
			}
			if c.Name == "" {
				c.Name = part.name
			}
			args[i].WriteString(part.args)
		}
	}
	for i := range calls {
		calls[i].Arguments = args[i].String()
		if calls[i].ID == "" {
			calls[i].ID = fmt.Sprintf("call_%d", i+1)
		}
	}
	return string(text), calls
}

// stepMarks counts the server-driven steps a call's stream marked.
func stepMarks(tl timeline) int {
	n := 0
	for _, e := range tl.events {
		if e.step {
			n++
		}
	}
	return n
}

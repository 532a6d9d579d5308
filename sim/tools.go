package sim

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// toolCall is one call of a tool the simulator makes.
type toolCall struct {
	index    int // its position among the response's calls
	id, name string
	args     string // its arguments, a JSON object
}

// step is one model call of a response: tool calls, or (none) the answer.
type step struct{ calls []toolCall }

// aiSDKTool is the tool the AI SDK route calls (its request offers none:
// the server holds the tools).
const aiSDKTool = "lookup"

// steps plans the model calls of response number n to q. An API's
// response is one step: tool calls when the request offers tools and its
// conversation has answered fewer tool steps than ToolSteps, else the
// answer. The AI SDK route streams ToolSteps tool steps, then the answer.
// Each step makes ToolCalls calls, cycling through the tools offered.
func (p Profile) steps(q request, n uint64) []step {
	next := 0
	tools := func(names []string) step {
		calls := make([]toolCall, p.toolCalls())
		for i := range calls {
			calls[i] = p.call(n, next, names[next%len(names)])
			next++
		}
		return step{calls: calls}
	}
	switch {
	case q.aiSDK:
		var out []step
		for range p.ToolSteps {
			out = append(out, tools([]string{aiSDKTool}))
		}
		return append(out, step{})
	case len(q.tools) > 0 && q.toolSteps < p.ToolSteps:
		return []step{tools(q.tools)}
	}
	return []step{{}}
}

const argFiller = "the quick brown fox jumps over a lazy dog "

// call is the i-th call of response n, to the tool name: its id is unique
// on the server, its arguments a JSON object of ToolArgs characters.
func (p Profile) call(n uint64, i int, name string) toolCall {
	fill := p.toolArgs() - len(`{"q":""}`)
	text := fmt.Sprintf("%d ", i+1) + strings.Repeat(argFiller, fill/len(argFiller)+1)
	return toolCall{index: i, id: fmt.Sprintf("call_%d_%d", n, i), name: name, args: `{"q":"` + text[:fill] + `"}`}
}

// pieces splits a call's arguments into the deltas that stream them.
func (p Profile) pieces(args string) []string {
	var out []string
	for k := p.toolChunk(); len(args) > k; args = args[k:] {
		out = append(out, args[:k])
	}
	return append(out, args)
}

// stepEvents lists what one step streams, in order: the profile's
// reasoning, then each call's argument pieces (each call in one event when
// whole is set, as Gemini sends them), or the answer's words.
func (p Profile) stepEvents(st step, words []string, whole bool) []outputEvent {
	if len(st.calls) == 0 {
		return outputs(p.Quirks, words)
	}
	evs := outputs(p.Quirks, nil)
	for i := range st.calls {
		c := &st.calls[i]
		pieces := p.pieces(c.args)
		if whole {
			pieces = []string{c.args}
		}
		for j, piece := range pieces {
			evs = append(evs, outputEvent{kind: kindTool, text: piece, call: c, first: j == 0, last: j == len(pieces)-1, output: true})
		}
	}
	return evs
}

// timeline times the events of a response's steps from the request's
// arrival: a step's first output at its start plus a TTFT (the first
// step's start is the arrival), each next output one ITL later. Between
// steps (the AI SDK route) the server runs the tools: each call's output
// comes ToolLatency after its input is complete, and the next step starts
// with the last of them.
func (pl *plan) timeline(p Profile, steps []step, whole bool) []outputEvent {
	var all []outputEvent
	var start time.Duration
	for k, st := range steps {
		evs := p.stepEvents(st, pl.words, whole)
		ttft := pl.ttft
		if k > 0 {
			ttft = pl.nextTTFT()
		}
		gaps := pl.drawGaps(len(evs))
		end, at := start, start+ttft
		inputDone := map[int]time.Duration{}
		for i := range evs {
			if i > 0 {
				at += gaps[i]
			}
			evs[i].at, end = at, at
			if evs[i].last {
				inputDone[evs[i].call.index] = at
			}
		}
		all = append(all, evs...)
		if k == len(steps)-1 {
			break
		}
		for i := range st.calls {
			c := &st.calls[i]
			done := inputDone[c.index] + p.ToolLatency
			all = append(all, outputEvent{kind: kindToolResult, call: c, at: done})
			end = max(end, done)
		}
		all = append(all, outputEvent{kind: kindStep, at: end})
		start = end
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at < all[j].at })
	return all
}

// outcome is the finish reason and the output tokens of a response whose
// last step is last: a tool step's tokens are its argument deltas (Gemini's
// whole calls count as many), plus the reasoning.
func (p Profile) outcome(q request, pl plan, last step) (finish string, output int) {
	output = p.Quirks.ReasoningTokens
	if len(last.calls) > 0 {
		for _, c := range last.calls {
			output += len(p.pieces(c.args))
		}
		return "tool_calls", output
	}
	finish = "stop"
	if len(pl.words) > 0 && len(pl.words) == q.maxTokens {
		finish = "length"
	}
	if p.Quirks.ToolCall {
		finish = "tool_calls"
	}
	return finish, output + len(pl.words)
}

// prefixCache remembers the starts of recent conversations by hash, a
// bounded number of them (the oldest forgotten first).
type prefixCache struct {
	mu   sync.Mutex
	seen map[uint64]bool
	ring []uint64
	next int
}

const prefixCacheSize = 1 << 14

// hit is the prompt tokens of the longest of a conversation's prefixes seen
// before (0: none); it remembers them all.
func (c *prefixCache) hit(prefixes []prefix) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	cached := 0
	for i := len(prefixes) - 1; i >= 0; i-- {
		if c.seen[prefixes[i].hash] {
			cached = prefixes[i].tokens
			break
		}
	}
	for _, pr := range prefixes {
		c.remember(pr.hash)
	}
	return cached
}

func (c *prefixCache) remember(h uint64) {
	if c.seen == nil {
		c.seen = map[uint64]bool{}
	}
	if c.seen[h] {
		return
	}
	if len(c.ring) < prefixCacheSize {
		c.ring = append(c.ring, h)
	} else {
		delete(c.seen, c.ring[c.next])
		c.ring[c.next] = h
		c.next = (c.next + 1) % prefixCacheSize
	}
	c.seen[h] = true
}

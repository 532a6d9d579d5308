package probe

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

const ms = time.Millisecond

// sameEvent compares events, usage by value.
func sameEvent(a, b event) bool {
	if (a.usage == nil) != (b.usage == nil) || a.usage != nil && *a.usage != *b.usage {
		return false
	}
	a.usage, b.usage = nil, nil
	return reflect.DeepEqual(a, b)
}

// out builds an output event.
func out(at time.Duration, content, reasoning int) event {
	return event{at: at, content: content, reasoning: reasoning}
}

func TestDerive(t *testing.T) {
	t.Parallel()
	u6 := &usage{prompt: 31, output: 6, cached: 4, reasoning: 2}
	// The worked timeline of docs/metrics.md: role chunk, two reasoning
	// events, four content events with a stall, usage, [DONE].
	worked := timeline{end: 1412 * ms, ends: chatWire.ends, events: []event{
		{at: 121 * ms},
		out(400*ms, 0, 3), out(420*ms, 0, 3),
		out(700*ms, 3, 0), out(710*ms, 3, 0), out(1400*ms, 3, 0),
		{at: 1410 * ms, content: 3, finish: "length"},
		{at: 1411 * ms, usage: u6},
		{at: 1412 * ms, done: true},
	}}
	type want struct {
		ok                                       bool
		err                                      string
		first, ttft, ttfc, total, tpot, stall, p time.Duration
		itl                                      []time.Duration
		tokens                                   int
		source                                   string
		prompt, cached, reasoning                int
	}
	tests := []struct {
		name string
		tl   timeline
		want want
	}{
		// Perceived: the reader starts at the first visible token (700) and
		// reads the 4 visible tokens (6 − 2 reasoning), waiting 500ms for
		// the one at 1400: 700 + 500.
		{name: "worked timeline", tl: worked, want: want{ok: true,
			first: 121 * ms, ttft: 400 * ms, ttfc: 700 * ms, total: 1412 * ms, tpot: 202 * ms, stall: 690 * ms, p: 1200 * ms,
			itl: []time.Duration{20 * ms, 280 * ms, 10 * ms, 690 * ms, 10 * ms}, tokens: 6, source: "usage", prompt: 31, cached: 4, reasoning: 2}},
		{name: "hidden reasoning is not read, even without a reasoning count", tl: timeline{end: 1500 * ms, events: []event{
			out(100*ms, 0, 6), out(1000*ms, 3, 0), out(1010*ms, 3, 0), {at: 1020 * ms, finish: "stop", usage: &usage{output: 4}}, {at: 1500 * ms, done: true},
		}}, want: want{ok: true, first: 100 * ms, ttft: 100 * ms, ttfc: 1000 * ms, total: 1500 * ms, tpot: 910 * ms / 3, stall: 900 * ms,
			p: 1000 * ms, itl: []time.Duration{900 * ms, 10 * ms}, tokens: 4, source: "usage"}},
		{name: "reasoning only: nothing to read", tl: timeline{end: 300 * ms, events: []event{
			out(100*ms, 0, 6), out(200*ms, 0, 3), {at: 300 * ms, finish: "length"},
		}}, want: want{ok: true, first: 100 * ms, ttft: 100 * ms, ttfc: Missing, total: 300 * ms, tpot: 100 * ms, stall: 100 * ms,
			p: Missing, itl: []time.Duration{100 * ms}, tokens: 2, source: "events"}},
		{name: "no usage counts output events", tl: timeline{end: 300 * ms, events: []event{
			out(100*ms, 2, 0), out(150*ms, 2, 0), {at: 200 * ms, finish: "stop"},
		}}, want: want{ok: true, first: 100 * ms, ttft: 100 * ms, ttfc: 100 * ms, total: 300 * ms, tpot: 50 * ms, stall: 50 * ms,
			p: 100 * ms, itl: []time.Duration{50 * ms}, tokens: 2, source: "events"}},
		{name: "usage without output count keeps counted events", tl: timeline{end: 200 * ms, events: []event{
			out(100*ms, 2, 0), {at: 150 * ms, finish: "stop", usage: &usage{prompt: 9}}, {at: 200 * ms, done: true},
		}}, want: want{ok: true, first: 100 * ms, ttft: 100 * ms, ttfc: 100 * ms, total: 200 * ms, tpot: Missing, stall: 50 * ms,
			p: 100 * ms, itl: []time.Duration{}, tokens: 1, source: "events", prompt: 9}},
		{name: "tool calls only: no ttfc", tl: timeline{end: 50 * ms, events: []event{
			{at: 10 * ms, tool: 5}, {at: 20 * ms, tool: 5, finish: "tool_calls"},
		}}, want: want{ok: true, first: 10 * ms, ttft: 10 * ms, ttfc: Missing, total: 50 * ms, tpot: 10 * ms, stall: 10 * ms,
			p: 10 * ms, itl: []time.Duration{10 * ms}, tokens: 2, source: "events"}},
		{name: "EOF without an end is truncated", tl: timeline{end: 90 * ms, ends: "finish_reason or [DONE]", events: []event{
			out(10*ms, 1, 0), out(20*ms, 1, 0),
		}}, want: want{err: "truncated: stream ended without finish_reason or [DONE] after 2 output events",
			first: 10 * ms, ttft: 10 * ms, ttfc: 10 * ms, total: 90 * ms, tpot: 10 * ms, stall: 10 * ms, p: 10 * ms,
			itl: []time.Duration{10 * ms}, tokens: 2, source: "events"}},
		{name: "finished with no output", tl: timeline{end: 40 * ms, events: []event{
			{at: 10 * ms}, {at: 20 * ms, finish: "content_filter"}, {at: 40 * ms, done: true},
		}}, want: want{err: "no output tokens: the stream finished without any content, reasoning or tool-call delta (finish_reason content_filter)",
			first: 10 * ms, ttft: Missing, ttfc: Missing, total: 40 * ms, tpot: Missing, stall: Missing, p: Missing, tokens: 0, source: "events"}},
		{name: "a failure wins and keeps what arrived", tl: timeline{end: Missing, failure: "stalled: no data", events: []event{
			out(10*ms, 1, 0), {at: 500 * ms},
		}}, want: want{err: "stalled: no data", first: 10 * ms, ttft: 10 * ms, ttfc: 10 * ms, total: Missing, tpot: Missing,
			stall: 490 * ms, p: 10 * ms, itl: []time.Duration{}, tokens: 1, source: "events"}},
		{name: "empty stream", tl: timeline{end: 5 * ms, ends: "[DONE]"}, want: want{err: "truncated: stream ended without [DONE] after 0 output events",
			first: Missing, ttft: Missing, ttfc: Missing, total: 5 * ms, tpot: Missing, stall: Missing, p: Missing, source: "events"}},
		// A session's step 2 begins with a role chunk and waits for its
		// model: that wait is the step's TTFT, not a stall (stalls are
		// gaps within a step after its first output).
		{name: "a later step's wait is no stall", tl: timeline{session: true, end: 630 * ms, events: []event{
			{at: 0, step: true}, {at: 100 * ms, tool: 5}, {at: 110 * ms, tool: 5, finish: "tool_calls"},
			{at: 400 * ms, step: true}, out(600*ms, 3, 0), out(610*ms, 3, 0), {at: 620 * ms, finish: "stop"}, {at: 630 * ms, done: true},
		}}, want: want{ok: true, first: 0, ttft: 100 * ms, ttfc: 600 * ms, total: 630 * ms, tpot: 10 * ms, stall: 10 * ms,
			p: 600 * ms, itl: []time.Duration{10 * ms, 10 * ms}, tokens: 4, source: "events"}},
		{name: "gaps before the first output are not stalls", tl: timeline{end: 2000 * ms, events: []event{
			{at: 1 * ms}, {at: 900 * ms}, out(1000*ms, 1, 0), {at: 1001 * ms, done: true},
		}}, want: want{ok: true, first: 1 * ms, ttft: 1000 * ms, ttfc: 1000 * ms, total: 2000 * ms, tpot: Missing, stall: 1 * ms,
			p: 1000 * ms, itl: []time.Duration{}, tokens: 1, source: "events"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := derive(tt.tl, 10)
			w := tt.want
			if r.OK != w.ok || r.Error != w.err {
				t.Errorf("ok %v error %q, want %v %q", r.OK, r.Error, w.ok, w.err)
			}
			for _, c := range []struct {
				name      string
				got, want time.Duration
			}{{"first_event", r.FirstEvent, w.first}, {"ttft", r.TTFT, w.ttft}, {"ttfc", r.TTFC, w.ttfc}, {"total", r.Total, w.total},
				{"tpot", r.TPOT, w.tpot}, {"max_stall", r.MaxStall, w.stall}, {"perceived", r.Perceived, w.p}} {
				if c.got != c.want {
					t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
				}
			}
			if fmt.Sprint(r.ITL) != fmt.Sprint(w.itl) {
				t.Errorf("itl = %v, want %v", r.ITL, w.itl)
			}
			if r.OutputTokens != w.tokens || r.TokensSource != w.source || r.PromptTokens != w.prompt || r.CachedTokens != w.cached || r.ReasoningTokens != w.reasoning {
				t.Errorf("tokens %d from %q, prompt %d cached %d reasoning %d; want %d from %q, %d %d %d",
					r.OutputTokens, r.TokensSource, r.PromptTokens, r.CachedTokens, r.ReasoningTokens, w.tokens, w.source, w.prompt, w.cached, w.reasoning)
			}
		})
	}
}

func TestChatDecoder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   frame
		want event
		bad  bool
	}{
		{"role chunk", frame{Data: []byte(`{"choices":[{"index":0,"delta":{"role":"assistant"}}]}`)}, event{}, false},
		{"content", frame{Data: []byte(`{"choices":[{"delta":{"content":"Hello"}}]}`)}, event{content: 5, text: "Hello"}, false},
		{"reasoning_content", frame{Data: []byte(`{"choices":[{"delta":{"reasoning_content":"hmm"}}]}`)}, event{reasoning: 3}, false},
		{"reasoning", frame{Data: []byte(`{"choices":[{"delta":{"reasoning":"think"}}]}`)}, event{reasoning: 5}, false},
		{"tool-call arguments", frame{Data: []byte(`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\""}}]}}]}`)}, event{tool: 4, calls: []callPart{{index: 0, args: `{"a"`}}}, false},
		{"function-call arguments", frame{Data: []byte(`{"choices":[{"delta":{"function_call":{"arguments":"xy"}}}]}`)}, event{tool: 2, calls: []callPart{{args: "xy"}}}, false},
		{"finish reason", frame{Data: []byte(`{"choices":[{"delta":{},"finish_reason":"length"}]}`)}, event{finish: "length"}, false},
		{"azure empty choices", frame{Data: []byte(`{"choices":[],"prompt_filter_results":[{"prompt_index":0}]}`)}, event{}, false},
		{"usage", frame{Data: []byte(`{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":3},"completion_tokens_details":{"reasoning_tokens":2}}}`)},
			event{usage: &usage{prompt: 10, output: 7, cached: 3, reasoning: 2}}, false},
		{"done", frame{Data: []byte(" [DONE] ")}, event{done: true}, false},
		{"empty data", frame{Data: nil}, event{}, false},
		{"error object", frame{Data: []byte(`{"error":{"message":"overloaded","type":"server_error"}}`)}, event{err: "overloaded [server_error]"}, false},
		{"event: error", frame{Name: "error", Data: []byte(`{"message":"bad thing"}`)}, event{err: "bad thing"}, false},
		{"malformed", frame{Data: []byte(`{"choices":[`)}, event{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := (&chatDecoder{open: -1}).decode(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want error %v", err, tt.bad)
			}
			if !sameEvent(got, tt.want) {
				t.Errorf("got %+v (usage %+v), want %+v (usage %+v)", got, got.usage, tt.want, tt.want.usage)
			}
		})
	}
}

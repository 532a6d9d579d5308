package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// agentServer is a chat-completions server scripted for a tool loop: while
// the conversation holds fewer than toolSteps tool results it answers with
// a call of tool (first piece 100ms after the request, then one every
// 10ms, finish_reason tool_calls after two more), then with a text answer
// (80ms, then 4 more pieces 10ms apart). It keeps every request body.
type agentServer struct {
	toolSteps int
	tool      string
	failAt    int // the request answered 429 (from 1; 0: none)
	mu        sync.Mutex
	bodies    []map[string]any
}

func (a *agentServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	a.mu.Lock()
	a.bodies = append(a.bodies, body)
	n := len(a.bodies)
	a.mu.Unlock()
	if n == a.failAt {
		http.Error(w, `{"error":{"message":"Rate limit reached"}}`, http.StatusTooManyRequests)
		return
	}
	results := 0
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		if m.(map[string]any)["role"] == "tool" {
			results++
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	f := w.(http.Flusher)
	send := func(d time.Duration, s string) {
		time.Sleep(d)
		fmt.Fprintf(w, "data: %s\n\n", s)
		f.Flush()
	}
	if results < a.toolSteps {
		send(100*ms, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_%d","type":"function","function":{"name":%q,"arguments":"{\"id\""}}]}}]}`, n, a.tool))
		send(10*ms, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\"42\""}}]}}]}`)
		send(10*ms, `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"}"}}]}}]}`)
		send(10*ms, `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":20,"completion_tokens":3,"prompt_tokens_details":{"cached_tokens":16}}}`)
	} else {
		send(80*ms, `{"choices":[{"index":0,"delta":{"content":"It "}}]}`)
		for _, w := range []string{"has ", "shipped", " today", "."} {
			send(10*ms, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":%q}}]}`, w))
		}
		send(0, `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":30,"completion_tokens":5}}`)
	}
	send(0, "[DONE]")
}

func orderSession(maxSteps int, turns ...string) *Session {
	return &Session{
		Params: BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "Where is order 42?"}},
			Tools: []ToolSpec{{Name: "lookup_order", Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`)}}},
		Tools:    map[string]Tool{"lookup_order": {Result: `{"status": "shipped"}`, Latency: 150 * ms}},
		MaxSteps: maxSteps, Turns: turns,
	}
}

// TestClientDrivenToolLoop: two tool steps then the answer, on virtual
// time: every step's times from its own send, the session's from the
// first, the tool time the probe waited, and the conversation it sent.
func TestClientDrivenToolLoop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := &agentServer{toolSteps: 2, tool: "lookup_order"}
		srv := clocktest.NewServer(t, a)
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: Chat, URL: srv.URL + "/v1/chat/completions", Session: orderSession(5)})
		if !rec.OK || rec.Session == nil {
			t.Fatalf("session failed: %s", rec.Error)
		}
		s := rec.Session
		exactly(t, "first tool call", s.FirstToolCall, 100*ms)
		exactly(t, "tool time", s.ToolTime, 300*ms)
		exactly(t, "answer", s.Answer, 2*(130+150)*ms+80*ms)
		exactly(t, "session", rec.Total, 2*(130+150)*ms+120*ms)
		exactly(t, "ttft (the first output of the session)", rec.TTFT, 100*ms)
		exactly(t, "ttfc (the first visible token)", rec.TTFC, 640*ms)
		exactly(t, "perceived (the reader reads the answer's text)", rec.Perceived, 640*ms)
		if len(s.Steps) != 3 || s.End != EndAnswer {
			t.Fatalf("%d steps ending %q, want 3 ending with the answer", len(s.Steps), s.End)
		}
		for i, st := range s.Steps[:2] {
			exactly(t, fmt.Sprintf("step %d start", i+1), st.Start, time.Duration(i)*280*ms)
			exactly(t, fmt.Sprintf("step %d ttft", i+1), st.TTFT, 100*ms)
			exactly(t, fmt.Sprintf("step %d tool call", i+1), st.ToolCall, 130*ms)
			exactly(t, fmt.Sprintf("step %d total", i+1), st.Total, 130*ms)
			exactly(t, fmt.Sprintf("step %d tool time", i+1), st.ToolTime, 150*ms)
			if st.ToolCalls != 1 || len(st.Tools) != 1 || st.Tools[0] != "lookup_order" || st.CachedTokens != 16 || st.OutputTokens != 3 {
				t.Errorf("step %d: %d calls of %v, cached %d, output %d", i+1, st.ToolCalls, st.Tools, st.CachedTokens, st.OutputTokens)
			}
		}
		last := s.Steps[2]
		exactly(t, "answer step ttft", last.TTFT, 80*ms)
		exactly(t, "answer step total", last.Total, 120*ms)
		if last.FirstToolCall != Missing || last.ToolCalls != 0 || rec.OutputTokens != 3+3+5 {
			t.Errorf("answer step: tool call %v, %d calls; session output %d tokens", last.FirstToolCall, last.ToolCalls, rec.OutputTokens)
		}
		// Inter-token gaps within steps only: never the tool's 150ms.
		for _, g := range rec.ITL {
			if g != 10*ms {
				t.Errorf("inter-token gap %v: the gaps between steps are no tokens'", g)
			}
		}
		// The third request carries both calls and their results.
		msgs := a.bodies[2]["messages"].([]any)
		if len(msgs) != 5 {
			t.Fatalf("third request: %d messages, want user, 2 × (assistant call, tool result)", len(msgs))
		}
		call := msgs[1].(map[string]any)["tool_calls"].([]any)[0].(map[string]any)
		result := msgs[2].(map[string]any)
		if call["id"] != "call_1" || call["function"].(map[string]any)["arguments"] != `{"id":"42"}` || result["tool_call_id"] != "call_1" || result["content"] != `{"status": "shipped"}` {
			t.Errorf("the loop sent %v and %v", call, result)
		}
		if a.bodies[0]["tools"] == nil {
			t.Error("the tools were not offered")
		}
	})
}

// TestSessionOutcomes: a model that calls tools at every step is cut by
// max_steps (a failure that says so); an unknown tool is answered and
// recorded; a further turn is sent with the answer so far.
func TestSessionOutcomes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		loop := clocktest.NewServer(t, &agentServer{toolSteps: 100, tool: "lookup_order"})
		rec := (&Prober{Client: loop.Client()}).Do(context.Background(), Request{API: Chat, URL: loop.URL, Session: orderSession(3)})
		if rec.OK || rec.Session.End != EndMaxSteps || len(rec.Session.Steps) != 3 || !strings.Contains(rec.Error, "max_steps (3) reached without a final answer") {
			t.Errorf("cut: ok %v, end %q, %d steps, error %q", rec.OK, rec.Session.End, len(rec.Session.Steps), rec.Error)
		}
		a := &agentServer{toolSteps: 1, tool: "cancel_order"}
		unknown := clocktest.NewServer(t, a)
		rec = (&Prober{Client: unknown.Client()}).Do(context.Background(), Request{API: Chat, URL: unknown.URL, Session: orderSession(5)})
		sent := a.bodies[1]["messages"].([]any)[2].(map[string]any)["content"]
		if !rec.OK || len(rec.Session.UnknownTools) != 1 || rec.Session.UnknownTools[0] != "cancel_order" || sent != UnknownToolResult {
			t.Errorf("unknown tool: ok %v (%s), unknown %v, answered %v", rec.OK, rec.Error, rec.Session.UnknownTools, sent)
		}
		exactly(t, "unknown tool's latency", rec.Session.ToolTime, 0)
		failing := clocktest.NewServer(t, &agentServer{toolSteps: 1, tool: "lookup_order", failAt: 2})
		rec = (&Prober{Client: failing.Client()}).Do(context.Background(), Request{API: Chat, URL: failing.URL, Session: orderSession(5)})
		if st := rec.Session.Steps; rec.OK || rec.Session.End != EndError || len(st) != 2 || !strings.HasPrefix(rec.Error, "step 2: HTTP 429") ||
			st[0].Error != "" || !strings.HasPrefix(st[1].Error, "HTTP 429") || rec.Session.Answer != Missing {
			t.Errorf("a failed step: ok %v, end %q, error %q, steps %+v", rec.OK, rec.Session.End, rec.Error, st)
		}
		c := &agentServer{toolSteps: 0}
		chat := clocktest.NewServer(t, c)
		rec = (&Prober{Client: chat.Client()}).Do(context.Background(), Request{API: Chat, URL: chat.URL, Session: orderSession(5, "And when will it arrive?")})
		if !rec.OK || len(rec.Session.Steps) != 2 || rec.Session.Steps[1].Turn != 1 {
			t.Fatalf("turns: ok %v (%s), %+v", rec.OK, rec.Error, rec.Session)
		}
		msgs := c.bodies[1]["messages"].([]any)
		if len(msgs) != 3 || msgs[1].(map[string]any)["content"] != "It has shipped today." || msgs[2].(map[string]any)["content"] != "And when will it arrive?" {
			t.Errorf("the second turn sent %v", msgs)
		}
		exactly(t, "second turn's ttft", rec.Session.Steps[1].TTFT, 80*ms)
		exactly(t, "answer to the last turn", rec.Session.Answer, 120*ms+80*ms)
	})
}

// aiSDKAgent streams a server-driven agent in the AI SDK's UI message
// stream: a tool step (input from 100ms, available at 130ms), the tool
// (150ms on the server), then the answer step.
func aiSDKAgent(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Vercel-Ai-Ui-Message-Stream", "v1")
	f := w.(http.Flusher)
	send := func(d time.Duration, s string) {
		time.Sleep(d)
		fmt.Fprintf(w, "data: %s\n\n", s)
		f.Flush()
	}
	send(0, `{"type":"start","messageId":"m1"}`)
	send(0, `{"type":"start-step"}`)
	send(100*ms, `{"type":"tool-input-start","toolCallId":"c1","toolName":"lookup_order"}`)
	send(10*ms, `{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"id\":"}`)
	send(10*ms, `{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"\"42\"}"}`)
	send(10*ms, `{"type":"tool-input-available","toolCallId":"c1","toolName":"lookup_order","input":{"id":"42"}}`)
	send(150*ms, `{"type":"tool-output-available","toolCallId":"c1","output":{"status":"shipped"}}`)
	send(0, `{"type":"finish-step"}`)
	send(0, `{"type":"start-step"}`)
	send(0, `{"type":"text-start","id":"t1"}`)
	send(60*ms, `{"type":"text-delta","id":"t1","delta":"Shipped"}`)
	send(20*ms, `{"type":"text-delta","id":"t1","delta":" today."}`)
	send(0, `{"type":"text-end","id":"t1"}`)
	send(0, `{"type":"finish-step"}`)
	send(0, `{"type":"finish"}`)
	send(0, "[DONE]")
}

// TestServerDrivenAgent: one AI SDK stream holding two steps: the tool
// call at 100ms is seen (the first text comes after the tool), the
// server's tool time measured, the answer timed from the session's send.
func TestServerDrivenAgent(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(aiSDKAgent))
		s := &Session{Params: BodyParams{Messages: []Message{{Role: "user", Content: "Where is order 42?"}}}, MaxSteps: 5}
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: AISDK, URL: srv.URL + "/api/chat", Session: s})
		if !rec.OK || len(rec.Session.Steps) != 2 {
			t.Fatalf("ok %v (%s), %+v", rec.OK, rec.Error, rec.Session)
		}
		exactly(t, "first tool call", rec.Session.FirstToolCall, 100*ms)
		exactly(t, "tool time", rec.Session.ToolTime, 150*ms)
		exactly(t, "answer", rec.Session.Answer, 340*ms)
		exactly(t, "ttfc", rec.TTFC, 340*ms)
		exactly(t, "session", rec.Total, 360*ms)
		st := rec.Session.Steps
		exactly(t, "step 1 tool call", st[0].ToolCall, 130*ms)
		exactly(t, "step 2 start", st[1].Start, 280*ms)
		exactly(t, "step 2 ttft", st[1].TTFT, 60*ms)
		if st[0].ToolCalls != 1 || len(st[0].Tools) != 1 || st[0].Tools[0] != "lookup_order" {
			t.Errorf("step 1: %d calls of %v", st[0].ToolCalls, st[0].Tools)
		}
		for _, g := range rec.ITL {
			if g > 20*ms {
				t.Errorf("inter-token gap %v spans the tool", g)
			}
		}
	})
}

// TestWorkedSessionTimeline checks the numbers of the worked timeline in
// docs/metrics.md ("Sessions"): one tool step, a 150ms tool, the answer.
func TestWorkedSessionTimeline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &agentServer{toolSteps: 1, tool: "lookup_order"})
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: Chat, URL: srv.URL, Session: orderSession(5)})
		if !rec.OK || len(rec.Session.Steps) != 2 {
			t.Fatalf("ok %v (%s), %+v", rec.OK, rec.Error, rec.Session)
		}
		s, st := rec.Session, rec.Session.Steps
		for _, c := range []struct {
			name      string
			got, want time.Duration
		}{
			{"ttft_ms", rec.TTFT, 100 * ms}, {"ttfc_ms", rec.TTFC, 360 * ms}, {"total_ms = session_ms", rec.Total, 400 * ms},
			{"first_tool_call_ms", s.FirstToolCall, 100 * ms}, {"answer_ms", s.Answer, 360 * ms}, {"tool_ms", s.ToolTime, 150 * ms},
			{"perceived_ms", rec.Perceived, 360 * ms}, {"max_stall_ms", rec.MaxStall, 10 * ms}, {"tpot_ms", rec.TPOT, 10 * ms},
			{"steps[0].ttft_ms", st[0].TTFT, 100 * ms}, {"steps[0].first_tool_call_ms", st[0].FirstToolCall, 100 * ms},
			{"steps[0].tool_call_ms", st[0].ToolCall, 130 * ms}, {"steps[0].total_ms", st[0].Total, 130 * ms},
			{"steps[0].tool_ms", st[0].ToolTime, 150 * ms},
			{"steps[1].start_ms", st[1].Start, 280 * ms}, {"steps[1].ttft_ms", st[1].TTFT, 80 * ms},
			{"steps[1].ttfc_ms", st[1].TTFC, 80 * ms}, {"steps[1].total_ms", st[1].Total, 120 * ms},
		} {
			exactly(t, c.name, c.got, c.want)
		}
		if len(rec.ITL) != 6 || rec.PromptTokens != 50 || rec.CachedTokens != 16 || rec.OutputTokens != 8 || rec.TokensSource != "usage" {
			t.Errorf("itl %v, tokens prompt %d cached %d output %d; want six 10ms gaps, 50, 16, 8", rec.ITL, rec.PromptTokens, rec.CachedTokens, rec.OutputTokens)
		}
	})
}

// TestSessionsOnEveryAPI runs the client-driven loop against the
// simulator's tool steps in each API's own format, on virtual time: two
// tool steps (a call's first delta, which names the tool and carries its
// first argument piece, at the TTFT, then a piece a gap), a 40 ms
// scripted tool after each, then the answer. Every step's and the
// session's times are exact, and the session holds its steps and tools.
func TestSessionsOnEveryAPI(t *testing.T) {
	t.Parallel()
	const ttft, gap, tool = 100 * ms, 10 * ms, 40 * ms
	for _, tt := range []struct {
		api    API
		base   string
		pieces int // events of a tool step's call
	}{
		{Chat, "/v1", 3}, {Azure, "/openai/deployments/d", 3}, {Responses, "/v1", 3}, {Anthropic, "", 3}, {Gemini, "/v1beta", 1},
	} {
		t.Run(string(tt.api), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(ttft), ITL: sim.Fixed(gap), Tokens: 6,
					ToolSteps: 2, ToolArgs: 24, ToolChunk: 8}, 1))
				s := orderSession(5)
				s.Tools["lookup_order"] = Tool{Result: `{"status": "shipped"}`, Latency: tool}
				req := Request{API: tt.api, URL: URL(tt.api, Target{BaseURL: srv.URL + tt.base, URL: srv.URL + tt.base, Model: "m", APIVersion: "2024-10-21"}), APIKey: "k", Session: s}
				rec := (&Prober{Client: srv.Client()}).Do(context.Background(), req)
				if !rec.OK || rec.Session == nil || len(rec.Session.Steps) != 3 {
					t.Fatalf("ok %v (%s), session %+v", rec.OK, rec.Error, rec.Session)
				}
				call := ttft + time.Duration(tt.pieces-1)*gap // the call's last piece
				answer := ttft + 5*gap                        // six words
				st := rec.Session.Steps
				for i := range 2 {
					exactly(t, fmt.Sprintf("step %d first tool call", i+1), st[i].FirstToolCall, ttft)
					exactly(t, fmt.Sprintf("step %d tool call complete", i+1), st[i].ToolCall, call)
					exactly(t, fmt.Sprintf("step %d tool time", i+1), st[i].ToolTime, tool)
					if st[i].ToolCalls != 1 || st[i].Tools[0] != "lookup_order" {
						t.Errorf("step %d: %d calls of %v", i+1, st[i].ToolCalls, st[i].Tools)
					}
				}
				exactly(t, "step 2 start", st[1].Start, st[0].Total+tool)
				exactly(t, "answer step start", st[2].Start, st[1].Start+st[1].Total+tool)
				exactly(t, "first tool call", rec.Session.FirstToolCall, ttft)
				exactly(t, "tool time", rec.Session.ToolTime, 2*tool)
				exactly(t, "answer", rec.Session.Answer, st[2].Start+ttft)
				exactly(t, "session", rec.Total, st[2].Start+st[2].Total)
				if st[2].Total < answer || st[2].FirstToolCall != Missing {
					t.Errorf("answer step: total %v (want at least %v), tool call %v", st[2].Total, answer, st[2].FirstToolCall)
				}
			})
		})
	}
}

// TestAISDKByHand: the AI SDK's UI message stream read as a custom stream
// with the types of docs/config.md measures what api ai-sdk does, reasoning
// included (it carries /delta too, and only its type says it is no text).
func TestAISDKByHand(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(100 * ms), ITL: sim.Fixed(10 * ms), Tokens: 6,
			ToolSteps: 2, ToolLatency: 50 * ms, Quirks: sim.Quirks{ReasoningTokens: 3}}, 1))
		byHand := &StreamSpec{Format: "sse", Type: "/type", Text: "/delta", Reasoning: "/delta", ToolCall: "/inputTextDelta", Error: "/errorText",
			Types: StreamTypes{Text: []string{"text-delta"}, Reasoning: []string{"reasoning-delta"}, ToolCall: []string{"tool-input-start", "tool-input-delta"},
				ToolCallDone: []string{"tool-input-available"}, ToolResult: []string{"tool-output-available", "tool-output-error"}, Step: []string{"start-step"}}}
		template := map[string]any{"messages": []any{map[string]any{"id": "m1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "{{prompt}}"}}}}}
		var recs []Record
		for _, c := range []struct {
			api    API
			stream *StreamSpec
			tmpl   any
		}{{AISDK, nil, nil}, {Custom, byHand, template}} {
			s := &Session{Params: BodyParams{Messages: []Message{{Role: "user", Content: "Where is order 42?"}}, Template: c.tmpl}, MaxSteps: 5}
			rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: c.api, URL: srv.URL + "/api/chat", Stream: c.stream, Session: s})
			if !rec.OK || rec.Session == nil || len(rec.Session.Steps) != 3 {
				t.Fatalf("%s: ok %v (%s), %+v", c.api, rec.OK, rec.Error, rec.Session)
			}
			recs = append(recs, rec)
		}
		a, h := recs[0], recs[1]
		for _, c := range []struct {
			name      string
			got, want time.Duration
		}{
			{"ttft", h.TTFT, a.TTFT}, {"ttfc", h.TTFC, a.TTFC}, {"total", h.Total, a.Total},
			{"first tool call", h.Session.FirstToolCall, a.Session.FirstToolCall}, {"answer", h.Session.Answer, a.Session.Answer},
			{"tool time", h.Session.ToolTime, a.Session.ToolTime}, {"step 2 start", h.Session.Steps[1].Start, a.Session.Steps[1].Start},
		} {
			exactly(t, "by hand: "+c.name, c.got, c.want)
		}
		exactly(t, "tool time (two 50ms tools on the server)", a.Session.ToolTime, 100*ms)
		if a.TTFC <= a.TTFT {
			t.Errorf("ttfc %v not after ttft %v: reasoning read as text", a.TTFC, a.TTFT)
		}
	})
}

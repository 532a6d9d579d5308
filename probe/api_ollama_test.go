package probe

import (
	"context"
	"encoding/json"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

func TestOllamaDecoder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want event
	}{
		{"text", `{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}`, event{content: 2, text: "Hi"}},
		{"thinking", `{"message":{"role":"assistant","content":"","thinking":"hmm"},"done":false}`, event{reasoning: 3}},
		{"a tool call, whole", `{"message":{"role":"assistant","content":"","tool_calls":[{"id":"call_x","function":{"index":0,"name":"get_weather","arguments":{"city":"Tokyo"}}}]},"done":false}`,
			event{tool: 16, calls: []callPart{{index: 0, id: "call_x", name: "get_weather", args: `{"city":"Tokyo"}`}}, callsDone: 1, toolStart: true}},
		{"the last line", `{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":182242375,"load_duration":41295167,"prompt_eval_count":169,"prompt_eval_duration":24573166,"eval_count":15,"eval_duration":115959084}`,
			event{done: true, finish: "stop", usage: &usage{prompt: 169, output: 15}}},
		{"an error line", `{"error":"model runner has unexpectedly stopped"}`, event{err: "model runner has unexpectedly stopped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := (&ollamaDecoder{}).decode(frame{Data: []byte(tt.in)})
			if err != nil {
				t.Fatal(err)
			}
			if !sameEvent(got, tt.want) {
				t.Errorf("got %+v (usage %+v), want %+v (usage %+v)", got, got.usage, tt.want, tt.want.usage)
			}
		})
	}
	if _, err := (&ollamaDecoder{}).decode(frame{Data: []byte(`{"message":`)}); err == nil {
		t.Error("a malformed line decoded")
	}
}

// TestOllamaBody: Ollama's own format for tools, an assistant's calls
// (arguments an object) and a tool's result (tool_name), the limit as
// options.num_predict.
func TestOllamaBody(t *testing.T) {
	t.Parallel()
	temp := 0.5
	b, err := Body(Ollama, BodyParams{Model: "llama3.2", MaxTokens: 64, Temperature: &temp,
		Tools: []ToolSpec{{Name: "get_weather", Description: "Weather", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		Messages: []Message{{Role: "user", Content: "weather in Toronto?"},
			{Role: "assistant", ToolCalls: []ToolCall{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Toronto"}`}}},
			{Role: "tool", ToolCallID: "call_1", Name: "get_weather", Content: "11 degrees"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"content":"weather in Toronto?","role":"user"},` +
		`{"content":"","role":"assistant","tool_calls":[{"function":{"arguments":{"city":"Toronto"},"name":"get_weather"},"id":"call_1"}]},` +
		`{"content":"11 degrees","role":"tool","tool_call_id":"call_1","tool_name":"get_weather"}],` +
		`"model":"llama3.2","options":{"num_predict":64,"temperature":0.5},"stream":true,` +
		`"tools":[{"function":{"description":"Weather","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}},"type":"function"}]}`
	if string(b) != want {
		t.Errorf("body\n%s\nwant\n%s", b, want)
	}
}

// ollamaEngine is engineProfile with its prompt cache on: the prefill is
// the share of the prompt the cache does not hold.
func ollamaEngine(cache bool) sim.Profile {
	p := engineProfile()
	p.Quirks.PrefixCache = cache
	return p
}

func ollamaRequest(srv *clocktest.Server, s *Session) Request {
	b, _ := Body(Ollama, BodyParams{Model: "engine", Messages: []Message{{Role: "user", Content: "hello there"}}})
	return Request{API: Ollama, URL: URL(Ollama, Target{BaseURL: srv.URL}), Body: b, Session: s}
}

// TestOllamaServerTiming: a request's record carries Ollama's durations
// as the delays the simulator injected, and the outside is the part of
// the TTFT in front of the engine.
func TestOllamaServerTiming(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(ollamaEngine(false), 1))
		rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), ollamaRequest(srv, nil))
		if !rec.OK || rec.OutputTokens != 5 || rec.TokensSource != "usage" {
			t.Fatalf("ok %v (%s), %d tokens from %s", rec.OK, rec.Error, rec.OutputTokens, rec.TokensSource)
		}
		s := rec.Server
		exactly(t, "ttft", rec.TTFT, 200*ms)
		exactly(t, "queue", s.Queue, 0)
		exactly(t, "prefill", s.Prefill, 185*ms)
		exactly(t, "decode", s.Decode, 40*ms)
		exactly(t, "processing", s.Processing, 240*ms)
		exactly(t, "outside", rec.Outside(), 15*ms)
		if s.Gateway != Missing || s.Source != "ollama" || s.IgnoredCount != 0 {
			t.Errorf("server %+v", s)
		}
	})
}

// TestOllamaConversationPrefill: three turns of a conversation against an
// engine behind a prefix cache: each step has its own server timing, and
// turns 2 and 3 evaluate only what the cache does not hold.
func TestOllamaConversationPrefill(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(ollamaEngine(true), 1))
		s := &Session{Params: BodyParams{Model: "engine", Messages: []Message{{Role: "user", Content: "hello there"}}}, MaxSteps: 5,
			Turns: []string{"and then what happened next", "why"}}
		rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), ollamaRequest(srv, s))
		if !rec.OK || rec.Session == nil || len(rec.Session.Steps) != 3 {
			t.Fatalf("ok %v (%s), session %+v", rec.OK, rec.Error, rec.Session)
		}
		steps := rec.Session.Steps
		exactly(t, "turn 1 prefill", steps[0].Server.Prefill, 185*ms)
		for i := 1; i < 3; i++ {
			// The cache holds the conversation up to the last turn's
			// question: every message before the last answer.
			prompt, cached := steps[i].PromptTokens, steps[i-1].PromptTokens
			want := time.Duration(float64(185*ms) * float64(prompt-cached) / float64(prompt))
			exactly(t, "turn "+string(rune('1'+i))+" prefill", steps[i].Server.Prefill, want)
			exactly(t, "turn "+string(rune('1'+i))+" outside", steps[i].Server.Outside(steps[i].TTFT), 15*ms)
			if want >= steps[0].Server.Prefill || steps[i].Server.Source != "ollama" {
				t.Errorf("turn %d: prefill %v, source %q: the cache is not visible", i+1, steps[i].Server.Prefill, steps[i].Server.Source)
			}
		}
		if rec.Server.Prefill != steps[0].Server.Prefill {
			t.Errorf("the session's server timing %+v is not its first step's", rec.Server)
		}
	})
}

// TestOllamaToolLoop: the model's whole tool call comes back to latgate,
// which answers it in Ollama's format; the simulator counts the result
// and answers.
func TestOllamaToolLoop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := ollamaEngine(false)
		p.ToolSteps = 1
		srv := clocktest.NewServer(t, sim.New(p, 1))
		s := &Session{Params: BodyParams{Model: "engine", Messages: []Message{{Role: "user", Content: "where is order 42?"}},
			Tools: []ToolSpec{{Name: "lookup_order"}}}, MaxSteps: 4,
			Tools: map[string]Tool{"lookup_order": {Result: `{"status":"shipped"}`, Latency: 150 * ms}}}
		rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), ollamaRequest(srv, s))
		if !rec.OK || rec.Session == nil || len(rec.Session.Steps) != 2 || rec.Session.End != EndAnswer {
			t.Fatalf("ok %v (%s), session %+v", rec.OK, rec.Error, rec.Session)
		}
		st := rec.Session.Steps[0]
		if st.ToolCalls != 1 || len(st.Tools) != 1 || st.Tools[0] != "lookup_order" || len(rec.Session.UnknownTools) != 0 {
			t.Errorf("step 1: %d calls of %v", st.ToolCalls, st.Tools)
		}
		exactly(t, "tool time", rec.Session.ToolTime, 150*ms)
		exactly(t, "step 1 first tool call", st.FirstToolCall, 200*ms)
		exactly(t, "step 1 tool call complete", st.ToolCall, 200*ms)
	})
}

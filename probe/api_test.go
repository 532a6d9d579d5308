package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/sim"
)

func TestDecoders(t *testing.T) {
	t.Parallel()
	ollama := StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done", OutputTokens: "/eval_count", InputTokens: "/prompt_eval_count"}
	fastapi := StreamSpec{Format: "sse", Text: "/delta", Reasoning: "/thinking", Error: "/error", OutputTokens: "/usage/output_tokens", CachedTokens: "/usage/cached"}
	uiStream := StreamSpec{Format: "sse", Type: "/type", Text: "/delta", Reasoning: "/delta", ToolCall: "/inputTextDelta", Error: "/errorText",
		Types: StreamTypes{Text: []string{"text-delta"}, Reasoning: []string{"reasoning-delta"}, ToolCall: []string{"tool-input-start", "tool-input-delta"},
			ToolCallDone: []string{"tool-input-available"}, ToolResult: []string{"tool-output-available"}, Step: []string{"start-step"}}}
	tests := []struct {
		name string
		dec  decoder
		in   frame
		want event
		bad  bool
	}{
		// Responses.
		{"responses created", responsesDecoder{}, frame{Name: "response.created", Data: []byte(`{"type":"response.created","response":{"status":"in_progress"}}`)}, event{}, false},
		{"responses text", responsesDecoder{}, frame{Data: []byte(`{"type":"response.output_text.delta","delta":"Hi!"}`)}, event{content: 3, text: "Hi!"}, false},
		{"responses reasoning summary", responsesDecoder{}, frame{Data: []byte(`{"type":"response.reasoning_summary_text.delta","delta":"hmm"}`)}, event{reasoning: 3}, false},
		{"responses reasoning text", responsesDecoder{}, frame{Data: []byte(`{"type":"response.reasoning_text.delta","delta":"ab"}`)}, event{reasoning: 2}, false},
		{"responses function args", responsesDecoder{}, frame{Data: []byte(`{"type":"response.function_call_arguments.delta","output_index":1,"delta":"{\"a\":1}"}`)}, event{tool: 7, calls: []callPart{{index: 1, args: `{"a":1}`}}}, false},
		{"responses type from the event name", responsesDecoder{}, frame{Name: "response.output_text.delta", Data: []byte(`{"delta":"ab"}`)}, event{content: 2, text: "ab"}, false},
		{"responses completed", responsesDecoder{}, frame{Data: []byte(`{"type":"response.completed","response":{"status":"completed","usage":{"input_tokens":20,"input_tokens_details":{"cached_tokens":8},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":12}}}}`)},
			event{done: true, finish: "completed", usage: &usage{prompt: 20, output: 30, cached: 8, reasoning: 12}}, false},
		{"responses incomplete", responsesDecoder{}, frame{Data: []byte(`{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}`)}, event{done: true, finish: "max_output_tokens"}, false},
		{"responses failed", responsesDecoder{}, frame{Data: []byte(`{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"The model crashed"}}}`)}, event{err: "The model crashed [server_error]"}, false},
		{"responses error event", responsesDecoder{}, frame{Name: "error", Data: []byte(`{"type":"error","code":"rate_limit_exceeded","message":"Slow down"}`)}, event{err: "Slow down [rate_limit_exceeded]"}, false},
		{"responses malformed", responsesDecoder{}, frame{Data: []byte(`{"type":`)}, event{}, true},
		// Anthropic.
		{"anthropic message_start", &anthropicDecoder{}, frame{Name: "message_start", Data: []byte(`{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":20,"cache_creation_input_tokens":0,"output_tokens":1}}}`)},
			event{usage: &usage{prompt: 25, cached: 20, output: 1}}, false},
		{"anthropic ping", &anthropicDecoder{}, frame{Name: "ping", Data: []byte(`{"type": "ping"}`)}, event{}, false},
		{"anthropic block start", &anthropicDecoder{}, frame{Data: []byte(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)}, event{}, false},
		{"anthropic text", &anthropicDecoder{}, frame{Data: []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`)}, event{content: 5, text: "Hello"}, false},
		{"anthropic thinking", &anthropicDecoder{}, frame{Data: []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me"}}`)}, event{reasoning: 6}, false},
		{"anthropic signature is not output", &anthropicDecoder{}, frame{Data: []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}`)}, event{}, false},
		{"anthropic tool input", &anthropicDecoder{}, frame{Data: []byte(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"x\""}}`)}, event{tool: 4, calls: []callPart{{index: 1, args: `{"x"`}}}, false},
		{"anthropic message_delta", &anthropicDecoder{}, frame{Data: []byte(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15}}`)}, event{finish: "end_turn", usage: &usage{output: 15}}, false},
		{"anthropic stop", &anthropicDecoder{}, frame{Data: []byte(`{"type":"message_stop"}`)}, event{done: true}, false},
		{"anthropic overloaded", &anthropicDecoder{}, frame{Name: "error", Data: []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)}, event{err: "Overloaded [overloaded_error]"}, false},
		// Gemini.
		{"gemini text", &geminiDecoder{}, frame{Data: []byte(`{"candidates":[{"content":{"parts":[{"text":"Hey"}],"role":"model"}}]}`)}, event{content: 3, text: "Hey"}, false},
		{"gemini thought", &geminiDecoder{}, frame{Data: []byte(`{"candidates":[{"content":{"parts":[{"text":"hmm","thought":true}],"role":"model"}}]}`)}, event{reasoning: 3}, false},
		{"gemini thought signature only", &geminiDecoder{}, frame{Data: []byte(`{"candidates":[{"content":{"parts":[{"thoughtSignature":"CiQB0e2Kb"}],"role":"model"}}]}`)}, event{}, false},
		{"gemini function call", &geminiDecoder{}, frame{Data: []byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]}}]}`)}, event{tool: 22, calls: []callPart{{index: 0, id: "call_1", name: "f", args: "{}"}}, callsDone: 1}, false},
		{"gemini finish and usage", &geminiDecoder{}, frame{Data: []byte(`{"candidates":[{"content":{"parts":[{"text":"."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":7,"thoughtsTokenCount":5,"cachedContentTokenCount":4}}`)},
			event{content: 1, text: ".", finish: "STOP", usage: &usage{prompt: 9, output: 12, cached: 4, reasoning: 5}}, false},
		{"gemini error", &geminiDecoder{}, frame{Data: []byte(`{"error":{"code":403,"message":"Permission denied","status":"PERMISSION_DENIED"}}`)}, event{err: "Permission denied [PERMISSION_DENIED]"}, false},
		// Custom.
		{"ollama line", &customDecoder{spec: ollama}, frame{Data: []byte(`{"model":"m","message":{"role":"assistant","content":"Hi"},"done":false}`)}, event{content: 2, text: "Hi"}, false},
		{"ollama last line", &customDecoder{spec: ollama}, frame{Data: []byte(`{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":26,"eval_count":290}`)},
			event{done: true, finish: "done", usage: &usage{prompt: 26, output: 290}}, false},
		{"custom sse reasoning", &customDecoder{spec: fastapi}, frame{Data: []byte(`{"thinking":"abc"}`)}, event{reasoning: 3}, false},
		{"custom sse error string", &customDecoder{spec: fastapi}, frame{Data: []byte(`{"error":"tool timed out"}`)}, event{err: "tool timed out"}, false},
		{"custom sse error object", &customDecoder{spec: fastapi}, frame{Data: []byte(`{"error":{"message":"quota"}}`)}, event{err: "quota"}, false},
		{"custom null error is no error", &customDecoder{spec: fastapi}, frame{Data: []byte(`{"error":null,"delta":"x"}`)}, event{content: 1, text: "x"}, false},
		{"custom usage", &customDecoder{spec: fastapi}, frame{Data: []byte(`{"usage":{"output_tokens":12,"cached":3}}`)}, event{usage: &usage{output: 12, cached: 3}}, false},
		{"custom [DONE]", &customDecoder{spec: fastapi}, frame{Data: []byte(`[DONE]`)}, event{done: true}, false},
		{"custom text", &customDecoder{spec: StreamSpec{Format: "text"}}, frame{Data: []byte("any bytes")}, event{content: 9}, false},
		{"custom malformed", &customDecoder{spec: ollama}, frame{Data: []byte(`{"message":`)}, event{}, true},
		// A server-driven agent read by event types: reasoning carries
		// /delta too, and is not text (it was, by a pointer alone).
		{"typed text", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"text-delta","id":"t","delta":"Hi"}`)}, event{content: 2, text: "Hi"}, false},
		{"typed reasoning", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"reasoning-delta","id":"r","delta":"hmm"}`)}, event{reasoning: 3}, false},
		{"typed tool start", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"tool-input-start","toolCallId":"c1","toolName":"f"}`)}, event{toolStart: true, calls: []callPart{{}}}, false},
		{"typed tool args", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"tool-input-delta","toolCallId":"c1","inputTextDelta":"{\"id\""}`)}, event{tool: 5, calls: []callPart{{args: `{"id"`}}}, false},
		{"typed tool done", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"tool-input-available","toolCallId":"c1","input":{}}`)}, event{callsDone: 1}, false},
		{"typed tool result", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"tool-output-available","toolCallId":"c1","output":"ok"}`)}, event{toolResult: true}, false},
		{"typed step", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"start-step"}`)}, event{step: true}, false},
		{"untyped event", &customDecoder{spec: uiStream}, frame{Data: []byte(`{"type":"start","messageId":"m","delta":"not text"}`)}, event{}, false},
		// The AI SDK's UI message stream (api: ai-sdk).
		{"ai-sdk step", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"start-step"}`)}, event{step: true}, false},
		{"ai-sdk text", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"text-delta","id":"0","delta":"Hello"}`)}, event{content: 5, text: "Hello"}, false},
		{"ai-sdk reasoning", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"reasoning-delta","id":"0","delta":"hm"}`)}, event{reasoning: 2}, false},
		{"ai-sdk tool start", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"tool-input-start","toolCallId":"call-1","toolName":"lookup"}`)},
			event{toolStart: true, calls: []callPart{{id: "call-1", name: "lookup"}}}, false},
		{"ai-sdk tool whole", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"tool-input-available","toolCallId":"call-9","toolName":"lookup","input":{"id":"42"}}`)},
			event{toolStart: true, callsDone: 1, calls: []callPart{{id: "call-9", name: "lookup"}}}, false},
		{"ai-sdk tool output", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"tool-output-available","toolCallId":"call-1","output":{"status":"shipped"}}`)}, event{toolResult: true}, false},
		{"ai-sdk finish", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"finish","finishReason":"stop"}`)}, event{finish: "stop"}, false},
		{"ai-sdk error", &aiSDKDecoder{}, frame{Data: []byte(`{"type":"error","errorText":"model overloaded"}`)}, event{err: "model overloaded"}, false},
		{"ai-sdk done", &aiSDKDecoder{}, frame{Data: []byte(`[DONE]`)}, event{done: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.dec.decode(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("err = %v, want error %v", err, tt.bad)
			}
			if !sameEvent(got, tt.want) {
				t.Errorf("got %+v (usage %+v), want %+v (usage %+v)", got, got.usage, tt.want, tt.want.usage)
			}
		})
	}
}

func TestAnthropicUsageMerges(t *testing.T) {
	t.Parallel()
	d := &anthropicDecoder{}
	for _, s := range []string{
		`{"type":"message_start","message":{"usage":{"input_tokens":5,"cache_read_input_tokens":20,"output_tokens":1}}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":15}}`,
		`{"type":"message_delta","usage":{"input_tokens":5,"output_tokens":15}}`, // newer versions repeat the input
	} {
		if _, err := d.decode(frame{Data: []byte(s)}); err != nil {
			t.Fatal(err)
		}
	}
	if want := (usage{prompt: 25, cached: 20, output: 15}); d.u != want {
		t.Errorf("usage %+v, want %+v", d.u, want)
	}
}

func TestPointer(t *testing.T) {
	t.Parallel()
	var doc any
	_ = json.Unmarshal([]byte(`{"a":{"b":[10,{"c":"x"}]},"m~n":1,"p/q":2,"":3}`), &doc)
	tests := []struct {
		ptr  string
		want any
		ok   bool
	}{
		{"/a/b/0", float64(10), true},
		{"/a/b/1/c", "x", true},
		{"/m~0n", float64(1), true},
		{"/p~1q", float64(2), true},
		{"/", float64(3), true},
		{"/a/b/2", nil, false},
		{"/a/b/01", nil, false},
		{"/a/b/-1", nil, false},
		{"/a/x", nil, false},
		{"/a/b/1/c/d", nil, false},
		{"", nil, false},
		{"a", nil, false},
	}
	for _, tt := range tests {
		got, ok := pointer(doc, tt.ptr)
		if ok != tt.ok || got != tt.want {
			t.Errorf("pointer(%q) = %v, %v; want %v, %v", tt.ptr, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStreamSpecValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec StreamSpec
		err  string
	}{
		{StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done"}, ""},
		{StreamSpec{Format: "text"}, ""},
		{StreamSpec{Format: "sse"}, "stream.text: a JSON pointer"},
		{StreamSpec{Format: "ndjson", Text: "message.content"}, `stream.text: "message.content" is not a JSON pointer`},
		{StreamSpec{Format: "text", Text: "/x"}, "stream.text: a plain-text stream"},
		{StreamSpec{Format: "xml", Text: "/x"}, `stream.format: unknown "xml"`},
		{StreamSpec{Text: "/x"}, "stream.format: required"},
	}
	for _, tt := range tests {
		err := tt.spec.Validate()
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%+v: error %v, want %q", tt.spec, err, tt.err)
		}
	}
	if _, err := ParseAPI("bedrock"); err == nil || !strings.Contains(err.Error(), "known: "+strings.Join(apis.Names(), ", ")) {
		t.Errorf("ParseAPI: %v", err)
	}
	if a, err := ParseAPI(""); a != Chat || err != nil {
		t.Errorf("ParseAPI(\"\") = %q, %v", a, err)
	}
}

// canned serves one fixed response and records the request it got.
func canned(t *testing.T, status int, contentType, body string, got *http.Request) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got != nil {
			*got = *r.Clone(context.Background())
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		if name, data, ok := strings.Cut(e, "|"); ok {
			fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data)
		} else {
			fmt.Fprintf(&b, "data: %s\n\n", e)
		}
	}
	return b.String()
}

// TestAPIStreams reads whole canned streams of every API through Do: the
// ordinary stream and the faults that matter per API.
func TestAPIStreams(t *testing.T) {
	t.Parallel()
	anthropicOK := sse(
		`message_start|{"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}`,
		`content_block_start|{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
		`ping|{"type":"ping"}`,
		`content_block_delta|{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think"}}`,
		`content_block_delta|{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"Eq"}}`,
		`content_block_delta|{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Yes."}}`,
		`message_delta|{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":6}}`,
		`message_stop|{"type":"message_stop"}`)
	tests := []struct {
		name    string
		req     Request
		status  int
		ctype   string
		body    string
		ok      bool
		err     string
		tokens  int
		prompt  int
		events  int // output events (ITL has one fewer)
		visible bool
	}{
		{name: "anthropic", req: Request{API: Anthropic}, body: anthropicOK, ok: true, tokens: 6, prompt: 9, events: 2, visible: true},
		{name: "anthropic overloaded mid-stream", req: Request{API: Anthropic}, body: sse(
			`message_start|{"type":"message_start","message":{"usage":{"input_tokens":9}}}`,
			`content_block_delta|{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Ye"}}`,
			`error|{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			err: "error inside the stream: Overloaded [overloaded_error]"},
		{name: "anthropic without message_stop", req: Request{API: Anthropic}, body: sse(
			`content_block_delta|{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Ye"}}`),
			err: "truncated: stream ended without message_stop after 1 output events"},
		{name: "responses", req: Request{API: Responses}, body: sse(
			`response.created|{"type":"response.created","response":{"status":"in_progress"}}`,
			`response.output_item.added|{"type":"response.output_item.added"}`,
			`response.output_text.delta|{"type":"response.output_text.delta","delta":"Hi"}`,
			`response.output_text.delta|{"type":"response.output_text.delta","delta":" there"}`,
			`response.completed|{"type":"response.completed","response":{"usage":{"input_tokens":4,"output_tokens":2}}}`),
			ok: true, tokens: 2, prompt: 4, events: 2, visible: true},
		{name: "responses failed", req: Request{API: Responses}, body: sse(
			`response.output_text.delta|{"type":"response.output_text.delta","delta":"Hi"}`,
			`response.failed|{"type":"response.failed","response":{"error":{"code":"server_error","message":"boom"}}}`),
			err: "error inside the stream: boom [server_error]"},
		{name: "gemini", req: Request{API: Gemini}, body: sse(
			`{"candidates":[{"content":{"parts":[{"text":"Hm","thought":true}],"role":"model"}}]}`,
			`{"candidates":[{"content":{"parts":[{"thoughtSignature":"abc"}],"role":"model"}}]}`,
			`{"candidates":[{"content":{"parts":[{"text":"Yes"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1,"thoughtsTokenCount":1}}`),
			ok: true, tokens: 2, prompt: 3, events: 2, visible: true},
		{name: "gemini 403 JSON", req: Request{API: Gemini, APIKey: "AIza-secret"}, status: 403, ctype: "application/json",
			body: `{"error":{"code":403,"message":"Method doesn't allow unregistered callers.","status":"PERMISSION_DENIED"}}`,
			err:  "HTTP 403 Forbidden: Method doesn't allow unregistered callers."},
		{name: "gemini without alt=sse", req: Request{API: Gemini}, ctype: "application/json", body: `[{"candidates":[]}]`,
			err: `expected an SSE stream (text/event-stream), got Content-Type "application/json": does the URL end in :streamGenerateContent?alt=sse?`},
		{name: "gemini EOF without finishReason", req: Request{API: Gemini}, body: sse(`{"candidates":[{"content":{"parts":[{"text":"Ye"}]}}]}`),
			err: "truncated: stream ended without a finishReason after 1 output events"},
		{name: "azure empty choices and content filter", req: Request{API: Azure}, body: sse(
			`{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`,
			`{"choices":[{"index":0,"delta":{"role":"assistant"}}]}`,
			`{"choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}`,
			`[DONE]`),
			err: "no output tokens: the stream finished without any content, reasoning or tool-call delta (finish_reason content_filter)"},
		{name: "ollama native ndjson", req: Request{API: Custom, Stream: &StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done", OutputTokens: "/eval_count", InputTokens: "/prompt_eval_count"}},
			ctype: "application/x-ndjson", body: `{"message":{"role":"assistant","content":"Hel"},"done":false}` + "\n" +
				`{"message":{"role":"assistant","content":"lo"},"done":false}` + "\n" +
				`{"message":{"role":"assistant","content":""},"done":true,"eval_count":2,"prompt_eval_count":7}` + "\n",
			ok: true, tokens: 2, prompt: 7, events: 2, visible: true},
		{name: "ndjson line cut in half", req: Request{API: Custom, Stream: &StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done"}},
			ctype: "application/x-ndjson", body: `{"message":{"content":"Hel"},"done":false}` + "\n" + `{"message":{"cont`,
			err: "connection closed in the middle of a line"},
		{name: "custom stream without its end marker", req: Request{API: Custom, Stream: &StreamSpec{Format: "sse", Text: "/delta", Done: "/end"}},
			body: sse(`{"delta":"a"}`, `{"delta":"b"}`), err: "truncated: stream ended without stream.done (/end) after 2 output events"},
		{name: "custom sse without done pointer ends at EOF", req: Request{API: Custom, Stream: &StreamSpec{Format: "sse", Text: "/delta"}},
			body: sse(`{"delta":"a"}`, `{"delta":"b"}`), ok: true, tokens: 2, events: 2, visible: true},
		{name: "custom pointer that never matches", req: Request{API: Custom, Stream: &StreamSpec{Format: "sse", Text: "/text"}},
			body: sse(`{"delta":"a"}`, `{"delta":"b"}`), err: `no output tokens: the stream finished without any content, reasoning or tool-call delta: stream.text /text matched no event; the most frequent kind of event (2 of 2) was: {"delta":"a"}`},
		{name: "custom plain text", req: Request{API: Custom, Stream: &StreamSpec{Format: "text"}}, ctype: "text/plain",
			body: "Hello, world", ok: true, tokens: 1, events: 1, visible: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, ctype := tt.status, tt.ctype
			if status == 0 {
				status = 200
			}
			if ctype == "" {
				ctype = "text/event-stream"
			}
			srv := canned(t, status, ctype, tt.body, nil)
			req := tt.req
			req.URL, req.Body = srv.URL, []byte(`{}`)
			rec := (&Prober{Client: srv.Client(), Secrets: redact.New("AIza-secret")}).Do(context.Background(), req)
			if rec.OK != tt.ok || !strings.HasPrefix(rec.Error, tt.err) {
				t.Fatalf("ok %v error %q; want %v %q", rec.OK, rec.Error, tt.ok, tt.err)
			}
			if !tt.ok {
				return
			}
			if rec.OutputTokens != tt.tokens || rec.PromptTokens != tt.prompt || len(rec.ITL) != tt.events-1 {
				t.Errorf("tokens %d prompt %d output events %d; want %d %d %d", rec.OutputTokens, rec.PromptTokens, len(rec.ITL)+1, tt.tokens, tt.prompt, tt.events)
			}
			if tt.visible && (rec.TTFC == Missing || rec.TTFC < rec.TTFT) || rec.FirstEvent > rec.TTFT {
				t.Errorf("first_event %v ttft %v ttfc %v: want first_event <= ttft <= ttfc", rec.FirstEvent, rec.TTFT, rec.TTFC)
			}
		})
	}
}

func TestAuthHeadersPerAPI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api    API
		header string
		value  string
	}{
		{Chat, "Authorization", "Bearer k-123"},
		{Responses, "Authorization", "Bearer k-123"},
		{Anthropic, "X-Api-Key", "k-123"},
		{Gemini, "X-Goog-Api-Key", "k-123"},
		{Azure, "Api-Key", "k-123"},
		{Custom, "Authorization", "Bearer k-123"},
	}
	for _, tt := range tests {
		t.Run(string(tt.api), func(t *testing.T) {
			var got http.Request
			srv := canned(t, 401, "application/json", `{"error":{"message":"no"}}`, &got)
			req := Request{API: tt.api, URL: srv.URL, Body: []byte(`{}`), APIKey: "k-123", Headers: map[string]string{"X-Team": "a"}}
			if tt.api == Custom {
				req.Stream = &StreamSpec{Format: "sse", Text: "/t"}
			}
			(&Prober{Client: srv.Client()}).Do(context.Background(), req)
			if v := got.Header.Get(tt.header); v != tt.value {
				t.Errorf("%s = %q, want %q", tt.header, v, tt.value)
			}
			if tt.api != Chat && tt.api != Responses && tt.api != Custom && got.Header.Get("Authorization") != "" {
				t.Errorf("Authorization sent to %s too", tt.api)
			}
			if got.Header.Get("X-Team") != "a" {
				t.Error("extra header not sent")
			}
			if tt.api == Anthropic && got.Header.Get("anthropic-version") != AnthropicVersion {
				t.Errorf("anthropic-version = %q", got.Header.Get("anthropic-version"))
			}
		})
	}
}

func TestURLAndBody(t *testing.T) {
	t.Parallel()
	urls := []struct {
		api  API
		base string
		want string
	}{
		{Chat, "http://h/v1/", "http://h/v1/chat/completions"},
		{Responses, "http://h/v1", "http://h/v1/responses"},
		{Anthropic, "https://api.anthropic.com", "https://api.anthropic.com/v1/messages"},
		{Gemini, "https://generativelanguage.googleapis.com/v1beta", "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"},
		{Azure, "https://r.openai.azure.com/openai/deployments/d", "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21"},
		{Azure, "https://r.openai.azure.com", "https://r.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21"},
		{Custom, "http://127.0.0.1:11434/api/chat", "http://127.0.0.1:11434/api/chat"},
	}
	for _, u := range urls {
		if got := URL(u.api, Target{BaseURL: u.base, URL: u.base, Model: "gemini-2.5-flash", Deployment: "gpt 4o", APIVersion: "2024-10-21"}); got != u.want {
			t.Errorf("URL(%s) = %s, want %s", u.api, got, u.want)
		}
	}
	temp := 0.5
	p := BodyParams{Model: "m", MaxTokens: 64, Temperature: &temp, Messages: []Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hi"}, {Role: "assistant", Content: "Hello"}, {Role: "user", Content: "Why?"}}}
	bodies := []struct {
		api  API
		want string
	}{
		{Chat, `{"max_tokens":64,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Why?"}],"model":"m","stream":true,"stream_options":{"include_usage":true},"temperature":0.5}`},
		{Responses, `{"input":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Why?"}],"max_output_tokens":64,"model":"m","stream":true,"temperature":0.5}`},
		{Anthropic, `{"max_tokens":64,"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Why?"}],"model":"m","stream":true,"system":"Be brief.","temperature":0.5}`},
		{Gemini, `{"contents":[{"role":"user","parts":[{"text":"Hi"}]},{"role":"model","parts":[{"text":"Hello"}]},{"role":"user","parts":[{"text":"Why?"}]}],"generationConfig":{"maxOutputTokens":64,"temperature":0.5},"systemInstruction":{"parts":[{"text":"Be brief."}]}}`},
	}
	for _, b := range bodies {
		got, err := Body(b.api, p)
		if err != nil || string(got) != b.want {
			t.Errorf("Body(%s) = %s, %v\nwant %s", b.api, got, err, b.want)
		}
	}
	tmpl := map[string]any{"model": "llama3", "stream": true, "messages": "{{messages}}", "prompt": "{{prompt}}", "options": map[string]any{"num_predict": "{{max_tokens}}"}, "tags": []any{"{{prompt}}", "x"}}
	got, err := Body(Custom, BodyParams{Messages: []Message{{Role: "user", Content: "Hi"}}, MaxTokens: 8, Template: tmpl})
	want := `{"messages":[{"role":"user","content":"Hi"}],"model":"llama3","options":{"num_predict":8},"prompt":"Hi","stream":true,"tags":["Hi","x"]}`
	if err != nil || string(got) != want {
		t.Errorf("custom body = %s, %v\nwant %s", got, err, want)
	}
	if b, err := Body(Custom, BodyParams{}); b != nil || err != nil {
		t.Errorf("custom body without a template = %q, %v; want none", b, err)
	}
	if p.MaxTokens = 0; true {
		got, _ := Body(Anthropic, p)
		if !strings.Contains(string(got), `"max_tokens":1024`) {
			t.Errorf("anthropic body without max_tokens: %s", got)
		}
	}
}

// TestEveryAPIAgainstTheSimulator: for every API, TTFT is exactly the
// injected delay behind the API's preamble events (role chunk,
// message_start and ping, response.created, a thought-signature-only part,
// Azure's empty-choices frame), TTFC is TTFT plus the reasoning time, and
// the token counts come from usage.
func TestEveryAPIAgainstTheSimulator(t *testing.T) {
	t.Parallel()
	const reasoning, answer = 4, 6
	gap := 10 * ms
	ollama := &StreamSpec{Format: "ndjson", Text: "/message/content", Reasoning: "/message/thinking", Done: "/done", OutputTokens: "/eval_count", InputTokens: "/prompt_eval_count"}
	tests := []struct {
		api    API
		base   string
		stream *StreamSpec
		cached int
		// reasoning tokens reported in usage (Anthropic and Ollama report none)
		reasoning int
	}{
		{api: Chat, base: "/v1", cached: 3, reasoning: reasoning},
		{api: Responses, base: "/v1", cached: 3, reasoning: reasoning},
		{api: Anthropic, base: "", cached: 3},
		{api: Gemini, base: "/v1beta", cached: 3, reasoning: reasoning},
		{api: Azure, base: "/openai/deployments/sim", cached: 3, reasoning: reasoning},
		{api: Custom, base: "/api/chat", stream: ollama},
	}
	for _, tt := range tests {
		t.Run(string(tt.api), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := sim.New(sim.Profile{TTFT: sim.Fixed(80 * ms), ITL: sim.Fixed(gap), Tokens: answer,
					Quirks: sim.Quirks{RoleChunk: true, KeepAlives: 2, ReasoningTokens: reasoning, CachedTokens: 3}}, 1)
				s.APIKey = "sk-sim-key"
				srv := clocktest.NewServer(t, s)
				rec := probeAPI(t, srv.Client(), tt.api, srv.URL+tt.base, tt.stream)
				exactly(t, "ttft", rec.TTFT, 80*ms)
				// The simulator sends on an absolute schedule, the
				// reasoning events first, one gap apart.
				exactly(t, "ttfc", rec.TTFC, 80*ms+reasoning*gap)
				exactly(t, "total", rec.Total, 80*ms+(reasoning+answer-1)*gap)
				if rec.FirstEvent != 0 && tt.api != Custom {
					t.Errorf("first_event %v, want 0: a preamble event right after the headers", rec.FirstEvent)
				}
				if rec.OutputTokens != reasoning+answer || rec.TokensSource != "usage" || rec.PromptTokens == 0 || rec.CachedTokens != tt.cached {
					t.Errorf("tokens %d from %q, prompt %d, cached %d; want %d from usage, prompt > 0, cached %d",
						rec.OutputTokens, rec.TokensSource, rec.PromptTokens, rec.CachedTokens, reasoning+answer, tt.cached)
				}
				if rec.ReasoningTokens != tt.reasoning || rec.PromptTokens != 12 {
					t.Errorf("reasoning tokens %d, prompt %d; want %d, 12", rec.ReasoningTokens, rec.PromptTokens, tt.reasoning)
				}
				if len(rec.ITL) != reasoning+answer-1 {
					t.Errorf("%d gaps, want %d", len(rec.ITL), reasoning+answer-1)
				}
			})
		})
	}
}

// probeAPI sends the test's prompt to an API's endpoint at base; the
// request must succeed.
func probeAPI(t *testing.T, client *http.Client, api API, base string, stream *StreamSpec) Record {
	t.Helper()
	params := BodyParams{Model: "m", MaxTokens: 64, Messages: []Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "hello there"}}}
	if api == Custom {
		params.Template = map[string]any{"model": "m", "messages": "{{messages}}", "options": map[string]any{"num_predict": "{{max_tokens}}"}}
	}
	b, err := Body(api, params)
	if err != nil {
		t.Fatal(err)
	}
	req := Request{API: api, URL: URL(api, Target{BaseURL: base, URL: base, Model: "m", APIVersion: "2024-10-21"}), Body: b, APIKey: "sk-sim-key", Stream: stream}
	rec := (&Prober{Client: client, Timeout: 10 * time.Second}).Do(context.Background(), req)
	if !rec.OK {
		t.Fatalf("request failed: %s", rec.Error)
	}
	return rec
}

// TestSimulatorFaultsPerAPI: the simulator's mid-stream errors and HTTP
// errors reach the probe as each API's provider message.
func TestSimulatorFaultsPerAPI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		api    API
		base   string
		faults sim.Faults
		err    string
	}{
		{Anthropic, "", sim.Faults{StreamErrRate: 1}, "error inside the stream: Overloaded [overloaded_error]"},
		{Responses, "/v1", sim.Faults{StreamErrRate: 1}, "error inside the stream: The model failed to generate a response (simulated). [server_error]"},
		{Gemini, "/v1beta", sim.Faults{StreamErrRate: 1}, "error inside the stream: An internal error has occurred (simulated). [INTERNAL]"},
		{Gemini, "/v1beta", sim.Faults{ErrorRate: 1, ErrorStatus: 403}, "HTTP 403 Forbidden: The server is overloaded (simulated 403)."},
		{Anthropic, "", sim.Faults{ErrorRate: 1, ErrorStatus: 529}, "HTTP 529: The server is overloaded (simulated 529). [server_error]"},
		{Custom, "/api/chat", sim.Faults{StreamErrRate: 1}, "error inside the stream: model runner has unexpectedly stopped (simulated)"},
		{Custom, "/api/chat", sim.Faults{TruncateRate: 1}, "truncated: stream ended without stream.done (/done) after 4 output events"},
		{Azure, "/openai/deployments/d", sim.Faults{TruncateRate: 1}, "truncated: stream ended without finish_reason or [DONE] after 4 output events"},
	}
	for _, tt := range tests {
		t.Run(string(tt.api)+" "+tt.err, func(t *testing.T) {
			srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 8, Faults: tt.faults}, 1))
			defer srv.Close()
			b, _ := Body(tt.api, BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}, Template: map[string]any{"messages": "{{messages}}"}})
			req := Request{API: tt.api, URL: URL(tt.api, Target{BaseURL: srv.URL + tt.base, URL: srv.URL + tt.base, Model: "m", APIVersion: "v"}), Body: b,
				Stream: &StreamSpec{Format: "ndjson", Text: "/message/content", Done: "/done", Error: "/error"}}
			rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), req)
			if rec.OK || rec.Error != tt.err {
				t.Errorf("ok %v error %q, want %q", rec.OK, rec.Error, tt.err)
			}
		})
	}
}

// TestBufferingProxyIsFlagged: the same stream through a buffering proxy
// (the simulator holding the whole body) is flagged, unbuffered it is not
// (24 tokens: enough to judge, BufferedEvents).
func TestBufferingProxyIsFlagged(t *testing.T) {
	t.Parallel()
	for _, buffered := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * ms), ITL: sim.Fixed(10 * ms), Tokens: 24, Quirks: sim.Quirks{RoleChunk: true, Buffered: buffered}}, 1))
			b, _ := Body(Chat, BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}})
			rec := (&Prober{Client: srv.Client(), Timeout: 5 * time.Second}).Do(context.Background(), Request{URL: URL(Chat, Target{BaseURL: srv.URL + "/v1"}), Body: b})
			if !rec.OK || rec.Buffered() != buffered {
				t.Errorf("buffered %v: ok %v (%s), Buffered() = %v, itl %v", buffered, rec.OK, rec.Error, rec.Buffered(), rec.ITL)
			}
			// Held back, the first token comes with the last, 23 gaps later.
			want := 20 * ms
			if buffered {
				want += 23 * 10 * ms
			}
			exactly(t, fmt.Sprintf("buffered %v: ttft", buffered), rec.TTFT, want)
		})
	}
}

// TestKeyNeverInErrorsWhateverTheHeader: a server that echoes the wrong
// key back gets it replaced by *** for every API's auth header, even when
// the caller passed no Secrets.
func TestKeyNeverInErrorsWhateverTheHeader(t *testing.T) {
	t.Parallel()
	s := sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)
	s.APIKey = "the-right-key"
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, api := range APIs() {
		if describe(api).Auth.Header == "" {
			continue // it sends no key (a page in a browser)
		}
		at, ok := sim.Where(string(api), srv.Listener.Addr().String(), false)
		if !ok {
			t.Errorf("%s: the simulator does not speak it (sim/api_NAME.go)", api)
			continue
		}
		b, _ := Body(api, BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "hi"}}, Template: map[string]any{}})
		req := Request{API: api, URL: URL(api, Target{BaseURL: at, URL: at, Model: "m", APIVersion: "v"}), Body: b, APIKey: "sk-wrong-secret", Stream: &StreamSpec{Format: "ndjson", Text: "/t"}}
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), req)
		if rec.Status != 401 || strings.Contains(rec.Error, "sk-wrong-secret") || !strings.Contains(rec.Error, "Incorrect API key provided: ***") {
			t.Errorf("%s: status %d, error %q", api, rec.Status, rec.Error)
		}
	}
}

// TestMisreadHintShowsTheTextEvents: a wrong text pointer is explained with
// the kind of event most of the stream is made of (its text), not with
// the first event (a start marker).
func TestMisreadHintShowsTheTextEvents(t *testing.T) {
	t.Parallel()
	d := &customDecoder{spec: StreamSpec{Format: "sse", Text: "/text"}}
	for _, ev := range []string{`{"type":"start","messageId":"m"}`, `{"type":"text-delta","delta":"He"}`, `{"type":"text-delta","delta":"llo"}`, `{"type":"finish"}`} {
		if _, err := d.decode(frame{Data: []byte(ev)}); err != nil {
			t.Fatal(err)
		}
	}
	if h := d.hint(nil); !strings.Contains(h, `(2 of 4) was: {"type":"text-delta","delta":"He"}`) {
		t.Errorf("hint %q", h)
	}
	// Reasoning alone (an answer cut by max_tokens) is a proper answer,
	// not a misread stream that stops the run.
	rec := derive(timeline{events: []event{{at: ms, reasoning: 3}, {at: 2 * ms, done: true}}, end: 2 * ms, hint: "stream.text /t matched no event"}, 10)
	if !rec.OK || rec.misread {
		t.Errorf("reasoning only: ok %v (%s), misread %v", rec.OK, rec.Error, rec.misread)
	}
}

package sim

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// uiChunkKeys are the keys each UI message chunk may hold: the AI SDK
// validates chunks with strict objects, so any other key is an error.
var uiChunkKeys = map[string][]string{
	"start":                 {"type", "messageId", "messageMetadata"},
	"start-step":            {"type"},
	"finish-step":           {"type"},
	"text-start":            {"type", "id", "providerMetadata"},
	"text-delta":            {"type", "id", "delta", "providerMetadata"},
	"text-end":              {"type", "id", "providerMetadata"},
	"reasoning-start":       {"type", "id", "providerMetadata"},
	"reasoning-delta":       {"type", "id", "delta", "providerMetadata"},
	"reasoning-end":         {"type", "id", "providerMetadata"},
	"tool-input-start":      {"type", "toolCallId", "toolName", "providerExecuted", "providerMetadata", "dynamic", "title"},
	"tool-input-delta":      {"type", "toolCallId", "inputTextDelta"},
	"tool-input-available":  {"type", "toolCallId", "toolName", "input", "providerExecuted", "providerMetadata", "dynamic", "title"},
	"tool-output-available": {"type", "toolCallId", "output", "providerExecuted", "dynamic", "preliminary"},
	"finish":                {"type", "finishReason", "messageMetadata"},
	"error":                 {"type", "errorText"},
}

// uiChunks reads a UI message stream: each chunk's type (and [DONE]) with
// when it arrived, and the chunks themselves, checked against the
// protocol's strict shapes.
func uiChunks(t *testing.T, frames []sseFrame) (timeline []string, chunks []map[string]any) {
	t.Helper()
	for _, f := range frames {
		if f.data == "[DONE]" {
			timeline = append(timeline, fmt.Sprintf("[DONE]@%v", f.at))
			continue
		}
		var c map[string]any
		mustJSON(t, f.data, &c)
		typ, _ := c["type"].(string)
		allowed, ok := uiChunkKeys[typ]
		for k := range c {
			if !ok || !slices.Contains(allowed, k) {
				t.Errorf("chunk %s: key %q is not in the protocol", f.data, k)
			}
		}
		timeline = append(timeline, fmt.Sprintf("%s@%v", typ, f.at))
		chunks = append(chunks, c)
	}
	return timeline, chunks
}

const useChatBody = `{"id":"chat-1","trigger":"submit-message","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"Where is order 42?"}]}]}`

// TestAISDKRoute: /api/chat with useChat's body answers with the UI
// message stream, server-driven: ToolSteps tool steps (input streamed at
// the TTFT then one ITL per delta, the tool's output ToolLatency after its
// input is complete, the next step's first output a TTFT after that), then
// the answer, then finish and [DONE]; every time exact on the virtual clock.
func TestAISDKRoute(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := Profile{HeaderDelay: 5 * time.Millisecond, TTFT: Fixed(300 * time.Millisecond), ITL: Fixed(20 * time.Millisecond), Tokens: 3,
			ToolSteps: 2, ToolArgs: 16, ToolChunk: 8, ToolLatency: 150 * time.Millisecond}
		srv := clocktest.NewServer(t, New(p, 1))
		h, frames := sseFrames(t, srv, "/api/chat", useChatBody)
		if h.Get("x-vercel-ai-ui-message-stream") != "v1" || h.Get("Content-Type") != "text/event-stream" {
			t.Errorf("headers %v", h)
		}
		got, chunks := uiChunks(t, frames)
		want := strings.Fields(`start@5ms start-step@5ms
			tool-input-start@300ms tool-input-delta@300ms tool-input-delta@320ms tool-input-available@320ms
			tool-output-available@470ms finish-step@470ms start-step@470ms
			tool-input-start@770ms tool-input-delta@770ms tool-input-delta@790ms tool-input-available@790ms
			tool-output-available@940ms finish-step@940ms start-step@940ms
			text-start@1.24s text-delta@1.24s text-delta@1.26s text-delta@1.28s text-end@1.28s
			finish-step@1.28s finish@1.28s [DONE]@1.28s`)
		if !slices.Equal(got, want) {
			t.Errorf("stream:\n%v\nwant\n%v", got, want)
		}
		ids := map[string]bool{}
		for _, c := range chunks {
			switch c["type"] {
			case "tool-input-available":
				id, _ := c["toolCallId"].(string)
				in, ok := c["input"].(map[string]any)
				if ids[id] || !ok || len(in) == 0 || c["toolName"] != aiSDKTool {
					t.Errorf("tool call %v: id not unique or input not an object", c)
				}
				ids[id] = true
			case "tool-output-available":
				if !ids[c["toolCallId"].(string)] || c["output"] == nil {
					t.Errorf("output %v of no call", c)
				}
			case "finish":
				if c["finishReason"] != "stop" {
					t.Errorf("finish %v", c)
				}
			}
		}
	})
}

// TestAISDKRouteReasonsAndRunsParallelTools: with the ReasoningTokens
// quirk each step reasons first (reasoning-start, -delta, -end); two
// parallel calls each get their output ToolLatency after their own input,
// and the step ends with the last output.
func TestAISDKRouteReasonsAndRunsParallelTools(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := Profile{TTFT: Fixed(100 * time.Millisecond), ITL: Fixed(10 * time.Millisecond), Tokens: 1,
			ToolSteps: 1, ToolCalls: 2, ToolArgs: 8, ToolLatency: 15 * time.Millisecond, Quirks: Quirks{ReasoningTokens: 1}}
		srv := clocktest.NewServer(t, New(p, 1))
		_, frames := sseFrames(t, srv, "/api/chat", useChatBody)
		got, _ := uiChunks(t, frames)
		want := strings.Fields(`start@0s start-step@0s
			reasoning-start@100ms reasoning-delta@100ms
			reasoning-end@110ms tool-input-start@110ms tool-input-delta@110ms tool-input-available@110ms
			tool-input-start@120ms tool-input-delta@120ms tool-input-available@120ms
			tool-output-available@125ms tool-output-available@135ms finish-step@135ms start-step@135ms
			reasoning-start@235ms reasoning-delta@235ms reasoning-end@245ms text-start@245ms text-delta@245ms text-end@245ms
			finish-step@245ms finish@245ms [DONE]@245ms`)
		if !slices.Equal(got, want) {
			t.Errorf("stream:\n%v\nwant\n%v", got, want)
		}
	})
}

// TestLocalChatIsOllamaOrAISDK: /api/chat serves Ollama's NDJSON to an
// Ollama body and the UI message stream to useChat's (UI messages with
// parts, a trigger).
func TestLocalChatIsOllamaOrAISDK(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body  string
		aiSDK bool
	}{
		{`{"model":"llama3","messages":[{"role":"user","content":"hi there"}]}`, false},
		{`{"messages":[{"role":"user","content":"hi there"}],"stream":false}`, false},
		{`{"id":"c","trigger":"submit-message","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi there"}]}]}`, true},
		{`{"messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi there"}]}]}`, true},
	} {
		q, err := parseLocalChat(strings.NewReader(tt.body))
		if err != nil || q.aiSDK != tt.aiSDK || q.stream != (tt.aiSDK || !strings.Contains(tt.body, "false")) || q.promptTokens != 6 {
			t.Errorf("%s: ai-sdk %v, stream %v, prompt %d, %v; want ai-sdk %v, 6 prompt tokens", tt.body, q.aiSDK, q.stream, q.promptTokens, err, tt.aiSDK)
		}
	}
}

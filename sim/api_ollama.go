package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// apiOllama is Ollama's native /api/chat (NDJSON): api ollama, and api
// custom with a stream spec of its lines (api_custom.go); a body of the AI
// SDK's useChat on the same path is the AI SDK route's.
const apiOllama api = "ollama"

func init() {
	registerAPI(simAPI{
		name: apiOllama, order: 55, about: "Ollama's native /api/chat, NDJSON", at: "base_url %[2]s://%[1]s",
		match:     func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/api/chat" },
		parse:     func(_ *http.Request, body io.Reader) (request, error) { return parseLocalChat(body) },
		encoder:   func(rs response) encoder { return &ollamaEnc{model: rs.q.model} },
		errorBody: func(_ int, _, msg string) any { return map[string]any{"error": msg} },
		ndjson:    true, wholeCalls: true,
	})
}

// parseLocalChat reads a body on /api/chat: Ollama's (messages with
// content, tools as chat's, an assistant's calls in tool_calls and their
// results as role tool messages; it streams by default) or the AI SDK's
// useChat (UI messages with parts; useChat also sends a trigger).
func parseLocalChat(body io.Reader) (request, error) {
	var q request
	v := struct {
		Model    string            `json:"model"`
		Stream   *bool             `json:"stream"`
		Trigger  string            `json:"trigger"` // useChat's: submit-message, regenerate-message
		Messages []json.RawMessage `json:"messages"`
		Tools    json.RawMessage   `json:"tools"`
		Options  struct {
			NumPredict int `json:"num_predict"`
		} `json:"options"`
	}{}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.includeUsage = v.Model, v.Options.NumPredict, true
	q.stream = v.Stream == nil || *v.Stream // Ollama streams by default; the AI SDK always does
	q.aiSDK = v.Trigger != ""
	msgs := make([]struct {
		Role      string          `json:"role"`
		Parts     json.RawMessage `json:"parts"`
		ToolCalls json.RawMessage `json:"tool_calls"`
	}, len(v.Messages))
	for i, raw := range v.Messages {
		_ = json.Unmarshal(raw, &msgs[i])
		q.aiSDK = q.aiSDK || len(msgs[i].Parts) > 0
	}
	a := apiOllama
	if q.aiSDK {
		a, q.stream = apiAISDK, true
	} else {
		q.tools = functionNames(v.Tools)
	}
	c := newConvo(&q, a, v.Tools)
	for i, raw := range v.Messages {
		c.add(raw, textOf(raw)+" "+textOf(msgs[i].ToolCalls), msgs[i].Role == "tool")
	}
	return q, nil
}

// ollamaEnc writes Ollama's native /api/chat NDJSON lines: a tool call
// whole in one line, its arguments an object; the last line done, with
// the counts and the engine's durations.
type ollamaEnc struct{ model string }

func (e *ollamaEnc) preamble(*sseWriter) {}

func (e *ollamaEnc) line(msg map[string]any, done bool) map[string]any {
	return map[string]any{"model": e.model, "created_at": "2026-01-01T00:00:00Z", "message": msg, "done": done}
}

func (e *ollamaEnc) output(sw *sseWriter, ev outputEvent) {
	msg := map[string]any{"role": "assistant", "content": ev.text}
	switch ev.kind {
	case kindReasoning:
		msg = map[string]any{"role": "assistant", "content": "", "thinking": ev.text}
	case kindTool:
		call := map[string]any{"id": ev.call.id, "function": map[string]any{"index": ev.call.index, "name": ev.call.name, "arguments": argsObject(ev.text)}}
		msg = map[string]any{"role": "assistant", "content": "", "tool_calls": []any{call}}
	}
	sw.data(jsonOf(e.line(msg, false)))
}

func (e *ollamaEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	if finish == "tool_calls" {
		finish = "stop" // Ollama ends a turn of tool calls as any other
	}
	l := e.line(map[string]any{"role": "assistant", "content": ""}, true)
	l["done_reason"], l["prompt_eval_count"], l["eval_count"] = finish, u.prompt, u.output
	if u.eng != nil {
		u.eng.ollamaDone(l)
	}
	sw.data(jsonOf(l))
}

func (e *ollamaEnc) fail(sw *sseWriter) {
	sw.data([]byte(fmt.Sprintf(`{"error":%q}`, "model runner has unexpectedly stopped (simulated)")))
}

package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// apiOllama is Ollama's native /api/chat (NDJSON), for api: custom; a body
// of the AI SDK's useChat on the same path is the AI SDK route's.
const apiOllama api = "ollama"

func init() {
	registerAPI(simAPI{
		name: apiOllama, order: 60, shown: "custom", about: "Ollama-style NDJSON", at: "url %[2]s://%[1]s/api/chat",
		match:     func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/api/chat" },
		parse:     func(_ *http.Request, body io.Reader) (request, error) { return parseLocalChat(body) },
		encoder:   func(rs response) encoder { return &ollamaEnc{model: rs.q.model} },
		errorBody: func(_ int, _, msg string) any { return map[string]any{"error": msg} },
		ndjson:    true,
	})
}

// parseLocalChat reads a body on /api/chat: Ollama's (messages with
// content; it streams by default) or the AI SDK's useChat (UI messages
// with parts; useChat also sends a trigger).
func parseLocalChat(body io.Reader) (request, error) {
	var q request
	v := struct {
		Model    string            `json:"model"`
		Stream   *bool             `json:"stream"`
		Trigger  string            `json:"trigger"` // useChat's: submit-message, regenerate-message
		Messages []json.RawMessage `json:"messages"`
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
	a := apiOllama
	for _, raw := range v.Messages {
		var m struct {
			Parts json.RawMessage `json:"parts"`
		}
		_ = json.Unmarshal(raw, &m)
		q.aiSDK = q.aiSDK || len(m.Parts) > 0
	}
	if q.aiSDK {
		a, q.stream = apiAISDK, true
	}
	c := newConvo(&q, a, nil)
	for _, raw := range v.Messages {
		c.add(raw, textOf(raw), false)
	}
	return q, nil
}

// ollamaEnc writes Ollama's native /api/chat NDJSON lines.
type ollamaEnc struct{ model string }

func (e *ollamaEnc) preamble(*sseWriter) {}

func (e *ollamaEnc) line(msg map[string]any, done bool) map[string]any {
	return map[string]any{"model": e.model, "created_at": "2026-01-01T00:00:00Z", "message": msg, "done": done}
}

func (e *ollamaEnc) output(sw *sseWriter, ev outputEvent) {
	msg := map[string]any{"role": "assistant", "content": ev.text}
	if ev.kind == kindReasoning {
		msg = map[string]any{"role": "assistant", "content": "", "thinking": ev.text}
	}
	sw.data(jsonOf(e.line(msg, false)))
}

func (e *ollamaEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
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

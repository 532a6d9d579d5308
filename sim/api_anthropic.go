package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

const apiAnthropic api = "anthropic"

func init() {
	registerAPI(simAPI{
		name: apiAnthropic, order: 30, at: "base_url %[2]s://%[1]s",
		match:   func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/v1/messages" },
		key:     func(r *http.Request) string { return r.Header.Get("x-api-key") },
		parse:   func(_ *http.Request, body io.Reader) (request, error) { return parseAnthropic(body) },
		encoder: func(response) encoder { return &anthropicEnc{} },
		errorBody: func(_ int, typ, msg string) any {
			return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
		},
	})
}

// parseAnthropic reads an Anthropic Messages body: the system prompt,
// messages whose content is a string or blocks (text, tool_use, and
// tool_result in a user message), tools {name, input_schema}.
func parseAnthropic(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model     string            `json:"model"`
		MaxTokens int               `json:"max_tokens"`
		Stream    bool              `json:"stream"`
		System    json.RawMessage   `json:"system"`
		Messages  []json.RawMessage `json:"messages"`
		Tools     json.RawMessage   `json:"tools"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxTokens, v.Stream, true
	var tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		if t.Type == "" || t.Type == "custom" { // not a server tool (web search, …)
			q.tools = appendName(q.tools, t.Name)
		}
	}
	c := newConvo(&q, apiAnthropic, v.Tools)
	if len(v.System) > 0 && string(v.System) != "null" {
		c.add(v.System, textOf(v.System), false)
	}
	for _, raw := range v.Messages {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return q, err
		}
		var blocks []struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(m.Content, &blocks)
		results := false
		for _, b := range blocks {
			results = results || b.Type == "tool_result"
		}
		c.add(raw, textOf(m.Content), results)
	}
	return q, nil
}

// anthropicEnc writes Anthropic Messages events: content blocks (thinking,
// text, tool_use) each opened by content_block_start, streamed by
// content_block_delta and closed by content_block_stop.
type anthropicEnc struct {
	index int
	open  bool
	cur   kind // the kind of the open block
}

func (e *anthropicEnc) preamble(sw *sseWriter) {
	sw.event("message_start", jsonOf(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_sim", "type": "message", "role": "assistant",
		"content": []any{}, "model": "sim", "stop_reason": nil, "usage": map[string]any{"input_tokens": 0, "output_tokens": 1}}}))
	sw.event("ping", []byte(`{"type": "ping"}`))
}

// stop closes the open block (a thinking block with its signature).
func (e *anthropicEnc) stop(sw *sseWriter) {
	if !e.open {
		return
	}
	if e.cur == kindReasoning {
		sw.event("content_block_delta", jsonOf(map[string]any{"type": "content_block_delta", "index": e.index, "delta": map[string]any{"type": "signature_delta", "signature": "EqQBCgIYAhIMsim"}}))
	}
	sw.event("content_block_stop", jsonOf(map[string]any{"type": "content_block_stop", "index": e.index}))
	e.index++
	e.open = false
}

// block opens the block of event ev unless it is open: a new kind, or a
// tool call's first piece.
func (e *anthropicEnc) block(sw *sseWriter, ev outputEvent) {
	if e.open && e.cur == ev.kind && !(ev.kind == kindTool && ev.first) {
		return
	}
	e.stop(sw)
	cb := map[string]any{"type": "text", "text": ""}
	switch ev.kind {
	case kindReasoning:
		cb = map[string]any{"type": "thinking", "thinking": ""}
	case kindTool:
		id := "toolu_" + strings.TrimPrefix(ev.call.id, "call_")
		cb = map[string]any{"type": "tool_use", "id": id, "name": ev.call.name, "input": map[string]any{}}
	}
	sw.event("content_block_start", jsonOf(map[string]any{"type": "content_block_start", "index": e.index, "content_block": cb}))
	e.open, e.cur = true, ev.kind
}

func (e *anthropicEnc) output(sw *sseWriter, ev outputEvent) {
	e.block(sw, ev)
	d := map[string]any{"type": "text_delta", "text": ev.text}
	switch ev.kind {
	case kindReasoning:
		d = map[string]any{"type": "thinking_delta", "thinking": ev.text}
	case kindTool:
		d = map[string]any{"type": "input_json_delta", "partial_json": ev.text}
	}
	sw.event("content_block_delta", jsonOf(map[string]any{"type": "content_block_delta", "index": e.index, "delta": d}))
	if ev.kind == kindTool && ev.last {
		e.stop(sw)
	}
}

func (e *anthropicEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	e.stop(sw)
	stop := map[string]string{"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}[finish]
	sw.event("message_delta", jsonOf(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"input_tokens": u.prompt - u.cached, "cache_read_input_tokens": u.cached, "output_tokens": u.output}}))
	sw.event("message_stop", []byte(`{"type":"message_stop"}`))
}

func (e *anthropicEnc) fail(sw *sseWriter) {
	sw.event("error", []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
}

package probe

import (
	"bytes"
	"encoding/json"

	"github.com/latgate/latgate/apis"
)

// Ollama is Ollama's native /api/chat: NDJSON lines, its own durations on
// the last one (docs/metrics.md).
const Ollama API = "ollama"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Ollama), Order: 55,
			Keys: []string{apis.BaseURL},
			// Ollama's own address, without /v1 (its OpenAI-compatible
			// routes are api chat's and responses').
			Address:    apis.Address{Key: apis.BaseURL, Example: "http://127.0.0.1:11434", Path: "/api/chat", Ends: []string{"/api/chat"}, Prefix: "/v1", Models: "/api/tags"},
			NeedsModel: true, Auth: bearer,
			Tools: apis.ClientTools, Turns: true,
			OTel: apis.OTel{Operation: "chat"},
		},
		url:          fixedURL("/api/chat"),
		body:         func(p BodyParams) any { return ollamaBody(p) },
		wire:         func(Request) wire { return ollamaWire },
		serverTiming: []*timingForm{formOllama},
	})
}

// ollamaWire is Ollama's /api/chat stream: one JSON object a line, the
// last with "done": true.
var ollamaWire = wire{framing: framingNDJSON, newDecoder: func() decoder { return &ollamaDecoder{} }, ends: `a line with "done": true`}

// ollamaLine is what the metrics read of one line of Ollama's stream
// (api.ChatResponse in ollama/ollama's api/types.go): message.content,
// message.thinking and message.tool_calls (each call whole, its
// arguments an object), done and done_reason, the token counts on the
// last line (left out when 0), or an error.
type ollamaLine struct {
	Message struct {
		Content   string `json:"content"`
		Thinking  string `json:"thinking"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"message"`
	Done            bool            `json:"done"`
	DoneReason      string          `json:"done_reason"`
	PromptEvalCount int             `json:"prompt_eval_count"`
	EvalCount       int             `json:"eval_count"`
	Error           json.RawMessage `json:"error"`
}

// ollamaDecoder numbers the tool calls of an answer: each arrives whole.
type ollamaDecoder struct{ calls int }

func (d *ollamaDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	var l ollamaLine
	if err := json.Unmarshal(data, &l); err != nil {
		return e, err
	}
	if len(l.Error) > 0 && string(l.Error) != "null" {
		e.err = errorText(l.Error, data)
		return e, nil
	}
	e.content, e.text, e.reasoning = len(l.Message.Content), l.Message.Content, len(l.Message.Thinking)
	for _, c := range l.Message.ToolCalls {
		args := string(c.Function.Arguments)
		if args == "" || args == "null" {
			args = "{}"
		}
		e.tool += len(args)
		e.calls = append(e.calls, callPart{index: d.calls, id: c.ID, name: c.Function.Name, args: args})
		e.callsDone++
		e.toolStart = true
		d.calls++
	}
	if l.Done {
		e.done, e.finish = true, l.DoneReason
		if e.finish == "" {
			e.finish = "stop"
		}
		e.usage = &usage{prompt: l.PromptEvalCount, output: l.EvalCount}
	}
	return e, nil
}

// ollamaBody is Ollama's /api/chat request: the messages (an assistant's
// tool calls with their arguments as an object, a tool's result as role
// tool naming it by tool_name), the tools as chat's, and the output limit
// and temperature as options.
func ollamaBody(p BodyParams) map[string]any {
	msgs := make([]map[string]any, 0, len(p.Messages))
	for _, m := range p.Messages {
		msg := map[string]any{"role": m.Role, "content": m.Content}
		switch {
		case m.Role == "tool":
			msg["tool_name"] = m.Name
			if m.ToolCallID != "" {
				msg["tool_call_id"] = m.ToolCallID
			}
		case len(m.ToolCalls) > 0:
			calls := make([]map[string]any, len(m.ToolCalls))
			for i, c := range m.ToolCalls {
				calls[i] = map[string]any{"function": map[string]any{"name": c.Name, "arguments": argsObject(c.Arguments)}}
				if c.ID != "" {
					calls[i]["id"] = c.ID
				}
			}
			msg["tool_calls"] = calls
		}
		msgs = append(msgs, msg)
	}
	b := map[string]any{"model": p.Model, "messages": msgs, "stream": true}
	if len(p.Tools) > 0 {
		tools := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			tools[i] = map[string]any{"type": "function", "function": map[string]any{"name": t.Name, "description": t.Description, "parameters": schemaOf(t)}}
		}
		b["tools"] = tools
	}
	opts := map[string]any{}
	if p.MaxTokens > 0 {
		opts["num_predict"] = p.MaxTokens
	}
	putTemperature(opts, p.Temperature)
	if len(opts) > 0 {
		b["options"] = opts
	}
	return b
}

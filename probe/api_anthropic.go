package probe

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/latgate/latgate/apis"
)

// Anthropic is Anthropic Messages.
const Anthropic API = "anthropic"

// AnthropicVersion is sent as anthropic-version unless Headers set one.
const AnthropicVersion = "2023-06-01"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Anthropic), Order: 30,
			Keys: []string{apis.BaseURL},
			Address: apis.Address{Key: apis.BaseURL, Default: "https://api.anthropic.com", Path: "/v1/messages",
				Ends: []string{"/messages"}, Prefix: "/v1", Models: "/v1/models"},
			NeedsModel: true, Auth: apis.Auth{Header: "x-api-key"},
			Tools: apis.ClientTools, Turns: true,
			OTel: apis.OTel{Provider: "anthropic"},
			Init: &apis.Init{KeyEnv: "ANTHROPIC_API_KEY", Model: "claude-3-5-haiku-latest"},
		},
		url:     fixedURL("/v1/messages"),
		headers: map[string]string{"anthropic-version": AnthropicVersion},
		body:    func(p BodyParams) any { return anthropicBody(p) },
		wire:    func(Request) wire { return anthropicWire },
		// A LiteLLM proxy serves Anthropic's Messages too.
		serverTiming: []*timingForm{formLiteLLM},
	})
}

// anthropicWire is Anthropic Messages: message_start (input usage), ping,
// content_block_start, content_block_delta (text_delta visible;
// thinking_delta and input_json_delta output too; signature_delta not),
// message_delta (stop_reason and output usage), message_stop (the end);
// event: error is the provider's error (e.g. overloaded_error).
var anthropicWire = wire{framing: framingSSE, newDecoder: func() decoder { return &anthropicDecoder{} }, ends: "message_stop"}

// anthropicDecoder merges the usage of message_start (input, cache) with
// message_delta's (output, and in newer versions cumulative input): each
// count keeps its latest report.
type anthropicDecoder struct {
	u                    usage
	input, read, created int
	tools                map[int]bool // content blocks that are tool_use
}

type anthropicUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
}

// anthropicEvent is the part of an Anthropic Messages event the decoder
// reads.
type anthropicEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock *struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"`
	Message *struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func (d *anthropicDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	var v anthropicEvent
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	typ := v.Type
	if typ == "" {
		typ = f.Name
	}
	switch typ {
	case "message_start":
		if v.Message != nil && v.Message.Usage != nil {
			d.merge(v.Message.Usage)
			e.usage = d.snapshot()
		}
	case "content_block_start":
		if b := v.ContentBlock; b != nil && (b.Type == "tool_use" || b.Type == "server_tool_use") {
			if d.tools == nil {
				d.tools = map[int]bool{}
			}
			d.tools[v.Index] = true
			e.toolStart = true
			e.calls = []callPart{{index: v.Index, id: b.ID, name: b.Name}}
		}
	case "content_block_delta":
		if dl := v.Delta; dl != nil {
			e.content, e.reasoning, e.tool = len(dl.Text), len(dl.Thinking), len(dl.PartialJSON)
			e.text = dl.Text
			if dl.PartialJSON != "" {
				e.calls = []callPart{{index: v.Index, args: dl.PartialJSON}}
			}
		}
	case "content_block_stop":
		if d.tools[v.Index] {
			e.callsDone = 1
		}
	case "message_delta":
		if v.Delta != nil && v.Delta.StopReason != "" {
			e.finish = v.Delta.StopReason
		}
		if v.Usage != nil {
			d.merge(v.Usage)
			e.usage = d.snapshot()
		}
	case "message_stop":
		e.done = true
	case "error":
		e.err = "error"
		if v.Error != nil {
			e.err = v.Error.Message
			if v.Error.Type != "" {
				e.err += " [" + v.Error.Type + "]"
			}
		}
	}
	return e, nil
}

// merge keeps the latest count of each kind. Anthropic's input_tokens
// excludes cached input, so prompt tokens are input + cache read + cache
// creation, and cached the cache reads.
func (d *anthropicDecoder) merge(u *anthropicUsage) {
	for _, c := range []struct {
		src *int
		dst *int
	}{{u.OutputTokens, &d.u.output}, {u.InputTokens, &d.input}, {u.CacheReadInputTokens, &d.read}, {u.CacheCreationInputTokens, &d.created}} {
		if c.src != nil {
			*c.dst = *c.src
		}
	}
	d.u.prompt, d.u.cached = d.input+d.read+d.created, d.read
}

func (d *anthropicDecoder) snapshot() *usage { u := d.u; return &u }

// anthropicBody is Anthropic Messages: the system prompt apart, an
// assistant's tool calls as tool_use blocks, their results as tool_result
// blocks of one user message.
func anthropicBody(p BodyParams) map[string]any {
	var system []string
	var msgs []map[string]any
	for _, m := range p.Messages {
		switch {
		case m.Role == "system":
			system = append(system, m.Content)
		case m.Role == "tool":
			block := map[string]any{"type": "tool_result", "tool_use_id": m.ToolCallID, "content": m.Content}
			if n := len(msgs); n > 0 && msgs[n-1]["role"] == "user" {
				if blocks, ok := msgs[n-1]["content"].([]map[string]any); ok {
					msgs[n-1]["content"] = append(blocks, block) // results of one step share a message
					continue
				}
			}
			msgs = append(msgs, map[string]any{"role": "user", "content": []map[string]any{block}})
		case len(m.ToolCalls) > 0:
			var blocks []map[string]any
			if m.Content != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": m.Content})
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": argsObject(c.Arguments)})
			}
			msgs = append(msgs, map[string]any{"role": "assistant", "content": blocks})
		default:
			msgs = append(msgs, map[string]any{"role": m.Role, "content": m.Content})
		}
	}
	b := map[string]any{"model": p.Model, "messages": anthropicOrdered(msgs), "stream": true, "max_tokens": p.MaxTokens}
	if p.MaxTokens <= 0 {
		b["max_tokens"] = 1024
	}
	if len(system) > 0 {
		b["system"] = strings.Join(system, "\n\n")
	}
	if len(p.Tools) > 0 {
		tools := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			tools[i] = map[string]any{"name": t.Name, "description": t.Description, "input_schema": schemaOf(t)}
		}
		b["tools"] = tools
	}
	putTemperature(b, p.Temperature)
	return b
}

// anthropicOrdered writes plain messages as {"role":…,"content":…} (the
// order the API's documentation shows), the others as they are.
func anthropicOrdered(msgs []map[string]any) []any {
	out := make([]any, len(msgs))
	for i, m := range msgs {
		if c, ok := m["content"].(string); ok {
			out[i] = Message{Role: m["role"].(string), Content: c}
			continue
		}
		out[i] = m
	}
	return out
}

package probe

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Message is one message of a conversation, in the probe's own form; each
// API's body writes it in that API's format.
type Message struct {
	Role    string // system, user, assistant or tool
	Content string
	// ToolCalls are the calls an assistant message made (a step's answer
	// in a session's tool loop).
	ToolCalls []ToolCall
	// ToolCallID answers the call with that id (role tool); Name is the
	// tool's name (Gemini answers a call by it).
	ToolCallID, Name string
}

// ToolCall is one call of a tool by the model: Arguments is the JSON text
// the model streamed.
type ToolCall struct {
	ID, Name, Arguments string
}

// ToolSpec is a tool offered to the model: its name, description and the
// JSON Schema of its arguments (an object schema; nil: no arguments).
type ToolSpec struct {
	Name, Description string
	Parameters        json.RawMessage
}

// BodyParams are the plain values a request body is built from.
type BodyParams struct {
	Model       string
	Messages    []Message
	Tools       []ToolSpec
	MaxTokens   int      // 0: the API's default (Anthropic requires one: 1024)
	Temperature *float64 // nil: the API's default
	// Template is a Custom endpoint's body (decoded JSON or YAML; nil for
	// no body): every string that is exactly "{{prompt}}" (the last
	// message's content), "{{messages}}" or "{{max_tokens}}" is replaced
	// by that value. For AISDK it replaces the default body of useChat.
	Template any
	// Audio asks a Realtime endpoint to answer in audio (with a transcript)
	// instead of text.
	Audio bool
}

// Body builds the streaming request body of api: one builder per API.
func Body(api API, p BodyParams) ([]byte, error) {
	var b any
	switch api {
	case Responses:
		b = responsesBody(p)
	case Anthropic:
		b = anthropicBody(p)
	case Gemini:
		b = geminiBody(p)
	case Custom:
		if p.Template == nil {
			return nil, nil // no body (e.g. a GET endpoint)
		}
		b = fillTemplate(p.Template, p, p.Messages)
	case Realtime:
		b = realtimeBody(p)
	case AISDK:
		if p.Template != nil {
			b = fillTemplate(p.Template, p, uiMessages(p.Messages))
		} else {
			b = map[string]any{"messages": uiMessages(p.Messages)}
		}
	default: // Chat and Azure
		b = chatBody(p)
	}
	return json.Marshal(b)
}

func putTemperature(b map[string]any, t *float64) {
	if t != nil {
		b["temperature"] = *t
	}
}

// schemaOf is a tool's parameter schema, an empty object schema when it
// declares none.
func schemaOf(t ToolSpec) json.RawMessage {
	if len(t.Parameters) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return t.Parameters
}

// argsObject is a call's arguments as a JSON object (what Anthropic's
// tool_use input and Gemini's functionCall args hold); malformed or
// non-object arguments become {}.
func argsObject(args string) json.RawMessage {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil || m == nil {
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(args)
}

// chatBody is OpenAI chat completions (and Azure): assistant tool calls in
// tool_calls, results as role tool messages.
func chatBody(p BodyParams) map[string]any {
	msgs := make([]any, 0, len(p.Messages))
	for _, m := range p.Messages {
		switch {
		case m.Role == "tool":
			msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": m.ToolCallID, "content": m.Content})
		case len(m.ToolCalls) > 0:
			calls := make([]map[string]any, len(m.ToolCalls))
			for i, c := range m.ToolCalls {
				calls[i] = map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
			}
			msg := map[string]any{"role": "assistant", "tool_calls": calls, "content": nil}
			if m.Content != "" {
				msg["content"] = m.Content
			}
			msgs = append(msgs, msg)
		default:
			msgs = append(msgs, m)
		}
	}
	b := map[string]any{"model": p.Model, "messages": msgs, "stream": true, "stream_options": map[string]any{"include_usage": true}}
	if p.MaxTokens > 0 {
		b["max_tokens"] = p.MaxTokens
	}
	if len(p.Tools) > 0 {
		tools := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			tools[i] = map[string]any{"type": "function", "function": map[string]any{"name": t.Name, "description": t.Description, "parameters": schemaOf(t)}}
		}
		b["tools"] = tools
	}
	putTemperature(b, p.Temperature)
	return b
}

// responsesBody is the OpenAI Responses API: input items; a tool call is a
// function_call item, its result a function_call_output item.
func responsesBody(p BodyParams) map[string]any {
	var input []any
	for _, m := range p.Messages {
		switch {
		case m.Role == "tool":
			input = append(input, map[string]any{"type": "function_call_output", "call_id": m.ToolCallID, "output": m.Content})
		case len(m.ToolCalls) > 0:
			if m.Content != "" {
				input = append(input, Message{Role: "assistant", Content: m.Content})
			}
			for _, c := range m.ToolCalls {
				input = append(input, map[string]any{"type": "function_call", "call_id": c.ID, "name": c.Name, "arguments": c.Arguments})
			}
		default:
			input = append(input, m)
		}
	}
	b := map[string]any{"model": p.Model, "input": input, "stream": true}
	if p.MaxTokens > 0 {
		b["max_output_tokens"] = p.MaxTokens
	}
	if len(p.Tools) > 0 {
		tools := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			tools[i] = map[string]any{"type": "function", "name": t.Name, "description": t.Description, "parameters": schemaOf(t)}
		}
		b["tools"] = tools
	}
	putTemperature(b, p.Temperature)
	return b
}

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

// geminiBody is Gemini generateContent: roles user and model, a call as a
// functionCall part, its result as a functionResponse part (an object).
func geminiBody(p BodyParams) map[string]any {
	type content struct {
		Role  string           `json:"role,omitempty"`
		Parts []map[string]any `json:"parts"`
	}
	var system []map[string]any
	var contents []content
	for _, m := range p.Messages {
		switch {
		case m.Role == "system":
			system = append(system, map[string]any{"text": m.Content})
		case m.Role == "tool":
			part := map[string]any{"functionResponse": map[string]any{"name": m.Name, "response": responseObject(m.Content)}}
			if n := len(contents); n > 0 && contents[n-1].Role == "user" && isFunctionResponse(contents[n-1].Parts) {
				contents[n-1].Parts = append(contents[n-1].Parts, part)
				continue
			}
			contents = append(contents, content{Role: "user", Parts: []map[string]any{part}})
		case m.Role == "assistant":
			var parts []map[string]any
			if m.Content != "" || len(m.ToolCalls) == 0 {
				parts = append(parts, map[string]any{"text": m.Content})
			}
			for _, c := range m.ToolCalls {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": argsObject(c.Arguments)}})
			}
			contents = append(contents, content{Role: "model", Parts: parts})
		default:
			contents = append(contents, content{Role: "user", Parts: []map[string]any{{"text": m.Content}}})
		}
	}
	b := map[string]any{"contents": contents}
	if len(system) > 0 {
		b["systemInstruction"] = content{Parts: system}
	}
	if len(p.Tools) > 0 {
		decls := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			decls[i] = map[string]any{"name": t.Name, "description": t.Description, "parameters": schemaOf(t)}
		}
		b["tools"] = []map[string]any{{"functionDeclarations": decls}}
	}
	gen := map[string]any{}
	if p.MaxTokens > 0 {
		gen["maxOutputTokens"] = p.MaxTokens
	}
	putTemperature(gen, p.Temperature)
	if len(gen) > 0 {
		b["generationConfig"] = gen
	}
	return b
}

// responseObject is a tool result as Gemini's functionResponse.response, an
// object: the result itself when it is a JSON object, else {"result": …}.
func responseObject(result string) json.RawMessage {
	var m map[string]any
	if json.Unmarshal([]byte(result), &m) == nil && m != nil {
		return json.RawMessage(result)
	}
	b, _ := json.Marshal(map[string]any{"result": result})
	return b
}

func isFunctionResponse(parts []map[string]any) bool {
	if len(parts) == 0 {
		return false
	}
	_, ok := parts[len(parts)-1]["functionResponse"]
	return ok
}

// uiMessages are the messages as the Vercel AI SDK's useChat sends them
// to a chat route (its body is {"messages": …}): UI messages with ids and
// text parts, the system prompt included; tool results are left out (the
// server runs the tools).
func uiMessages(ms []Message) []map[string]any {
	out := make([]map[string]any, 0, len(ms))
	for i, m := range ms {
		if m.Role == "tool" || m.Content == "" {
			continue
		}
		out = append(out, map[string]any{"id": fmt.Sprintf("m%d", i+1), "role": m.Role,
			"parts": []map[string]any{{"type": "text", "text": m.Content}}})
	}
	return out
}

// MarshalJSON writes a message as {"role":…,"content":…}, the chat form a
// custom body's {{messages}} holds.
func (m Message) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}{m.Role, m.Content})
}

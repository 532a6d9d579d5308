package probe

import (
	"encoding/json"
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
	Model     string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int // 0: the API's default (Anthropic requires one: 1024)
	// MinTokens, on an API that can ask it (AsksMinTokens), asks for at
	// least this many output tokens, the end of sequence ignored: with
	// MaxTokens equal, exactly a trace's output length. 0: not asked.
	MinTokens   int
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

// Body builds the streaming request body of api: its description's
// builder (docs/metrics.md has each API's format).
func Body(api API, p BodyParams) ([]byte, error) {
	b := describe(api).body(p)
	if b == nil {
		return nil, nil
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

// MarshalJSON writes a message as {"role":…,"content":…}, the chat form a
// custom body's {{messages}} holds.
func (m Message) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}{m.Role, m.Content})
}

// fillTemplate replaces the placeholders of a Custom or AISDK body
// template; msgs is what {{messages}} holds (the chat form for Custom, UI
// messages for AISDK).
func fillTemplate(v any, p BodyParams, msgs any) any {
	switch t := v.(type) {
	case string:
		switch t {
		case "{{prompt}}":
			if len(p.Messages) > 0 {
				return p.Messages[len(p.Messages)-1].Content
			}
			return ""
		case "{{messages}}":
			return msgs
		case "{{max_tokens}}":
			return p.MaxTokens
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = fillTemplate(x, p, msgs)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = fillTemplate(x, p, msgs)
		}
		return out
	}
	return v
}

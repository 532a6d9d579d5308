package probe

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// API is a wire API the probe speaks: how a request is made and how its
// stream is read (docs/metrics.md has a table per API of which event sets
// each metric).
type API string

// The APIs spoken. The zero value "" means Chat.
const (
	Chat      API = "chat"      // OpenAI chat completions and compatible servers
	Responses API = "responses" // OpenAI Responses API
	Anthropic API = "anthropic" // Anthropic Messages
	Gemini    API = "gemini"    // Google Gemini streamGenerateContent (SSE)
	Azure     API = "azure"     // Azure OpenAI chat completions
	Custom    API = "custom"    // the team's own endpoint, read by StreamSpec
	AISDK     API = "ai-sdk"    // a Vercel AI SDK chat route (UI message stream)
	Realtime  API = "realtime"  // the OpenAI Realtime API over WebSocket (realtime.go)
)

// APIs lists every API, in the order of the documentation.
func APIs() []API { return []API{Chat, Responses, Anthropic, Gemini, Azure, Custom, AISDK, Realtime} }

// ParseAPI checks an api name ("" is Chat).
func ParseAPI(s string) (API, error) {
	if s == "" {
		return Chat, nil
	}
	if slices.Contains(APIs(), API(s)) {
		return API(s), nil
	}
	names := make([]string, 0, 7)
	for _, a := range APIs() {
		names = append(names, string(a))
	}
	return "", fmt.Errorf("unknown api %q (known: %s)", s, strings.Join(names, ", "))
}

// AnthropicVersion is sent as anthropic-version unless Headers set one.
const AnthropicVersion = "2023-06-01"

// StreamSpec says how to read a Custom endpoint's stream: its framing and
// JSON pointers (RFC 6901) into each event. Text is required; a pointer
// left empty is not read.
type StreamSpec struct {
	Format       string // "sse", "ndjson" or "text" (every chunk of bytes is visible text)
	Text         string // visible output text
	Reasoning    string // reasoning text
	Done         string // true, a non-zero number or a non-empty string ends the stream; without it EOF does
	Error        string // a non-empty value is the provider's error message
	OutputTokens string
	InputTokens  string
	CachedTokens string
	// Type points at an event's type (such as /type); with Types, the
	// type says which role the event plays, and Text, Reasoning and
	// ToolCall are read only from events of their role.
	Type  string
	Types StreamTypes
	// ToolCall points at the piece of a tool call's arguments an event of
	// role tool_call carries (such as /inputTextDelta).
	ToolCall string
}

// StreamTypes lists, per role, the event types (the value at
// StreamSpec.Type) that play it: a server-driven agent's stream marks its
// text, reasoning, tool calls, the tools' results and each new step.
type StreamTypes struct {
	Text, Reasoning []string
	ToolCall        []string // a tool call begins or streams its arguments
	ToolCallDone    []string // a tool call's arguments are complete
	ToolResult      []string // a tool's result arrived
	Step            []string // a new step (model call) begins
}

// Empty reports whether no type plays any role.
func (t StreamTypes) Empty() bool {
	return len(t.Text)+len(t.Reasoning)+len(t.ToolCall)+len(t.ToolCallDone)+len(t.ToolResult)+len(t.Step) == 0
}

// role is the role an event of type typ plays ("" for none).
func (t StreamTypes) role(typ string) string {
	for _, r := range []struct {
		name  string
		types []string
	}{{"text", t.Text}, {"reasoning", t.Reasoning}, {"tool_call", t.ToolCall}, {"tool_call_done", t.ToolCallDone}, {"tool_result", t.ToolResult}, {"step", t.Step}} {
		if slices.Contains(r.types, typ) {
			return r.name
		}
	}
	return ""
}

// Validate says what is wrong with a stream spec, naming the key.
func (s StreamSpec) Validate() error {
	switch s.Format {
	case "sse", "ndjson":
		if s.Text == "" {
			return fmt.Errorf("stream.text: a JSON pointer to the output text is required (e.g. /message/content)")
		}
	case "text":
		for k, v := range map[string]string{"text": s.Text, "reasoning": s.Reasoning, "done": s.Done, "error": s.Error,
			"output_tokens": s.OutputTokens, "input_tokens": s.InputTokens, "cached_tokens": s.CachedTokens} {
			if v != "" {
				return fmt.Errorf("stream.%s: a plain-text stream has no JSON to point into (use format sse or ndjson)", k)
			}
		}
		return nil
	case "":
		return fmt.Errorf("stream.format: required: sse, ndjson or text")
	default:
		return fmt.Errorf("stream.format: unknown %q (known: sse, ndjson, text)", s.Format)
	}
	for k, v := range map[string]string{"text": s.Text, "reasoning": s.Reasoning, "done": s.Done, "error": s.Error,
		"output_tokens": s.OutputTokens, "input_tokens": s.InputTokens, "cached_tokens": s.CachedTokens, "type": s.Type, "tool_call": s.ToolCall} {
		if v != "" && !strings.HasPrefix(v, "/") {
			return fmt.Errorf("stream.%s: %q is not a JSON pointer: it starts with / (e.g. /message/content)", k, v)
		}
	}
	switch {
	case !s.Types.Empty() && s.Type == "":
		return fmt.Errorf("stream.types: needs stream.type, the JSON pointer to each event's type (e.g. /type)")
	case s.Type != "" && s.Types.Empty():
		return fmt.Errorf("stream.type: says where an event's type is; stream.types says which types are text, reasoning, tool_call, tool_call_done, tool_result and step")
	case !s.Types.Empty() && len(s.Types.Text) == 0:
		return fmt.Errorf("stream.types.text: which event types carry the visible text is required (e.g. [text-delta])")
	}
	return nil
}

// wireOf is how req's stream is read.
func wireOf(req Request) wire {
	switch req.API {
	case Responses:
		return responsesWire
	case Anthropic:
		return anthropicWire
	case Gemini:
		return geminiWire
	case Custom:
		if req.Stream != nil {
			return customWire(*req.Stream)
		}
	case AISDK:
		return aiSDKWire
	}
	return chatWire // Chat, Azure, and "" (chat)
}

// setHeaders sets the API's content, accept and auth headers; req.Headers
// come last and win.
func setHeaders(h http.Header, req Request, w wire) {
	h.Set("Content-Type", "application/json")
	switch w.framing {
	case framingSSE:
		h.Set("Accept", "text/event-stream")
	case framingNDJSON:
		h.Set("Accept", "application/x-ndjson")
	}
	if req.APIKey != "" {
		switch req.API {
		case Anthropic:
			h.Set("x-api-key", req.APIKey)
		case Gemini:
			h.Set("x-goog-api-key", req.APIKey)
		case Azure:
			h.Set("api-key", req.APIKey)
		default:
			h.Set("Authorization", "Bearer "+req.APIKey)
		}
	}
	if req.API == Anthropic {
		h.Set("anthropic-version", AnthropicVersion)
	}
	for k, v := range req.Headers {
		h.Set(k, v)
	}
}

// URL is the streaming URL of api for an endpoint. base is the endpoint's
// base_url: "…/v1" for Chat and Responses, the host for Anthropic
// ("https://api.anthropic.com"), "…/v1beta" for Gemini, the deployment URL
// ("https://R.openai.azure.com/openai/deployments/D") for Azure, and the
// full URL for Custom, "wss://…/v1" for Realtime. model names the Gemini
// and Realtime model; apiVersion is Azure's api-version.
func URL(api API, base, model, apiVersion string) string {
	base = strings.TrimSuffix(base, "/")
	switch api {
	case Responses:
		return base + "/responses"
	case Anthropic:
		return base + "/v1/messages"
	case Gemini:
		return base + "/models/" + url.PathEscape(model) + ":streamGenerateContent?alt=sse"
	case Azure:
		return base + "/chat/completions?api-version=" + url.QueryEscape(apiVersion)
	case Custom, AISDK:
		return base
	case Realtime:
		return base + "/realtime?model=" + url.QueryEscape(model)
	}
	return base + "/chat/completions"
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

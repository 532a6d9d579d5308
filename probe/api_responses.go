package probe

import (
	"bytes"
	"encoding/json"

	"github.com/latgate/latgate/apis"
)

// Responses is the OpenAI Responses API.
const Responses API = "responses"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Responses), Order: 20,
			Keys:       []string{apis.BaseURL},
			Address:    apis.Address{Key: apis.BaseURL, Example: "https://api.openai.com/v1", Path: "/responses", Ends: []string{"/responses"}, Root: "/v1", Models: "/models"},
			NeedsModel: true, Auth: bearer,
			Tools: apis.ClientTools, Turns: true,
		},
		url:  fixedURL("/responses"),
		body: func(p BodyParams) any { return responsesBody(p) },
		wire: func(Request) wire { return responsesWire },
		// OpenAI, a LiteLLM proxy, vLLM's response.completed.
		serverTiming: []*timingForm{formOpenAI, formLiteLLM, formVLLM},
	})
}

// responsesWire is the OpenAI Responses API: typed SSE events. Output is
// the first response.*.delta of output text, reasoning (summary) text or
// function-call arguments; only output_text is visible. Usage comes in
// response.completed, which ends the stream; response.failed and error
// events are the provider's error. A function call is an output item
// (response.output_item.added names it) whose arguments stream as deltas
// until response.function_call_arguments.done.
var responsesWire = wire{framing: framingSSE, newDecoder: func() decoder { return responsesDecoder{} }, ends: "response.completed"}

// responsesEvent is the part of a Responses API event the decoder reads.
type responsesEvent struct {
	Type        string `json:"type"`
	Delta       string `json:"delta"`
	Message     string `json:"message"`
	Code        any    `json:"code"`
	OutputIndex int    `json:"output_index"`
	Item        *struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Name   string `json:"name"`
	} `json:"item"`
	Response *struct {
		Status string `json:"status"`
		Error  *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		IncompleteDetails *struct {
			Reason string `json:"reason"`
		} `json:"incomplete_details"`
		Usage *struct {
			InputTokens        int `json:"input_tokens"`
			OutputTokens       int `json:"output_tokens"`
			InputTokensDetails struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"input_tokens_details"`
			OutputTokensDetails struct {
				ReasoningTokens int `json:"reasoning_tokens"`
			} `json:"output_tokens_details"`
		} `json:"usage"`
	} `json:"response"`
}

type responsesDecoder struct{}

func (responsesDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 || string(data) == "[DONE]" {
		e.done = len(data) > 0
		return e, nil
	}
	var v responsesEvent
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	typ := v.Type
	if typ == "" {
		typ = f.Name
	}
	switch typ {
	case "response.output_text.delta", "response.refusal.delta":
		e.content, e.text = len(v.Delta), v.Delta
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		e.reasoning = len(v.Delta)
	case "response.output_item.added":
		if it := v.Item; it != nil && (it.Type == "function_call" || it.Type == "custom_tool_call") {
			e.toolStart = true
			e.calls = []callPart{{index: v.OutputIndex, id: it.CallID, name: it.Name}}
		}
	case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
		e.tool = len(v.Delta)
		e.calls = []callPart{{index: v.OutputIndex, args: v.Delta}}
	case "response.function_call_arguments.done", "response.custom_tool_call_input.done":
		e.callsDone = 1
	case "response.completed", "response.incomplete":
		e.done, e.finish = true, "completed"
		if r := v.Response; r != nil && r.IncompleteDetails != nil && r.IncompleteDetails.Reason != "" {
			e.finish = r.IncompleteDetails.Reason
		}
	case "response.failed":
		e.err = "response.failed"
		if r := v.Response; r != nil && r.Error != nil {
			e.err = r.Error.Message
			if r.Error.Code != "" {
				e.err += " [" + r.Error.Code + "]"
			}
		}
	case "error":
		e.err = v.Message
		if e.err == "" {
			e.err = errorText(nil, data)
		}
		if c, ok := v.Code.(string); ok && c != "" {
			e.err += " [" + c + "]"
		}
	}
	if r := v.Response; r != nil && r.Usage != nil {
		u := r.Usage
		e.usage = &usage{prompt: u.InputTokens, output: u.OutputTokens, cached: u.InputTokensDetails.CachedTokens, reasoning: u.OutputTokensDetails.ReasoningTokens}
	}
	return e, nil
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

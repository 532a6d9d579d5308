package probe

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/latgate/latgate/apis"
)

// AISDK is a Vercel AI SDK chat route: POSTed what useChat sends, read as
// its UI message stream; a server-driven agent streams its steps in it.
const AISDK API = "ai-sdk"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(AISDK), Order: 70,
			Keys:    []string{apis.URL, "body"},
			Address: apis.Address{Key: apis.URL, Example: "http://127.0.0.1:3000/api/chat"},
			Body:    apis.BodyOverride, Auth: bearer,
			Tools: apis.ServerTools, Turns: true,
		},
		url:  func(t Target) string { return t.URL },
		body: aiSDKBody,
		wire: func(Request) wire { return aiSDKWire },
	})
}

// aiSDKBody is what useChat sends ({"messages": UI messages}), or the
// endpoint's template with {{messages}} holding those UI messages.
func aiSDKBody(p BodyParams) any {
	if p.Template != nil {
		return fillTemplate(p.Template, p, uiMessages(p.Messages))
	}
	return map[string]any{"messages": uiMessages(p.Messages)}
}

// aiSDKWire is a Vercel AI SDK chat route (streamText(…)
// .toUIMessageStreamResponse(), what useChat reads): the UI message stream,
// SSE events with a type, ending with data: [DONE]. A server-driven agent
// streams its steps in it (start-step … finish-step), each with its text,
// reasoning and tool calls, and the tools' results it ran itself.
var aiSDKWire = wire{framing: framingSSE, newDecoder: func() decoder { return &aiSDKDecoder{} }, ends: "finish and [DONE]"}

// aiSDKDecoder numbers the tool calls of the stream by their toolCallId.
type aiSDKDecoder struct {
	calls map[string]int
}

func (d *aiSDKDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 || string(data) == "[DONE]" {
		e.done = len(data) > 0
		return e, nil
	}
	var v struct {
		Type           string `json:"type"`
		Delta          string `json:"delta"`
		ToolCallID     string `json:"toolCallId"`
		ToolName       string `json:"toolName"`
		InputTextDelta string `json:"inputTextDelta"`
		ErrorText      string `json:"errorText"`
		FinishReason   string `json:"finishReason"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	switch v.Type {
	case "start-step":
		e.step = true
	case "text-delta":
		e.content, e.text = len(v.Delta), v.Delta
	case "reasoning-delta":
		e.reasoning = len(v.Delta)
	case "tool-input-start":
		e.toolStart = true
		e.calls = []callPart{{index: d.index(v.ToolCallID), id: v.ToolCallID, name: v.ToolName}}
	case "tool-input-delta":
		e.tool = len(v.InputTextDelta)
		e.calls = []callPart{{index: d.index(v.ToolCallID), args: v.InputTextDelta}}
	case "tool-input-available":
		e.callsDone = 1
		if _, seen := d.calls[v.ToolCallID]; !seen { // a tool call sent whole, without input deltas
			e.toolStart = true
			e.calls = []callPart{{index: d.index(v.ToolCallID), id: v.ToolCallID, name: v.ToolName}}
		}
	case "tool-output-available", "tool-output-error", "tool-output-denied":
		e.toolResult = true
	case "finish":
		e.finish = "finish"
		if v.FinishReason != "" {
			e.finish = v.FinishReason
		}
	case "error":
		e.err = v.ErrorText
		if e.err == "" {
			e.err = errorText(nil, data)
		}
	}
	return e, nil
}

// index is the position of a tool call in the stream, by its id.
func (d *aiSDKDecoder) index(id string) int {
	if d.calls == nil {
		d.calls = map[string]int{}
	}
	i, ok := d.calls[id]
	if !ok {
		i = len(d.calls)
		d.calls[id] = i
	}
	return i
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

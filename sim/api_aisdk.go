package sim

import (
	"fmt"
	"io"
	"net/http"
	"strings"
)

// apiAISDK is a Vercel AI SDK chat route (UI message stream): /api/chat
// with useChat's body (Ollama's route reads it and hands it over).
const apiAISDK api = "ai-sdk"

func init() {
	registerAPI(simAPI{
		name: apiAISDK, order: 70, about: "Vercel AI SDK UI message stream, useChat's body", at: "url %[2]s://%[1]s/api/chat",
		parse:   func(_ *http.Request, body io.Reader) (request, error) { return parseLocalChat(body) },
		encoder: func(rs response) encoder { return &aiSDKEnc{n: rs.n} },
		headers: map[string]string{"x-vercel-ai-ui-message-stream": "v1", "x-accel-buffering": "no"},
	})
}

// aiSDKEnc writes the Vercel AI SDK's UI message stream, what
// streamText(…).toUIMessageStreamResponse() serves and useChat reads: SSE
// data events with a type, one message of several steps (start-step …
// finish-step), each with its reasoning, text and tool calls; the server
// runs the tools and streams their outputs; finish, then [DONE].
type aiSDKEnc struct {
	n    uint64 // the request's number: the message's id
	step int
	open string // the text or reasoning part streaming now ("": none)
	args string // the tool call's input so far
}

func (e *aiSDKEnc) send(sw *sseWriter, chunk map[string]any) { sw.data(jsonOf(chunk)) }

func (e *aiSDKEnc) preamble(sw *sseWriter) {
	e.send(sw, map[string]any{"type": "start", "messageId": fmt.Sprintf("msg_sim_%d", e.n)})
	e.send(sw, map[string]any{"type": "start-step"})
}

func (e *aiSDKEnc) partID(part string) string { return fmt.Sprintf("%s_%d", part, e.step) }

// part opens a text or reasoning part, ending the one before.
func (e *aiSDKEnc) part(sw *sseWriter, part string) {
	if e.open == part {
		return
	}
	e.close(sw)
	e.open = part
	if part != "" {
		e.send(sw, map[string]any{"type": part + "-start", "id": e.partID(part)})
	}
}

func (e *aiSDKEnc) close(sw *sseWriter) {
	if e.open != "" {
		e.send(sw, map[string]any{"type": e.open + "-end", "id": e.partID(e.open)})
		e.open = ""
	}
}

func (e *aiSDKEnc) output(sw *sseWriter, ev outputEvent) {
	switch ev.kind {
	case kindReasoning:
		e.part(sw, "reasoning")
		e.send(sw, map[string]any{"type": "reasoning-delta", "id": e.partID("reasoning"), "delta": ev.text})
	case kindContent:
		e.part(sw, "text")
		e.send(sw, map[string]any{"type": "text-delta", "id": e.partID("text"), "delta": ev.text})
	case kindTool:
		e.part(sw, "")
		c := ev.call
		if ev.first {
			e.send(sw, map[string]any{"type": "tool-input-start", "toolCallId": c.id, "toolName": c.name})
		}
		e.send(sw, map[string]any{"type": "tool-input-delta", "toolCallId": c.id, "inputTextDelta": ev.text})
		e.args += ev.text
		if ev.last {
			e.send(sw, map[string]any{"type": "tool-input-available", "toolCallId": c.id, "toolName": c.name, "input": argsObject(e.args)})
			e.args = ""
		}
	case kindToolResult:
		e.send(sw, map[string]any{"type": "tool-output-available", "toolCallId": ev.call.id,
			"output": map[string]any{"result": "simulated result of " + strings.TrimPrefix(ev.call.id, "call_")}})
	case kindStep:
		e.part(sw, "")
		e.send(sw, map[string]any{"type": "finish-step"})
		e.send(sw, map[string]any{"type": "start-step"})
		e.step++
	}
}

func (e *aiSDKEnc) end(sw *sseWriter, finish string, _ counts, _ bool) {
	e.part(sw, "")
	e.send(sw, map[string]any{"type": "finish-step"})
	reason := map[string]string{"stop": "stop", "length": "length", "tool_calls": "tool-calls"}[finish]
	e.send(sw, map[string]any{"type": "finish", "finishReason": reason})
	sw.data([]byte("[DONE]"))
}

func (e *aiSDKEnc) fail(sw *sseWriter) {
	e.send(sw, map[string]any{"type": "error", "errorText": "The model failed to generate a response (simulated)."})
}

package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

const apiResponses api = "responses"

func init() {
	registerAPI(simAPI{
		name: apiResponses, order: 20, at: "base_url %[2]s://%[1]s/v1",
		match:   func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/v1/responses" },
		parse:   func(_ *http.Request, body io.Reader) (request, error) { return parseResponses(body) },
		encoder: func(response) encoder { return &responsesEnc{} },
	})
}

// parseResponses reads an OpenAI Responses API body: instructions, an
// input that is a string or a list of items (messages, function_call and
// function_call_output items), function tools {type: function, name}.
func parseResponses(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model           string          `json:"model"`
		Instructions    json.RawMessage `json:"instructions"`
		Input           json.RawMessage `json:"input"`
		MaxOutputTokens int             `json:"max_output_tokens"`
		Stream          bool            `json:"stream"`
		Tools           json.RawMessage `json:"tools"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxOutputTokens, v.Stream, true
	var tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		if t.Type == "function" {
			q.tools = appendName(q.tools, t.Name)
		}
	}
	c := newConvo(&q, apiResponses, v.Tools)
	if len(v.Instructions) > 0 && string(v.Instructions) != "null" {
		c.add(v.Instructions, textOf(v.Instructions), false)
	}
	var items []json.RawMessage
	if json.Unmarshal(v.Input, &items) != nil {
		c.add(v.Input, textOf(v.Input), false)
		return q, nil
	}
	for _, raw := range items {
		var it struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(raw, &it)
		c.add(raw, textOf(raw), it.Type == "function_call_output")
	}
	return q, nil
}

// responsesEnc writes OpenAI Responses API events: output items (a
// reasoning item, a message, function calls) open with
// response.output_item.added, stream their deltas and close with
// response.output_item.done; response.completed lists them with the usage.
type responsesEnc struct {
	seq   int
	items []any  // the output items done
	open  string // the item streaming now: "reasoning", "message" or ""
	text  string // the message's text so far
	args  string // the function call's arguments so far
}

// send writes one event of type typ, with its sequence number.
func (e *responsesEnc) send(sw *sseWriter, typ string, ev map[string]any) {
	ev["type"], ev["sequence_number"] = typ, e.seq
	e.seq++
	sw.event(typ, jsonOf(ev))
}

func (e *responsesEnc) response(status string) map[string]any {
	return map[string]any{"id": "resp_sim", "object": "response", "status": status, "output": e.items}
}

func (e *responsesEnc) preamble(sw *sseWriter) {
	e.items = []any{}
	e.send(sw, "response.created", map[string]any{"response": e.response("in_progress")})
	e.send(sw, "response.in_progress", map[string]any{"response": e.response("in_progress")})
}

// item opens the output item of a reasoning or message delta, closing the
// one before.
func (e *responsesEnc) item(sw *sseWriter, open string) {
	if e.open == open {
		return
	}
	e.close(sw)
	e.open = open
	if open == "reasoning" {
		e.send(sw, "response.output_item.added", map[string]any{"output_index": len(e.items), "item": map[string]any{"id": "rs_sim", "type": "reasoning", "summary": []any{}}})
		return
	}
	e.send(sw, "response.output_item.added", map[string]any{"output_index": len(e.items),
		"item": map[string]any{"id": "msg_sim", "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}})
	e.send(sw, "response.content_part.added", map[string]any{"item_id": "msg_sim", "output_index": len(e.items), "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
}

// close ends the reasoning or message item streaming now.
func (e *responsesEnc) close(sw *sseWriter) {
	i := len(e.items)
	switch e.open {
	case "reasoning":
		e.items = append(e.items, map[string]any{"id": "rs_sim", "type": "reasoning", "summary": []any{}})
	case "message":
		part := map[string]any{"type": "output_text", "text": e.text, "annotations": []any{}}
		e.send(sw, "response.output_text.done", map[string]any{"item_id": "msg_sim", "output_index": i, "content_index": 0, "text": e.text})
		e.send(sw, "response.content_part.done", map[string]any{"item_id": "msg_sim", "output_index": i, "content_index": 0, "part": part})
		e.items = append(e.items, map[string]any{"id": "msg_sim", "type": "message", "status": "completed", "role": "assistant", "content": []any{part}})
	default:
		return
	}
	e.send(sw, "response.output_item.done", map[string]any{"output_index": i, "item": e.items[i]})
	e.open = ""
}

func (e *responsesEnc) output(sw *sseWriter, ev outputEvent) {
	switch ev.kind {
	case kindReasoning:
		e.item(sw, "reasoning")
		e.send(sw, "response.reasoning_summary_text.delta", map[string]any{"item_id": "rs_sim", "output_index": len(e.items), "summary_index": 0, "delta": ev.text})
	case kindTool:
		e.call(sw, ev)
	default:
		e.item(sw, "message")
		e.text += ev.text
		e.send(sw, "response.output_text.delta", map[string]any{"item_id": "msg_sim", "output_index": len(e.items), "content_index": 0, "delta": ev.text, "logprobs": []any{}})
	}
}

// call streams a piece of a function call: the first opens its
// function_call item, the last closes it with the whole arguments.
func (e *responsesEnc) call(sw *sseWriter, ev outputEvent) {
	if ev.first {
		e.close(sw)
	}
	c, i := ev.call, len(e.items)
	id := "fc_" + strings.TrimPrefix(c.id, "call_")
	item := map[string]any{"id": id, "type": "function_call", "status": "in_progress", "arguments": "", "call_id": c.id, "name": c.name}
	if ev.first {
		e.send(sw, "response.output_item.added", map[string]any{"output_index": i, "item": item})
	}
	e.send(sw, "response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": i, "delta": ev.text})
	e.args += ev.text
	if ev.last {
		args := e.args
		e.args = ""
		e.send(sw, "response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": i, "name": c.name, "arguments": args})
		item["status"], item["arguments"] = "completed", args
		e.items = append(e.items, item)
		e.send(sw, "response.output_item.done", map[string]any{"output_index": i, "item": item})
	}
}

func (e *responsesEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	e.close(sw)
	resp := e.response("completed")
	resp["usage"] = map[string]any{
		"input_tokens": u.prompt, "input_tokens_details": map[string]any{"cached_tokens": u.cached},
		"output_tokens": u.output, "output_tokens_details": map[string]any{"reasoning_tokens": u.reasoning},
		"total_tokens": u.prompt + u.output}
	typ := "response.completed"
	if finish == "length" {
		typ, resp["status"], resp["incomplete_details"] = "response.incomplete", "incomplete", map[string]any{"reason": "max_output_tokens"}
	}
	e.send(sw, typ, map[string]any{"response": resp})
}

func (e *responsesEnc) fail(sw *sseWriter) {
	e.send(sw, "response.failed", map[string]any{"response": map[string]any{"id": "resp_sim", "status": "failed",
		"error": map[string]any{"code": "server_error", "message": "The model failed to generate a response (simulated)."}}})
}

package sim

import (
	"encoding/json"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// kind is what an event carries.
type kind int

const (
	kindContent    kind = iota
	kindReasoning       // reasoning text
	kindTool            // a piece of a tool call's arguments
	kindToolResult      // a tool's output (the AI SDK route runs its tools)
	kindStep            // the end of a step and the start of the next (AI SDK)
)

// counts are the usage numbers of a finished stream.
type counts struct {
	prompt, output, cached, reasoning int
}

// encoder renders one API's stream: the events before the first output
// (the preamble every client must skip), each event, the end with usage,
// and a mid-stream error.
type encoder interface {
	preamble(sw *sseWriter)
	output(sw *sseWriter, e outputEvent)
	end(sw *sseWriter, finish string, u counts, includeUsage bool)
	fail(sw *sseWriter)
}

func encoderFor(rs response) encoder {
	switch rs.api {
	case apiResponses:
		return &responsesEnc{}
	case apiAnthropic:
		return &anthropicEnc{}
	case apiGemini:
		return &geminiEnc{}
	case apiOllama:
		return &ollamaEnc{model: rs.q.model}
	case apiAISDK:
		return &aiSDKEnc{n: rs.n}
	}
	c := &chatEnc{base: openai.ChatCompletionStreamResponse{ID: "chatcmpl-sim", Object: "chat.completion.chunk", Created: rs.start.Unix(), Model: rs.q.model}, quirks: rs.p.Quirks}
	if rs.api == apiAzure {
		c.quirks.AzureFilterChunk, c.quirks.RoleChunk = true, true
	}
	return c
}

// chatEnc writes OpenAI chat-completion chunks (and Azure's).
type chatEnc struct {
	base   openai.ChatCompletionStreamResponse
	quirks Quirks
}

func (c *chatEnc) delta(d openai.ChatCompletionStreamChoiceDelta, finish openai.FinishReason) openai.ChatCompletionStreamResponse {
	ch := c.base
	ch.Choices = []openai.ChatCompletionStreamChoice{{Index: 0, Delta: d, FinishReason: finish}}
	return ch
}

func (c *chatEnc) preamble(sw *sseWriter) {
	if c.quirks.AzureFilterChunk {
		ch := c.base
		ch.Model = ""
		ch.PromptFilterResults = []openai.PromptFilterResult{{Index: 0}}
		sw.chunk(ch)
	}
	if c.quirks.RoleChunk {
		sw.chunk(c.delta(openai.ChatCompletionStreamChoiceDelta{Role: "assistant"}, ""))
	}
}

func (c *chatEnc) output(sw *sseWriter, e outputEvent) {
	var d openai.ChatCompletionStreamChoiceDelta
	switch e.kind {
	case kindReasoning:
		d.ReasoningContent = e.text
	case kindTool:
		// A call's first delta names it, with empty arguments; the
		// arguments follow in pieces.
		if e.first {
			c.toolDelta(sw, chatToolCall{Index: e.call.index, ID: e.call.id, Type: "function", Function: chatFunction{Name: e.call.name}})
		}
		c.toolDelta(sw, chatToolCall{Index: e.call.index, Function: chatFunction{Arguments: e.text}})
		return
	default:
		d.Content = e.text
	}
	sw.chunk(c.delta(d, ""))
}

// chatToolCall is a tool call's delta as OpenAI streams it: index always,
// id, type and name in the first, arguments always (empty in the first).
type chatToolCall struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

func (c *chatEnc) toolDelta(sw *sseWriter, tc chatToolCall) {
	sw.data(jsonOf(map[string]any{"id": c.base.ID, "object": c.base.Object, "created": c.base.Created, "model": c.base.Model,
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"tool_calls": []chatToolCall{tc}}, "finish_reason": nil}}}))
}

func (c *chatEnc) end(sw *sseWriter, finish string, u counts, includeUsage bool) {
	sw.chunk(c.delta(openai.ChatCompletionStreamChoiceDelta{}, openai.FinishReason(finish)))
	if includeUsage {
		ch := c.base
		ou := openai.Usage{PromptTokens: u.prompt, CompletionTokens: u.output, TotalTokens: u.prompt + u.output}
		if u.cached > 0 {
			ou.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: u.cached}
		}
		if u.reasoning > 0 {
			ou.CompletionTokensDetails = &openai.CompletionTokensDetails{ReasoningTokens: u.reasoning}
		}
		ch.Usage = &ou
		sw.chunk(ch)
	}
	if !c.quirks.NoDone {
		sw.data([]byte("[DONE]"))
	}
}

func (c *chatEnc) fail(sw *sseWriter) {
	sw.data([]byte(`{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","code":null}}`))
}

func jsonOf(v any) []byte { b, _ := json.Marshal(v); return b }

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

// geminiEnc writes Gemini GenerateContentResponse chunks (alt=sse). Its
// preamble is a part carrying only a thought signature.
type geminiEnc struct{}

func geminiChunk(parts []map[string]any, finish string) map[string]any {
	c := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}, "index": 0}
	if finish != "" {
		c["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{c}, "modelVersion": "sim"}
}

func (e *geminiEnc) preamble(sw *sseWriter) {
	sw.data(jsonOf(geminiChunk([]map[string]any{{"thoughtSignature": "CiQB0e2Kb3sim"}}, "")))
}

func (e *geminiEnc) output(sw *sseWriter, ev outputEvent) {
	part := map[string]any{"text": ev.text}
	switch ev.kind {
	case kindReasoning:
		part["thought"] = true
	case kindTool:
		// A call comes whole: its name and its arguments as an object.
		part = map[string]any{"functionCall": map[string]any{"name": ev.call.name, "args": argsObject(ev.text)}}
	}
	sw.data(jsonOf(geminiChunk([]map[string]any{part}, "")))
}

// argsObject is a call's arguments as a JSON object; a piece that is not
// one (the ToolCall quirk streams words) is {"q": piece}.
func argsObject(args string) any {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil || m == nil {
		return map[string]any{"q": args}
	}
	return json.RawMessage(args)
}

func (e *geminiEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	reason := map[string]string{"stop": "STOP", "length": "MAX_TOKENS", "tool_calls": "STOP"}[finish]
	c := geminiChunk([]map[string]any{{"text": ""}}, reason)
	c["usageMetadata"] = map[string]any{"promptTokenCount": u.prompt, "candidatesTokenCount": u.output - u.reasoning,
		"thoughtsTokenCount": u.reasoning, "cachedContentTokenCount": u.cached, "totalTokenCount": u.prompt + u.output}
	sw.data(jsonOf(c))
}

func (e *geminiEnc) fail(sw *sseWriter) {
	sw.data([]byte(`{"error":{"code":500,"message":"An internal error has occurred (simulated).","status":"INTERNAL"}}`))
}

// ollamaEnc writes Ollama's native /api/chat NDJSON lines.
type ollamaEnc struct{ model string }

func (e *ollamaEnc) preamble(*sseWriter) {}

func (e *ollamaEnc) line(msg map[string]any, done bool) map[string]any {
	return map[string]any{"model": e.model, "created_at": "2026-01-01T00:00:00Z", "message": msg, "done": done}
}

func (e *ollamaEnc) output(sw *sseWriter, ev outputEvent) {
	msg := map[string]any{"role": "assistant", "content": ev.text}
	if ev.kind == kindReasoning {
		msg = map[string]any{"role": "assistant", "content": "", "thinking": ev.text}
	}
	sw.data(jsonOf(e.line(msg, false)))
}

func (e *ollamaEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	l := e.line(map[string]any{"role": "assistant", "content": ""}, true)
	l["done_reason"], l["prompt_eval_count"], l["eval_count"] = finish, u.prompt, u.output
	sw.data(jsonOf(l))
}

func (e *ollamaEnc) fail(sw *sseWriter) {
	sw.data([]byte(fmt.Sprintf(`{"error":%q}`, "model runner has unexpectedly stopped (simulated)")))
}

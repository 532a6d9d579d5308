package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// api is a wire API the simulator speaks.
type api string

const (
	apiChat      api = "chat"
	apiAzure     api = "azure"
	apiResponses api = "responses"
	apiAnthropic api = "anthropic"
	apiGemini    api = "gemini"
	apiOllama    api = "ollama" // Ollama's native /api/chat (NDJSON), for api: custom
)

// route picks the API of a request from its method and path.
func route(r *http.Request) (api, bool) {
	if r.Method != http.MethodPost {
		return "", false
	}
	p := r.URL.Path
	switch {
	case p == "/v1/chat/completions":
		return apiChat, true
	case p == "/v1/responses":
		return apiResponses, true
	case p == "/v1/messages":
		return apiAnthropic, true
	case p == "/api/chat":
		return apiOllama, true
	case strings.HasPrefix(p, "/v1beta/models/") && strings.HasSuffix(p, ":streamGenerateContent"):
		return apiGemini, true
	case strings.HasPrefix(p, "/openai/deployments/") && strings.HasSuffix(p, "/chat/completions"):
		return apiAzure, true
	}
	return "", false
}

// request is what the simulator needs from any API's request body.
type request struct {
	model        string
	maxTokens    int
	stream       bool
	includeUsage bool
	promptTokens int
}

// key is the API key the request carries in its API's header.
func key(a api, r *http.Request) string {
	switch a {
	case apiAnthropic:
		return r.Header.Get("x-api-key")
	case apiGemini:
		if k := r.Header.Get("x-goog-api-key"); k != "" {
			return k
		}
		return r.URL.Query().Get("key")
	case apiAzure:
		return r.Header.Get("api-key")
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// promptWords counts prompt tokens the simulator's way: words + 4 per
// message.
func promptWords(s string) int { return len(strings.Fields(s)) + 4 }

// flatten flattens a message content that is a string or a list of blocks
// with "text".
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text + " ")
	}
	return b.String()
}

// parse reads the request body of any API.
func parse(a api, r *http.Request) (request, error) {
	body := io.LimitReader(r.Body, 8<<20)
	switch a {
	case apiChat, apiAzure:
		return parseChat(a, r, body)
	case apiResponses:
		return parseResponses(body)
	case apiAnthropic:
		return parseAnthropic(body)
	case apiGemini:
		return parseGemini(r, body)
	case apiOllama:
		return parseOllama(body)
	}
	return request{}, nil
}

// chatBody is the part of an OpenAI chat completions (or Azure OpenAI)
// body the simulator reads. Both token limits are read: max_tokens, which
// most OpenAI-compatible servers still take, and max_completion_tokens.
type chatBody struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int `json:"max_tokens"`
	MaxCompletionTokens int `json:"max_completion_tokens"`
	Messages            []struct {
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// parseChat reads an OpenAI chat completions (or Azure OpenAI) body.
func parseChat(a api, r *http.Request, body io.Reader) (request, error) {
	var q request
	var v chatBody
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream = v.Model, v.MaxCompletionTokens, v.Stream
	if q.maxTokens == 0 {
		q.maxTokens = v.MaxTokens
	}
	q.includeUsage = v.StreamOptions != nil && v.StreamOptions.IncludeUsage
	for _, m := range v.Messages {
		q.promptTokens += promptWords(flatten(m.Content))
	}
	if a == apiAzure {
		// The deployment names the model.
		q.model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
	}
	return q, nil
}

// parseResponses reads an OpenAI Responses API body, whose input is a
// string or a list of messages.
func parseResponses(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model           string          `json:"model"`
		Input           json.RawMessage `json:"input"`
		MaxOutputTokens int             `json:"max_output_tokens"`
		Stream          bool            `json:"stream"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxOutputTokens, v.Stream, true
	var msgs []struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(v.Input, &msgs) == nil {
		for _, m := range msgs {
			q.promptTokens += promptWords(flatten(m.Content))
		}
	} else {
		q.promptTokens = promptWords(flatten(v.Input))
	}
	return q, nil
}

// parseAnthropic reads an Anthropic Messages body.
func parseAnthropic(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model     string          `json:"model"`
		MaxTokens int             `json:"max_tokens"`
		Stream    bool            `json:"stream"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxTokens, v.Stream, true
	for _, m := range v.Messages {
		q.promptTokens += promptWords(flatten(m.Content))
	}
	if len(v.System) > 0 {
		q.promptTokens += promptWords(flatten(v.System))
	}
	return q, nil
}

// parseGemini reads a Gemini body; the model is in the path and streaming
// is ?alt=sse.
func parseGemini(r *http.Request, body io.Reader) (request, error) {
	var q request
	var v struct {
		Contents []struct {
			Parts json.RawMessage `json:"parts"`
		} `json:"contents"`
		SystemInstruction *struct {
			Parts json.RawMessage `json:"parts"`
		} `json:"systemInstruction"`
		GenerationConfig struct {
			MaxOutputTokens int `json:"maxOutputTokens"`
		} `json:"generationConfig"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":streamGenerateContent")
	q.maxTokens, q.includeUsage = v.GenerationConfig.MaxOutputTokens, true
	q.stream = r.URL.Query().Get("alt") == "sse"
	for _, c := range v.Contents {
		q.promptTokens += promptWords(flatten(c.Parts))
	}
	if v.SystemInstruction != nil {
		q.promptTokens += promptWords(flatten(v.SystemInstruction.Parts))
	}
	return q, nil
}

// parseOllama reads an Ollama /api/chat body, which streams by default.
func parseOllama(body io.Reader) (request, error) {
	var q request
	v := struct {
		Model    string `json:"model"`
		Stream   *bool  `json:"stream"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
		Options struct {
			NumPredict int `json:"num_predict"`
		} `json:"options"`
	}{}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.includeUsage = v.Model, v.Options.NumPredict, true
	q.stream = v.Stream == nil || *v.Stream // Ollama streams by default
	for _, m := range v.Messages {
		q.promptTokens += promptWords(m.Content)
	}
	return q, nil
}

// writeAPIError answers with status and the API's error body.
func writeAPIError(w http.ResponseWriter, a api, status int, typ, msg, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body any
	switch a {
	case apiAnthropic:
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	case apiGemini:
		body = map[string]any{"error": map[string]any{"code": status, "message": msg, "status": strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))}}
	case apiOllama:
		body = map[string]any{"error": msg}
	default:
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	_ = json.NewEncoder(w).Encode(body)
}

// kind is what an output event carries.
type kind int

const (
	kindContent kind = iota
	kindReasoning
	kindTool
)

// counts are the usage numbers of a finished stream.
type counts struct {
	prompt, output, cached, reasoning int
}

// encoder renders one API's stream: the events before the first output
// (the preamble every client must skip), output events, the end with usage,
// and a mid-stream error.
type encoder interface {
	preamble(sw *sseWriter)
	output(sw *sseWriter, i int, text string, k kind)
	end(sw *sseWriter, finish string, u counts, includeUsage bool)
	fail(sw *sseWriter)
}

func encoderFor(a api, q request, start time.Time, p Profile) encoder {
	switch a {
	case apiResponses:
		return &responsesEnc{}
	case apiAnthropic:
		return &anthropicEnc{}
	case apiGemini:
		return &geminiEnc{}
	case apiOllama:
		return &ollamaEnc{model: q.model}
	}
	c := &chatEnc{base: openai.ChatCompletionStreamResponse{ID: "chatcmpl-sim", Object: "chat.completion.chunk", Created: start.Unix(), Model: q.model}, quirks: p.Quirks}
	if a == apiAzure {
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

func (c *chatEnc) output(sw *sseWriter, i int, text string, k kind) {
	var d openai.ChatCompletionStreamChoiceDelta
	switch k {
	case kindReasoning:
		d.ReasoningContent = text
	case kindTool:
		idx := 0
		fn := openai.FunctionCall{Arguments: text}
		if i == 0 {
			fn.Name = "lookup"
		}
		d.ToolCalls = []openai.ToolCall{{Index: &idx, ID: "call_sim", Type: openai.ToolTypeFunction, Function: fn}}
	default:
		d.Content = text
	}
	sw.chunk(c.delta(d, ""))
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

// responsesEnc writes OpenAI Responses API events.
type responsesEnc struct{}

func (e *responsesEnc) preamble(sw *sseWriter) {
	resp := map[string]any{"id": "resp_sim", "object": "response", "status": "in_progress"}
	sw.event("response.created", jsonOf(map[string]any{"type": "response.created", "sequence_number": 0, "response": resp}))
	sw.event("response.in_progress", jsonOf(map[string]any{"type": "response.in_progress", "sequence_number": 1, "response": resp}))
	sw.event("response.output_item.added", jsonOf(map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": map[string]any{"id": "msg_sim", "type": "message", "role": "assistant", "content": []any{}}}))
}

func (e *responsesEnc) output(sw *sseWriter, i int, text string, k kind) {
	typ := "response.output_text.delta"
	switch k {
	case kindReasoning:
		typ = "response.reasoning_summary_text.delta"
	case kindTool:
		typ = "response.function_call_arguments.delta"
	}
	sw.event(typ, jsonOf(map[string]any{"type": typ, "item_id": "msg_sim", "output_index": 0, "content_index": 0, "delta": text}))
}

func (e *responsesEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	resp := map[string]any{"id": "resp_sim", "object": "response", "status": "completed", "usage": map[string]any{
		"input_tokens": u.prompt, "input_tokens_details": map[string]any{"cached_tokens": u.cached},
		"output_tokens": u.output, "output_tokens_details": map[string]any{"reasoning_tokens": u.reasoning},
		"total_tokens": u.prompt + u.output}}
	typ := "response.completed"
	if finish == "length" {
		typ, resp["status"], resp["incomplete_details"] = "response.incomplete", "incomplete", map[string]any{"reason": "max_output_tokens"}
	}
	sw.event(typ, jsonOf(map[string]any{"type": typ, "response": resp}))
}

func (e *responsesEnc) fail(sw *sseWriter) {
	sw.event("response.failed", jsonOf(map[string]any{"type": "response.failed", "response": map[string]any{"id": "resp_sim", "status": "failed",
		"error": map[string]any{"code": "server_error", "message": "The model failed to generate a response (simulated)."}}}))
}

// anthropicEnc writes Anthropic Messages events.
type anthropicEnc struct {
	index int
	open  bool
	last  kind
}

func (e *anthropicEnc) preamble(sw *sseWriter) {
	sw.event("message_start", jsonOf(map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_sim", "type": "message", "role": "assistant",
		"content": []any{}, "model": "sim", "stop_reason": nil, "usage": map[string]any{"input_tokens": 0, "output_tokens": 1}}}))
	sw.event("ping", []byte(`{"type": "ping"}`))
}

func (e *anthropicEnc) block(sw *sseWriter, k kind) {
	if e.open && e.last == k {
		return
	}
	if e.open {
		if e.last == kindReasoning {
			sw.event("content_block_delta", jsonOf(map[string]any{"type": "content_block_delta", "index": e.index, "delta": map[string]any{"type": "signature_delta", "signature": "EqQBCgIYAhIMsim"}}))
		}
		sw.event("content_block_stop", jsonOf(map[string]any{"type": "content_block_stop", "index": e.index}))
		e.index++
	}
	cb := map[string]any{"type": "text", "text": ""}
	switch k {
	case kindReasoning:
		cb = map[string]any{"type": "thinking", "thinking": ""}
	case kindTool:
		cb = map[string]any{"type": "tool_use", "id": "toolu_sim", "name": "lookup", "input": map[string]any{}}
	}
	sw.event("content_block_start", jsonOf(map[string]any{"type": "content_block_start", "index": e.index, "content_block": cb}))
	e.open, e.last = true, k
}

func (e *anthropicEnc) output(sw *sseWriter, i int, text string, k kind) {
	e.block(sw, k)
	d := map[string]any{"type": "text_delta", "text": text}
	switch k {
	case kindReasoning:
		d = map[string]any{"type": "thinking_delta", "thinking": text}
	case kindTool:
		d = map[string]any{"type": "input_json_delta", "partial_json": text}
	}
	sw.event("content_block_delta", jsonOf(map[string]any{"type": "content_block_delta", "index": e.index, "delta": d}))
}

func (e *anthropicEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	if e.open {
		sw.event("content_block_stop", jsonOf(map[string]any{"type": "content_block_stop", "index": e.index}))
	}
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

func (e *geminiEnc) output(sw *sseWriter, i int, text string, k kind) {
	part := map[string]any{"text": text}
	switch k {
	case kindReasoning:
		part["thought"] = true
	case kindTool:
		part = map[string]any{"functionCall": map[string]any{"name": "lookup", "args": map[string]any{"q": text}}}
	}
	sw.data(jsonOf(geminiChunk([]map[string]any{part}, "")))
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

func (e *ollamaEnc) output(sw *sseWriter, i int, text string, k kind) {
	msg := map[string]any{"role": "assistant", "content": text}
	if k == kindReasoning {
		msg = map[string]any{"role": "assistant", "content": "", "thinking": text}
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

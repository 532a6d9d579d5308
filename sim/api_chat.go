package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

const apiChat api = "chat"

func init() {
	registerAPI(simAPI{
		name: apiChat, order: 10, at: "base_url %[2]s://%[1]s/v1",
		match: func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" },
		parse: func(r *http.Request, body io.Reader) (request, error) { return parseChat(apiChat, r, body) },
		encoder: func(rs response) encoder {
			return &chatEnc{base: openai.ChatCompletionStreamResponse{ID: "chatcmpl-sim", Object: "chat.completion.chunk", Created: rs.start.Unix(), Model: rs.q.model}, quirks: rs.p.Quirks}
		},
		unstreamed: true,
	})
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
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
	Messages            []json.RawMessage `json:"messages"`
	Tools               json.RawMessage   `json:"tools"`
	// vLLM's extra fields: at least MinTokens, and with IgnoreEOS the
	// whole token limit.
	MinTokens int  `json:"min_tokens"`
	IgnoreEOS bool `json:"ignore_eos"`
}

// parseChat reads an OpenAI chat completions (or Azure OpenAI) body: tools
// offered as {type: function, function: {name}}, an assistant's calls in
// tool_calls, their results as role tool messages.
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
	q.minTokens, q.ignoreEOS = v.MinTokens, v.IgnoreEOS
	switch {
	case q.minTokens < 0:
		return q, badRequest(fmt.Sprintf("min_tokens must be greater than or equal to 0, got %d.", q.minTokens))
	case q.maxTokens > 0 && q.minTokens > q.maxTokens:
		return q, badRequest(fmt.Sprintf("min_tokens must be less than or equal to max_tokens=%d, got %d.", q.maxTokens, q.minTokens))
	}
	if a == apiAzure {
		// The deployment names the model.
		q.model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
	}
	q.tools = functionNames(v.Tools)
	c := newConvo(&q, a, v.Tools)
	for _, raw := range v.Messages {
		var m struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return q, err
		}
		c.add(raw, textOf(m.Content)+" "+textOf(m.ToolCalls), m.Role == "tool" || m.Role == "function")
	}
	return q, nil
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
	sw.data(u.eng.chatFinish(c.delta(openai.ChatCompletionStreamChoiceDelta{}, openai.FinishReason(finish)), includeUsage))
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
		ch.Choices = []openai.ChatCompletionStreamChoice{}
		sw.data(u.eng.chatUsage(ch))
	}
	if !c.quirks.NoDone {
		sw.data([]byte("[DONE]"))
	}
}

func (c *chatEnc) fail(sw *sseWriter) {
	sw.data([]byte(`{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","code":null}}`))
}

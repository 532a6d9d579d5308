package probe

import (
	"bytes"
	"encoding/json"

	"github.com/latgate/latgate/apis"
)

// Chat is OpenAI chat completions and every compatible server (vLLM,
// SGLang, llama.cpp, Ollama's /v1, gateways): the default API.
const Chat API = "chat"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Chat), Order: 10, Default: true,
			Keys: []string{apis.BaseURL},
			Address: apis.Address{Key: apis.BaseURL, Example: "https://api.openai.com/v1", Path: "/chat/completions",
				Ends: []string{"/chat/completions", "/completions"}, Root: "/v1", Models: "/models"},
			NeedsModel: true, Auth: bearer,
			Tools: apis.ClientTools, Turns: true,
			OTel: apis.OTel{Operation: "chat"},
			Init: &apis.Init{KeyEnv: "OPENAI_API_KEY", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini"},
		},
		url:  fixedURL("/chat/completions"),
		body: func(p BodyParams) any { return chatBody(p) }, minTokens: true,
		wire: func(Request) wire { return chatWire },
		// vLLM, llama.cpp, Groq, OpenAI, a LiteLLM proxy, TGI.
		serverTiming: openAICompatible,
	})
}

// chatWire is OpenAI chat completions (and every compatible server).
var chatWire = wire{framing: framingSSE, newDecoder: func() decoder { return &chatDecoder{open: -1} }, ends: "finish_reason or [DONE]"}

// chatDecoder decodes OpenAI chat-completion chunks: output is non-empty
// delta.content (visible), delta.reasoning_content or delta.reasoning, and
// tool-call or function-call arguments; usage comes in a final chunk;
// "[DONE]" ends the stream; an "error" object or an "event: error" is the
// provider's error. Tool calls stream one after the other by index: a call
// is complete when the next one begins, or at the finish.
//
// A chunk is read into chatChunk, the fields the metrics need and no
// other: by scanChat, without reflection, or by encoding/json when the
// chunk has anything scanChat leaves to it. The fields it does not read
// (id, model, created, logprobs, …) are not type-checked.
type chatDecoder struct {
	open int // the index of the tool call being streamed; -1 before any
	// scratch is reused by scanChat from one chunk to the next.
	scratch chatChunk
}

// chatChunk is what the metrics read of a chat-completion chunk.
type chatChunk struct {
	Choices []chatChoice    `json:"choices"`
	Usage   *chatUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type chatChoice struct {
	Delta        chatDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

type chatDelta struct {
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoning_content"`
	// Reasoning is the field some servers (OpenRouter, Ollama) send
	// instead of reasoning_content.
	Reasoning    maybeString    `json:"reasoning"`
	ToolCalls    []chatToolCall `json:"tool_calls"`
	FunctionCall *chatFunction  `json:"function_call"`
}

type chatToolCall struct {
	Index    int          `json:"index"`
	ID       string       `json:"id"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// maybeString is a value read as a string when it is one; any other value
// but null marks it odd (a chunk with an odd reasoning delta counts none
// of its reasoning deltas).
type maybeString struct {
	s   string
	odd bool
}

func (m *maybeString) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &m.s)
	case string(b) != "null":
		m.odd = true
	}
	return nil
}

func (d *chatDecoder) decode(f frame) (event, error) {
	data := bytes.TrimSpace(f.Data)
	if string(data) == "[DONE]" {
		return event{done: true}, nil
	}
	if len(data) == 0 {
		return event{}, nil
	}
	c := &d.scratch
	if !scanChat(data, c) {
		c = &chatChunk{}
		if err := json.Unmarshal(data, c); err != nil {
			return event{}, err
		}
	}
	return d.event(c, f.Name, data), nil
}

// event classifies a decoded chunk.
func (d *chatDecoder) event(c *chatChunk, name string, data []byte) event {
	var e event
	if len(c.Error) > 0 && string(c.Error) != "null" || name == "error" {
		e.err = errorText(c.Error, data)
		return e
	}
	if u := c.Usage; u != nil {
		e.usage = &usage{prompt: u.PromptTokens, output: u.CompletionTokens,
			cached: u.PromptTokensDetails.CachedTokens, reasoning: u.CompletionTokensDetails.ReasoningTokens}
	}
	reasoning := reasoningCounts(c.Choices, data)
	for _, ch := range c.Choices {
		e.content += len(ch.Delta.Content)
		e.reasoning += len(ch.Delta.ReasoningContent)
		if reasoning {
			e.reasoning += len(ch.Delta.Reasoning.s)
		}
		e.text += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			e.tool += len(tc.Function.Arguments)
			e.calls = append(e.calls, callPart{index: tc.Index, id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
			e.toolStart = e.toolStart || tc.Function.Name != "" // the model names the tool first
			if tc.Index > d.open {
				if d.open >= 0 {
					e.callsDone++ // the previous call's arguments are complete
				}
				d.open = tc.Index
			}
		}
		if fc := ch.Delta.FunctionCall; fc != nil {
			e.tool += len(fc.Arguments)
			e.calls = append(e.calls, callPart{name: fc.Name, args: fc.Arguments})
			e.toolStart = e.toolStart || fc.Name != ""
			d.open = max(d.open, 0)
		}
		if ch.FinishReason != "" {
			e.finish = ch.FinishReason
			if d.open >= 0 {
				e.callsDone++ // the last call is complete
				d.open = -2
			}
		}
	}
	return e
}

// reasoningCounts says whether the chunk's "reasoning" deltas count: not
// when one of them is not a string, nor when the key is spelled otherwise
// in the text (encoding/json matches keys ignoring case).
func reasoningCounts(choices []chatChoice, data []byte) bool {
	some := false
	for _, ch := range choices {
		if ch.Delta.Reasoning.odd {
			return false
		}
		some = some || ch.Delta.Reasoning.s != ""
	}
	return some && bytes.Contains(data, []byte(`"reasoning"`))
}

// The keys scanChat reads, by object.
var (
	chunkKeys    = []string{"choices", "usage", "error"}
	choiceKeys   = []string{"delta", "finish_reason"}
	deltaKeys    = []string{"content", "reasoning_content", "reasoning", "tool_calls", "function_call"}
	toolCallKeys = []string{"index", "id", "function"}
	functionKeys = []string{"name", "arguments"}
	usageKeys    = []string{"prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details"}
	cachedKeys   = []string{"cached_tokens"}
	reasonedKeys = []string{"reasoning_tokens"}
)

// scanChat reads a chunk into c (reusing its slices) as encoding/json
// would, or reports false when it leaves the chunk to encoding/json (see
// jscan); c is then to be discarded.
func scanChat(data []byte, c *chatChunk) bool {
	c.Choices, c.Usage, c.Error = c.Choices[:0], nil, nil
	s := &jscan{b: data}
	if s.peek() != '{' {
		return false // null, or not an object: encoding/json says
	}
	ok := s.fields(chunkKeys, func(i int) bool {
		switch i {
		case 0:
			return s.null() || s.array(func() bool {
				c.Choices = append(c.Choices, chatChoice{})
				return s.peek() == '{' && scanChoice(s, &c.Choices[len(c.Choices)-1])
			})
		case 1:
			if s.null() {
				return true
			}
			c.Usage = &chatUsage{}
			return s.peek() == '{' && scanUsage(s, c.Usage)
		}
		var ok bool
		c.Error, ok = s.rawValue()
		return ok
	})
	return ok && s.end()
}

func scanChoice(s *jscan, ch *chatChoice) bool {
	return s.fields(choiceKeys, func(i int) bool {
		if i == 1 {
			return s.textTo(&ch.FinishReason)
		}
		return s.fields(deltaKeys, func(i int) bool { return scanDelta(s, &ch.Delta, i) })
	})
}

// scanDelta reads the value of the delta's i-th key (deltaKeys).
func scanDelta(s *jscan, d *chatDelta, i int) bool {
	switch i {
	case 0:
		return s.textTo(&d.Content)
	case 1:
		return s.textTo(&d.ReasoningContent)
	case 2:
		return s.textTo(&d.Reasoning.s) // not a string: encoding/json says
	case 3:
		return s.null() || s.array(func() bool {
			d.ToolCalls = append(d.ToolCalls, chatToolCall{})
			tc := &d.ToolCalls[len(d.ToolCalls)-1]
			return s.peek() == '{' && s.fields(toolCallKeys, func(i int) bool {
				switch i {
				case 0:
					return s.intTo(&tc.Index)
				case 1:
					return s.textTo(&tc.ID)
				}
				return scanFunction(s, &tc.Function)
			})
		})
	}
	if s.null() {
		return true
	}
	d.FunctionCall = &chatFunction{}
	return scanFunction(s, d.FunctionCall)
}

func scanFunction(s *jscan, f *chatFunction) bool {
	return s.fields(functionKeys, func(i int) bool {
		if i == 0 {
			return s.textTo(&f.Name)
		}
		return s.textTo(&f.Arguments)
	})
}

func scanUsage(s *jscan, u *chatUsage) bool {
	return s.fields(usageKeys, func(i int) bool {
		switch i {
		case 0:
			return s.intTo(&u.PromptTokens)
		case 1:
			return s.intTo(&u.CompletionTokens)
		case 2:
			return s.fields(cachedKeys, func(int) bool { return s.intTo(&u.PromptTokensDetails.CachedTokens) })
		}
		return s.fields(reasonedKeys, func(int) bool { return s.intTo(&u.CompletionTokensDetails.ReasoningTokens) })
	})
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
	if p.MinTokens > 0 {
		b["min_tokens"], b["ignore_eos"] = p.MinTokens, true
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

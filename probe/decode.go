package probe

import (
	"bytes"
	"encoding/json"

	openai "github.com/sashabaranov/go-openai"
)

// decoder turns one wire event into a classified event: which kind of
// output it carries and how much, token usage, the end of the answer or of
// the stream, or the provider's error. It does not stamp times or decide
// whether a request is ok (derive does). A new API is one decoder. A
// decoder may keep state across the events of one stream (a fresh one is
// made per request); an error means the event is malformed.
type decoder interface {
	decode(f frame) (event, error)
}

// wire is how one API streams: its framing, its decoder, and how a proper
// stream ends (for the message of a truncated one).
type wire struct {
	framing    framing
	newDecoder func() decoder
	ends       string
	eofEnds    bool // EOF is a proper end (the API has no end-of-stream event)
}

// hinter is a decoder that can say why a stream had no output (e.g. a
// JSON pointer that matched nothing), or "".
type hinter interface {
	hint() string
}

// chatWire is OpenAI chat completions (and every compatible server).
var chatWire = wire{framing: framingSSE, newDecoder: func() decoder { return &chatDecoder{open: -1} }, ends: "finish_reason or [DONE]"}

// chatDecoder decodes OpenAI chat-completion chunks: output is non-empty
// delta.content (visible), delta.reasoning_content or delta.reasoning, and
// tool-call or function-call arguments; usage comes in a final chunk;
// "[DONE]" ends the stream; an "error" object or an "event: error" is the
// provider's error. Tool calls stream one after the other by index: a call
// is complete when the next one begins, or at the finish.
type chatDecoder struct {
	open int // the index of the tool call being streamed; -1 before any
}

func (d *chatDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if string(data) == "[DONE]" {
		e.done = true
		return e, nil
	}
	if len(data) == 0 {
		return e, nil
	}
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return e, err
	}
	if len(c.Error) > 0 && string(c.Error) != "null" || f.Name == "error" {
		e.err = errorText(c.Error, data)
		return e, nil
	}
	if c.Usage != nil {
		e.usage = &usage{prompt: c.Usage.PromptTokens, output: c.Usage.CompletionTokens}
		if c.Usage.PromptTokensDetails != nil {
			e.usage.cached = c.Usage.PromptTokensDetails.CachedTokens
		}
		if c.Usage.CompletionTokensDetails != nil {
			e.usage.reasoning = c.Usage.CompletionTokensDetails.ReasoningTokens
		}
	}
	for i, ch := range c.Choices {
		e.content += len(ch.Delta.Content)
		e.reasoning += len(ch.Delta.ReasoningContent)
		if i < len(c.reasoning) {
			e.reasoning += len(c.reasoning[i])
		}
		e.text += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			e.tool += len(tc.Function.Arguments)
			idx := 0
			if tc.Index != nil {
				idx = *tc.Index
			}
			e.calls = append(e.calls, callPart{index: idx, id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
			e.toolStart = e.toolStart || tc.Function.Name != "" // the model names the tool first
			if idx > d.open {
				if d.open >= 0 {
					e.callsDone++ // the previous call's arguments are complete
				}
				d.open = idx
			}
		}
		if fc := ch.Delta.FunctionCall; fc != nil {
			e.tool += len(fc.Arguments)
			e.calls = append(e.calls, callPart{name: fc.Name, args: fc.Arguments})
			e.toolStart = e.toolStart || fc.Name != ""
			d.open = max(d.open, 0)
		}
		if ch.FinishReason != "" {
			e.finish = string(ch.FinishReason)
			if d.open >= 0 {
				e.callsDone++ // the last call is complete
				d.open = -2
			}
		}
	}
	return e, nil
}

// chunk is a stream chunk: go-openai's type plus the fields it lacks (an
// in-stream error object and the "reasoning" delta some servers send).
type chunk struct {
	openai.ChatCompletionStreamResponse
	Error     json.RawMessage `json:"error"`
	reasoning []string
}

func (c *chunk) UnmarshalJSON(b []byte) error {
	type plain chunk
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = chunk(p)
	if bytes.Contains(b, []byte(`"reasoning"`)) {
		var r struct {
			Choices []struct {
				Delta struct {
					Reasoning string `json:"reasoning"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(b, &r) == nil {
			for _, ch := range r.Choices {
				c.reasoning = append(c.reasoning, ch.Delta.Reasoning)
			}
		}
	}
	return nil
}

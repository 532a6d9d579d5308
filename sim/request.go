package sim

import (
	"bytes"
	"encoding/json"
	"hash"
	"hash/fnv"
	"io"
	"strings"
)

// request is what the simulator needs from any API's request body.
type request struct {
	model     string
	maxTokens int
	// minTokens and ignoreEOS are vLLM's extra fields of a chat body: the
	// answer is at least minTokens long, and with ignoreEOS exactly
	// maxTokens (when asked).
	minTokens    int
	ignoreEOS    bool
	stream       bool
	includeUsage bool
	promptTokens int
	// words are the prompt's words, message after message: its tokens but
	// the 4 of each message (the block cache's blocks).
	words []string
	// tools are the names of the function tools the request offers, in
	// order.
	tools []string
	// toolSteps is how many tool steps the conversation has answered: its
	// runs of consecutive tool results (one run per step, however many
	// calls the step made).
	toolSteps int
	// prefixes are, per message, the hash of the conversation up to and
	// including it, and its prompt tokens (PrefixCache).
	prefixes []prefix
	// aiSDK: a body of the AI SDK's useChat on /api/chat (UI messages with
	// parts), not Ollama's.
	aiSDK bool
}

// prefix is the start of a conversation: its hash and prompt tokens.
type prefix struct {
	hash   uint64
	tokens int
}

// convo reads a conversation message by message into a request: prompt
// tokens, tool steps answered, prefixes.
type convo struct {
	q         *request
	h         hash.Hash64
	inResults bool
}

// newConvo starts the conversation of q: what a prompt cache keys on before
// the messages (the API, the model, the tools offered).
func newConvo(q *request, a api, tools json.RawMessage) *convo {
	c := &convo{q: q, h: fnv.New64a()}
	_, _ = io.WriteString(c.h, string(a)+"\x00"+q.model+"\x00")
	c.h.Write(compact(tools))
	return c
}

// add reads one message: raw is its JSON, text what it says (its prompt
// tokens), toolResult whether it holds tool results.
func (c *convo) add(raw json.RawMessage, text string, toolResult bool) {
	w := strings.Fields(text)
	c.q.promptTokens += len(w) + messageTokens
	c.q.words = append(c.q.words, w...)
	if toolResult && !c.inResults {
		c.q.toolSteps++
	}
	c.inResults = toolResult
	c.h.Write([]byte{0})
	c.h.Write(compact(raw))
	c.q.prefixes = append(c.q.prefixes, prefix{hash: c.h.Sum64(), tokens: c.q.promptTokens})
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// messageTokens are a message's prompt tokens besides its words: the
// simulator counts a prompt's tokens as its words + 4 per message.
const messageTokens = 4

// textOf is what a message's content says, whatever its API's shape: a
// string, or blocks and parts with text, tool inputs and arguments (as
// JSON) and tool results.
func textOf(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	collectText(&b, v)
	return b.String()
}

func collectText(b *strings.Builder, v any) {
	switch t := v.(type) {
	case string:
		b.WriteString(t + " ")
	case []any:
		for _, x := range t {
			collectText(b, x)
		}
	case map[string]any:
		for _, k := range []string{"text", "content", "output", "arguments", "function", "parts", "functionCall", "function_call", "functionResponse", "function_response"} {
			if x, ok := t[k]; ok {
				collectText(b, x)
			}
		}
		for _, k := range []string{"input", "args", "response"} { // objects: their JSON
			if x, ok := t[k]; ok {
				b.WriteString(string(jsonOf(x)) + " ")
			}
		}
	}
}

// functionNames are the names of the tools offered as chat completions
// offers them ([{type: function, function: {name}}], Ollama's too).
func functionNames(raw json.RawMessage) []string {
	var tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	_ = json.Unmarshal(raw, &tools)
	var names []string
	for _, t := range tools {
		names = appendName(names, t.Function.Name)
	}
	return names
}

func appendName(names []string, name string) []string {
	if name == "" {
		return names
	}
	return append(names, name)
}

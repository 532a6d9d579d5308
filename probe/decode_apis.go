package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

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

// anthropicWire is Anthropic Messages: message_start (input usage), ping,
// content_block_start, content_block_delta (text_delta visible;
// thinking_delta and input_json_delta output too; signature_delta not),
// message_delta (stop_reason and output usage), message_stop (the end);
// event: error is the provider's error (e.g. overloaded_error).
var anthropicWire = wire{framing: framingSSE, newDecoder: func() decoder { return &anthropicDecoder{} }, ends: "message_stop"}

// anthropicDecoder merges the usage of message_start (input, cache) with
// message_delta's (output, and in newer versions cumulative input): each
// count keeps its latest report.
type anthropicDecoder struct {
	u                    usage
	input, read, created int
	tools                map[int]bool // content blocks that are tool_use
}

type anthropicUsage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
}

// anthropicEvent is the part of an Anthropic Messages event the decoder
// reads.
type anthropicEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock *struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"`
	Message *struct {
		Usage *anthropicUsage `json:"usage"`
	} `json:"message"`
	Delta *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func (d *anthropicDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	var v anthropicEvent
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	typ := v.Type
	if typ == "" {
		typ = f.Name
	}
	switch typ {
	case "message_start":
		if v.Message != nil && v.Message.Usage != nil {
			d.merge(v.Message.Usage)
			e.usage = d.snapshot()
		}
	case "content_block_start":
		if b := v.ContentBlock; b != nil && (b.Type == "tool_use" || b.Type == "server_tool_use") {
			if d.tools == nil {
				d.tools = map[int]bool{}
			}
			d.tools[v.Index] = true
			e.toolStart = true
			e.calls = []callPart{{index: v.Index, id: b.ID, name: b.Name}}
		}
	case "content_block_delta":
		if dl := v.Delta; dl != nil {
			e.content, e.reasoning, e.tool = len(dl.Text), len(dl.Thinking), len(dl.PartialJSON)
			e.text = dl.Text
			if dl.PartialJSON != "" {
				e.calls = []callPart{{index: v.Index, args: dl.PartialJSON}}
			}
		}
	case "content_block_stop":
		if d.tools[v.Index] {
			e.callsDone = 1
		}
	case "message_delta":
		if v.Delta != nil && v.Delta.StopReason != "" {
			e.finish = v.Delta.StopReason
		}
		if v.Usage != nil {
			d.merge(v.Usage)
			e.usage = d.snapshot()
		}
	case "message_stop":
		e.done = true
	case "error":
		e.err = "error"
		if v.Error != nil {
			e.err = v.Error.Message
			if v.Error.Type != "" {
				e.err += " [" + v.Error.Type + "]"
			}
		}
	}
	return e, nil
}

// merge keeps the latest count of each kind. Anthropic's input_tokens
// excludes cached input, so prompt tokens are input + cache read + cache
// creation, and cached the cache reads.
func (d *anthropicDecoder) merge(u *anthropicUsage) {
	for _, c := range []struct {
		src *int
		dst *int
	}{{u.OutputTokens, &d.u.output}, {u.InputTokens, &d.input}, {u.CacheReadInputTokens, &d.read}, {u.CacheCreationInputTokens, &d.created}} {
		if c.src != nil {
			*c.dst = *c.src
		}
	}
	d.u.prompt, d.u.cached = d.input+d.read+d.created, d.read
}

func (d *anthropicDecoder) snapshot() *usage { u := d.u; return &u }

// geminiWire is Gemini streamGenerateContent?alt=sse: every event is a
// GenerateContentResponse. Output is a part with non-empty text (thought
// or not; visible only without thought: true) or a function call; parts
// that carry only a thought signature are not output. usageMetadata holds
// the counts (output = candidates + thoughts). The stream ends at EOF after
// a finishReason; an error object is the provider's error.
var geminiWire = wire{framing: framingSSE, newDecoder: func() decoder { return &geminiDecoder{} }, ends: "a finishReason"}

// geminiDecoder numbers the function calls of an answer: each arrives
// whole, its arguments complete.
type geminiDecoder struct{ calls int }

func (d *geminiDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	var v struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string          `json:"text"`
					Thought      bool            `json:"thought"`
					FunctionCall json.RawMessage `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		UsageMetadata *struct {
			PromptTokenCount        int `json:"promptTokenCount"`
			CandidatesTokenCount    int `json:"candidatesTokenCount"`
			ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
			CachedContentTokenCount int `json:"cachedContentTokenCount"`
		} `json:"usageMetadata"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	if len(v.Error) > 0 && string(v.Error) != "null" {
		e.err = geminiError(v.Error, data)
		return e, nil
	}
	for _, c := range v.Candidates {
		for _, p := range c.Content.Parts {
			switch {
			case p.Thought:
				e.reasoning += len(p.Text)
			default:
				e.content += len(p.Text)
				e.text += p.Text
			}
			if len(p.FunctionCall) > 0 && string(p.FunctionCall) != "null" {
				e.tool += len(p.FunctionCall)
				e.calls = append(e.calls, d.call(p.FunctionCall))
				e.callsDone++
			}
		}
		if c.FinishReason != "" && c.FinishReason != "FINISH_REASON_UNSPECIFIED" {
			e.finish = c.FinishReason
		}
	}
	if u := v.UsageMetadata; u != nil {
		e.usage = &usage{prompt: u.PromptTokenCount, output: u.CandidatesTokenCount + u.ThoughtsTokenCount,
			cached: u.CachedContentTokenCount, reasoning: u.ThoughtsTokenCount}
	}
	return e, nil
}

// call reads a functionCall part ({"name", "args", and an "id" in newer
// versions); a call without id gets one by its position.
func (d *geminiDecoder) call(raw json.RawMessage) callPart {
	var fc struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	_ = json.Unmarshal(raw, &fc)
	c := callPart{index: d.calls, id: fc.ID, name: fc.Name, args: string(fc.Args)}
	if c.id == "" {
		c.id = fmt.Sprintf("call_%d", d.calls+1)
	}
	if c.args == "" || c.args == "null" {
		c.args = "{}"
	}
	d.calls++
	return c
}

// geminiError reads {"code":403,"message":…,"status":"PERMISSION_DENIED"}.
func geminiError(raw json.RawMessage, whole []byte) string {
	var g struct {
		Message string `json:"message"`
		Status  string `json:"status"`
	}
	if json.Unmarshal(raw, &g) == nil && g.Message != "" {
		if g.Status != "" {
			return clip(g.Message+" ["+g.Status+"]", 300)
		}
		return clip(g.Message, 300)
	}
	return errorText(raw, whole)
}

// customWire reads the team's own endpoint by its StreamSpec.
func customWire(s StreamSpec) wire {
	w := wire{framing: framing(s.Format), newDecoder: func() decoder { return &customDecoder{spec: s} }}
	switch {
	case s.Format == "text":
		w.ends, w.eofEnds = "the end of the body", true
	case s.Done == "":
		w.ends, w.eofEnds = "the end of the body", true
	default:
		w.ends = "stream.done (" + s.Done + ")"
	}
	return w
}

// customDecoder reads each JSON event by the spec's pointers; in text
// format every chunk is visible text. It counts the events by their shape
// (their keys), to show the most frequent one — where the text most
// likely is — when the text pointer never matches.
type customDecoder struct {
	spec      StreamSpec
	matched   bool
	shapes    map[string]*shape
	events    int
	toolCalls int // the tool calls completed so far (the next one's index)
}

// shape is how many events had one set of keys, and the first of them.
type shape struct {
	n       int
	example string
}

func (d *customDecoder) decode(f frame) (event, error) {
	var e event
	if d.spec.Format == "text" {
		e.content = len(f.Data)
		return e, nil
	}
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	if string(data) == "[DONE]" {
		e.done = true
		return e, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return e, err
	}
	d.count(v, data)
	if x, ok := pointer(v, d.spec.Error); ok && truthy(x) {
		if s, ok := x.(string); ok {
			e.err = clip(s, 300)
		} else {
			b, _ := json.Marshal(x)
			e.err = errorText(b, b)
		}
		return e, nil
	}
	role := "text"
	if !d.spec.Types.Empty() {
		typ, _ := pointerString(v, d.spec.Type)
		if role = d.spec.Types.role(typ); role == "" {
			return e, nil // an event of no listed type carries no output
		}
		d.roles(&e, role, v)
	}
	if x, ok := pointer(v, d.spec.Text); ok && role == "text" {
		d.matched = true
		if s, ok := x.(string); ok {
			e.content, e.text = len(s), s
		}
	}
	if x, ok := pointerString(v, d.spec.Reasoning); ok && (role == "text" && d.spec.Types.Empty() || role == "reasoning") {
		e.reasoning = len(x)
	}
	var u usage
	found := false
	for _, c := range []struct {
		ptr string
		dst *int
	}{{d.spec.OutputTokens, &u.output}, {d.spec.InputTokens, &u.prompt}, {d.spec.CachedTokens, &u.cached}} {
		if x, ok := pointer(v, c.ptr); ok {
			if n, ok := x.(json.Number); ok {
				if i, err := strconv.Atoi(n.String()); err == nil {
					*c.dst, found = i, true
				}
			}
		}
	}
	if found {
		e.usage = &u
	}
	if x, ok := pointer(v, d.spec.Done); ok && truthy(x) {
		e.done, e.finish = true, "done"
	}
	return e, nil
}

// roles sets what an event of a server-driven agent's role means: a tool
// call (its arguments at stream.tool_call), its completion, a tool's
// result, a new step.
func (d *customDecoder) roles(e *event, role string, v any) {
	switch role {
	case "tool_call":
		args, _ := pointerString(v, d.spec.ToolCall)
		e.tool = len(args)
		e.toolStart = args == ""
		e.calls = []callPart{{index: d.toolCalls, args: args}}
	case "tool_call_done":
		e.callsDone = 1
		d.toolCalls++
	case "tool_result":
		e.toolResult = true
	case "step":
		e.step = true
	}
}

// pointerString is the string at a JSON pointer, if there is one.
func pointerString(v any, ptr string) (string, bool) {
	x, ok := pointer(v, ptr)
	if !ok {
		return "", false
	}
	s, ok := x.(string)
	return s, ok
}

// hint says why a stream had no output, when the text pointer never
// matched any event.
func (d *customDecoder) hint() string {
	if d.matched || d.events == 0 {
		return ""
	}
	var top *shape
	for _, s := range d.shapes {
		if top == nil || s.n > top.n || s.n == top.n && s.example < top.example {
			top = s
		}
	}
	return fmt.Sprintf("stream.text %s matched no event; the most frequent kind of event (%d of %d) was: %s", d.spec.Text, top.n, d.events, top.example)
}

// count tallies an event by its shape: its keys, and its type when the
// spec names where the type is.
func (d *customDecoder) count(v any, data []byte) {
	d.events++
	m, _ := v.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	key := strings.Join(keys, ",")
	if typ, ok := pointerString(v, d.spec.Type); ok {
		key += "=" + typ
	} else if typ, ok := m["type"].(string); ok {
		key += "=" + typ
	}
	if d.shapes == nil {
		d.shapes = map[string]*shape{}
	}
	if s, ok := d.shapes[key]; ok {
		s.n++
	} else if len(d.shapes) < 64 {
		d.shapes[key] = &shape{n: 1, example: clip(string(data), 200)}
	}
}

// pointer resolves an RFC 6901 JSON pointer in a decoded document; ""
// never matches (the key is unset).
func pointer(v any, ptr string) (any, bool) {
	if ptr == "" || ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch t := v.(type) {
		case map[string]any:
			x, ok := t[tok]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(t) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// truthy: true, a non-zero number, a non-empty string, array or object.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case json.Number:
		f, err := t.Float64()
		return err != nil || f != 0
	case string:
		return t != ""
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return true
}

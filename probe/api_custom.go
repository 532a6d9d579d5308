package probe

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/latgate/latgate/apis"

	"github.com/latgate/latgate/internal/redact"
)

// Custom is the team's own streaming endpoint, read by its StreamSpec.
const Custom API = "custom"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Custom), Order: 60,
			Keys:    []string{apis.URL, "method", "body", "stream"},
			Needs:   []apis.Need{{Key: "stream", Says: "stream: {format: sse, text: /pointer/to/text}"}},
			Address: apis.Address{Key: apis.URL, Example: "http://127.0.0.1:11434/api/chat"},
			Body:    apis.BodyTemplate, Auth: bearer,
			Tools: apis.ServerTools, Turns: true,
		},
		url: func(t Target) string { return t.URL },
		body: func(p BodyParams) any {
			if p.Template == nil {
				return nil // no body (e.g. a GET endpoint)
			}
			return fillTemplate(p.Template, p, p.Messages)
		},
		wire: func(req Request) wire {
			if req.Stream != nil {
				return customWire(*req.Stream)
			}
			return chatWire // check refuses the request
		},
		check: func(req Request) error {
			if req.Stream == nil {
				return errors.New("a custom endpoint needs a stream spec")
			}
			return nil
		},
		jsonInstead: func(ct string) (string, bool) {
			// A custom endpoint's framing is its config's: every request
			// would be misread the same way.
			if strings.Contains(ct, "ndjson") {
				return "the server streams NDJSON: set stream.format: ndjson", true
			}
			return askStream, true
		},
		marksSteps: func(req Request) bool { return req.Stream != nil && len(req.Stream.Types.Step) > 0 },
		// The team's own endpoint may front any engine: every form is read
		// (and checked like any other).
		serverTiming: allTimingForms,
	})
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
			e.err = bound(s)
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
func (d *customDecoder) hint(hide *redact.Set) string {
	if d.matched || d.events == 0 {
		return ""
	}
	var top *shape
	for _, s := range d.shapes {
		if top == nil || s.n > top.n || s.n == top.n && s.example < top.example {
			top = s
		}
	}
	return fmt.Sprintf("stream.text %s matched no event; the most frequent kind of event (%d of %d) was: %s", d.spec.Text, top.n, d.events, hide.Clip(top.example, 200))
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
		// Cut where no message shows it (the hint shows 200 bytes,
		// once hidden): a cut through a secret here is never shown.
		d.shapes[key] = &shape{n: 1, example: clip(string(data[:min(len(data), 1<<10+1)]), 1<<10)}
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

// StreamSpec says how to read a Custom endpoint's stream: its framing and
// JSON pointers (RFC 6901) into each event. Text is required; a pointer
// left empty is not read.
type StreamSpec struct {
	Format       string // "sse", "ndjson" or "text" (every chunk of bytes is visible text)
	Text         string // visible output text
	Reasoning    string // reasoning text
	Done         string // true, a non-zero number or a non-empty string ends the stream; without it EOF does
	Error        string // a non-empty value is the provider's error message
	OutputTokens string
	InputTokens  string
	CachedTokens string
	// Type points at an event's type (such as /type); with Types, the
	// type says which role the event plays, and Text, Reasoning and
	// ToolCall are read only from events of their role.
	Type  string
	Types StreamTypes
	// ToolCall points at the piece of a tool call's arguments an event of
	// role tool_call carries (such as /inputTextDelta).
	ToolCall string
}

// StreamTypes lists, per role, the event types (the value at
// StreamSpec.Type) that play it: a server-driven agent's stream marks its
// text, reasoning, tool calls, the tools' results and each new step.
type StreamTypes struct {
	Text, Reasoning []string
	ToolCall        []string // a tool call begins or streams its arguments
	ToolCallDone    []string // a tool call's arguments are complete
	ToolResult      []string // a tool's result arrived
	Step            []string // a new step (model call) begins
}

// Empty reports whether no type plays any role.
func (t StreamTypes) Empty() bool {
	return len(t.Text)+len(t.Reasoning)+len(t.ToolCall)+len(t.ToolCallDone)+len(t.ToolResult)+len(t.Step) == 0
}

// role is the role an event of type typ plays ("" for none).
func (t StreamTypes) role(typ string) string {
	for _, r := range []struct {
		name  string
		types []string
	}{{"text", t.Text}, {"reasoning", t.Reasoning}, {"tool_call", t.ToolCall}, {"tool_call_done", t.ToolCallDone}, {"tool_result", t.ToolResult}, {"step", t.Step}} {
		if slices.Contains(r.types, typ) {
			return r.name
		}
	}
	return ""
}

// Validate says what is wrong with a stream spec, naming the key.
func (s StreamSpec) Validate() error {
	switch s.Format {
	case "sse", "ndjson":
		if s.Text == "" {
			return fmt.Errorf("stream.text: a JSON pointer to the output text is required (e.g. /message/content)")
		}
	case "text":
		for k, v := range map[string]string{"text": s.Text, "reasoning": s.Reasoning, "done": s.Done, "error": s.Error,
			"output_tokens": s.OutputTokens, "input_tokens": s.InputTokens, "cached_tokens": s.CachedTokens} {
			if v != "" {
				return fmt.Errorf("stream.%s: a plain-text stream has no JSON to point into (use format sse or ndjson)", k)
			}
		}
		return nil
	case "":
		return fmt.Errorf("stream.format: required: sse, ndjson or text")
	default:
		return fmt.Errorf("stream.format: unknown %q (known: sse, ndjson, text)", s.Format)
	}
	for k, v := range map[string]string{"text": s.Text, "reasoning": s.Reasoning, "done": s.Done, "error": s.Error,
		"output_tokens": s.OutputTokens, "input_tokens": s.InputTokens, "cached_tokens": s.CachedTokens, "type": s.Type, "tool_call": s.ToolCall} {
		if v != "" && !strings.HasPrefix(v, "/") {
			return fmt.Errorf("stream.%s: %q is not a JSON pointer: it starts with / (e.g. /message/content)", k, v)
		}
	}
	switch {
	case !s.Types.Empty() && s.Type == "":
		return fmt.Errorf("stream.types: needs stream.type, the JSON pointer to each event's type (e.g. /type)")
	case s.Type != "" && s.Types.Empty():
		return fmt.Errorf("stream.type: says where an event's type is; stream.types says which types are text, reasoning, tool_call, tool_call_done, tool_result and step")
	case !s.Types.Empty() && len(s.Types.Text) == 0:
		return fmt.Errorf("stream.types.text: which event types carry the visible text is required (e.g. [text-delta])")
	}
	return nil
}

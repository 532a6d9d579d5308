package workload

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"time"
)

// OpenTelemetry traces as OTLP JSON (the collector's file exporter: one
// ExportTraceServiceRequest a line; or one document, pretty-printed or
// not): resourceSpans[].scopeSpans[].spans[], each span an entry when it
// carries gen_ai.usage.input_tokens (GenAI semantic conventions; an
// attribute value {"intValue": "123"}, the int64 as a string or a number;
// gen_ai.usage.prompt_tokens before v1.27), with gen_ai.usage.output_tokens
// (or completion_tokens), startTimeUnixNano (At: from the Unix epoch) and
// gen_ai.conversation.id (the session). Other spans are skipped, and
// counted. An entry's line is the line its span begins on.
func init() {
	register(Format{Name: "otlp", Sniff: sniffOTLP, Read: readOTLP})
}

var otlpRE = regexp.MustCompile(`^\s*\{[\s\S]*"resourceSpans"\s*:`)

func sniffOTLP(head []byte) bool { return otlpRE.Match(head) }

func readOTLP(r io.Reader, file string, emit func(Entry) error, skip func(int) error) error {
	w := newWalker(r, file)
	span := func() error { return otlpSpan(w, emit, skip) }
	spans := func(key string) error {
		if key == "spans" {
			return w.array("spans", span)
		}
		return w.skip()
	}
	scopes := func(key string) error {
		if key == "scopeSpans" || key == "instrumentationLibrarySpans" {
			return w.array(key, func() error { return w.object(key, spans) })
		}
		return w.skip()
	}
	top := func(key string) error {
		if key == "resourceSpans" {
			return w.array(key, func() error { return w.object(key, scopes) })
		}
		return w.skip()
	}
	for {
		line := w.line()
		t, err := w.tok()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if t != json.Delim('{') {
			return w.fail(line, "", "%s where an OTLP object is wanted", kind(t))
		}
		if err := w.members(top); err != nil {
			return err
		}
	}
}

// otlpAttrs are the attributes an entry is made of.
type otlpAttrs struct {
	input, output, session, start json.Token
	line                          int
}

func otlpSpan(w *walker, emit func(Entry) error, skip func(int) error) error {
	a := otlpAttrs{line: w.line()}
	err := w.object("spans", func(key string) error {
		switch key {
		case "startTimeUnixNano":
			t, err := w.scalar(key)
			a.start = t
			return err
		case "attributes":
			return w.array(key, func() error { return otlpAttr(w, &a) })
		}
		return w.skip()
	})
	if err != nil {
		return err
	}
	if a.input == nil {
		return skip(a.line)
	}
	e := Entry{Line: a.line}
	var why string
	if e.At, why = unixNano(a.start); why != "" {
		return w.fail(a.line, "startTimeUnixNano", "%s", why)
	}
	if e.Input, why = otlpInt(a.input); why != "" {
		return w.fail(a.line, "gen_ai.usage.input_tokens", "%s", why)
	}
	if a.output != nil {
		if e.Output, why = otlpInt(a.output); why != "" {
			return w.fail(a.line, "gen_ai.usage.output_tokens", "%s", why)
		}
	}
	if a.session != nil {
		if e.Session, why = otlpText(a.session); why != "" {
			return w.fail(a.line, "gen_ai.conversation.id", "%s", why)
		}
	}
	return emit(e)
}

// otlpAttr reads one {"key": …, "value": {…}} of a span's attributes,
// keeping the value of a key an entry is made of.
func otlpAttr(w *walker, a *otlpAttrs) error {
	var key string
	var val json.Token
	err := w.object("attributes", func(k string) error {
		switch k {
		case "key":
			t, err := w.scalar(k)
			key, _ = t.(string)
			return err
		case "value":
			if key != "" && otlpSlot(a, key) == nil {
				return w.skip() // a key not needed, given first
			}
			return w.object(k, func(vk string) error {
				switch vk {
				case "intValue", "doubleValue", "stringValue":
					t, err := w.scalar(vk)
					val = t
					return err
				}
				return w.skip()
			})
		}
		return w.skip()
	})
	if slot := otlpSlot(a, key); err == nil && slot != nil && val != nil {
		*slot = val
	}
	return err
}

// otlpSlot is where an attribute's value goes; nil for one not needed.
func otlpSlot(a *otlpAttrs, key string) *json.Token {
	switch key {
	case "gen_ai.usage.input_tokens":
		return &a.input
	case "gen_ai.usage.prompt_tokens":
		if a.input == nil {
			return &a.input
		}
	case "gen_ai.usage.output_tokens":
		return &a.output
	case "gen_ai.usage.completion_tokens":
		if a.output == nil {
			return &a.output
		}
	case "gen_ai.conversation.id":
		return &a.session
	}
	return nil
}

// otlpInt is a token count given as an int64 (a string or a number) or a
// whole double.
func otlpInt(t json.Token) (int, string) {
	s, why := scalarText(t, "a number")
	if why != "" {
		return 0, why
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return tokenCount(float64(n))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Sprintf("%q is not a number", clip(s))
	}
	return tokenCount(f)
}

func otlpText(t json.Token) (string, string) {
	s, why := scalarText(t, "a string")
	if why != "" {
		return "", why
	}
	if len(s) > MaxSessionID {
		return "", fmt.Sprintf("%d bytes: a session id is at most %d", len(s), MaxSessionID)
	}
	return s, ""
}

// unixNano is a span's start from the Unix epoch.
func unixNano(t json.Token) (time.Duration, string) {
	if t == nil {
		return 0, "missing"
	}
	s, why := scalarText(t, "a number of nanoseconds")
	if why != "" {
		return 0, why
	}
	n, err := strconv.ParseUint(s, 10, 64)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%q is not a whole number of nanoseconds", clip(s))
	case n == 0:
		return 0, "0: the span's start is not set"
	case n > uint64(MaxAt):
		return 0, fmt.Sprintf("%d is past %v from the Unix epoch", n, MaxAt)
	}
	return time.Duration(n), ""
}

// scalarText is the text of a string or a number (OTLP/JSON writes an
// int64 as a string), or why t is not one where want is wanted.
func scalarText(t json.Token, want string) (string, string) {
	switch v := t.(type) {
	case string:
		return v, ""
	case json.Number:
		return v.String(), ""
	}
	return "", kind(t) + " where " + want + " is wanted"
}

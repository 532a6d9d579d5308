package browser

import (
	"bytes"
	"encoding/json"
	"mime"
	"strings"
)

// TextScanner says whether each chunk of a stream, in order, carries
// answer text.
type TextScanner interface {
	Chunk(b []byte) bool
}

// NewScanner returns the default TextScanner for a response of the given
// Content-Type: for server-sent events (the AI SDK's UI message stream,
// OpenAI's chat and Responses events, Anthropic's), an event that carries
// a text delta, or a data line that is not JSON; for NDJSON a line with
// non-empty content (Ollama's message.content or response); for the AI
// SDK's data stream protocol a text part (0:"…"); for anything else any
// byte that is not white space.
func NewScanner(contentType string) TextScanner {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "text/event-stream":
		return &lines{is: sseText}
	case "application/x-ndjson", "application/jsonl", "application/json-seq":
		return &lines{is: ndjsonText}
	case "text/plain":
		return &plain{}
	}
	return anyText{}
}

// maxLine bounds the part of a line the scanners keep across chunks: a
// longer line is judged on its start.
const maxLine = 64 << 10

// lines feeds complete lines to is, keeping a partial line (its first
// maxLine bytes) between chunks.
type lines struct {
	part []byte
	is   func(line []byte) bool
}

func (l *lines) Chunk(b []byte) bool {
	text := false
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.part = append(l.part, b[:min(len(b), max(0, maxLine-len(l.part)))]...)
			break
		}
		line := b[:i]
		if len(l.part) > 0 {
			line = append(l.part, line[:min(len(line), max(0, maxLine-len(l.part)))]...)
			l.part = l.part[:0]
		}
		if l.is(bytes.TrimRight(line, "\r")) {
			text = true
		}
		b = b[i+1:]
	}
	return text
}

// sseText: a data line whose JSON carries a text delta, or whose payload
// is not JSON (a plain-text event stream).
func sseText(line []byte) bool {
	data, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return false
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "[DONE]" {
		return false
	}
	if data[0] != '{' {
		return true
	}
	var ev struct {
		Type    string          `json:"type"`
		Delta   json.RawMessage `json:"delta"`
		Choices []struct {
			Delta struct {
				Content string `json:"content"`
			} `json:"delta"`
		} `json:"choices"`
	}
	if json.Unmarshal(data, &ev) != nil {
		return false
	}
	for _, c := range ev.Choices {
		if c.Delta.Content != "" {
			return true
		}
	}
	switch ev.Type {
	case "text-delta", "response.output_text.delta":
		var s string
		return json.Unmarshal(ev.Delta, &s) == nil && s != ""
	case "content_block_delta":
		var d struct{ Type, Text string }
		return json.Unmarshal(ev.Delta, &d) == nil && d.Type == "text_delta" && d.Text != ""
	}
	return false
}

// ndjsonText: a JSON line with non-empty message.content or response.
func ndjsonText(line []byte) bool {
	var ev struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		Response string `json:"response"`
	}
	return json.Unmarshal(line, &ev) == nil && (ev.Message.Content != "" || ev.Response != "")
}

// plain reads a text/plain stream: the AI SDK's data stream protocol
// when its first line starts with a part's code and a colon (then a text
// part, 0:"…", is text; the other parts are not), else a plain text
// stream, where any byte that is not white space is text.
type plain struct {
	decided bool
	data    lines
}

func (p *plain) Chunk(b []byte) bool {
	if !p.decided {
		p.decided = true
		if isDataStream(b) {
			p.data.is = dataStreamText
		}
	}
	if p.data.is != nil {
		return p.data.Chunk(b)
	}
	return anyText{}.Chunk(b)
}

func isDataStream(b []byte) bool {
	return len(b) >= 2 && b[1] == ':' && strings.IndexByte("0123456789abcdefghijk", b[0]) >= 0
}

func dataStreamText(line []byte) bool {
	t, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("0:"))
	var s string
	return ok && json.Unmarshal(t, &s) == nil && s != ""
}

// anyText: any byte that is not white space.
type anyText struct{}

func (anyText) Chunk(b []byte) bool { return len(bytes.TrimSpace(b)) > 0 }

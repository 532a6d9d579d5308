package probe

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLine bounds one SSE line; a longer line fails the request instead of
// growing memory without limit.
const MaxLine = 16 << 20

var (
	errMidLine     = errors.New("connection closed in the middle of a line")
	errLineTooLong = errors.New("SSE line longer than 16 MiB")
)

// frame is one wire event before decoding: a dispatched server-sent event,
// an NDJSON line or a chunk of text. A framer reuses its buffers: Data is
// valid until its next call of Next (decoders copy what they keep).
type frame struct {
	Name string // SSE: the event: field, "" for the default "message"
	Data []byte // SSE: data: lines joined with "\n"; NDJSON: the line; text: the bytes
}

// framing is how a stream is cut into frames.
type framing string

const (
	framingSSE    framing = "sse"
	framingNDJSON framing = "ndjson"
	framingText   framing = "text"
)

// what names one frame of this framing in messages.
func (f framing) what() string {
	switch f {
	case framingNDJSON:
		return "NDJSON line"
	case framingText:
		return "text chunk"
	case framingWS:
		return "WebSocket message"
	}
	return "SSE data"
}

// stream names a stream of this framing in messages.
func (f framing) stream() string {
	switch f {
	case framingNDJSON:
		return "an NDJSON stream"
	case framingText:
		return "a text stream"
	case framingWS:
		return "WebSocket messages"
	}
	return "an SSE stream (text/event-stream)"
}

// framer reads frames; io.EOF at the end of the stream.
type framer interface {
	Next() (frame, error)
}

func newFramer(f framing, r io.Reader) framer {
	switch f {
	case framingNDJSON:
		return &ndjsonFramer{lines: lineReader{r: bufio.NewReaderSize(r, lineBuffer)}}
	case framingText:
		return &textFramer{r: r, buf: make([]byte, 32<<10)}
	}
	return newSSEFramer(r)
}

// sseFramer reads server-sent events as the WHATWG spec describes them:
// lines end in \n or \r\n; a line starting with ':' is a comment; "data:" with
// or without the space; several data: lines in one event are joined with
// "\n"; an empty line dispatches the event. At EOF, an event whose data lines
// were complete but not followed by a blank line is still dispatched (many
// servers close right after the last line); a partial line is an error.
type sseFramer struct {
	lineReader
	data    []byte
	hasData bool
	name    string
}

func newSSEFramer(r io.Reader) *sseFramer {
	return &sseFramer{lineReader: lineReader{r: bufio.NewReaderSize(r, lineBuffer)}}
}

// lineBuffer is the read buffer of a line framer: a line longer than it is
// put together from several reads. HTTP/1 bodies come from a 4 KiB buffer
// already.
const lineBuffer = 4 << 10

// lineReader reads lines of at most MaxLine bytes; a partial last line is
// errMidLine.
type lineReader struct {
	r    *bufio.Reader
	line []byte
}

// readLine returns the next line, valid until the next call: the reader's
// own buffer when the line is in it whole, else a copy put together.
func (d *lineReader) readLine() ([]byte, error) {
	frag, err := d.r.ReadSlice('\n')
	if err == nil {
		return frag, nil // the whole line is in the buffer
	}
	d.line = append(d.line[:0], frag...)
	for err == bufio.ErrBufferFull && len(d.line) <= MaxLine {
		frag, err = d.r.ReadSlice('\n')
		d.line = append(d.line, frag...)
	}
	switch {
	case len(d.line) > MaxLine:
		return nil, errLineTooLong
	case err == nil:
		return d.line, nil
	case len(d.line) > 0 && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF)):
		return nil, errMidLine
	}
	return nil, err
}

// Next returns the next event. At the end of the stream it returns io.EOF
// (after dispatching any complete pending event); read errors pass through.
func (d *sseFramer) Next() (frame, error) {
	for {
		line, err := d.readLine()
		if err == io.EOF {
			if d.hasData {
				return d.dispatch(), nil
			}
			return frame{}, io.EOF
		}
		if err != nil {
			return frame{}, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			if d.hasData {
				return d.dispatch(), nil
			}
			d.name = ""
			continue
		}
		if line[0] == ':' {
			continue // a comment (keep-alive)
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "data":
			if d.hasData {
				d.data = append(d.data, '\n')
			}
			d.data = append(d.data, value...)
			d.hasData = true
		case "event":
			d.name = string(value)
		}
	}
}

func (d *sseFramer) dispatch() frame {
	ev := frame{Name: d.name, Data: d.data}
	d.data, d.hasData, d.name = d.data[:0], false, ""
	return ev
}

// ndjsonFramer reads newline-delimited JSON: every non-blank line is a
// frame; a last line cut off without its newline is errMidLine.
type ndjsonFramer struct {
	lines lineReader
}

func (d *ndjsonFramer) Next() (frame, error) {
	for {
		line, err := d.lines.readLine()
		if err != nil {
			return frame{}, err
		}
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			return frame{Data: line}, nil
		}
	}
}

// textFramer makes every chunk of bytes the server sends one frame.
type textFramer struct {
	r   io.Reader
	buf []byte
}

func (d *textFramer) Next() (frame, error) {
	for {
		n, err := d.r.Read(d.buf)
		if n > 0 {
			return frame{Data: d.buf[:n]}, nil
		}
		if err != nil {
			return frame{}, err
		}
	}
}

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

// sseEvent is one dispatched server-sent event.
type sseEvent struct {
	Name string // the event: field, "" for the default "message"
	Data []byte // data: lines joined with "\n"
}

// sseDecoder reads server-sent events as the WHATWG spec describes them:
// lines end in \n or \r\n; a line starting with ':' is a comment; "data:" with
// or without the space; several data: lines in one event are joined with
// "\n"; an empty line dispatches the event. At EOF, an event whose data lines
// were complete but not followed by a blank line is still dispatched (many
// servers close right after the last line); a partial line is an error.
type sseDecoder struct {
	r       *bufio.Reader
	line    []byte
	data    []byte
	hasData bool
	name    string
}

func newSSEDecoder(r io.Reader) *sseDecoder {
	return &sseDecoder{r: bufio.NewReaderSize(r, 32<<10)}
}

func (d *sseDecoder) readLine() ([]byte, error) {
	d.line = d.line[:0]
	for {
		frag, err := d.r.ReadSlice('\n')
		d.line = append(d.line, frag...)
		if len(d.line) > MaxLine {
			return nil, errLineTooLong
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			return d.line, nil
		case len(d.line) > 0 && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF)):
			return nil, errMidLine
		default:
			return nil, err
		}
	}
}

// Next returns the next event. At the end of the stream it returns io.EOF
// (after dispatching any complete pending event); read errors pass through.
func (d *sseDecoder) Next() (sseEvent, error) {
	for {
		line, err := d.readLine()
		if err == io.EOF {
			if d.hasData {
				return d.dispatch(), nil
			}
			return sseEvent{}, io.EOF
		}
		if err != nil {
			return sseEvent{}, err
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

func (d *sseDecoder) dispatch() sseEvent {
	ev := sseEvent{Name: d.name, Data: append([]byte(nil), d.data...)}
	d.data, d.hasData, d.name = d.data[:0], false, ""
	return ev
}

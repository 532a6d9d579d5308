package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// guard reads a JSON stream for a json.Decoder within bounds the decoder
// does not keep: no value between two structural characters (a string, a
// number) longer than MaxValue, no nesting deeper than MaxDepth. It also
// keeps the bytes the decoder has not consumed yet, to say which line an
// offset is on.
type guard struct {
	r     io.Reader
	file  string
	err   error
	inStr bool
	esc   bool
	run   int
	depth int
	nl    int // newlines delivered
	// win holds the bytes delivered from winOff on; lines is the count of
	// newlines before winOff.
	win    []byte
	winOff int64
	lines  int
}

func (g *guard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	for i, c := range p[:n] {
		if why := g.step(c); why != "" {
			g.err = &Error{File: g.file, Line: g.nl + 1, Why: why}
			g.win = append(g.win, p[:i]...)
			return 0, g.err
		}
	}
	g.win = append(g.win, p[:n]...)
	return n, err
}

// step follows one byte of JSON's structure.
func (g *guard) step(c byte) string {
	if c == '\n' {
		g.nl++
	}
	if g.inStr {
		switch {
		case g.esc:
			g.esc = false
		case c == '\\':
			g.esc = true
		case c == '"':
			g.inStr, g.run = false, 0
			return ""
		}
		if g.run++; g.run > MaxValue {
			return fmt.Sprintf("a string longer than %d bytes", MaxValue)
		}
		return ""
	}
	switch c {
	case '"':
		g.inStr, g.run = true, 0
	case '{', '[':
		if g.depth++; g.depth > MaxDepth {
			return fmt.Sprintf("JSON nested deeper than %d levels", MaxDepth)
		}
		g.run = 0
	case '}', ']':
		g.depth--
		g.run = 0
	case ',', ':', ' ', '\t', '\n', '\r':
		g.run = 0
	default:
		if g.run++; g.run > MaxValue {
			return fmt.Sprintf("a value longer than %d bytes", MaxValue)
		}
	}
	return ""
}

// lineAt is the line of the first byte at or after off that is neither
// space nor a separator (, :); offsets asked never decrease.
func (g *guard) lineAt(off int64) int {
	k := min(max(off-g.winOff, 0), int64(len(g.win)))
	g.lines += bytes.Count(g.win[:k], []byte{'\n'})
	g.win, g.winOff = g.win[k:], g.winOff+k
	if len(g.win) == 0 {
		g.win = nil // let the array go
	}
	rest := g.win
	ahead := 0
	for _, c := range rest {
		if c == '\n' {
			ahead++
		} else if c != ' ' && c != '\t' && c != '\r' && c != ',' && c != ':' {
			break
		}
	}
	return g.lines + ahead + 1
}

// walker walks a JSON stream a token at a time (bounded memory whatever
// the document's size).
type walker struct {
	dec  *json.Decoder
	g    *guard
	file string
}

func newWalker(r io.Reader, file string) *walker {
	g := &guard{r: r, file: file}
	dec := json.NewDecoder(g)
	dec.UseNumber()
	return &walker{dec: dec, g: g, file: file}
}

// line is the line of the next token.
func (w *walker) line() int { return w.g.lineAt(w.dec.InputOffset()) }

// tok is the next token; io.EOF only between top-level values.
func (w *walker) tok() (json.Token, error) {
	t, err := w.dec.Token()
	if err == nil {
		w.g.lineAt(w.dec.InputOffset()) // drop what is read
		return t, nil
	}
	var se *json.SyntaxError
	switch {
	case w.g.err != nil:
		return nil, w.g.err
	case err == io.EOF:
		return nil, err
	case errors.As(err, &se):
		return nil, &Error{File: w.file, Line: w.g.lineAt(se.Offset), Why: "invalid JSON: " + se.Error()}
	case err == io.ErrUnexpectedEOF:
		return nil, &Error{File: w.file, Line: w.g.nl + 1, Why: "ends in the middle of a JSON value"}
	}
	return nil, &Error{File: w.file, Line: w.g.nl + 1, Why: err.Error()}
}

func (w *walker) fail(line int, field, why string, args ...any) error {
	return &Error{File: w.file, Line: line, Field: field, Why: fmt.Sprintf(why, args...)}
}

// skip passes over one value.
func (w *walker) skip() error {
	depth := 0
	for {
		t, err := w.tok()
		if err != nil {
			return unexpectedEOF(w, err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func unexpectedEOF(w *walker, err error) error {
	if err == io.EOF {
		return &Error{File: w.file, Line: w.g.nl + 1, Why: "ends in the middle of a JSON value"}
	}
	return err
}

// object reads an object, handing each key to member, which reads its
// value; field names the object in errors.
func (w *walker) object(field string, member func(key string) error) error {
	line := w.line()
	t, err := w.tok()
	if err != nil {
		return unexpectedEOF(w, err)
	}
	if t != json.Delim('{') {
		return w.fail(line, field, "%s where an object is wanted", kind(t))
	}
	return w.members(member)
}

// members reads an object's members, its opening brace read.
func (w *walker) members(member func(key string) error) error {
	for {
		t, err := w.tok()
		if err != nil {
			return unexpectedEOF(w, err)
		}
		if t == json.Delim('}') {
			return nil
		}
		if err := member(t.(string)); err != nil {
			return err
		}
	}
}

// array reads an array, calling elem for each element (which reads it).
func (w *walker) array(field string, elem func() error) error {
	line := w.line()
	t, err := w.tok()
	if err != nil {
		return unexpectedEOF(w, err)
	}
	if t != json.Delim('[') {
		return w.fail(line, field, "%s where a list is wanted", kind(t))
	}
	for w.dec.More() {
		if err := elem(); err != nil {
			return err
		}
	}
	_, err = w.tok() // ]
	return unexpectedEOF(w, err)
}

// scalar reads a string, number, boolean or null.
func (w *walker) scalar(field string) (json.Token, error) {
	line := w.line()
	t, err := w.tok()
	if err != nil {
		return nil, unexpectedEOF(w, err)
	}
	if _, ok := t.(json.Delim); ok {
		return nil, w.fail(line, field, "%s where a single value is wanted", kind(t))
	}
	return t, nil
}

// kind names a token's JSON type in errors.
func kind(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "true or false"
	}
	return "null"
}

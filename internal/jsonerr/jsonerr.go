// Package jsonerr says why and where a JSON document failed to decode —
// empty, truncated, a syntax error or a value of the wrong type, at which
// line and column — for the messages of the packages that read JSON files
// (fileio: latgate's own; interop: other tools'). Each says it in its own
// words.
package jsonerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
)

// Kind is why a document failed to decode.
type Kind int

// Kinds of failure.
const (
	Other     Kind = iota // not a JSON error (Err says it)
	Empty                 // nothing but white space
	Truncated             // the document ends before it is complete
	Syntax                // not JSON at Line:Col
	Type                  // a value of another type than the one wanted
)

// Error is a decoding error of a document, classified.
type Error struct {
	Kind Kind
	// Line and Col are where it is (1-based; a syntax error, truncated or
	// not, and Type). Offset is the decoder's byte offset.
	Line, Col int
	Offset    int64
	// Field, Value and Want describe a Type error: the key ("" for the
	// document itself), the JSON value found ("string") and the Go type
	// wanted.
	Field, Value string
	Want         reflect.Type
	Err          error
}

// Of classifies err, the error of decoding data.
func Of(data []byte, err error) Error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return Error{Kind: Empty, Err: err}
	case errors.As(err, &se):
		line, col := Position(data, se.Offset-1) // Offset counts the offending byte
		kind := Syntax
		if strings.HasPrefix(se.Error(), "unexpected end") {
			kind = Truncated
		}
		return Error{Kind: kind, Line: line, Col: col, Offset: se.Offset, Err: se}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Error{Kind: Truncated, Err: err}
	case errors.As(err, &te):
		line, col := Position(data, te.Offset)
		return Error{Kind: Type, Line: line, Col: col, Offset: te.Offset, Field: te.Field, Value: te.Value, Want: te.Type, Err: te}
	}
	return Error{Kind: Other, Err: err}
}

// Position is the line and column (1-based) of a byte offset in b.
func Position(b []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

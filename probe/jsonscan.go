package probe

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// jscan reads JSON text in place, without reflection, for a decoder's fast
// path. It validates what it reads as encoding/json does, and gives up
// (returns false) on anything it would not decode exactly as encoding/json
// does: an escaped, non-ASCII or case-folded key where keys are matched, a
// repeated key, a number or a type the field does not take, nesting deeper
// than jscanMaxDepth, invalid JSON. The caller then decodes the whole text
// with encoding/json, so the fast path changes the cost of a decode, never
// its result.
type jscan struct {
	b     []byte
	i     int
	depth int
}

const jscanMaxDepth = 64

// peek skips white space and returns the next byte, 0 at the end.
func (s *jscan) peek() byte {
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// end reports whether only white space is left.
func (s *jscan) end() bool {
	s.peek()
	return s.i == len(s.b)
}

// lit consumes the literal w (true, false or null).
func (s *jscan) lit(w string) bool {
	if len(s.b)-s.i < len(w) || string(s.b[s.i:s.i+len(w)]) != w {
		return false
	}
	s.i += len(w)
	return true
}

// skip consumes any value.
func (s *jscan) skip() bool {
	switch s.peek() {
	case '{':
		return s.object(func([]byte, bool) bool { return s.skip() })
	case '[':
		return s.array(s.skip)
	case '"':
		_, _, _, ok := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	_, ok := s.number()
	return ok
}

// object consumes an object, calling field at each value (which field
// consumes) with its raw key: plain when the key has neither an escape nor
// a byte outside ASCII, so that it is its own value.
func (s *jscan) object(field func(key []byte, plain bool) bool) bool {
	if s.peek() != '{' || s.depth >= jscanMaxDepth {
		return false
	}
	s.i++
	s.depth++
	if s.peek() == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		key, esc, high, ok := s.str()
		if !ok || s.peek() != ':' {
			return false
		}
		s.i++
		if !field(key, !esc && !high) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// array consumes an array, calling elem at each element (which elem
// consumes).
func (s *jscan) array(elem func() bool) bool {
	if s.peek() != '[' || s.depth >= jscanMaxDepth {
		return false
	}
	s.i++
	s.depth++
	if s.peek() == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		if !elem() {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// fields consumes an object (or null) of which the fast path reads the keys
// names (at most 32): read is called with a key's index at its value, which
// read consumes. Other keys are skipped; a repeated key, and any key
// encoding/json might match to one of names in another spelling, give up.
func (s *jscan) fields(names []string, read func(i int) bool) bool {
	if s.null() {
		return true
	}
	var seen uint32
	return s.object(func(key []byte, plain bool) bool {
		if !plain {
			return false
		}
		for i, n := range names {
			if string(key) == n {
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
				return read(i)
			}
			if foldEqual(key, n) {
				return false
			}
		}
		return s.skip()
	})
}

// foldEqual compares an ASCII key with a name, ignoring case.
func foldEqual(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i := range len(key) {
		a, b := key[i], name[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// str consumes a string: raw is its text between the quotes; esc reports a
// backslash in it, high a byte outside ASCII.
func (s *jscan) str() (raw []byte, esc, high, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false, false
	}
	s.i++
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			raw = s.b[start:s.i]
			s.i++
			return raw, esc, high, true
		case c == '\\':
			esc = true
			if !s.escape() {
				return nil, false, false, false
			}
		case c < 0x20:
			return nil, false, false, false
		default:
			high = high || c >= utf8.RuneSelf
			s.i++
		}
	}
	return nil, false, false, false
}

// escape consumes one escape sequence of a string.
func (s *jscan) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, h := range s.b[s.i+2 : s.i+6] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

// text reads a string (or null: "") as encoding/json decodes it into a Go
// string: escapes decoded and invalid UTF-8 replaced, which encoding/json
// itself does for the rare string that needs it.
func (s *jscan) text() (string, bool) {
	switch s.peek() {
	case 'n':
		return "", s.lit("null")
	case '"':
	default:
		return "", false
	}
	start := s.i
	raw, esc, high, ok := s.str()
	switch {
	case !ok:
		return "", false
	case !esc && (!high || utf8.Valid(raw)):
		return string(raw), true
	}
	var v string
	return v, json.Unmarshal(s.b[start:s.i], &v) == nil
}

// textTo reads a string (or null) into dst, as text does.
func (s *jscan) textTo(dst *string) bool {
	v, ok := s.text()
	*dst = v
	return ok
}

// intTo reads an integer (or null) into dst, as int does.
func (s *jscan) intTo(dst *int) bool {
	v, ok := s.int()
	*dst = v
	return ok
}

// null consumes a null, if that is what comes next.
func (s *jscan) null() bool {
	return s.peek() == 'n' && s.lit("null")
}

// int reads an integer (or null: 0) as encoding/json decodes it into an
// int; a fraction, an exponent or an overflow gives up.
func (s *jscan) int() (int, bool) {
	if s.peek() == 'n' {
		return 0, s.lit("null")
	}
	start := s.i
	if integer, ok := s.number(); !ok || !integer {
		return 0, false
	}
	n, err := strconv.Atoi(string(s.b[start:s.i]))
	return n, err == nil
}

// number consumes a number; integer reports that it has neither a
// fraction nor an exponent.
func (s *jscan) number() (integer, ok bool) {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case !s.digits():
		return false, false
	}
	integer = true
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false, false
		}
		integer = false
	}
	if s.i < len(s.b) && s.b[s.i]|0x20 == 'e' {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false, false
		}
		integer = false
	}
	return integer, true
}

// digits consumes one or more digits.
func (s *jscan) digits() bool {
	start := s.i
	for s.i < len(s.b) && '0' <= s.b[s.i] && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// rawValue consumes any value and returns its text, as a json.RawMessage
// field receives it.
func (s *jscan) rawValue() ([]byte, bool) {
	s.peek()
	start := s.i
	if !s.skip() {
		return nil, false
	}
	return s.b[start:s.i], true
}

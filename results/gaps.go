package results

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
)

// Gaps are a request's inter-token gaps in milliseconds (itl_ms). They
// decode as encoding/json decodes a []float64 — null leaves none, [] is
// empty and not nil, each number parsed by strconv.ParseFloat — but into
// a slice of exactly their count (encoding/json grows one a quarter at a
// time: a file of gaps read whole held four times their 8 bytes each), in
// the room the slice already has when it is enough (a reader that decodes
// request after request into one Request reuses it), and faster.
type Gaps []float64

// UnmarshalJSON decodes an array of numbers, or null.
func (g *Gaps) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*g = nil
		return nil
	}
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return &json.UnmarshalTypeError{Value: jsonValue(b), Type: reflect.TypeFor[Gaps]()}
	}
	inner := b[1 : len(b)-1]
	if len(bytes.TrimSpace(inner)) == 0 {
		*g = Gaps{}
		return nil
	}
	n := bytes.Count(inner, []byte{','}) + 1
	out := (*g)[:0]
	if cap(out) < n {
		out = make(Gaps, 0, n)
	}
	for i := 0; ; {
		for i < len(inner) && isSpace(inner[i]) {
			i++
		}
		end := i
		for end < len(inner) && inner[end] != ',' && !isSpace(inner[end]) {
			end++
		}
		v, ok := parseNumber(inner[i:end])
		if !ok {
			return &json.UnmarshalTypeError{Value: jsonValue(inner[i:end]), Type: reflect.TypeFor[float64]()}
		}
		out = append(out, v)
		for end < len(inner) && isSpace(inner[end]) {
			end++
		}
		if end == len(inner) {
			break
		}
		if inner[end] != ',' {
			return &json.UnmarshalTypeError{Value: jsonValue(inner[end:]), Type: reflect.TypeFor[float64]()}
		}
		i = end + 1
	}
	*g = out
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonValue names a JSON value's kind as encoding/json's type errors do.
func jsonValue(b []byte) string {
	switch {
	case len(b) == 0:
		return "value"
	case b[0] == '"':
		return "string"
	case b[0] == '{':
		return "object"
	case b[0] == '[':
		return "array"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	}
	return "number " + string(b)
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber parses a JSON number as strconv.ParseFloat does, to the
// bit: a number of at most 15 digits, with at most 22 after its point and
// no exponent, is its digits as an integer divided by a power of ten, both
// exact, which IEEE division rounds correctly (strconv's own exact path);
// any other is strconv's.
func parseNumber(s []byte) (float64, bool) {
	i, neg := 0, false
	if i < len(s) && s[i] == '-' {
		neg, i = true, 1
	}
	start := i
	var m uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		m = m*10 + uint64(s[i]-'0')
		i++
	}
	whole := i - start
	if whole == 0 || whole > 1 && s[start] == '0' {
		return 0, false
	}
	frac := 0
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			m = m*10 + uint64(s[i]-'0')
			i++
			frac++
		}
		if frac == 0 {
			return 0, false
		}
	}
	if i < len(s) || whole+frac > 15 {
		if !validNumber(s) {
			return 0, false
		}
		v, err := strconv.ParseFloat(string(s), 64)
		return v, err == nil
	}
	v := float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// validNumber reports whether s is a JSON number (strconv takes more:
// "+1", "0x1p3", "1_000", "Inf", ".5", "01").
func validNumber(s []byte) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		k := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			k++
		}
		return k
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

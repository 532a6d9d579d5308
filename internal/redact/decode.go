package redact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// decoded is a text decoded into the bytes it stands for: b[i] came from
// the bytes [from[i], end(i)) of the original text (the unit it was
// decoded from, through every level of decoding).
type decoded struct {
	b    []byte
	from []int32
	// to[i] is where b[i]'s unit ends in the original text; nil at the
	// first level, where it is found again from text (to keeps the
	// memory of the first level, nearly always the only one, at 5 bytes a
	// byte of text).
	to   []int32
	text string
	// again: another level of decoding would decode more (a byte that
	// starts an escape begins one).
	again bool
}

// maxLevels is how many times a text is decoded at most: a secret
// percent-encoded twice (%2573 for s) is found at the second level, three
// times at the third, and a fourth decodes the escapes a line break split
// (%2\n5 is %25 at the second level).
const maxLevels = 4

// end is where b[i]'s unit ends in the original text.
func (d *decoded) end(i int) int {
	if d.to != nil {
		return int(d.to[i])
	}
	_, _, n := unit(d.text, int(d.from[i]))
	return int(d.from[i]) + n
}

// decode decodes text one unit at a time (unit), in one pass: the first
// level.
func decode(text string) decoded {
	d := decodeLevel(text, nil)
	d.text = text
	return d
}

// next decodes d's bytes once more: the next level, each byte's origin
// still in the original text.
func (d *decoded) next() decoded {
	return decodeLevel(string(d.b), d)
}

// decodeLevel decodes src one unit at a time (unit), in one pass; a
// byte that starts no escape and is no whitespace (nearly every byte) is
// its own unit, taken without a call. prev is the level src is the bytes
// of (nil: src is the original text).
func decodeLevel(src string, prev *decoded) decoded {
	d := decoded{b: make([]byte, len(src)), from: make([]int32, len(src))}
	if prev != nil {
		d.to = make([]int32, len(src))
	}
	k := 0
	for p := 0; p < len(src); {
		if c := src[p]; c > ' ' && c != '%' && c != '\\' && c != '&' {
			d.b[k] = c
			if prev == nil {
				d.from[k] = int32(p)
			} else {
				d.from[k], d.to[k] = prev.from[p], int32(prev.end(p))
			}
			k, p = k+1, p+1
			continue
		}
		dec, m, n := unit(src, p)
		for _, c := range dec[:m] {
			d.b[k] = c
			if prev == nil {
				d.from[k] = int32(p)
			} else {
				d.from[k], d.to[k] = prev.from[p], int32(prev.end(p+n-1))
			}
			k++
		}
		p += n
	}
	d.b, d.from = d.b[:k], d.from[:k]
	if d.to != nil {
		d.to = d.to[:k]
	}
	for i := 0; i < k && !d.again; i++ {
		if c := d.b[i]; c == '%' || c == '\\' || c == '&' {
			_, m, n := unit(string(d.b[i:min(k, i+10)]), 0)
			d.again = n > 1 || m == 0
		}
	}
	return d
}

// unit decodes the unit of text that starts at p: the k bytes it stands
// for (none for whitespace, encoded or escaped too) and its length n in
// the text. A unit is a percent-encoded byte, a JSON escape (or \xHH, as
// C, JavaScript and Python write a byte), an HTML character reference,
// or else one byte as it is.
func unit(text string, p int) (dec [utf8.UTFMax]byte, k, n int) {
	c := text[p]
	switch c {
	case '%':
		if p+2 < len(text) && isHex(text[p+1]) && isHex(text[p+2]) {
			v, _ := strconv.ParseUint(text[p+1:p+3], 16, 8)
			return char(byte(v), 3) // a byte, of UTF-8 or not
		}
	case '\\':
		if p+1 == len(text) {
			break
		}
		switch e := text[p+1]; e {
		case 'n', 'r', 't':
			return dec, 0, 2
		case '/', '\\', '"', '\'':
			return char(e, 2)
		case 'u':
			if p+6 <= len(text) && allHex(text[p+2:p+6]) {
				v, _ := strconv.ParseUint(text[p+2:p+6], 16, 16)
				return runeUnit(rune(v), 6)
			}
		case 'x':
			if p+4 <= len(text) && allHex(text[p+2:p+4]) {
				v, _ := strconv.ParseUint(text[p+2:p+4], 16, 8)
				return char(byte(v), 4)
			}
		}
	case '&':
		if r, n := reference(text[p:]); n > 0 {
			return runeUnit(r, n)
		}
	}
	return char(c, 1)
}

// char is the unit of n bytes that stands for the byte c: none when c is
// whitespace.
func char(c byte, n int) (dec [utf8.UTFMax]byte, k, _ int) {
	if isSpace(c) {
		return dec, 0, n
	}
	dec[0] = c
	return dec, 1, n
}

// runeUnit is the unit of n bytes that stands for the character r, in UTF-8.
func runeUnit(r rune, n int) (dec [utf8.UTFMax]byte, k, _ int) {
	if r < utf8.RuneSelf {
		return char(byte(r), n)
	}
	return dec, utf8.EncodeRune(dec[:], r), n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// reference reads an HTML character reference at the start of s (&#43;,
// &#x2B;, or one of the five named ones): what it stands for and its
// length; 0 when s does not start with one.
func reference(s string) (rune, int) {
	end := strings.IndexByte(s[:min(len(s), 10)], ';')
	if end < 0 {
		return 0, 0
	}
	body := s[1:end]
	switch body {
	case "amp":
		return '&', end + 1
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "quot":
		return '"', end + 1
	case "apos":
		return '\'', end + 1
	}
	num, ok := strings.CutPrefix(body, "#")
	base := 10
	if hex, isHexRef := strings.CutPrefix(num, "x"); isHexRef {
		num, base = hex, 16
	} else if hex, isHexRef := strings.CutPrefix(num, "X"); isHexRef {
		num, base = hex, 16
	}
	v, err := strconv.ParseUint(num, base, 21)
	if !ok || err != nil || num == "" || v > utf8.MaxRune {
		return 0, 0
	}
	return rune(v), end + 1
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func allHex(s string) bool {
	for i := range len(s) {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

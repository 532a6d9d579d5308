package redact

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// decoded is a text decoded into the bytes it stands for: b[i] came from
// the unit of the text that starts at at[i].
type decoded struct {
	b  []byte
	at []int32
}

// decode decodes text one unit at a time (unit), in one pass; a byte
// that starts no escape and is no whitespace (nearly every byte) is its own
// unit, taken without a call.
func decode(text string) decoded {
	d := decoded{b: make([]byte, len(text)), at: make([]int32, len(text))}
	k := 0
	for p := 0; p < len(text); {
		if c := text[p]; c > ' ' && c != '%' && c != '\\' && c != '&' {
			d.b[k], d.at[k] = c, int32(p)
			k, p = k+1, p+1
			continue
		} else if isSpace(c) {
			p++
			continue
		}
		dec, m, n := unit(text, p)
		for _, c := range dec[:m] {
			d.b[k], d.at[k] = c, int32(p)
			k++
		}
		p += n
	}
	d.b, d.at = d.b[:k], d.at[:k]
	return d
}

// unit decodes the unit of text that starts at p: the k bytes it stands
// for (none for whitespace, encoded or escaped too) and its length n in
// the text. A unit is a percent-encoded byte, a JSON escape, an HTML
// character reference, or else one byte as it is.
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

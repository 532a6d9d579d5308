// Package redact hides secrets in text: each secret as it is written and
// in the forms a server, a proxy or a log shows it in. It does nothing
// else.
//
// A secret of MinEncoded or more bytes is found in any mix of:
// percent-encoding (url.QueryEscape's and url.PathEscape's, every byte or
// some, upper- or lower-case hex, once or twice: %2573 for s), JSON
// escapes (\u002f, \/, \"), \xHH escapes, HTML character references
// (&#43;, &#x2B;, &amp;), line breaks and spaces between its characters
// (a server that wraps its error text, literal or as \n in JSON), hex
// (its bytes, upper- or lower-case, with spaces between them or not), and
// base64 (standard or URL-safe, padded or not) at each of the three
// alignments a secret can have inside a longer base64 string (Basic
// base64(user:key)): there, the characters that depend on the secret's
// bytes alone are hidden, which leaves at most one character of partial
// bits on either side.
//
// A text is cut after its secrets are hidden (Clip, Cut), never before:
// a cut through a secret would keep its first characters. Where a text was
// cut before it could be hidden (a reader's bound), the cut is marked
// with CutMark, and String hides what is left of a secret in any of
// those forms before a CutMark: the piece of MinPiece or more bytes that
// starts a form of a secret.
//
// A shorter secret of MinLen or more is hidden only as written: its
// encodings would match ordinary text (a 5-byte secret's base64 is 6
// characters). One shorter than MinLen is not hidden at all: masking "7"
// would hide every 7 in a log.
//
// The cost is linear in the text: it is decoded into one stream of bytes,
// each remembering where it came from, at most maxLevels times (a level
// is decoded only when the one before left an escape to decode); each
// secret's forms (the secret, its hex in two cases and six base64 middles
// at most) are sought in each level with bytes.Index, and in the bytes
// before each CutMark once; and the secret as written is sought in the
// text itself. A text with nothing to decode (no escape, whitespace or
// byte beyond ASCII: a content type, a tool's name) is searched as it is,
// without a copy.
package redact

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Mask replaces a secret.
const Mask = "***"

// CutMark marks where a text was cut.
const CutMark = "…"

// MinLen is the shortest secret hidden; MinEncoded the shortest whose
// encodings are sought too; MinPiece the shortest piece of a form of a
// secret hidden before a CutMark.
const (
	MinLen     = 4
	MinEncoded = 8
	MinPiece   = 8
)

// A Set is the secrets to hide, with their forms computed once. The zero
// value and nil hide nothing; a Set is safe for concurrent use.
type Set struct {
	plain   []string // as written, sought in the text as it is
	decoded []form   // the forms sought in the decoded text
}

// form is a form of a secret sought in the decoded text, with its KMP
// failure function (fail[i]: the longest proper prefix of b[:i+1] that is
// also its suffix), to find the piece of it a cut left.
type form struct {
	b    []byte
	s    string // b
	fail []int
}

// New returns the Set of secrets; those shorter than MinLen are left out.
func New(secrets ...string) *Set {
	return (*Set)(nil).With(secrets...)
}

// With returns a Set of s's secrets and more (s is left as it is).
func (s *Set) With(secrets ...string) *Set {
	out := &Set{}
	if s != nil {
		out.plain, out.decoded = slices.Clip(s.plain), slices.Clip(s.decoded)
	}
	for _, sec := range secrets {
		if len(sec) < MinLen || slices.Contains(out.plain, sec) {
			continue
		}
		out.plain = append(out.plain, sec)
		if len(sec) < MinEncoded {
			continue
		}
		stripped := strings.Join(strings.Fields(sec), "")
		forms := append([]string{stripped, hex.EncodeToString([]byte(sec)), strings.ToUpper(hex.EncodeToString([]byte(sec)))}, base64Middles(sec)...)
		for _, f := range forms {
			if f != "" && !slices.ContainsFunc(out.decoded, func(d form) bool { return string(d.b) == f }) {
				out.decoded = append(out.decoded, newForm(f))
			}
		}
	}
	return out
}

// plain reports whether text decodes to itself and holds no cut mark:
// no byte in it starts an escape, is whitespace or is not ASCII.
func plain(text string) bool {
	for i := range len(text) {
		if c := text[i]; c <= ' ' || c >= utf8.RuneSelf || c == '%' || c == '\\' || c == '&' {
			return false
		}
	}
	return true
}

// newForm is the form f with its failure function.
func newForm(f string) form {
	fail := make([]int, len(f))
	for i, k := 1, 0; i < len(f); i++ {
		for k > 0 && f[i] != f[k] {
			k = fail[k-1]
		}
		if f[i] == f[k] {
			k++
		}
		fail[i] = k
	}
	return form{b: []byte(f), s: f, fail: fail}
}

// String is text with every form of every secret replaced by Mask, and
// every piece of a form of one that ends at a CutMark.
func (s *Set) String(text string) string {
	if s == nil || len(s.plain) == 0 || len(text) < MinLen {
		return text
	}
	var spans []span
	for _, p := range s.plain {
		for i := 0; ; {
			j := strings.Index(text[i:], p)
			if j < 0 {
				break
			}
			spans = append(spans, span{i + j, i + j + len(p)})
			i += j + len(p)
		}
	}
	if len(s.decoded) > 0 && plain(text) {
		// Nothing to decode, no cut mark: the text is its own decoded
		// stream, searched as it is (no copy).
		for _, f := range s.decoded {
			for i := 0; ; {
				j := strings.Index(text[i:], f.s)
				if j < 0 {
					break
				}
				spans = append(spans, span{i + j, i + j + len(f.s)})
				i += j + len(f.s)
			}
		}
	} else if len(s.decoded) > 0 && len(text) < math.MaxInt32 {
		d := decode(text)
		for level := 1; ; level++ {
			spans = s.find(&d, spans)
			if level == maxLevels || !d.again {
				break
			}
			d = d.next()
		}
	}
	if len(spans) == 0 {
		return text
	}
	return replace(text, spans)
}

// find adds to spans where d holds a form of a secret, whole or the piece
// of one before a CutMark, in the original text.
func (s *Set) find(d *decoded, spans []span) []span {
	add := func(i, j int) { spans = append(spans, span{int(d.from[i]), d.end(j - 1)}) }
	var cuts []int
	for i := 0; ; {
		j := bytes.Index(d.b[i:], []byte(CutMark))
		if j < 0 {
			break
		}
		cuts = append(cuts, i+j)
		i += j + len(CutMark)
	}
	for _, f := range s.decoded {
		for i := 0; ; {
			j := bytes.Index(d.b[i:], f.b)
			if j < 0 {
				break
			}
			add(i+j, i+j+len(f.b))
			i += j + len(f.b)
		}
		if len(cuts) > 0 {
			f.pieces(d.b, cuts, add)
		}
	}
	return spans
}

// maxTail is the longest start of an escape a cut may leave undecoded
// before its CutMark (&#x1F6; is the longest unit but one byte).
const maxTail = 8

// pieces calls add(i, j) for each piece b[i:j] of MinPiece or more bytes
// that starts f and ends just before a cut (an index of cuts, ascending),
// or before the start of an escape the cut left undecoded (%2, \u00, &#1)
// just before it. Each byte of b is read at most once: the bytes before a
// cut are read from len(f)+maxTail before it, or from where the cut before
// left off.
func (f form) pieces(b []byte, cuts []int, add func(i, j int)) {
	pos, state, from := 0, 0, 0 // from: where the bytes read in a row start
	var ring [16]int            // ring[x&15]: the state after b[:x], for the last bytes read
	for _, c := range cuts {
		if start := c - len(f.b) - maxTail; start > pos {
			pos, state, from = start, 0, start
		}
		for ; pos < c; pos++ {
			ring[pos&15] = state
			state = f.step(state, b[pos])
		}
		best := state
		if t := tailStart(b[max(0, c-maxTail):c]); t >= 0 {
			if t += max(0, c-maxTail); t >= from && ring[t&15] > best {
				best = ring[t&15]
				if best >= MinPiece && best < len(f.b) {
					add(t-best, c) // with the start of an escape after it
				}
				continue
			}
		}
		if best >= MinPiece && best < len(f.b) {
			add(c-best, c)
		}
	}
}

// step is the KMP state (the longest prefix of f that ends the bytes
// read) after one more byte c.
func (f form) step(state int, c byte) int {
	if state == len(f.b) {
		state = f.fail[state-1]
	}
	for state > 0 && f.b[state] != c {
		state = f.fail[state-1]
	}
	if f.b[state] == c {
		state++
	}
	return state
}

// tailStart is where in tail (the bytes before a cut) the escapes start
// that the cut left undecoded: the first '%', '\\' or '&' followed only by
// those and characters an escape holds (&% is what a cut through
// %26%23 leaves); -1 when there is none.
func tailStart(tail []byte) int {
	start := -1
	for i := len(tail) - 1; i >= 0; i-- {
		switch c := tail[i]; {
		case c == '%' || c == '\\' || c == '&':
			start = i
		case c == '#' || c == ';' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		default:
			return start
		}
	}
	return start
}

// span is a part of the text to replace: [from, to).
type span struct{ from, to int }

// replace replaces each span of text (merged where they overlap) by Mask.
func replace(text string, spans []span) string {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	var out strings.Builder
	out.Grow(len(text))
	at := 0
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from < to; i++ {
			to = max(to, spans[i].to)
		}
		out.WriteString(text[at:from])
		out.WriteString(Mask)
		at = to
	}
	out.WriteString(text[at:])
	return out.String()
}

// MaxClipped is the most of a text Clip reads: a longer one is cut there
// (marked) before its secrets are hidden, so hiding costs what a bounded
// text does.
const MaxClipped = 64 << 10

// Clip is text with its secrets hidden (String), then cut to n bytes
// (Cut). A text longer than MaxClipped is cut there first, with a
// CutMark, so a secret the first cut goes through is hidden as a piece.
func (s *Set) Clip(text string, n int) string {
	return Cut(s.String(Cut(text, MaxClipped)), n)
}

// Cut is text cut to n bytes and marked with CutMark, or text as it is
// when it is no longer: the cut is at the start of a character and never
// inside a Mask (a run of '*').
func Cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	for n > 0 && text[n] == '*' && text[n-1] == '*' {
		n--
	}
	return text[:n] + CutMark
}

// base64Middles are, for each of the three alignments of the secret in
// the encoded bytes, the characters of its base64 that depend on its bytes
// alone, in the standard alphabet and (when they differ) the URL-safe one.
// Padding never falls among them, so they are the unpadded forms' too.
func base64Middles(sec string) []string {
	var out []string
	for k := range 3 {
		enc := base64.StdEncoding.EncodeToString(append(make([]byte, k), sec...))
		// Character j holds bits [6j, 6j+6); the secret's are [8k, 8(k+n)).
		m := enc[(8*k+5)/6 : 8*(k+len(sec))/6]
		out = append(out, m)
		if u := strings.NewReplacer("+", "-", "/", "_").Replace(m); u != m {
			out = append(out, u)
		}
	}
	return out
}

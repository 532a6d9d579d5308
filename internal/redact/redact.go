// Package redact hides secrets in text: each secret as it is written and
// in the forms a server, a proxy or a log shows it in. It does nothing
// else.
//
// A secret of MinEncoded or more bytes is found in any mix of:
// percent-encoding (url.QueryEscape's and url.PathEscape's, every byte or
// some, upper- or lower-case hex), JSON escapes (\u002f, \/, \"), HTML
// character references (&#43;, &#x2B;, &amp;), line breaks and spaces
// between its characters (a server that wraps its error text, literal or
// as \n in JSON), and base64 (standard or URL-safe, padded or not) at each
// of the three alignments a secret can have inside a longer base64 string
// (Basic base64(user:key)): there, the characters that depend on the
// secret's bytes alone are hidden, which leaves at most one character of
// partial bits on either side.
//
// A shorter secret of MinLen or more is hidden only as written: its
// encodings would match ordinary text (a 5-byte secret's base64 is 6
// characters). One shorter than MinLen is not hidden at all: masking "7"
// would hide every 7 in a log.
//
// The cost is linear in the text: it is decoded once into one stream of
// bytes, each remembering where it came from, and each secret's forms (the
// secret, and six base64 middles at most) are sought in it, with one more
// search for the secret as written in the text itself.
package redact

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"math"
	"slices"
	"strings"
)

// Mask replaces a secret.
const Mask = "***"

// MinLen is the shortest secret hidden; MinEncoded the shortest whose
// encodings are sought too.
const (
	MinLen     = 4
	MinEncoded = 8
)

// A Set is the secrets to hide, with their forms computed once. The zero
// value and nil hide nothing; a Set is safe for concurrent use.
type Set struct {
	plain   []string // as written, sought in the text as it is
	decoded [][]byte // the forms sought in the decoded text
}

// New returns the Set of secrets; those shorter than MinLen are left out.
func New(secrets ...string) *Set {
	s := &Set{}
	for _, sec := range secrets {
		if len(sec) < MinLen || slices.Contains(s.plain, sec) {
			continue
		}
		s.plain = append(s.plain, sec)
		if len(sec) < MinEncoded {
			continue
		}
		forms := append([]string{strings.Join(strings.Fields(sec), "")}, base64Middles(sec)...)
		for _, f := range forms {
			if f != "" && !slices.ContainsFunc(s.decoded, func(d []byte) bool { return string(d) == f }) {
				s.decoded = append(s.decoded, []byte(f))
			}
		}
	}
	return s
}

// String is text with every form of every secret replaced by Mask.
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
	if len(s.decoded) > 0 && len(text) < math.MaxInt32 {
		d := decode(text)
		for _, f := range s.decoded {
			for i := 0; ; {
				j := bytes.Index(d.b[i:], f)
				if j < 0 {
					break
				}
				first, last := int(d.at[i+j]), int(d.at[i+j+len(f)-1])
				_, _, n := unit(text, last)
				spans = append(spans, span{first, last + n})
				i += j + len(f)
			}
		}
	}
	if len(spans) == 0 {
		return text
	}
	return replace(text, spans)
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

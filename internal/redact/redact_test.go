package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"
)

// key has the characters that percent-encoding, JSON and base64 change.
const key = "sk-proj/Leak+Key=0123456789~abc\"def"

// every applies f to each byte of s.
func every(s string, f func(byte) string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteString(f(s[i]))
	}
	return b.String()
}

// lowerCaseHex writes the hex digits of s's percent-encoded bytes in lower
// case.
func lowerCaseHex(s string) string {
	b := []byte(s)
	for i := range b {
		if b[i] == '%' && i+2 < len(b) {
			b[i+1], b[i+2] = strings.ToLower(string(b[i+1]))[0], strings.ToLower(string(b[i+2]))[0]
		}
	}
	return string(b)
}

// wrap breaks s with sep every n bytes.
func wrap(s, sep string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s[i:min(i+n, len(s))])
	}
	return b.String()
}

// TestStringHidesEncodedForms: the key percent-encoded, JSON-escaped,
// HTML-escaped, split over lines, and in mixes of them, between other
// words, comes out as the mask with the words around it untouched.
func TestStringHidesEncodedForms(t *testing.T) {
	t.Parallel()
	jsonOf := func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }
	s := New(key)
	for name, form := range map[string]string{
		"as written":              key,
		"query escape":            url.QueryEscape(key),
		"path escape":             url.PathEscape(key),
		"lower-case hex":          lowerCaseHex(url.QueryEscape(key)),
		"every byte, lower hex":   every(key, func(c byte) string { return fmt.Sprintf("%%%02x", c) }),
		"every byte, upper hex":   every(key, func(c byte) string { return fmt.Sprintf("%%%02X", c) }),
		"json":                    jsonOf(key),
		"json, \\/":               strings.ReplaceAll(jsonOf(key), "/", `\/`),
		"json, every \\u00xx":     every(key, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }),
		"json, every \\u00XX":     every(key, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) }),
		"html":                    html.EscapeString(key),
		"html, every &#NN;":       every(key, func(c byte) string { return fmt.Sprintf("&#%d;", c) }),
		"html, every &#xHH;":      every(key, func(c byte) string { return fmt.Sprintf("&#x%x;", c) }),
		"split by \\n":            wrap(key, "\n", 7),
		"split by \\r\\n":         wrap(key, "\r\n", 5),
		"split and indented":      wrap(key, "\n        ", 10),
		"split by spaces":         wrap(key, " ", 3),
		"split by escaped \\n":    wrap(jsonOf(key), `\n`, 9),
		"split, query escaped":    url.QueryEscape(wrap(key, "\r\n", 8)),
		"split, every byte %XX":   wrap(every(key, func(c byte) string { return fmt.Sprintf("%%%02X", c) }), "\n", 12),
		"split once, escaped \\r": key[:4] + `\r\n` + key[4:],
	} {
		text := "the server said: " + form + " (HTTP 401)"
		if got, want := s.String(text), "the server said: *** (HTTP 401)"; got != want {
			t.Errorf("%s: %q\n  gave %q\n  want %q", name, text, got, want)
		}
	}
}

// TestStringHidesBase64: the key inside a longer base64 string, at any
// offset, with any bytes after it, in the standard or URL-safe alphabet,
// padded or not, wrapped as MIME wraps it or not, is hidden: what is left
// of the string on either side decodes to at most one byte of the key
// (the character that holds its first or last bits with its neighbour's).
func TestStringHidesBase64(t *testing.T) {
	t.Parallel()
	s := New(key)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		for pre := range 7 {
			for post := range 4 {
				prefix, suffix := strings.Repeat("u:", pre)[:pre], strings.Repeat("!", post)
				for _, wrapped := range []bool{false, true} {
					b64 := enc.EncodeToString([]byte(prefix + key + suffix))
					if wrapped {
						b64 = wrap(b64, "\r\n", 16)
					}
					got := s.String("Authorization: Basic " + b64 + " end")
					rest, ok := strings.CutPrefix(got, "Authorization: Basic ")
					rest, ok2 := strings.CutSuffix(rest, " end")
					before, after, masked := strings.Cut(rest, Mask)
					name := fmt.Sprintf("%d bytes before, %d after, wrapped %v, %q", pre, post, wrapped, b64)
					if !ok || !ok2 || !masked || strings.Contains(after, Mask) {
						t.Errorf("%s: gave %q, want the words around kept and one mask", name, got)
						continue
					}
					before = strings.ReplaceAll(before, "\r\n", "")
					// Base64 holds 6 bits a character: the prefix needs
					// ceil(8·pre/6) characters, and one more leaks bits.
					if maxLen := (8*pre+5)/6 + 1; len(before) > maxLen {
						t.Errorf("%s: %q left before the mask, more than %d characters", name, before, maxLen)
					}
					after = strings.TrimRight(strings.ReplaceAll(after, "\r\n", ""), "=")
					if maxLen := (8*post+5)/6 + 1; len(after) > maxLen {
						t.Errorf("%s: %q left after the mask, more than %d characters", name, after, maxLen)
					}
				}
			}
		}
	}
}

// TestStringShortSecrets: a secret under MinEncoded bytes is hidden only
// as written (its encodings would match ordinary text); one under MinLen
// is not hidden at all; text with no secret in it, escapes and all, is
// left as it is.
func TestStringShortSecrets(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		secret, text, want string
	}{
		{"k3y/5", "a k3y/5 b", "a *** b"},
		{"k3y/5", "a k3y%2F5 b k3y\n/5", "a k3y%2F5 b k3y\n/5"},
		{"abc", "abc abc", "abc abc"},
		{key, "100% %41 \\u0041 &amp; &#65; \\n done", "100% %41 \\u0041 &amp; &#65; \\n done"},
		{key, "", ""},
	} {
		if got := New(tt.secret).String(tt.text); got != tt.want {
			t.Errorf("secret %q, text %q: gave %q, want %q", tt.secret, tt.text, got, tt.want)
		}
	}
	var none *Set
	if got := none.String("x " + key); got != "x "+key {
		t.Errorf("a nil Set changed the text: %q", got)
	}
}

// TestStringManySecrets: overlapping secrets and repeats make one mask per
// stretch of secret text.
func TestStringManySecrets(t *testing.T) {
	t.Parallel()
	s := New("Bearer "+key, key, "0123456789~abc")
	got := s.String("Authorization: Bearer " + key + ", again " + url.QueryEscape(key) + ", part 0123456789~abc")
	if want := "Authorization: ***, again ***, part ***"; got != want {
		t.Errorf("gave %q, want %q", got, want)
	}
}

// TestForms: what a log that masks exact strings is given covers the key's
// escapes and base64, and each form is one String hides.
func TestForms(t *testing.T) {
	t.Parallel()
	forms := Forms(key)
	for _, want := range []string{key, url.QueryEscape(key), lowerCaseHex(url.QueryEscape(key)), url.PathEscape(key),
		`sk-proj\/Leak+Key=0123456789~abc\"def`, base64.StdEncoding.EncodeToString([]byte(key)), base64.RawURLEncoding.EncodeToString([]byte(key))} {
		if !strings.Contains(strings.Join(forms, "\n"), want) {
			t.Errorf("Forms lacks %q: %q", want, forms)
		}
	}
	s := New(key)
	for _, f := range forms {
		// The whole base64 of the key keeps its last character's partial
		// bits and its padding.
		got := s.String("<" + f + ">")
		if rest, ok := strings.CutPrefix(got, "<***"); !ok || len(strings.TrimRight(rest, "=>")) > 1 {
			t.Errorf("the form %q is not hidden by String: %q", f, got)
		}
	}
	if f := Forms("short"); len(f) != 1 || f[0] != "short" {
		t.Errorf("a short secret's forms: %q, want itself alone", f)
	}
}

// BenchmarkString: a provider's 64 KB error page (the most the probe
// reads) with one key and with ten secrets, none of them in it: the cost
// of hiding them in a failed request's error; then 1 MB, and 1 MB of near
// misses (the key's first 30 bytes again and again, each decoded
// character an escape; then each percent-encoded twice and followed by a
// cut mark: every level decoded, a piece sought before every mark), to
// show the cost grows with the text alone.
func BenchmarkString(b *testing.B) {
	page := strings.Repeat("<p>upstream error 502: bad gateway at 10.0.0.1 &amp; retry later</p>\n", 20000)
	near := strings.Repeat(every(key[:30], func(c byte) string { return fmt.Sprintf("%%%02X", c) })+" ", 12000)
	twice := strings.Repeat(every(key[:30], func(c byte) string { return fmt.Sprintf("%%25%02X", c) })+"… ", 8000)
	for _, tt := range []struct {
		name    string
		text    string
		secrets int
	}{{"64KB/1 secret", page[:64<<10], 1}, {"64KB/10 secrets", page[:64<<10], 10}, {"1MB/1 secret", page[:1<<20], 1}, {"1MB near misses/1 secret", near[:1<<20], 1},
		{"1MB near misses, encoded twice, cut/1 secret", twice[:1<<20], 1}} {
		var secrets []string
		for i := range tt.secrets {
			secrets = append(secrets, fmt.Sprintf("%s-%d", key, i))
		}
		s := New(secrets...)
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(tt.text)))
			for b.Loop() {
				s.String(tt.text)
			}
		})
	}
}

// auditKey is a key of the shape providers issue.
const auditKey = "sk-proj-Zq8rT3vLw0Nc5YxKpB7mHd2FgJ9sUe4Ai6Ro1Wt"

// encoding is one way a server writes a key, and how many of its bytes
// stand for one byte of the key (0: not a whole number: base64).
type encoding struct {
	name string
	enc  func(string) string
	per  int
}

// encodings are the forms TestStringHidesHexAndDoubleEncoding and
// TestStringHidesPiecesBeforeACut write the key in.
func encodings() []encoding {
	pct := func(layout string) func(string) string {
		return func(s string) string { return every(s, func(c byte) string { return fmt.Sprintf(layout, c) }) }
	}
	return []encoding{
		{"as written", func(s string) string { return s }, 1},
		{"hex", func(s string) string { return hex.EncodeToString([]byte(s)) }, 2},
		{"HEX", func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) }, 2},
		{"%XX", pct("%%%02X"), 3},
		{"%xx", pct("%%%02x"), 3},
		{"%25XX", pct("%%25%02X"), 5},
		{"%25xx", pct("%%25%02x"), 5},
		{"%2525XX", pct("%%2525%02X"), 7},
		{"\\u00xx", pct(`\u%04x`), 6},
		{"\\\\u00xx (JSON in JSON)", pct(`\\u%04x`), 7},
		{"\\xHH", pct(`\x%02x`), 4},
		{"&#NN;", pct("&#%d;"), 0},
		{"%26%2335; (HTML, percent-encoded)", pct("%%26%%23%d%%3B"), 0},
	}
}

// TestStringHidesHexAndDoubleEncoding: the key as hex (either case, with
// spaces between its bytes or not), percent-encoded twice or three times,
// as \xHH escapes, JSON-escaped twice, HTML-escaped and then
// percent-encoded, and wrapped over lines, between other words, is the
// mask with the words around it untouched; so is the key in a text with
// nothing to decode (searched without decoding it).
func TestStringHidesHexAndDoubleEncoding(t *testing.T) {
	t.Parallel()
	s := New(auditKey)
	for _, e := range encodings() {
		for _, form := range []string{e.enc(auditKey), wrap(e.enc(auditKey), "\n", 76), wrap(e.enc(auditKey), " ", 2)} {
			text := "bad key: " + form + " (HTTP 401)"
			if got, want := s.String(text), "bad key: *** (HTTP 401)"; got != want {
				t.Errorf("%s: %q\n  gave %q\n  want %q", e.name, text, got, want)
			}
		}
	}
	// A text with nothing to decode is searched as it is.
	for _, form := range []string{auditKey, hex.EncodeToString([]byte(auditKey)), strings.ToUpper(hex.EncodeToString([]byte(auditKey))),
		base64.RawURLEncoding.EncodeToString([]byte("u:" + auditKey))} {
		// (Of base64, the user's "dTp" and one character of partial bits
		// are left.)
		if got := s.String("k=" + form + ",end"); !strings.HasPrefix(got, "k=") || !strings.HasSuffix(got, ",end") || !strings.Contains(got, Mask) || len(got) > len("k=***,end")+4 {
			t.Errorf("%q: gave %q", form, got)
		}
	}
	text := "upstream said " + hex.EncodeToString([]byte("user:"+auditKey)) + " end"
	if got := s.String(text); got != "upstream said "+hex.EncodeToString([]byte("user:"))+"*** end" {
		t.Errorf("the hex of user:key: gave %q", got)
	}
}

// TestStringHidesPiecesBeforeACut: the key in each of its forms, cut at
// every byte and marked with CutMark (as a reader's bound cuts a text
// before it can be hidden), leaves fewer than MinPiece of the key's bytes
// before the mark; the words before it stay.
func TestStringHidesPiecesBeforeACut(t *testing.T) {
	t.Parallel()
	s := New(auditKey)
	for _, e := range encodings() {
		full := e.enc(auditKey)
		for n := 0; n <= len(full); n++ {
			text := "said: " + full[:n] + CutMark
			got := s.String(text)
			rest, ok := strings.CutPrefix(got, "said: ")
			if !ok {
				t.Fatalf("%s cut at %d: the words before were changed: %q", e.name, n, got)
			}
			if rest == Mask+CutMark {
				continue
			}
			if rest != full[:n]+CutMark {
				t.Errorf("%s cut at %d: %q became %q, neither itself nor the mask", e.name, n, text, got)
			} else if e.per > 0 && n/e.per >= MinPiece {
				t.Errorf("%s cut at %d: %q left %d bytes of the key", e.name, n, got, n/e.per)
			} else if e.per == 0 && strings.Count(full[:n], ";") >= MinPiece {
				t.Errorf("%s cut at %d: %q left a piece of the key", e.name, n, got)
			}
		}
	}
	// Inside a longer base64 string (Basic base64(user:key)), at each
	// alignment: what is left after the user's characters is at most
	// MinPiece-1 characters and the one of partial bits.
	for pre := range 3 {
		user := strings.Repeat("u", pre) + ":"
		full := base64.StdEncoding.EncodeToString([]byte(user + auditKey))
		for n := 0; n <= len(full); n++ {
			got := s.String("Basic " + full[:n] + CutMark)
			if maxLen := len("Basic ") + (8*len(user)+5)/6 + 1 + MinPiece - 1 + len(CutMark); !strings.Contains(got, Mask) && len(got) > maxLen {
				t.Errorf("base64 of %q cut at %d: %q keeps a piece of the key", user+"key", n, got)
			}
		}
	}
	// Many cut marks cost one pass; a piece shorter than MinPiece, or a
	// cut mark far from the key, is left alone.
	text := strings.Repeat(auditKey[:MinPiece-1]+CutMark, 1000) + " " + auditKey[:20] + ". " + CutMark
	if got, want := s.String(text), strings.Repeat(auditKey[:MinPiece-1]+CutMark, 1000)+" "+auditKey[:20]+". "+CutMark; got != want {
		t.Errorf("pieces of %d bytes, or not before a cut, were hidden: %q", MinPiece-1, got[len(got)-60:])
	}
}

// TestClip: a text cut to a length after its secrets are hidden keeps no
// piece of a secret that straddles the cut, whatever form it is in, and
// the cut never splits the mask; a text beyond MaxClipped is cut there
// first and the piece the first cut leaves is hidden too.
func TestClip(t *testing.T) {
	t.Parallel()
	s := New(auditKey)
	for _, e := range encodings() {
		full := e.enc(auditKey)
		for n := 0; n < len(full)+20; n++ {
			text := strings.Repeat("x", 10) + " key " + full + " refused"
			got := s.Clip(text, n)
			if strings.Contains(got, full[:min(len(full), 2*MinPiece)]) || strings.Contains(got, auditKey[:MinPiece]) {
				t.Errorf("%s clipped at %d: %q", e.name, n, got)
			}
			if strings.Contains(got, "*"+CutMark) && !strings.Contains(got, Mask+CutMark) {
				t.Errorf("%s clipped at %d: the cut split the mask: %q", e.name, n, got)
			}
		}
		long := strings.Repeat("y", MaxClipped-len(full)/2) + full + " end"
		if got := s.Clip(long, 2*MaxClipped); !strings.HasSuffix(got, "y"+Mask+CutMark) {
			t.Errorf("%s past MaxClipped: ends %q, want the piece hidden", e.name, got[len(got)-40:])
		}
	}
	for _, tt := range []struct {
		text string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"ab***cd", 4, "ab…"}, {"ab***cd", 5, "ab***…"},
		{"é", 1, "…"}, {"a**", 2, "a…"}, {"abc", -1, "…"},
	} {
		if got := Cut(tt.text, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}

// TestWith: a Set with more secrets hides them all, and the Set it was
// made from still hides its own alone.
func TestWith(t *testing.T) {
	t.Parallel()
	a := New("first-secret-1")
	b := a.With("second-secret-2", "first-secret-1")
	if got := b.String("first-secret-1 second-secret-2"); got != "*** ***" {
		t.Errorf("With: %q", got)
	}
	if got := a.String("first-secret-1 second-secret-2"); got != "*** second-secret-2" {
		t.Errorf("the Set With was called on changed: %q", got)
	}
	var none *Set
	if got := none.With("first-secret-1").String("a first-secret-1"); got != "a ***" {
		t.Errorf("nil.With: %q", got)
	}
}

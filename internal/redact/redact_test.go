package redact

import (
	"encoding/base64"
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
// character an escape), to show the cost grows with the text alone.
func BenchmarkString(b *testing.B) {
	page := strings.Repeat("<p>upstream error 502: bad gateway at 10.0.0.1 &amp; retry later</p>\n", 20000)
	near := strings.Repeat(every(key[:30], func(c byte) string { return fmt.Sprintf("%%%02X", c) })+" ", 12000)
	for _, tt := range []struct {
		name    string
		text    string
		secrets int
	}{{"64KB/1 secret", page[:64<<10], 1}, {"64KB/10 secrets", page[:64<<10], 10}, {"1MB/1 secret", page[:1<<20], 1}, {"1MB near misses/1 secret", near[:1<<20], 1}} {
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

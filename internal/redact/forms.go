package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Forms lists the strings a log that masks by exact match (GitHub
// Actions' ::add-mask::) must be given to hide secret in the forms String
// finds, as far as exact strings can: the secret; percent-encoded as
// url.QueryEscape and url.PathEscape do, in upper- and lower-case hex;
// every byte percent-encoded, once (%73) and twice (%2573), in upper- and
// lower-case hex; JSON-escaped (Go's escapes, and \/); its hex, in upper
// and lower case; its base64, standard and URL-safe, padded and not, and
// the three alignments' middles (base64Middles). A secret split over lines
// has no exact form: String alone hides it. A secret shorter than
// MinEncoded is its only form.
func Forms(secret string) []string {
	out := []string{secret}
	if len(secret) < MinEncoded {
		return out
	}
	add := func(forms ...string) {
		for _, f := range forms {
			if f != "" && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	for _, esc := range []string{url.QueryEscape(secret), url.PathEscape(secret)} {
		add(esc, lowerHex.ReplaceAllStringFunc(esc, strings.ToLower))
	}
	for _, layout := range []string{"%%%02X", "%%%02x", "%%25%02X", "%%25%02x"} {
		var b strings.Builder
		for i := range len(secret) {
			fmt.Fprintf(&b, layout, secret[i])
		}
		add(b.String())
	}
	add(hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret))))
	if j, err := json.Marshal(secret); err == nil {
		j = j[1 : len(j)-1]
		add(string(j), strings.ReplaceAll(string(j), "/", `\/`))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		add(enc.EncodeToString([]byte(secret)))
	}
	add(base64Middles(secret)...)
	return out
}

// lowerHex finds the hex digits of a percent-encoded byte.
var lowerHex = regexp.MustCompile(`%[0-9A-F]{2}`)

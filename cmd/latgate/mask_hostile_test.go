package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// hostileKey is a key of the shape providers issue.
const hostileKey = "sk-proj-Zq8rT3vLw0Nc5YxKpB7mHd2FgJ9sUe4Ai6Ro1Wt"

// byteForms are ways a server writes each byte of a key.
var byteForms = map[string]func(byte) string{
	"as written": func(c byte) string { return string(c) },
	"hex":        func(c byte) string { return fmt.Sprintf("%02x", c) },
	"HEX":        func(c byte) string { return fmt.Sprintf("%02X", c) },
	"%XX":        func(c byte) string { return fmt.Sprintf("%%%02X", c) },
	"%xx":        func(c byte) string { return fmt.Sprintf("%%%02x", c) },
	"%25XX":      func(c byte) string { return fmt.Sprintf("%%25%02X", c) },
	"%25xx":      func(c byte) string { return fmt.Sprintf("%%25%02x", c) },
	"%2525XX":    func(c byte) string { return fmt.Sprintf("%%2525%02X", c) },
	`\u00xx`:     func(c byte) string { return fmt.Sprintf(`\u%04x`, c) },
	`\xHH`:       func(c byte) string { return fmt.Sprintf(`\x%02x`, c) },
	"&#NN;":      func(c byte) string { return fmt.Sprintf("&#%d;", c) },
}

// encode writes s in the form f.
func encode(s string, f func(byte) string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteString(f(s[i]))
	}
	return b.String()
}

// keyPieces are what must never be shown of hostileKey: each piece of 12
// of its bytes in each form of byteForms, and each 16 characters of its
// base64 at each alignment (12 bytes of it).
func keyPieces() map[string]string {
	out := map[string]string{}
	for name, f := range byteForms {
		for i := 0; i+12 <= len(hostileKey); i++ {
			out[encode(hostileKey[i:i+12], f)] = name
		}
	}
	for k := range 3 {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("u", k) + hostileKey))
		mid := enc[(8*k+5)/6 : 8*(k+len(hostileKey))/6]
		for i := 0; i+16 <= len(mid); i++ {
			out[mid[i:i+16]] = "base64"
			out[strings.NewReplacer("+", "-", "/", "_").Replace(mid[i:i+16])] = "base64url"
		}
	}
	return out
}

// hostileAnswers are a hostile server's answers that each echo the key
// once: encoded (hex, percent-encoded twice or three times, \xHH) in an
// error body or a stream's error event; or as written where latgate cuts
// the message (an error event's, a malformed event's, an error body's, a
// Retry-After, a timing header, a Content-Type, a page title), with the
// key across the cut at several offsets.
func hostileAnswers() []func(w http.ResponseWriter) (serve bool) {
	pad := func(n int) string { return strings.Repeat("x", n) }
	body := func(code int, ctype, text string) func(http.ResponseWriter) bool {
		return func(w http.ResponseWriter) bool {
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(code)
			fmt.Fprint(w, text)
			return false
		}
	}
	jsonError := func(msg string) string {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg}})
		return string(b)
	}
	sse := func(data string) func(http.ResponseWriter) bool {
		return body(http.StatusOK, "text/event-stream", "data: "+data+"\n\n")
	}
	var out []func(http.ResponseWriter) bool
	for _, name := range []string{"hex", "HEX", "%25XX", "%25xx", "%2525XX", `\xHH`} {
		enc := encode(hostileKey, byteForms[name])
		out = append(out,
			body(http.StatusInternalServerError, "application/json", jsonError("upstream rejected key "+enc)),
			body(http.StatusBadGateway, "text/plain", "bad key: "+enc),
			sse(jsonError("stream refused key "+enc)))
	}
	for _, n := range []int{262, 270, 280, 290, 295} { // the 300-byte cut
		out = append(out,
			sse(jsonError(pad(n)+" key "+hostileKey+" refused")),
			body(http.StatusInternalServerError, "application/json", jsonError(pad(n)+" key "+hostileKey+" refused")))
	}
	for _, n := range []int{80, 95, 100, 105, 110} { // the 120-byte cuts
		out = append(out,
			sse(pad(n)+" key "+hostileKey),
			body(http.StatusOK, "text/html", "<html><title>"+pad(n)+" "+hostileKey+"</title></html>"))
	}
	for _, n := range []int{10, 20, 30, 35} { // the 40-byte cuts
		retry := "1 " + pad(n) + hostileKey
		out = append(out, func(w http.ResponseWriter) bool {
			w.Header().Set("Retry-After", retry)
			w.WriteHeader(http.StatusServiceUnavailable)
			return false
		}, func(w http.ResponseWriter) bool {
			w.Header().Set("openai-processing-ms", retry)
			return true // the answer is the simulator's
		})
	}
	for _, n := range []int{20, 40, 60} { // the 100-byte cut of a content type
		out = append(out, body(http.StatusOK, "application/json; note="+pad(n)+hostileKey, "{}"))
	}
	out = append(out, sse(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+hostileKey+`"}]}`+"\n\ndata: [DONE]"))
	return out
}

// TestRunHidesEncodedAndCutKeys: a hostile server echoes the suite's key
// in hex (either case), percent-encoded twice or three times, as \xHH,
// and as written wherever latgate cuts what a server said, across the
// cut; the run records every failure, and neither stderr, stdout nor the
// results file holds the key or any 12 bytes of it in any of these forms.
func TestRunHidesEncodedAndCutKeys(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		answers := hostileAnswers()
		s := sim.New(fastProfile(10*time.Millisecond), 7)
		s.APIKey = hostileKey
		var n atomic.Int64
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i := int(n.Add(1)) - 1
			if i%2 == 1 || answers[(i/2)%len(answers)](w) {
				s.ServeHTTP(w, r)
			}
		}))
		onLoopback(t, srv.Client())
		dir, cfg := writeSuiteN(t, srv.URL, 2*len(answers), "")
		env := map[string]string{"TEST_API_KEY": hostileKey}
		res := filepath.Join(dir, "r.json")
		r := runCLI(t, env, "run", "-c", cfg, "-o", res)
		if r.code == 2 {
			t.Fatalf("exit %d:\n%s", r.code, r.stderr)
		}
		file, err := os.ReadFile(res)
		if err != nil {
			t.Fatalf("no results file (exit %d):\n%s", r.code, r.stderr)
		}
		for _, want := range []string{"upstream rejected key ***", "stream refused key ***", "bad key: ***", "key *** refused", "(Retry-After: 1 x", `ignored_reason":"openai-processing-ms header`, "finish_reason ***"} {
			if !strings.Contains(string(file), want) {
				t.Errorf("the results file lacks %q: are the server's answers recorded?", want)
			}
		}
		pieces := keyPieces()
		for where, text := range map[string]string{"stderr": r.stderr, "stdout": r.stdout, "the results file": string(file)} {
			flat := strings.Join(strings.Fields(strings.NewReplacer(`\n`, "", `\r`, "").Replace(text)), "")
			for piece, form := range pieces {
				if strings.Contains(text, piece) || strings.Contains(flat, piece) {
					t.Errorf("%s holds 12 bytes of the key as %s: %q", where, form, piece)
					break
				}
			}
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", r.stderr)
		}
	})
}

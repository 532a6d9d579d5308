package main

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/ghfake"
	"github.com/latgate/latgate/sim"
)

// leakKey has the characters that percent-encoding, JSON and base64
// change.
const leakKey = "sk-proj/Leak+Key=0123456789~abcdef"

// leakingBodies are error bodies that echo leakKey encoded: as a proxy, a
// gateway or a server's own error text prints a key.
func leakingBodies() (bodies []string, encoded []string) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	lower := regexp.MustCompile(`%[0-9A-F]{2}`)
	for _, form := range []string{
		url.QueryEscape(leakKey),
		lower.ReplaceAllStringFunc(url.PathEscape(leakKey), strings.ToLower),
		b64(leakKey + "|org-1"), // at offset 0
		b64("x" + leakKey),      // at offset 1
		b64("me:" + leakKey),    // at offset 0 after 3 bytes
		b64("u:" + leakKey),     // at offset 2: Basic base64(user:key)
		base64.RawURLEncoding.EncodeToString([]byte("u:" + leakKey)), // offset 2, URL-safe, unpadded
		strings.NewReplacer("/", `\/`, "+", `\u002b`, "=", `\u003D`).Replace(leakKey),
	} {
		bodies = append(bodies, "upstream rejected credentials "+form+" for this route")
		encoded = append(encoded, form)
	}
	// Split over lines: as plain text and inside a JSON error's message.
	bodies = append(bodies, "invalid api key: sk-proj/Leak+\r\nKey=0123\n456789~abcdef (check your settings)",
		`{"error":{"message":"Incorrect API key provided: sk-proj/Leak+Key=\n0123456789~abcdef","type":"invalid_request_error"}}`)
	return bodies, encoded
}

// TestGateHidesEncodedKey: a server whose errors echo the suite's key
// percent-encoded, base64'd (at each alignment inside a longer base64
// string), JSON-escaped and split over lines: the key, in none of these
// forms, reaches stderr, stdout, the results file, the report, the HTML
// page, the job summary or the comment; Actions is asked to mask the
// encodings too.
func TestGateHidesEncodedKey(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		bodies, encoded := leakingBodies()
		s := sim.New(fastProfile(10*time.Millisecond), 7)
		s.APIKey = leakKey
		var n atomic.Int64
		var refuse atomic.Bool // every request a 401 whose error echoes the key in three forms
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i := int(n.Add(1))
			if refuse.Load() {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprintf(w, "bad key %s (Basic %s), was: %s", encoded[0], encoded[5], bodies[len(bodies)-2])
				return
			}
			if i%2 == 0 {
				s.ServeHTTP(w, r)
				return
			}
			body := bodies[(i/2)%len(bodies)]
			if strings.HasPrefix(body, "{") {
				w.Header().Set("Content-Type", "application/json")
			}
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, body)
		}))
		onLoopback(t, srv.Client())
		dir, cfg := writeSuiteN(t, srv.URL, 2*len(bodies)*2, "")
		text, _ := os.ReadFile(cfg)
		if err := os.WriteFile(cfg, []byte(strings.ReplaceAll(string(text), "TEST_API_KEY", "LEAK_KEY")), 0o644); err != nil {
			t.Fatal(err)
		}
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		env["LEAK_KEY"] = leakKey
		api.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		res := filepath.Join(dir, "r.json")
		r := runCLI(t, env, "gate", "-c", cfg, "--baseline", "none", "--results", res)
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		// Refused: the run fails, and says the server's error on stderr
		// (of base64("u:"+key), "dTp" is the user's, with 2 bits of "s").
		refuse.Store(true)
		failed := runCLI(t, env, "run", "-c", cfg, "-o", filepath.Join(dir, "refused.json"))
		if failed.code != 3 || !strings.Contains(failed.stderr, "bad key *** (Basic dTp***), was: invalid api key: *** (check your settings)") {
			t.Errorf("refused: exit %d, want 3 and the masked error on stderr:\n%s", failed.code, failed.stderr)
		}
		files := map[string]string{"stdout": r.stdout, "stderr": r.stderr, "run's stdout": failed.stdout, "run's stderr": failed.stderr}
		for _, f := range []string{res, env["INPUT_REPORT"], strings.TrimSuffix(env["INPUT_REPORT"], ".md") + ".html", env["GITHUB_STEP_SUMMARY"]} {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Base(f)] = string(b)
		}
		c := api.Comments(7)
		files["comment"] = c[len(c)-1].Body
		if !strings.Contains(files["r.json"], "upstream rejected credentials *** for this route") {
			t.Errorf("the results file holds no masked error: is the server's error recorded?\n%.2000s", files["r.json"])
		}
		for where, text := range files {
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				if !strings.HasPrefix(l, "::add-mask::") {
					lines = append(lines, l)
				}
			}
			text = strings.Join(lines, "\n")
			if flat := strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(text, `\r`, ""), `\n`, "")), ""); strings.Contains(flat, leakKey) {
				t.Errorf("%s holds the key (with its line breaks taken out)", where)
			}
			for _, form := range encoded {
				if mid := form[len(form)/5 : len(form)*4/5]; strings.Contains(text, mid) {
					t.Errorf("%s holds the key encoded as %q", where, form)
				}
			}
		}
		for _, form := range []string{url.QueryEscape(leakKey), base64.StdEncoding.EncodeToString([]byte(leakKey))} {
			// A workflow command writes % as %25; the runner reads it back.
			if !strings.Contains(r.stdout, "::add-mask::"+strings.ReplaceAll(form, "%", "%25")+"\n") {
				t.Errorf("Actions is not asked to mask %q:\n%.1500s", form, r.stdout)
			}
		}
	})
}

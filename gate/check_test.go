package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

const checkKey = "sk-check-SECRET-7"

// brokenEndpoints serves, beside a simulator, the endpoint mistakes teams
// make most, each under a path of its own; hits counts the requests each
// path's first segment received (POSTs: the API's requests).
func brokenEndpoints(hits map[string]*atomic.Int32) http.Handler {
	ok := sim.New(sim.Profile{TTFT: sim.Fixed(40 * time.Millisecond), ITL: sim.Fixed(5 * time.Millisecond), Tokens: 24}, 1)
	buffered := sim.New(sim.Profile{TTFT: sim.Fixed(200 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond), Tokens: 24,
		Quirks: sim.Quirks{Buffered: true}}, 1)
	sse := func(w http.ResponseWriter, lines ...string) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, l := range lines {
			fmt.Fprintf(w, "data: %s\n\n", l)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if h := hits[first]; h != nil && r.Method == http.MethodPost {
			h.Add(1)
		}
		switch r.URL.Path {
		case "/html/v1/chat/completions":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><html><head><title>Acme – Sign in</title></head><body><form>…</form></body></html>")
		case "/strict/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"gpt-4o-mini"},{"id":"gpt-4o"}]}`)
		case "/strict/v1/chat/completions":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error":{"message":"The model `+"`gpt-4o-mnii`"+` does not exist","code":"model_not_found"}}`)
		case "/locked/v1/chat/completions":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided: `+r.Header.Get("Authorization")+`"}}`)
		case "/json/v1/chat/completions":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}]}`)
		case "/empty/v1/chat/completions":
			sse(w, `{"choices":[{"index":0,"delta":{"role":"assistant"}}]}`, `{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`, "[DONE]")
		case "/old/v1/chat/completions":
			http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
		default:
			if rest, found := strings.CutPrefix(r.URL.Path, "/buffered"); found {
				r.URL.Path = rest
				buffered.ServeHTTP(w, r)
				return
			}
			ok.ServeHTTP(w, r)
		}
	})
}

// TestCheckFindsEachMistake: a panel of broken endpoints — a web page with
// 200, a base_url without and with a doubled /v1, an unknown model, a
// refused key, one JSON body, a buffering proxy, an empty stream, a
// redirect — each gets its finding from latgate check with the fix in
// words, and a run stops at its first request with the same words,
// nothing measured. The key appears nowhere. Virtual time.
func TestCheckFindsEachMistake(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		hits := map[string]*atomic.Int32{}
		for _, p := range []string{"html", "v1", "strict", "locked", "json", "buffered", "empty", "old", "chat"} {
			hits[p] = &atomic.Int32{}
		}
		srv := clocktest.NewServer(t, brokenEndpoints(hits))
		u := srv.URL
		for _, c := range []struct {
			base, model string
			hit         string // the first path segment the requests reach
			want        vocab.Finding
			says        []string
		}{
			{u + "/html/v1", "m", "html", vocab.WebPage, []string{`got a web page (Content-Type "text/html; charset=utf-8") titled "Acme – Sign in"`, "is base_url your API's root, such as https://api.openai.com/v1?"}},
			{u, "m", "chat", vocab.MissingV1, []string{"HTTP 404", "base_url " + u + " has no /v1", "set base_url: " + u + "/v1"}},
			{u + "/v1/v1", "m", "v1", vocab.DoubledV1, []string{"HTTP 404", "the path holds /v1 twice: set base_url: " + u + "/v1"}},
			{u + "/strict/v1", "gpt-4o-mnii", "strict", vocab.UnknownModel, []string{`does not serve model "gpt-4o-mnii"; it lists "gpt-4o-mini", "gpt-4o"`, `did you mean "gpt-4o-mini"?`}},
			{u + "/locked/v1", "m", "locked", vocab.KeyRefused, []string{"HTTP 401 Unauthorized", "refused the key in $CHECK_KEY"}},
			{u + "/json/v1", "m", "json", vocab.JSONBody, []string{`Content-Type "application/json"`, `ignores "stream": true`}},
			{u + "/buffered/v1", "m", "buffered", vocab.NotStreamed, []string{"the answers of two requests, the second sent after the first had ended, each arrived in one piece: 24 tokens 430 ms after the request, then 24 tokens 430 ms after it",
				"proxy_buffering off"}},
			{u + "/empty/v1", "m", "empty", vocab.EmptyAnswer, []string{"does the model answer this prompt"}},
			{u + "/old/v1", "m", "old", vocab.Redirect, []string{"redirects " + u + "/old/v1/chat/completions to " + u + "/v1/chat/completions", "latgate sends a key to no other origin", "set base_url: " + u + "/v1"}},
		} {
			path := filepath.Join(t.TempDir(), "latgate.yaml")
			writeCheckSuite(t, path, "  - {name: e, base_url: "+c.base+", model: "+c.model+", api_key_env: CHECK_KEY}\n", 4)
			var out, errOut bytes.Buffer
			env := Env{Stdout: &out, Stderr: &errOut, ProbeClient: srv.Client(), Getenv: checkEnv}
			err := Check(context.Background(), env, CheckOptions{Config: path})
			line := out.String()
			t.Logf("%s", strings.TrimSpace(strings.SplitN(line, "\n", 2)[1]))
			if KindOf(err) != CannotRun || !strings.Contains(line, "FAILED  e (") || !strings.Contains(line, ": "+string(c.want)+": ") {
				t.Errorf("%s: check: %v\n%s: want %s", c.base, err, line, c.want)
			}
			for _, s := range c.says {
				if !strings.Contains(line, s) {
					t.Errorf("%s: check says\n%s\nwant %q in it", c.base, line, s)
				}
			}
			before := hits[c.hit].Load()
			cfg := loadCheckSuite(t, path)
			f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), Getenv: checkEnv})
			var stop *CheckError
			if f != nil || !errors.As(err, &stop) || stop.Diagnosis.Finding != c.want || KindOf(err) != CannotRun {
				t.Errorf("%s: run: file %v, error %v: want it stopped at its first request on %s", c.base, f != nil, err, c.want)
			} else if !strings.Contains(line, stop.Diagnosis.Says) {
				t.Errorf("%s: run says\n%s\ncheck\n%s", c.base, stop.Diagnosis.Says, line)
			}
			// A buffered first answer waits for a second request to
			// confirm it (TestCheckConfirmsBuffered).
			want := map[bool]int{false: 1, true: 2}[c.want == vocab.NotStreamed]
			if n := hits[c.hit].Load() - before; n < int32(want) || n > int32(want)+1 {
				t.Errorf("%s: the run sent %d requests, want %d (and at most one more, in flight), of 4", c.base, n, want)
			}
			if all := line + errOut.String() + fmt.Sprint(err); strings.Contains(all, "SECRET") {
				t.Errorf("%s: the key in the output:\n%s", c.base, all)
			}
		}
	})
}

// TestCheckSaysOKOnEveryAPI: a usable endpoint on every HTTP and WebSocket
// API gets ok, with its status, content type, TTFT (exact, on virtual
// time) and that it streamed; check exits 0 and a run measures as before.
func TestCheckSaysOKOnEveryAPI(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := sim.New(sim.Profile{TTFT: sim.Fixed(60 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 24,
			Quirks: sim.Quirks{RoleChunk: true, KeepAlives: 2}}, 5)
		s.APIKey = checkKey
		srv := clocktest.NewServer(t, s)
		u := srv.URL
		path := filepath.Join(t.TempDir(), "latgate.yaml")
		writeCheckSuite(t, path, `  - {name: chat, base_url: `+u+`/v1, model: m, api_key_env: CHECK_KEY}
  - {name: responses, api: responses, base_url: `+u+`/v1, model: m, api_key_env: CHECK_KEY}
  - {name: anthropic, api: anthropic, base_url: `+u+`, model: m, api_key_env: CHECK_KEY}
  - {name: gemini, api: gemini, base_url: `+u+`/v1beta, model: m, api_key_env: CHECK_KEY}
  - {name: azure, api: azure, base_url: `+u+`, deployment: d, api_version: "2024-10-21", api_key_env: CHECK_KEY}
  - {name: ollama, api: ollama, base_url: `+u+`, model: m, api_key_env: CHECK_KEY}
  - {name: realtime, api: realtime, base_url: `+strings.Replace(u, "http:", "ws:", 1)+`/v1, model: m, api_key_env: CHECK_KEY}
`, 4)
		var out, errOut bytes.Buffer
		err := Check(context.Background(), Env{Stdout: &out, Stderr: &errOut, ProbeClient: srv.Client(), Getenv: checkEnv}, CheckOptions{Config: path})
		if err != nil {
			t.Fatalf("check: %v\n%s", err, out.String())
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 8 || !strings.Contains(lines[0], "7 endpoints, one request each") {
			t.Fatalf("check printed\n%s\nwant a line for each of 7 endpoints", out.String())
		}
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "ok      ") || !strings.Contains(l, "): HTTP ") || !strings.Contains(l, "TTFT 60 ms, 24 tokens") || !strings.HasSuffix(l, "streamed") {
				t.Errorf("check said %q: want ok, TTFT 60 ms, 24 tokens, streamed", l)
			}
		}
		if _, err := Measure(context.Background(), loadCheckSuite(t, path), MeasureOptions{Client: srv.Client(), Getenv: checkEnv}); err != nil {
			t.Errorf("run: %v", err)
		}
	})
}

// TestCheckNamesNetworkFailures: on the real loopback, a port nothing
// listens at (over HTTP and a Realtime WebSocket), a TLS server whose certificate is not trusted, and a host
// that does not resolve (.invalid never does) are each named as such.
func TestCheckNamesNetworkFailures(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(untrusted.Close)
	for _, c := range []struct {
		base string
		want vocab.Finding
		says string
	}{
		{closed + "/v1", vocab.ConnRefused, "nothing listens at " + strings.TrimPrefix(closed, "http://") + " (connection refused)"},
		{"realtime " + strings.Replace(closed, "http:", "ws:", 1) + "/v1", vocab.ConnRefused, "nothing listens at " + strings.TrimPrefix(closed, "http://") + " (connection refused)"},
		{untrusted.URL + "/v1", vocab.BadTLS, "the TLS handshake with " + strings.TrimPrefix(untrusted.URL, "https://") + " failed"},
		{"http://latgate-check.invalid/v1", vocab.NoDNS, "the host of latgate-check.invalid does not resolve (DNS"},
	} {
		path := filepath.Join(t.TempDir(), "latgate.yaml")
		api, base, _ := strings.Cut(c.base, " ")
		if base == "" {
			api, base = "chat", c.base
		}
		writeCheckSuite(t, path, "  - {name: e, api: "+api+", base_url: "+base+", model: m}\n", 1)
		var out bytes.Buffer
		err := Check(context.Background(), Env{Stdout: &out, Stderr: &out, Getenv: checkEnv}, CheckOptions{Config: path})
		t.Logf("%s", strings.TrimSpace(out.String()))
		if KindOf(err) != CannotRun || !strings.Contains(out.String(), ": "+string(c.want)+": "+c.says) {
			t.Errorf("%s: %v\n%s\nwant %s: %s", c.base, err, out.String(), c.want, c.says)
		}
	}
}

func checkEnv(k string) string { return map[string]string{"CHECK_KEY": checkKey}[k] }

func writeCheckSuite(t *testing.T, path, endpoints string, requests int) {
	t.Helper()
	yaml := fmt.Sprintf("endpoints:\n%sscenarios:\n  - {name: hello, prompt: \"Say hello.\", max_tokens: 24, requests: %d, warmup: 0, concurrency: 1}\n", endpoints, requests)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadCheckSuite(t *testing.T, path string) *suite.Config {
	t.Helper()
	cfg, err := LoadConfig(path, checkEnv, false)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCheckStopsAnABOnEitherSide: in an A/B run the first request of each
// side is diagnosed: a head whose base_url serves a web page stops the run
// at its first request, naming the side, while its base is usable; with
// both usable the run measures both. Virtual time.
func TestCheckStopsAnABOnEitherSide(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, brokenEndpoints(map[string]*atomic.Int32{}))
		suiteAt := func(base string) *suite.Config {
			path := filepath.Join(t.TempDir(), "latgate.yaml")
			writeCheckSuite(t, path, "  - {name: e, base_url: "+base+", model: m}\n", 8)
			return loadCheckSuite(t, path)
		}
		good := suiteAt(srv.URL + "/v1")
		f, err := MeasureAB(context.Background(), good, suiteAt(srv.URL+"/html/v1"), MeasureOptions{Client: srv.Client()})
		var stop *CheckError
		if f != nil || !errors.As(err, &stop) || stop.Diagnosis.Side != vocab.Head || stop.Diagnosis.Finding != vocab.WebPage ||
			!strings.Contains(err.Error(), `endpoint "e" (head) stopped the run`) {
			t.Errorf("a broken head: file %v, error %v: want the run stopped, naming the head", f != nil, err)
		}
		if f, err := MeasureAB(context.Background(), good, good, MeasureOptions{Client: srv.Client()}); err != nil || len(f.Runs) != 2 {
			t.Errorf("both usable: %v", err)
		}
	})
}

// TestCheckHidesAKeyInTheURL: a key the suite puts in a URL (?key=${VAR})
// is hidden in check's line and in the run's stop, whatever the finding
// quotes of the URL. Virtual time.
func TestCheckHidesAKeyInTheURL(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, brokenEndpoints(map[string]*atomic.Int32{}))
		path := filepath.Join(t.TempDir(), "latgate.yaml")
		writeCheckSuite(t, path, `  - name: e
    api: custom
    url: `+srv.URL+`/nowhere?key=${CHECK_KEY}
    body: {model: m, stream: true, messages: "{{messages}}"}
    stream: {format: ndjson, text: /message/content, done: /done}
`, 4)
		var out bytes.Buffer
		err := Check(context.Background(), Env{Stdout: &out, Stderr: &out, ProbeClient: srv.Client(), Getenv: checkEnv}, CheckOptions{Config: path})
		_, runErr := Measure(context.Background(), loadCheckSuite(t, path), MeasureOptions{Client: srv.Client()})
		all := out.String() + fmt.Sprint(err) + fmt.Sprint(runErr)
		t.Logf("%s\n%v", out.String(), runErr)
		if !strings.Contains(out.String(), "not_found: ") || !strings.Contains(fmt.Sprint(runErr), "not_found: ") || strings.Contains(all, checkKey) {
			t.Errorf("want not_found from both, the key hidden:\n%s", all)
		}
	})
}

// TestCheckConfirmsBuffered: a buffering proxy holds every answer, a
// machine too busy to read in time only some (the demo's first requests
// beside a browser starting: an answer in one piece 365 ms after the
// request, the next ones streamed). An endpoint whose first answers (all
// that were in flight at once) arrived in one piece and the next
// streamed is usable: check says so, naming the first, and a run at
// concurrency 4 measures every request; one that holds every answer is
// buffered for both, after a second request. Virtual time.
func TestCheckConfirmsBuffered(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := sim.Profile{TTFT: sim.Fixed(200 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond), Tokens: 24}
		streamed := sim.New(p, 1)
		p.Quirks.Buffered = true
		held := sim.New(p, 1)
		var posts, wave atomic.Int32
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasPrefix(r.URL.Path, "/always/"):
				r.URL.Path = strings.TrimPrefix(r.URL.Path, "/always")
				held.ServeHTTP(w, r)
			case r.Method == http.MethodPost && posts.Add(1) <= wave.Load(): // the first wave, read late
				held.ServeHTTP(w, r)
			default:
				streamed.ServeHTTP(w, r)
			}
		}))
		for _, c := range []struct {
			base string
			want vocab.Finding
			says string
		}{
			{srv.URL + "/v1", vocab.Usable, "24 tokens in 24 events, streamed; a first request's 24 tokens had arrived in one piece, 430 ms after it, but this second one's did not: a late read"},
			{srv.URL + "/always/v1", vocab.NotStreamed, "each arrived in one piece: 24 tokens 430 ms after the request, then 24 tokens 430 ms after it"},
		} {
			posts.Store(0)
			wave.Store(1) // check sends one request at a time
			path := filepath.Join(t.TempDir(), "latgate.yaml")
			writeCheckSuite(t, path, "  - {name: e, base_url: "+c.base+", model: m}\n", 12)
			var out bytes.Buffer
			err := Check(context.Background(), Env{Stdout: &out, Stderr: &out, ProbeClient: srv.Client(), Getenv: checkEnv}, CheckOptions{Config: path})
			t.Logf("%s", strings.TrimSpace(out.String()))
			if (err == nil) != (c.want == vocab.Usable) || !strings.Contains(out.String(), c.says) {
				t.Errorf("%s: check: %v\n%s\nwant %s: %q", c.base, err, out.String(), c.want, c.says)
			}
			posts.Store(0)
			wave.Store(4) // the run sends 4 at once
			cfg := loadCheckSuite(t, path)
			cfg.Scenarios[0].Concurrency = 4
			f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), Getenv: checkEnv})
			var stop *CheckError
			switch {
			case c.want == vocab.Usable && (err != nil || f.Requests() != 12):
				t.Errorf("%s: run: %v: want all 12 requests measured", c.base, err)
			case c.want == vocab.NotStreamed && (!errors.As(err, &stop) || stop.Diagnosis.Finding != vocab.NotStreamed):
				t.Errorf("%s: run: %v: want it stopped, buffered", c.base, err)
			}
		}
	})
}

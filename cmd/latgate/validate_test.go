package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// TestValidateSendsNothing: latgate validate checks a suite whose every
// endpoint is a live server, and no connection reaches any of them; the
// same suite run sends (the counter counts).
func TestValidateSendsNothing(t *testing.T) {
	t.Parallel()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	ws := "ws" + strings.TrimPrefix(srv.URL, "http")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "latgate.yaml")
	suiteText := "endpoints:\n" +
		"  - {name: chat, base_url: " + srv.URL + "/v1, model: m, api_key_env: TEST_API_KEY}\n" +
		"  - {name: anthropic, api: anthropic, base_url: " + srv.URL + ", model: m}\n" +
		"  - {name: voice, api: realtime, base_url: " + ws + "/v1, model: m}\n" +
		"  - {name: app, api: custom, url: \"${APP_URL}/answer\", body: {q: \"{{prompt}}\"}, stream: {format: sse, text: /t}}\n" +
		"scenarios:\n  - {name: s, prompt: hi, requests: 40}\n"
	if err := os.WriteFile(cfg, []byte(suiteText), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"TEST_API_KEY": testKey, "APP_URL": srv.URL}
	r := runCLI(t, vars, "validate", "-c", cfg)
	if r.code != 0 || !strings.Contains(r.stdout, "valid: 4 endpoints, 1 scenario; a run sends 164 requests") {
		t.Fatalf("validate: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("validate opened %d connections, want none", n)
	}
	if strings.Contains(r.stdout+r.stderr, testKey) {
		t.Error("validate printed the key")
	}
	r = runCLI(t, vars, "run", "-c", cfg, "--requests", "1", "-o", filepath.Join(dir, "r.json"))
	if conns.Load() == 0 {
		t.Fatalf("run opened no connection (exit %d): the counter counts nothing\n%s", r.code, r.stderr)
	}
}

// TestValidateAgreesWithSchema: latgate validate and the suite's JSON
// Schema (what an editor checks, here with a real validator) accept every
// suite in examples/ and reject the same wrong suites; a suite only
// validate rejects is one of the differences docs/config.md lists.
func TestValidateAgreesWithSchema(t *testing.T) {
	t.Parallel()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	sch, err := c.Compile("../../docs/schema/latgate.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	examples, _ := filepath.Glob("../../examples/*.yaml")
	if len(examples) < 4 {
		t.Fatalf("examples: %v", examples)
	}
	vars := map[string]string{"OPENAI_API_KEY": testKey, "APP_URL": "http://127.0.0.1:1", "APP_TOKEN": "t"}
	for _, path := range examples {
		for _, args := range [][]string{{"validate", "-c", path}, {"validate", "--skip-env", "-c", path}} {
			if r := runCLI(t, vars, args...); r.code != 0 {
				t.Errorf("%v: exit %d, want 0\n%s", args, r.code, r.stderr)
			}
		}
		b, _ := os.ReadFile(path)
		if err := schemaCheck(sch, b); err != nil {
			t.Errorf("%s: the schema rejects it: %v", path, err)
		}
	}
	docs, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, w := range wrongSuites {
		t.Run(w.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(w.name, " ", "-")+".yaml")
			if err := os.WriteFile(path, []byte(w.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			if r := runCLI(t, vars, "validate", "-c", path); r.code != 2 || !strings.Contains(r.stderr, w.said) {
				t.Errorf("validate: exit %d, want 2 saying %q:\n%s", r.code, w.said, r.stderr)
			}
			err := schemaCheck(sch, []byte(w.yaml))
			switch {
			case w.only == "" && err == nil:
				t.Errorf("the schema accepts it, and it is not a documented difference")
			case w.only != "" && err != nil:
				t.Errorf("the schema rejects it too (%v): drop it from the differences (%q)", err, w.only)
			case w.only != "" && !bytes.Contains(docs, []byte(w.only)):
				t.Errorf("docs/config.md does not list the difference %q", w.only)
			}
		})
	}
}

const okEndpoint = "endpoints:\n  - {name: e, base_url: http://127.0.0.1:1/v1, model: m}\n"

// wrongSuites are mistakes a newcomer makes: said is what validate says
// (at the line); only, for a mistake the schema cannot see, the words of
// docs/config.md that list it.
var wrongSuites = []struct {
	name, yaml, said, only string
}{
	{"empty prompt", okEndpoint + "scenarios:\n  - name: s\n    prompt: \"\"\n", `:5: scenario "s": prompt is empty`, ""},
	{"no prompt", okEndpoint + "scenarios:\n  - name: s\n    requests: 50\n", `:4: scenario "s": give exactly one of messages, prompt or prompt_file`, ""},
	{"prompt and messages", okEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    messages: [{role: user, content: hi}]\n", "give exactly one of", ""},
	{"empty content", okEndpoint + "scenarios:\n  - name: s\n    messages: [{role: user, content: \"\"}]\n", "content is empty", ""},
	{"no messages", okEndpoint + "scenarios:\n  - name: s\n    messages: []\n", "messages is an empty list", ""},
	{"a typo in a key", okEndpoint + "scenarios:\n  - {name: s, prompt: hi, request: 5}\n", `unknown key "request" in scenarios (did you mean "requests"?)`, ""},
	{"mis-indented key", okEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    max_tokens: 128\n   requests: 50\n    concurrency: 1\n", ":7: YAML syntax", ""},
	{"tolerance 10", okEndpoint + "scenarios:\n  - {name: s, prompt: hi}\nregression: {tolerance: 10}\n", `"10" is ambiguous`, ""},
	{"rate without unit", okEndpoint + "scenarios:\n  - {name: s, prompt: hi, rate: 2}\n", `"2" has no unit`, ""},
	{"unknown metric", okEndpoint + "scenarios:\n  - {name: s, prompt: hi}\nbudgets: {ttfb: {p95: 800}}\n", `unknown metric "ttfb"`, ""},
	{"no requests", okEndpoint + "scenarios:\n  - {name: s, prompt: hi, requests: 0}\n", "requests must be at least 1", ""},
	{"a key of another api", "endpoints:\n  - {name: e, base_url: http://127.0.0.1:1/v1, model: m, deployment: d}\nscenarios:\n  - {name: s, prompt: hi}\n", "deployment", ""},
	{"no scenarios", okEndpoint, "no scenarios", ""},
	{"missing prompt file", okEndpoint + "scenarios:\n  - {name: s, prompt_file: prompts/none.txt}\n", "cannot read", "exist inside the repository"},
	{"unset key", "endpoints:\n  - {name: e, base_url: http://127.0.0.1:1/v1, model: m, api_key_env: NOT_SET_ANYWHERE}\nscenarios:\n  - {name: s, prompt: hi}\n",
		"NOT_SET_ANYWHERE (api_key_env) is not set", "that every `api_key_env` and `${VAR}` is set"},
	{"two scenarios of one name", okEndpoint + "scenarios:\n  - {name: s, prompt: hi}\n  - {name: s, prompt: again}\n", `scenario name "s" is used twice`, "two endpoints or two scenarios of the same name"},
	{"over the request cap", okEndpoint + "scenarios:\n  - {name: s, prompt: hi, requests: 50}\nlimits: {max_requests: 20}\n",
		"plans 51 requests (warmup included) but limits.max_requests is 20", "against `limits.max_requests`"},
	{"an unknown endpoint", okEndpoint + "scenarios:\n  - {name: s, prompt: hi, endpoints: [nope]}\n", `unknown endpoint "nope"`, "naming an endpoint that does not exist"},
}

// schemaCheck validates a YAML suite against the schema as an editor
// does: its YAML read as JSON (a file that is not YAML fails here).
func schemaCheck(sch *jsonschema.Schema, src []byte) error {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// TestValidateSaysWhatABWouldRefuse: a suite that run takes but latgate ab
// would refuse (both sides' requests over limits.max_requests) is valid,
// and validate says so in ab's own figures, the ones ab refuses it with;
// a cap that holds both sides draws no warning.
func TestValidateSaysWhatABWouldRefuse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "latgate.yaml")
	suite := okEndpoint + "scenarios:\n  - name: c\n    prompt: hi\n    capacity: {vary: concurrency, from: 1, to: 32, slo: {ttft: {p95: 800}}}\n"
	if err := os.WriteFile(cfg, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, nil, "validate", "-c", cfg)
	refused := "the suite plans 1830 requests (warmup included, and the most its 2 capacity searches may need) but limits.max_requests is 1000"
	if r.code != 0 || !strings.Contains(r.stdout, "a run sends up to 915 requests (warmup included), latgate ab up to 1830 (ab refuses it: see the warning)") ||
		!strings.Contains(r.stderr, "latgate: warning: latgate ab with this suite on both sides would refuse it before any request: "+refused) {
		t.Fatalf("validate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	ab := runCLI(t, nil, "ab", "-c", cfg, "--base-config", cfg, "-o", filepath.Join(dir, "ab.json"))
	if ab.code != 2 || !strings.Contains(ab.stderr, refused) {
		t.Errorf("ab: exit %d, want 2 saying %q:\n%s", ab.code, refused, ab.stderr)
	}
	if err := os.WriteFile(cfg, []byte(suite+"limits: {max_requests: 2000}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, nil, "validate", "-c", cfg); r.code != 0 || r.stderr != "" || strings.Contains(r.stdout, "refuses") {
		t.Errorf("validate with room for ab: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const ghToken = "ghs_FAKE_TOKEN_abcdef123456"

// fakeAPI is a minimal GitHub API: comments on PR 7 and one artifact.
type fakeAPI struct {
	mu       sync.Mutex
	requests []string
	comments []map[string]any
	postCode int
	zip      []byte
	srv      *httptest.Server
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{comments: []map[string]any{{"id": 1, "body": "nice PR", "user": map[string]any{"login": "alice"}}}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests = append(f.requests, r.Method+" "+r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/user":
			w.WriteHeader(403)
			fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
		case r.Method == "GET" && r.URL.Path == "/repos/o/r/issues/7/comments":
			_ = json.NewEncoder(w).Encode(f.comments)
		case r.Method == "POST" && r.URL.Path == "/repos/o/r/issues/7/comments":
			if f.postCode != 0 {
				w.WriteHeader(f.postCode)
				fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
				return
			}
			var c struct{ Body string }
			_ = json.NewDecoder(r.Body).Decode(&c)
			id := 100 + len(f.comments)
			f.comments = append(f.comments, map[string]any{"id": id, "body": c.Body, "user": map[string]any{"login": "github-actions[bot]"},
				"html_url": fmt.Sprintf("https://github.test/o/r/pull/7#issuecomment-%d", id)})
			w.WriteHeader(201)
			_ = json.NewEncoder(w).Encode(f.comments[len(f.comments)-1])
		case r.Method == "PATCH" && strings.HasPrefix(r.URL.Path, "/repos/o/r/issues/comments/"):
			var c struct{ Body string }
			_ = json.NewDecoder(r.Body).Decode(&c)
			for _, cm := range f.comments {
				if "/repos/o/r/issues/comments/"+fmt.Sprint(cm["id"]) == r.URL.Path {
					cm["body"] = c.Body
					cm["html_url"] = "https://github.test/edited"
					_ = json.NewEncoder(w).Encode(cm)
				}
			}
		case r.URL.Path == "/repos/o/r/actions/workflows/latgate.yml/runs":
			fmt.Fprint(w, `{"workflow_runs":[{"id":9,"html_url":"https://github.test/run/9"}]}`)
		case r.URL.Path == "/repos/o/r/actions/runs/9/artifacts":
			fmt.Fprint(w, `{"artifacts":[{"id":5,"name":"latgate-baseline"}]}`)
		case r.URL.Path == "/repos/o/r/actions/artifacts/5/zip":
			w.Header().Set("Location", f.srv.URL+"/blob")
			w.WriteHeader(302)
		case r.URL.Path == "/blob":
			_, _ = w.Write(f.zip)
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"Not Found"}`)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.requests
	f.requests = nil
	return r
}

// actionsEnv is what the runner gives a step on a pull_request event.
func actionsEnv(t *testing.T, dir string, api *fakeAPI) map[string]string {
	event := filepath.Join(dir, "event.json")
	_ = os.WriteFile(event, []byte(`{"pull_request":{"number":7}}`), 0o644)
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": api.srv.URL,
		"GITHUB_EVENT_PATH": event, "GITHUB_TOKEN": ghToken, "GITHUB_WORKSPACE": dir,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_WORKFLOW": "latency", "GITHUB_JOB": "gate", "GITHUB_SERVER_URL": "https://github.test", "GITHUB_RUN_ID": "42",
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/latgate.yml@refs/pull/7/merge", "GITHUB_BASE_REF": "main",
		"TEST_API_KEY": testKey, "INPUT_REPORT": filepath.Join(dir, "latgate-report.md"),
	}
}

func noSecrets(t *testing.T, where string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "::add-mask::") {
				continue
			}
			if strings.Contains(line, ghToken) || strings.Contains(line, testKey) {
				t.Errorf("a secret appears in %s: %q", where, line)
			}
		}
	}
}

func TestGateRecordThenUnchangedThenSlower(t *testing.T) {
	dir, cfg, s := simSuite(t, fastProfile(20*time.Millisecond), "")
	api := newFakeAPI(t)
	env := actionsEnv(t, dir, api)
	bl := filepath.Join(dir, "baseline.json")

	r := runCLI(t, env, "gate", "--mode", "record", "-c", cfg, "--results", bl)
	if r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "::add-mask::"+ghToken+"\n::add-mask::"+testKey+"\n") {
		t.Errorf("secrets are not masked before anything else is printed:\n%.300s", r.stdout)
	}
	if got := api.take(); len(got) != 0 {
		t.Errorf("record mode called the API: %v", got)
	}

	// Unchanged: pass, a new sticky comment.
	r = runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r1.json"), "--report", filepath.Join(dir, "r1.md"))
	if r.code != 0 {
		t.Fatalf("unchanged gate: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.Join(api.take(), ","); got != "GET /user,GET /repos/o/r/issues/7/comments,POST /repos/o/r/issues/7/comments" {
		t.Errorf("first gate requests: %s", got)
	}
	out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
	for _, want := range []string{"verdict<<", "pass", "results<<", "r1.json", "report<<", "r1.md", "regressions<<", "comment-url<<", "https://github.test/o/r/pull/7#issuecomment-"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}

	// Slower server: fail, the same comment edited, an annotation.
	s.SetProfile(fastProfile(150 * time.Millisecond))
	r2 := runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r2.json"))
	if r2.code != 1 {
		t.Fatalf("slower gate: exit %d, want 1:\n%s\n%s", r2.code, r2.stdout, r2.stderr)
	}
	if got := strings.Join(api.take(), ","); got != "GET /user,GET /repos/o/r/issues/7/comments,PATCH /repos/o/r/issues/comments/101" {
		t.Errorf("second gate requests: %s", got)
	}
	if n := len(api.comments); n != 2 {
		t.Errorf("%d comments on the PR, want 2 (alice's and one sticky)", n)
	}
	body := api.comments[1]["body"].(string)
	for _, want := range []string{`<!-- latgate:comment key="latency/gate/`, "### ❌ latgate: latency fail", "regression", "TTFT"} {
		if !strings.Contains(body, want) {
			t.Errorf("comment lacks %q:\n%s", want, body)
		}
	}
	if api.comments[0]["body"] != "nice PR" {
		t.Error("someone else's comment changed")
	}
	if !strings.Contains(r2.stdout, "::error file=latgate.yaml,line=7,title=latgate%3A chat @ local::ttft p50 regressed") {
		t.Errorf("no annotation at the scenario's line:\n%s", r2.stdout)
	}
	sum, _ := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
	if !strings.Contains(string(sum), "latency fail") {
		t.Error("the job summary lacks the report")
	}
	results, _ := os.ReadFile(filepath.Join(dir, "r2.json"))
	noSecrets(t, "gate output", r.stdout, r.stderr, r2.stdout, r2.stderr, string(out), string(sum), body, string(results))
}

func TestGateForbiddenCommentKeepsVerdict(t *testing.T) {
	dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
	api := newFakeAPI(t)
	api.postCode = 403
	env := actionsEnv(t, dir, api)
	r := runCLI(t, env, "gate", "-c", cfg, "--baseline", "none", "--results", filepath.Join(dir, "r.json"))
	if r.code != 0 {
		t.Errorf("exit %d, want 0 (no baseline, no budget: pass) even though commenting failed", r.code)
	}
	if !strings.Contains(r.stderr, "Pull requests from forks get a read-only token") || !strings.Contains(r.stdout, "::warning::") {
		t.Errorf("no clear warning about the read-only token:\n%s\n%s", r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "no baseline yet") {
		t.Errorf("a missing baseline is not reported:\n%s", r.stdout)
	}
	noSecrets(t, "output", r.stdout, r.stderr)
}

func TestGateDryRunMakesNoAPICall(t *testing.T) {
	dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
	api := newFakeAPI(t)
	env := actionsEnv(t, dir, api)
	env["INPUT_DRY-RUN"] = "true" // as an Action input, not a flag
	env["INPUT_CONFIG"] = cfg
	env["INPUT_RESULTS"] = filepath.Join(dir, "r.json")
	env["INPUT_BASELINE"] = "none"
	r := runCLI(t, env, "gate")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := api.take(); len(got) != 0 {
		t.Errorf("dry run called the API: %v", got)
	}
	if !strings.Contains(r.stdout, "PR comment (dry run, not posted)") || !strings.Contains(r.stdout, "<!-- latgate:comment") {
		t.Errorf("dry run did not print the comment:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.json")); err != nil {
		t.Error("INPUT_RESULTS was not used")
	}
}

func TestGateBaselineFromArtifact(t *testing.T) {
	dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
	api := newFakeAPI(t)
	env := actionsEnv(t, dir, api)
	bl := filepath.Join(dir, "b.json")
	if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", bl); r.code != 0 {
		t.Fatal(r.stderr)
	}
	data, _ := os.ReadFile(bl)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("latgate-results.json")
	_, _ = w.Write(data)
	_ = zw.Close()
	api.zip = zb.Bytes()
	r := runCLI(t, env, "gate", "-c", cfg, "--baseline-artifact", "latgate-baseline", "--comment=false", "--results", filepath.Join(dir, "r.json"))
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, `baseline from artifact "latgate-baseline" of https://github.test/run/9`) {
		t.Errorf("stderr: %s", r.stderr)
	}
	if strings.Contains(r.stdout, "no baseline") {
		t.Error("the artifact baseline was not used")
	}
	want := "GET /repos/o/r/actions/workflows/latgate.yml/runs,GET /repos/o/r/actions/runs/9/artifacts,GET /repos/o/r/actions/artifacts/5/zip,GET /blob"
	if got := strings.Join(api.take(), ","); got != want {
		t.Errorf("requests %s\nwant %s", got, want)
	}
}

func TestPublishOnly(t *testing.T) {
	dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
	api := newFakeAPI(t)
	res := filepath.Join(dir, "r.json")
	if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", res); r.code != 0 {
		t.Fatal(r.stderr)
	}
	env := actionsEnv(t, dir, api)
	delete(env, "TEST_API_KEY") // the workflow_run job has no model secrets
	event := filepath.Join(dir, "wr.json")
	_ = os.WriteFile(event, []byte(`{"workflow_run":{"head_sha":"abc","pull_requests":[{"number":7}]}}`), 0o644)
	env["GITHUB_EVENT_PATH"] = event
	r := runCLI(t, env, "publish", "--results", res, "--baseline", res, "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.Join(api.take(), ","); !strings.HasSuffix(got, "POST /repos/o/r/issues/7/comments") {
		t.Errorf("requests: %s", got)
	}
}

func TestGateWithoutTokenWarns(t *testing.T) {
	dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "budgets:\n  ttft: {p50: 1}\n")
	api := newFakeAPI(t)
	env := actionsEnv(t, dir, api)
	delete(env, "GITHUB_TOKEN")
	r := runCLI(t, env, "gate", "-c", cfg, "--baseline=none", "--results", filepath.Join(dir, "r.json"))
	if r.code != 1 {
		t.Errorf("exit %d, want 1: the budget is blown whether or not a comment can be posted", r.code)
	}
	if !strings.Contains(r.stderr, "no GitHub token") || len(api.take()) != 0 {
		t.Errorf("want a clear warning and no API call; stderr %q", r.stderr)
	}
}

package publish

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeGitHub is a tiny GitHub REST API that records every request.
type fakeGitHub struct {
	t        *testing.T
	mu       sync.Mutex
	requests []string
	auth     []string
	comments []map[string]any // id, body, user
	nextID   int
	failPost int // status to answer POSTs with (0 = ok)
	srv      *httptest.Server
	zip      []byte
}

func newFake(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{t: t, nextID: 100}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	// Comments already on the PR: someone else's, including a copied marker.
	f.comments = []map[string]any{
		{"id": 1, "body": "LGTM", "user": map[string]any{"login": "alice"}},
		{"id": 2, "body": "<!-- latgate:comment key=\"k\" --> I copied the marker", "user": map[string]any{"login": "mallory"}},
	}
	for i := 0; i < 120; i++ { // enough to need a second page
		f.comments = append(f.comments, map[string]any{"id": 1000 + i, "body": "chatter", "user": map[string]any{"login": "bob"}})
	}
	return f
}

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	f.requests = append(f.requests, line)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/api/v3/user":
		w.WriteHeader(403)
		fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
	case r.Method == "GET" && r.URL.Path == "/api/v3/repos/o/r/issues/7/comments":
		page := r.URL.Query().Get("page")
		lo, hi := 0, 100
		if page == "2" {
			lo, hi = 100, len(f.comments)
		} else if len(f.comments) > 100 {
			w.Header().Set("Link", fmt.Sprintf(`<%s/api/v3/repos/o/r/issues/7/comments?per_page=100&page=2>; rel="next"`, f.srv.URL))
		}
		hi = min(hi, len(f.comments))
		_ = json.NewEncoder(w).Encode(f.comments[lo:hi])
	case r.Method == "POST" && r.URL.Path == "/api/v3/repos/o/r/issues/7/comments":
		if f.failPost != 0 {
			w.WriteHeader(f.failPost)
			fmt.Fprint(w, `{"message":"Resource not accessible by integration"}`)
			return
		}
		var c struct{ Body string }
		_ = json.NewDecoder(r.Body).Decode(&c)
		f.nextID++
		nc := map[string]any{"id": f.nextID, "body": c.Body, "user": map[string]any{"login": DefaultBot},
			"html_url": fmt.Sprintf("https://github.test/o/r/pull/7#issuecomment-%d", f.nextID)}
		f.comments = append(f.comments, nc)
		w.WriteHeader(201)
		_ = json.NewEncoder(w).Encode(nc)
	case r.Method == "PATCH" && strings.HasPrefix(r.URL.Path, "/api/v3/repos/o/r/issues/comments/"):
		var c struct{ Body string }
		_ = json.NewDecoder(r.Body).Decode(&c)
		id := strings.TrimPrefix(r.URL.Path, "/api/v3/repos/o/r/issues/comments/")
		for _, cm := range f.comments {
			if fmt.Sprint(cm["id"]) == id {
				cm["body"] = c.Body
				cm["html_url"] = "https://github.test/o/r/pull/7#issuecomment-" + id
				_ = json.NewEncoder(w).Encode(cm)
				return
			}
		}
		w.WriteHeader(404)
	case r.URL.Path == "/api/v3/repos/o/r/actions/workflows/latgate.yml/runs":
		fmt.Fprint(w, `{"total_count":2,"workflow_runs":[
			{"id":10,"created_at":"2026-11-01T00:00:00Z","html_url":"https://github.test/run/10"},
			{"id":11,"created_at":"2026-11-02T00:00:00Z","html_url":"https://github.test/run/11"}]}`)
	case r.URL.Path == "/api/v3/repos/o/r/actions/runs/11/artifacts":
		fmt.Fprint(w, `{"total_count":2,"artifacts":[{"id":4,"name":"other"},{"id":5,"name":"latgate-baseline","expired":false}]}`)
	case strings.HasPrefix(r.URL.Path, "/api/v3/repos/o/r/actions/runs/") && strings.HasSuffix(r.URL.Path, "/artifacts"):
		fmt.Fprint(w, `{"total_count":0,"artifacts":[]}`)
	case r.URL.Path == "/api/v3/repos/o/r/actions/artifacts/5/zip":
		w.Header().Set("Location", f.srv.URL+"/storage/blob?sig=abc")
		w.WriteHeader(http.StatusFound)
	case r.URL.Path == "/storage/blob":
		w.Header().Set("Content-Type", "application/zip")
		_, _ = w.Write(f.zip)
	case r.URL.Path == "/api/v3/repos/o/r/commits/abc123/pulls":
		fmt.Fprint(w, `[{"number":3,"state":"closed","head":{"sha":"zzz"}},{"number":7,"state":"open","head":{"sha":"abc123"}}]`)
	default:
		w.WriteHeader(404)
		fmt.Fprint(w, `{"message":"Not Found"}`)
	}
}

func (f *fakeGitHub) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.requests
	f.requests = nil
	return r
}

func client(t *testing.T, f *fakeGitHub) *GitHub {
	g, err := NewGitHub(f.srv.Client(), f.srv.URL+"/api/v3", "ghs_token", "o/r")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func equal(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const marker = `<!-- latgate:comment key="k" -->`

func TestStickyComment(t *testing.T) {
	f := newFake(t)
	g := client(t, f)
	ctx := context.Background()
	res, err := g.UpsertComment(ctx, 7, marker, marker+"\nfirst")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !strings.HasPrefix(res.URL, "https://github.test/o/r/pull/7#issuecomment-") {
		t.Errorf("first run: %+v, want a new comment", res)
	}
	equal(t, f.take(), []string{
		"GET /api/v3/user",
		"GET /api/v3/repos/o/r/issues/7/comments?per_page=100",
		"GET /api/v3/repos/o/r/issues/7/comments?page=2&per_page=100",
		"POST /api/v3/repos/o/r/issues/7/comments",
	})
	res, err = g.UpsertComment(ctx, 7, marker, marker+"\nsecond")
	if err != nil {
		t.Fatal(err)
	}
	if res.Created {
		t.Error("second run created another comment")
	}
	equal(t, f.take(), []string{
		"GET /api/v3/repos/o/r/issues/7/comments?per_page=100",
		"GET /api/v3/repos/o/r/issues/7/comments?page=2&per_page=100",
		"PATCH /api/v3/repos/o/r/issues/comments/101",
	})
	ours := 0
	for _, c := range f.comments {
		if strings.Contains(c["body"].(string), marker) && c["user"].(map[string]any)["login"] == DefaultBot {
			ours++
			if !strings.HasSuffix(c["body"].(string), "second") {
				t.Errorf("our comment was not updated: %q", c["body"])
			}
		}
	}
	if ours != 1 {
		t.Errorf("%d latgate comments, want exactly 1", ours)
	}
	if f.comments[1]["body"] != `<!-- latgate:comment key="k" --> I copied the marker` {
		t.Error("someone else's comment with a copied marker was changed")
	}
	for _, a := range f.auth {
		if a != "Bearer ghs_token" {
			t.Errorf("Authorization %q, want the token", a)
		}
	}
}

func TestForbiddenComment(t *testing.T) {
	f := newFake(t)
	f.failPost = 403
	_, err := client(t, f).UpsertComment(context.Background(), 7, marker, "x")
	if !errors.Is(err, ErrForbidden) {
		t.Errorf("err = %v, want ErrForbidden", err)
	}
}

func zipOf(t *testing.T, name, content string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create(name)
	_, _ = io.WriteString(w, content)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestFetchArtifact(t *testing.T) {
	f := newFake(t)
	f.zip = zipOf(t, "latgate-results.json", `{"schema":"latgate/results/v1"}`)
	data, from, err := client(t, f).FetchArtifact(context.Background(), ArtifactQuery{Name: "latgate-baseline", Branch: "main", WorkflowFile: "latgate.yml"})
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"schema":"latgate/results/v1"}` || from != "https://github.test/run/11" {
		t.Errorf("got %q from %q", data, from)
	}
	equal(t, f.take(), []string{
		"GET /api/v3/repos/o/r/actions/workflows/latgate.yml/runs?branch=main&per_page=20&status=success",
		"GET /api/v3/repos/o/r/actions/runs/11/artifacts?per_page=100",
		"GET /api/v3/repos/o/r/actions/artifacts/5/zip",
		"GET /storage/blob?sig=abc",
	})
	if a := f.auth[len(f.auth)-1]; a != "" {
		t.Errorf("the token was sent to artifact storage: %q", a)
	}
	_, _, err = client(t, f).FetchArtifact(context.Background(), ArtifactQuery{Name: "nope", Branch: "main", WorkflowFile: "latgate.yml"})
	if !errors.Is(err, ErrNoArtifact) {
		t.Errorf("missing artifact: %v", err)
	}
}

func TestPullRequestForCommit(t *testing.T) {
	f := newFake(t)
	n, err := client(t, f).PullRequestForCommit(context.Background(), "abc123")
	if err != nil || n != 7 {
		t.Errorf("got %d, %v; want 7", n, err)
	}
}

func TestActionsFiles(t *testing.T) {
	dir := t.TempDir()
	out, sum := filepath.Join(dir, "out"), filepath.Join(dir, "sum")
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": out, "GITHUB_STEP_SUMMARY": sum, "INPUT_FAIL-ON": " regression ", "INPUT_DRY_RUN": "true"}
	var log bytes.Buffer
	a := NewActions(&log, func(k string) string { return env[k] })
	a.Mask("sk-secret")
	if err := a.SetOutputs([]string{"verdict", "regressions"}, map[string]string{"verdict": "fail", "regressions": "2"}); err != nil {
		t.Fatal(err)
	}
	if err := a.Summary("## hello\n"); err != nil {
		t.Fatal(err)
	}
	a.Annotate([]Annotation{{File: "latgate.yaml", Line: 9, Title: "latgate: regression", Msg: "chat TTFT p95 +27%"}})
	o, _ := os.ReadFile(out)
	s, _ := os.ReadFile(sum)
	if !strings.Contains(string(o), "verdict<<") || !strings.Contains(string(o), "fail") || !strings.Contains(string(o), "regressions<<") {
		t.Errorf("GITHUB_OUTPUT = %q", o)
	}
	if !strings.Contains(string(s), "## hello") {
		t.Errorf("summary = %q", s)
	}
	want := "::add-mask::sk-secret\n::error file=latgate.yaml,line=9,title=latgate%3A regression::chat TTFT p95 +27%25\n"
	if log.String() != want {
		t.Errorf("log = %q, want %q", log.String(), want)
	}
	if a.Input("fail-on") != "regression" || a.Input("dry-run") != "true" {
		t.Errorf("inputs: %q %q", a.Input("fail-on"), a.Input("dry-run"))
	}
	// Outside Actions: no commands, no files, no panic.
	var quiet bytes.Buffer
	b := NewActions(&quiet, func(string) string { return "" })
	b.Mask("x")
	if err := b.SetOutputs([]string{"v"}, map[string]string{"v": "1"}); err != nil || quiet.Len() != 0 {
		t.Errorf("outside Actions: err %v, printed %q", err, quiet.String())
	}
	// An unwritable output file is an error, not a panic.
	env["GITHUB_OUTPUT"] = filepath.Join(dir, "missing", "out")
	if err := a.SetOutputs([]string{"v"}, map[string]string{"v": "1"}); err == nil {
		t.Error("unwritable GITHUB_OUTPUT: no error")
	}
}

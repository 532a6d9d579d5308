package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/ghfake"
)

func client(t *testing.T, f *ghfake.Fake) *GitHub {
	t.Helper()
	g, err := NewGitHub(f.Client(), f.APIURL, f.Token, f.Repo)
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

// prWithChatter is pull request 7 with someone else's comments, including
// a copied marker, and enough of them to need a second page.
func prWithChatter(t *testing.T) *ghfake.Fake {
	f := ghfake.New(t, "o/r")
	f.Token = "ghs_token"
	f.AddPull(ghfake.Pull{Number: 7, HeadSHA: "abc123"})
	f.AddComment(7, "alice", "LGTM")
	f.AddComment(7, "mallory", marker+" I copied the marker")
	for range 120 {
		f.AddComment(7, "bob", "chatter")
	}
	return f
}

func TestStickyComment(t *testing.T) {
	t.Parallel()
	f := prWithChatter(t)
	g := client(t, f)
	ctx := context.Background()
	f.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
	res, err := g.UpsertComment(ctx, 7, marker, marker+"\nfirst")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !strings.HasPrefix(res.URL, ghfake.ServerURL+"/o/r/pull/7#issuecomment-") {
		t.Errorf("first run: %+v, want a new comment", res)
	}
	equal(t, f.Take(), []string{
		"GET /user",
		"GET /repos/o/r/issues/7/comments?per_page=100",
		"GET /repos/o/r/issues/7/comments?page=2&per_page=100",
		"POST /repos/o/r/issues/7/comments",
	})
	f.Verify()
	f.Expect(ghfake.ListComments, ghfake.UpdateComment)
	res, err = g.UpsertComment(ctx, 7, marker, marker+"\nsecond")
	if err != nil {
		t.Fatal(err)
	}
	if res.Created {
		t.Error("second run created another comment")
	}
	ours := 0
	comments := f.Comments(7)
	for _, c := range comments {
		if strings.Contains(c.Body, marker) && c.User == DefaultBot {
			ours++
			if !strings.HasSuffix(c.Body, "second") {
				t.Errorf("our comment was not updated: %q", c.Body)
			}
		}
	}
	if ours != 1 {
		t.Errorf("%d latgate comments, want exactly 1", ours)
	}
	if comments[1].Body != marker+" I copied the marker" {
		t.Error("someone else's comment with a copied marker was changed")
	}
	for _, c := range f.Calls() {
		if c.Auth != "Bearer ghs_token" {
			t.Errorf("%s: Authorization %q, want the token", c, c.Auth)
		}
	}
}

func TestForbiddenComment(t *testing.T) {
	t.Parallel()
	f := prWithChatter(t)
	f.FailWith(ghfake.CreateComment, 403)
	f.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
	_, err := client(t, f).UpsertComment(context.Background(), 7, marker, "x")
	if !errors.Is(err, ErrForbidden) {
		t.Errorf("err = %v, want ErrForbidden", err)
	}
}

// TestRateLimitIsNotForbidden: an exhausted rate limit (403 with
// X-RateLimit-Remaining: 0, or 429) says so and when it resets; it is not
// a permission problem.
func TestRateLimitIsNotForbidden(t *testing.T) {
	reset := time.Now().Add(20 * time.Minute).Truncate(time.Second)
	for _, status := range []int{403, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			f := prWithChatter(t)
			f.RateLimit(ghfake.ListComments, status, reset)
			f.Expect(ghfake.GetUser, ghfake.ListComments)
			_, err := client(t, f).UpsertComment(context.Background(), 7, marker, "x")
			want := fmt.Sprintf("listing comments: GitHub's API rate limit is exhausted (HTTP %d); it resets at %s (in ", status, reset.UTC().Format("15:04:05 UTC"))
			if !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrForbidden) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("err = %v, want ErrRateLimited saying %q", err, want)
			}
		})
	}
	if got := resetsAt(time.Time{}, time.Now()); got != "; try again later" {
		t.Errorf("unknown reset: %q", got)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	if got := resetsAt(now.Add(90*time.Second), now); got != "; it resets at 12:01:30 UTC (in 1m30s)" {
		t.Errorf("resetsAt = %q", got)
	}
}

// TestFetchHistoryForbidden: a 403 of the Actions API names the permission
// the token lacks.
func TestFetchHistoryForbidden(t *testing.T) {
	for _, op := range []ghfake.Op{ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact} {
		t.Run(string(op), func(t *testing.T) {
			f := ghfake.New(t, "o/r")
			f.AddRun(ghfake.Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
				{ID: 3, Name: "b", Zip: ghfake.Zip(ghfake.File{Name: "old.json", Body: results("2026-10-01T00:00:00Z")})}}})
			f.FailWith(op, 403)
			f.Expect(ghfake.ListWorkflowRuns)
			if op != ghfake.ListWorkflowRuns {
				f.Expect(ghfake.ListArtifacts)
			}
			if op == ghfake.DownloadArtifact {
				f.Expect(ghfake.DownloadArtifact)
			}
			_, err := client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "b", Branch: "main", WorkflowFile: "latgate.yml"})
			if !errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), "the token needs the actions: read permission") {
				t.Errorf("err = %v, want ErrForbidden naming actions: read", err)
			}
		})
	}
	f := ghfake.New(t, "o/r")
	f.Expect(ghfake.ListWorkflowRuns)
	f.FailWith(ghfake.ListWorkflowRuns, 404)
	_, err := client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "b", Branch: "main", WorkflowFile: "latgat.yml"})
	if err == nil || !strings.Contains(err.Error(), "o/r has no workflow file latgat.yml") {
		t.Errorf("unknown workflow: %v", err)
	}
}

func TestActionsFiles(t *testing.T) {
	t.Parallel()
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
	// The secret, every byte of it percent-encoded once and twice (a
	// workflow command writes % as %25), its hex, then its base64 at the
	// three alignments (nothing in it is escaped by QueryEscape or JSON).
	want := "::add-mask::sk-secret\n" +
		"::add-mask::%2573%256B%252D%2573%2565%2563%2572%2565%2574\n::add-mask::%2573%256b%252d%2573%2565%2563%2572%2565%2574\n" +
		"::add-mask::%252573%25256B%25252D%252573%252565%252563%252572%252565%252574\n::add-mask::%252573%25256b%25252d%252573%252565%252563%252572%252565%252574\n" +
		"::add-mask::736b2d736563726574\n::add-mask::736B2D736563726574\n" +
		"::add-mask::c2stc2VjcmV0\n::add-mask::NrLXNlY3Jld\n::add-mask::zay1zZWNyZX\n" +
		"::error file=latgate.yaml,line=9,title=latgate%3A regression::chat TTFT p95 +27%25\n"
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

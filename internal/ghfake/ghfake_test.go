package ghfake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"
)

// recorder is a testing.TB that keeps failures instead of failing, so the
// fake's own verdicts can be checked.
type recorder struct {
	testing.TB
	mu       sync.Mutex
	errs     []string
	cleanups []func()
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

// end runs the cleanups as the end of a test would and returns the
// failures.
func (r *recorder) end() []string {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	r.cleanups = nil
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errs
}

func newRecorded(t *testing.T) (*Fake, *recorder) {
	rec := &recorder{TB: t}
	f := New(rec, "o/r")
	t.Cleanup(func() { rec.end() })
	return f, rec
}

func client(t *testing.T, f *Fake) *github.Client {
	gh := github.NewClient(f.Client())
	u, err := url.Parse(f.APIURL + "/")
	if err != nil {
		t.Fatal(err)
	}
	gh.BaseURL = u
	if f.Token != "" {
		gh = gh.WithAuthToken(f.Token)
	}
	return gh
}

func TestExpectations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		expect []Op
		call   func(ctx context.Context, gh *github.Client)
		want   []string // failures, as substrings
	}{
		{"expected and made", []Op{ListComments},
			func(ctx context.Context, gh *github.Client) { _, _, _ = gh.Issues.ListComments(ctx, "o", "r", 7, nil) },
			nil},
		{"expected, not made", []Op{ListComments, CreateComment},
			func(ctx context.Context, gh *github.Client) { _, _, _ = gh.Issues.ListComments(ctx, "o", "r", 7, nil) },
			[]string{"expected call " + string(CreateComment) + " was not made"}},
		{"not expected", nil,
			func(ctx context.Context, gh *github.Client) { _, _, _ = gh.Users.Get(ctx, "") },
			[]string{"unexpected call GET /user"}},
		{"no such endpoint", nil,
			func(ctx context.Context, gh *github.Client) { _, _, _ = gh.Repositories.Get(ctx, "o", "r") },
			[]string{"does not serve: GET /repos/o/r"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, rec := newRecorded(t)
			f.AddPull(Pull{Number: 7, HeadSHA: "a1"})
			f.Expect(tt.expect...)
			tt.call(context.Background(), client(t, f))
			got := rec.end()
			if len(got) != len(tt.want) {
				t.Fatalf("failures %q, want %d like %q", got, len(tt.want), tt.want)
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("failure %q, want it to say %q", got[i], tt.want[i])
				}
			}
		})
	}
}

func TestVerifyStartsANewPhase(t *testing.T) {
	t.Parallel()
	f, rec := newRecorded(t)
	f.Login = "latgate-bot"
	gh := client(t, f)
	f.Expect(GetUser)
	if u, _, err := gh.Users.Get(context.Background(), ""); err != nil || u.GetLogin() != "latgate-bot" {
		t.Fatalf("GET /user: %v %v", u, err)
	}
	f.Verify()
	_, _, _ = gh.Users.Get(context.Background(), "") // no longer expected
	if got := rec.end(); len(got) != 1 || !strings.Contains(got[0], "unexpected call GET /user") {
		t.Errorf("failures %q, want one unexpected call", got)
	}
}

func TestCommentsPagingAndIdentity(t *testing.T) {
	t.Parallel()
	f := New(t, "o/r")
	f.Token = "ghs_x"
	f.AddPull(Pull{Number: 7, HeadSHA: "a1"})
	for range 120 {
		f.AddComment(7, "bob", "chatter")
	}
	mine := f.AddComment(7, Bot, "old")
	other := f.AddComment(7, "alice", "hers")
	f.Expect(ListComments, CreateComment, UpdateComment)
	gh := client(t, f)
	ctx := context.Background()
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var all []*github.IssueComment
	pages := 0
	for {
		list, resp, err := gh.Issues.ListComments(ctx, "o", "r", 7, opts)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, list...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if pages != 2 || len(all) != 122 {
		t.Errorf("%d comments in %d pages, want 122 in 2", len(all), pages)
	}
	c, _, err := gh.Issues.CreateComment(ctx, "o", "r", 7, &github.IssueComment{Body: github.String("new")})
	if err != nil || c.GetUser().GetLogin() != Bot || !strings.HasPrefix(c.GetHTMLURL(), ServerURL+"/o/r/pull/7#issuecomment-") {
		t.Errorf("created %+v, %v", c, err)
	}
	if _, _, err := gh.Issues.EditComment(ctx, "o", "r", mine, &github.IssueComment{Body: github.String("edited")}); err != nil {
		t.Error(err)
	}
	if _, resp, err := gh.Issues.EditComment(ctx, "o", "r", other, &github.IssueComment{Body: github.String("x")}); err == nil || resp.StatusCode != 403 {
		t.Errorf("editing someone else's comment: %v, want 403", err)
	}
	got := f.Comments(7)
	if got[120].Body != "edited" || got[121].Body != "hers" || got[122].Body != "new" {
		t.Errorf("comments after: %+v", got[120:])
	}
	if _, resp, err := gh.Issues.CreateComment(ctx, "o", "r", 8, &github.IssueComment{Body: github.String("x")}); err == nil || resp.StatusCode != 404 {
		t.Errorf("a comment on a pull request that does not exist: %v, want 404", err)
	}
	// A wrong token is refused.
	bad := github.NewClient(f.Client()).WithAuthToken("nope")
	bad.BaseURL = client(t, f).BaseURL
	if _, resp, err := bad.Issues.ListComments(ctx, "o", "r", 7, nil); err == nil || resp.StatusCode != 401 {
		t.Errorf("wrong token: %v, want 401", err)
	}
}

func TestForkPullRequests(t *testing.T) {
	t.Parallel()
	f := New(t, "o/r")
	f.AddPull(Pull{Number: 3, HeadSHA: "same", HeadRef: "feature"})
	f.AddPull(Pull{Number: 4, HeadSHA: "forked", HeadRef: "main", HeadRepo: f.ForkOf("alice")})
	f.AddPull(Pull{Number: 5, HeadSHA: "old", State: "closed"})
	f.Expect(CommitPulls, ListPulls)
	gh := client(t, f)
	ctx := context.Background()
	numbers := func(prs []*github.PullRequest) []int {
		var n []int
		for _, p := range prs {
			n = append(n, p.GetNumber())
		}
		return n
	}
	tests := []struct {
		sha     string
		want    []int
		wantErr int
	}{
		{"same", []int{3}, 0},
		{"forked", nil, 0}, // the commit lives only in the fork
		{"unknown", nil, 422},
	}
	for _, tt := range tests {
		prs, resp, err := gh.PullRequests.ListPullRequestsWithCommit(ctx, "o", "r", tt.sha, nil)
		if tt.wantErr != 0 {
			if err == nil || resp.StatusCode != tt.wantErr {
				t.Errorf("commits/%s/pulls: %v, want HTTP %d", tt.sha, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(numbers(prs), tt.want) {
			t.Errorf("commits/%s/pulls = %v, %v; want %v", tt.sha, numbers(prs), err, tt.want)
		}
	}
	prs, _, err := gh.PullRequests.List(ctx, "o", "r", &github.PullRequestListOptions{Head: "alice:main"})
	if err != nil || !slices.Equal(numbers(prs), []int{4}) || prs[0].GetHead().GetRepo().GetFullName() != "alice/r" || !prs[0].GetHead().GetRepo().GetFork() {
		t.Errorf("pulls?head=alice:main = %v, %v", numbers(prs), err)
	}
	prs, _, err = gh.PullRequests.List(ctx, "o", "r", nil)
	if err != nil || !slices.Equal(numbers(prs), []int{4, 3}) {
		t.Errorf("open pulls = %v, %v; want [4 3] (newest first, no closed one)", numbers(prs), err)
	}
}

func TestArtifactDownload(t *testing.T) {
	t.Parallel()
	f := New(t, "o/r")
	f.Token = "ghs_x"
	zb := Zip(File{"a.json", `{"a":1}`})
	f.AddRun(Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Artifacts: []Artifact{{ID: 5, Name: "latgate-baseline", Zip: zb}}})
	f.AddRun(Run{ID: 8, Workflow: "other.yml", Branch: "main"})
	f.Expect(ListWorkflowRuns, ListArtifacts, DownloadArtifact, Storage)
	gh := client(t, f)
	ctx := context.Background()
	runs, _, err := gh.Actions.ListWorkflowRunsByFileName(ctx, "o", "r", "latgate.yml", &github.ListWorkflowRunsOptions{Branch: "main", Status: "success"})
	if err != nil || runs.GetTotalCount() != 1 || runs.WorkflowRuns[0].GetID() != 9 || runs.WorkflowRuns[0].GetHTMLURL() != f.RunURL(9) {
		t.Fatalf("runs: %+v %v", runs, err)
	}
	arts, _, err := gh.Actions.ListWorkflowRunArtifacts(ctx, "o", "r", 9, nil)
	if err != nil || len(arts.Artifacts) != 1 || arts.Artifacts[0].GetName() != "latgate-baseline" {
		t.Fatalf("artifacts: %+v %v", arts, err)
	}
	u, _, err := gh.Actions.DownloadArtifact(ctx, "o", "r", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(u.String(), f.URL) {
		t.Errorf("storage %s is on the API server", u)
	}
	resp, err := f.Client().Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != string(zb) {
		t.Errorf("storage: HTTP %d, %d bytes", resp.StatusCode, len(body))
	}
}

func TestTokenSentToStorageFails(t *testing.T) {
	t.Parallel()
	f, rec := newRecorded(t)
	f.AddRun(Run{ID: 9, Workflow: "latgate.yml", Artifacts: []Artifact{{ID: 5, Name: "b", Zip: Zip()}}})
	f.Expect(DownloadArtifact, Storage)
	u, _, err := client(t, f).Actions.DownloadArtifact(context.Background(), "o", "r", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", u.String(), nil)
	req.Header.Set("Authorization", "Bearer ghs_x")
	resp, err := f.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := rec.end()
	if len(got) != 1 || !strings.Contains(got[0], "Authorization header was sent to artifact storage") || strings.Contains(got[0], "ghs_x") {
		t.Errorf("failures %q, want one about the token (without the token)", got)
	}
}

func TestFailWith(t *testing.T) {
	t.Parallel()
	f := New(t, "o/r")
	f.AddPull(Pull{Number: 7})
	f.FailWith(CreateComment, 403)
	f.Expect(CreateComment)
	_, resp, err := client(t, f).Issues.CreateComment(context.Background(), "o", "r", 7, &github.IssueComment{Body: github.String("x")})
	var ge *github.ErrorResponse
	if resp == nil || resp.StatusCode != 403 || !errors.As(err, &ge) || ge.Message != "Resource not accessible by integration" {
		t.Errorf("err = %v, want 403 Resource not accessible by integration", err)
	}
	if len(f.Comments(7)) != 0 {
		t.Error("a refused comment was stored")
	}
}

// A run names its repository and the repository of its head: a fork's
// pull_request run has the fork's, and the event filter is applied.
func TestRunsNameTheirRepositories(t *testing.T) {
	f := New(t, "o/r")
	f.AddRun(Run{ID: 9, Workflow: "latgate.yml", Branch: "main"})
	f.AddRun(Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Event: "pull_request", HeadRepo: f.ForkOf("mallory")})
	f.Expect(ListWorkflowRuns)
	gh := client(t, f)
	runs, _, err := gh.Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", "latgate.yml", &github.ListWorkflowRunsOptions{Branch: "main"})
	if err != nil || len(runs.WorkflowRuns) != 2 {
		t.Fatalf("runs: %+v %v", runs, err)
	}
	got := map[int64]string{}
	for _, r := range runs.WorkflowRuns {
		if r.GetRepository().GetFullName() != "o/r" {
			t.Errorf("run %d: repository %q", r.GetID(), r.GetRepository().GetFullName())
		}
		got[r.GetID()] = r.GetEvent() + " " + r.GetHeadRepository().GetFullName()
	}
	if got[9] != "push o/r" || got[10] != "pull_request mallory/r" {
		t.Errorf("runs: %v", got)
	}
	runs, _, err = gh.Actions.ListWorkflowRunsByFileName(context.Background(), "o", "r", "latgate.yml", &github.ListWorkflowRunsOptions{Branch: "main", Event: "push"})
	if err != nil || len(runs.WorkflowRuns) != 1 || runs.WorkflowRuns[0].GetID() != 9 {
		t.Errorf("event=push: %+v %v", runs, err)
	}
}

func TestRateLimit(t *testing.T) {
	reset := time.Now().Add(10 * time.Minute).Truncate(time.Second)
	for _, status := range []int{403, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			f := New(t, "o/r")
			f.AddPull(Pull{Number: 7})
			f.RateLimit(ListComments, status, reset)
			f.Expect(ListComments)
			_, resp, err := client(t, f).Issues.ListComments(context.Background(), "o", "r", 7, nil)
			if resp == nil || resp.StatusCode != status || resp.Header.Get("X-RateLimit-Remaining") != "0" ||
				resp.Header.Get("X-RateLimit-Reset") != fmt.Sprint(reset.Unix()) {
				t.Fatalf("resp %+v, %v", resp, err)
			}
			var rl *github.RateLimitError
			if status == 403 && (!errors.As(err, &rl) || !rl.Rate.Reset.Time.Equal(reset)) {
				t.Errorf("403: err = %#v, want go-github's RateLimitError resetting at %v", err, reset)
			}
			if ra := resp.Header.Get("Retry-After"); status == 429 && ra == "" {
				t.Error("429 without Retry-After")
			}
		})
	}
}

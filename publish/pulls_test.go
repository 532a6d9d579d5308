package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/latgate/latgate/internal/ghfake"
)

// repoWithForks has pull requests from the repository and from forks,
// a closed one, and 150 unrelated open ones (two pages of 100).
func repoWithForks(t *testing.T) *ghfake.Fake {
	f := ghfake.New(t, "o/r")
	f.AddPull(ghfake.Pull{Number: 3, HeadSHA: "5a3e", HeadRef: "feature"})
	f.AddPull(ghfake.Pull{Number: 4, HeadSHA: "f04c", HeadRef: "main", HeadRepo: f.ForkOf("alice")})
	f.AddPull(ghfake.Pull{Number: 5, HeadSHA: "f05c", HeadRef: "fix", HeadRepo: f.ForkOf("bob")})
	f.AddPull(ghfake.Pull{Number: 6, HeadSHA: "c06e", HeadRef: "gone", State: "closed"})
	f.AddPull(ghfake.Pull{Number: 8, HeadSHA: "d0b1e", HeadRef: "twice", BaseRef: "main"})
	f.AddPull(ghfake.Pull{Number: 9, HeadSHA: "d0b1e", HeadRef: "twice", BaseRef: "release"})
	for i := range 150 {
		f.AddPull(ghfake.Pull{Number: 100 + i, HeadSHA: fmt.Sprintf("%x", 0xa000+i)})
	}
	return f
}

func TestFindPullRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		head     Head
		want     int
		wantHead string // HeadSHA of the result
		err      string
		calls    []string
	}{
		{name: "by head commit: scans every open pull request", head: Head{SHA: "5a3e"}, want: 3, wantHead: "5a3e",
			calls: []string{"GET /repos/o/r/pulls?per_page=100&state=open", "GET /repos/o/r/pulls?page=2&per_page=100&state=open"}},
		{name: "a fork's, by head commit alone: not found", head: Head{SHA: "f04c"}, err: "no open pull request from a branch of o/r has head commit f04c"},
		{name: "fork, by repository and branch", head: Head{SHA: "f04c", Repo: "alice/r", Branch: "main"}, want: 4, wantHead: "f04c",
			calls: []string{"GET /repos/o/r/pulls?head=alice%3Amain&per_page=100&state=open"}},
		{name: "same repository", head: Head{SHA: "5a3e", Repo: "o/r", Branch: "feature"}, want: 3, wantHead: "5a3e",
			calls: []string{"GET /repos/o/r/pulls?head=o%3Afeature&per_page=100&state=open"}},
		{name: "the branch moved on: still its pull request", head: Head{SHA: "0ld", Repo: "bob/r", Branch: "fix"}, want: 5, wantHead: "f05c",
			calls: []string{"GET /repos/o/r/pulls?head=bob%3Afix&per_page=100&state=open"}},
		{name: "closed: no pull request, not another one", head: Head{SHA: "c06e"}, err: "no open pull request from a branch of o/r has head commit c06e"},
		{name: "unknown branch and commit", head: Head{SHA: "beef", Repo: "carol/r", Branch: "x"}, err: "no open pull request from branch x of carol/r",
			calls: []string{"GET /repos/o/r/pulls?head=carol%3Ax&per_page=100&state=open"}},
		{name: "another repository's branch, a pull request's commit: not that pull request", head: Head{SHA: "f04c", Repo: "mallory/r", Branch: "main"},
			err: "no open pull request from branch main of mallory/r", calls: []string{"GET /repos/o/r/pulls?head=mallory%3Amain&per_page=100&state=open"}},
		{name: "this repository's branch, a fork's commit", head: Head{SHA: "f05c", Repo: "o/r", Branch: "fix"},
			err: "no open pull request from branch fix of o/r", calls: []string{"GET /repos/o/r/pulls?head=o%3Afix&per_page=100&state=open"}},
		{name: "unknown branch, no commit", head: Head{Repo: "carol/r", Branch: "x"}, err: "no open pull request from branch x of carol/r",
			calls: []string{"GET /repos/o/r/pulls?head=carol%3Ax&per_page=100&state=open"}},
		{name: "one head, two pull requests", head: Head{SHA: "d0b1e"}, err: "open pull requests #9, #8 all have head commit d0b1e"},
		{name: "one branch, two pull requests", head: Head{SHA: "d0b1e", Repo: "o/r", Branch: "twice"}, err: "#9, #8 all have branch twice of o/r"},
		{name: "nothing to look for", head: Head{}, err: "no head commit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := repoWithForks(t)
			if tt.head != (Head{}) {
				f.Expect(ghfake.ListPulls) // and nothing else: no commits/{sha}/pulls, no comment
			}
			got, err := client(t, f).FindPullRequest(context.Background(), tt.head)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got #%d, %v; want an error saying %q", got.Number, err, tt.err)
				}
				if strings.HasPrefix(tt.err, "no open") && !errors.Is(err, ErrNoPullRequest) {
					t.Errorf("err = %v, want ErrNoPullRequest", err)
				}
				if got.Number != 0 {
					t.Errorf("an error with pull request #%d", got.Number)
				}
			} else if err != nil || got.Number != tt.want || got.HeadSHA != tt.wantHead {
				t.Fatalf("got #%d (head %s), %v; want #%d (head %s)", got.Number, got.HeadSHA, err, tt.want, tt.wantHead)
			}
			if tt.calls != nil {
				equal(t, f.Take(), tt.calls)
			}
		})
	}
}

// The fork-safe split's publish job: the fork's pull request gets the
// comment; the other open pull request is never touched.
func TestForkPullRequestGetsTheComment(t *testing.T) {
	t.Parallel()
	f := repoWithForks(t)
	f.AddComment(3, "alice", "unrelated")
	g := client(t, f)
	ctx := context.Background()
	f.Expect(ghfake.ListPulls, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
	pr, err := g.FindPullRequest(ctx, Head{SHA: "f04c", Repo: "alice/r", Branch: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.UpsertComment(ctx, pr.Number, marker, marker+" results"); err != nil {
		t.Fatal(err)
	}
	if c := f.Comments(4); len(c) != 1 || c[0].Body != marker+" results" {
		t.Errorf("comments on the fork's pull request: %+v", c)
	}
	if c := f.Comments(3); len(c) != 1 {
		t.Errorf("another pull request was commented on: %+v", c)
	}
}

func TestResolvePullRequest(t *testing.T) {
	t.Parallel()
	prCtx := &Context{PullRequest: 7, BaseSHA: "ba5e", Head: Head{SHA: "f07c", Repo: "o/r", Branch: "x"}}
	forkRun := &Context{Head: Head{SHA: "f04c", Repo: "alice/r", Branch: "main"}}
	tests := []struct {
		name    string
		c       *Context
		number  int
		headSHA string
		want    int
		calls   []string // nil: no API call
		err     string
	}{
		{name: "pr input", c: forkRun, number: 12, want: 12},
		{name: "pull_request event", c: prCtx, want: 7},
		{name: "pull_request event, its own head", c: prCtx, headSHA: "f07c", want: 7},
		{name: "workflow_run of a fork", c: forkRun, want: 4, calls: []string{"GET /repos/o/r/pulls?head=alice%3Amain&per_page=100&state=open"}},
		{name: "workflow_run and head-sha", c: forkRun, headSHA: "f04c", want: 4, calls: []string{"GET /repos/o/r/pulls?head=alice%3Amain&per_page=100&state=open"}},
		{name: "head-sha of another commit", c: prCtx, headSHA: "5a3e", want: 3,
			calls: []string{"GET /repos/o/r/pulls?per_page=100&state=open", "GET /repos/o/r/pulls?page=2&per_page=100&state=open"}},
		{name: "head-sha of a fork's commit", c: prCtx, headSHA: "f05c", err: "no open pull request from a branch of o/r has head commit f05c",
			calls: []string{"GET /repos/o/r/pulls?per_page=100&state=open", "GET /repos/o/r/pulls?page=2&per_page=100&state=open"}},
		{name: "workflow_run of a branch without a pull request", c: &Context{Head: Head{SHA: "5a3e", Repo: "mallory/r", Branch: "feature"}},
			err: "no open pull request from branch feature of mallory/r", calls: []string{"GET /repos/o/r/pulls?head=mallory%3Afeature&per_page=100&state=open"}},
		{name: "head-sha outside Actions", c: nil, headSHA: "5a3e", want: 3,
			calls: []string{"GET /repos/o/r/pulls?per_page=100&state=open", "GET /repos/o/r/pulls?page=2&per_page=100&state=open"}},
		{name: "push event", c: &Context{}, err: "not a pull request"},
		// A deleted fork's run: head_repository null, the commit of the
		// repository's own pull request #3 (anyone can push it to a fork).
		{name: "workflow_run with no head repository: not matched by commit", c: &Context{TriggerRunID: 99, Head: Head{SHA: "5a3e", Branch: "feature"}},
			err: "head repository is unknown"},
		{name: "workflow_run with no head repository and head-sha", c: &Context{TriggerRunID: 99, Head: Head{SHA: "5a3e"}}, headSHA: "5a3e",
			err: "head repository is unknown"},
		{name: "workflow_run with no head repository, pr given", c: &Context{TriggerRunID: 99, Head: Head{SHA: "5a3e"}}, number: 3, want: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := repoWithForks(t)
			if tt.calls != nil {
				f.Expect(ghfake.ListPulls)
			}
			got, err := client(t, f).ResolvePullRequest(context.Background(), tt.c, tt.number, tt.headSHA)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("got #%d, %v; want an error saying %q", got.Number, err, tt.err)
				}
				equal(t, f.Take(), tt.calls)
				return
			}
			if err != nil || got.Number != tt.want {
				t.Errorf("got #%d, %v; want #%d", got.Number, err, tt.want)
			}
			equal(t, f.Take(), tt.calls)
		})
	}
}

package publish

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/go-github/v62/github"
)

// ErrNoPullRequest means no open pull request has the head looked for: it
// was closed or merged, or its branch was pushed over. Nothing is
// commented then.
var ErrNoPullRequest = errors.New("no open pull request")

// MaxPullPages bounds the scan of open pull requests (100 a page).
const MaxPullPages = 30

// Head is the head of a pull request: its commit and, when known, the
// repository ("owner/name", a fork's for a fork pull request) and branch it
// lives in. A workflow_run event gives all three.
type Head struct {
	SHA    string
	Repo   string
	Branch string
}

// PullRequest is an open pull request of the repository.
type PullRequest struct {
	Number     int
	URL        string
	HeadSHA    string
	HeadRepo   string // "" when the fork was deleted
	HeadBranch string
	BaseRef    string
	BaseSHA    string
}

func pullOf(p *github.PullRequest) PullRequest {
	return PullRequest{
		Number: p.GetNumber(), URL: p.GetHTMLURL(),
		HeadSHA: p.GetHead().GetSHA(), HeadRepo: p.GetHead().GetRepo().GetFullName(), HeadBranch: p.GetHead().GetRef(),
		BaseRef: p.GetBase().GetRef(), BaseSHA: p.GetBase().GetSHA(),
	}
}

// FindPullRequest finds the one open pull request with head h, for a
// workflow_run job that publishes a pull request's results (such runs carry
// no pull request for forks, and GitHub's commits/{sha}/pulls knows nothing
// of a commit that lives only in a fork).
//
// With h.Repo and h.Branch it lists the open pull requests from that branch
// (head=owner:branch) and keeps those from that repository; among several
// (one branch into two base branches) the one whose head is h.SHA. When the
// branch has moved on since h.SHA, the pull request of the branch is still
// the one returned; PullRequest.HeadSHA then differs from h.SHA. Only the
// head commit (no repository and branch) finds a pull request from a
// branch of this repository: anyone can push any commit to a fork, so a
// commit alone never names a fork's pull request.
//
// It never falls back to another pull request: no match is
// ErrNoPullRequest, and several equally good matches are an error.
func (g *GitHub) FindPullRequest(ctx context.Context, h Head) (PullRequest, error) {
	if h.Repo != "" && h.Branch != "" {
		return g.pullFromBranch(ctx, h)
	}
	if h.SHA == "" {
		return PullRequest{}, errors.New("finding the pull request: no head commit, and no head repository and branch")
	}
	own := g.owner + "/" + g.repo
	list, err := g.openPulls(ctx, "", func(p *github.PullRequest) bool {
		return p.GetHead().GetSHA() == h.SHA && strings.EqualFold(p.GetHead().GetRepo().GetFullName(), own)
	})
	if err != nil {
		return PullRequest{}, err
	}
	switch len(list) {
	case 0:
		return PullRequest{}, fmt.Errorf("%w from a branch of %s has head commit %s (closed or merged, or pushed over since; "+
			"a fork's pull request is found by its head repository and branch, or give pr)", ErrNoPullRequest, own, ShortSHA(h.SHA))
	case 1:
		return list[0], nil
	}
	return PullRequest{}, ambiguous(list, "head commit "+ShortSHA(h.SHA))
}

// pullFromBranch finds the open pull request from branch h.Branch of
// repository h.Repo.
func (g *GitHub) pullFromBranch(ctx context.Context, h Head) (PullRequest, error) {
	owner, _, _ := strings.Cut(h.Repo, "/")
	list, err := g.openPulls(ctx, owner+":"+h.Branch, func(p *github.PullRequest) bool {
		return strings.EqualFold(p.GetHead().GetRepo().GetFullName(), h.Repo) && p.GetHead().GetRef() == h.Branch
	})
	if err != nil {
		return PullRequest{}, err
	}
	if len(list) > 1 && h.SHA != "" {
		var same []PullRequest
		for _, p := range list {
			if p.HeadSHA == h.SHA {
				same = append(same, p)
			}
		}
		list = same
	}
	switch len(list) {
	case 0:
		return PullRequest{}, fmt.Errorf("%w from branch %s of %s (closed or merged since, or never opened)", ErrNoPullRequest, h.Branch, h.Repo)
	case 1:
		return list[0], nil
	}
	return PullRequest{}, ambiguous(list, fmt.Sprintf("branch %s of %s", h.Branch, h.Repo))
}

// openPulls lists the open pull requests (head = "owner:branch" filter, or
// "" for all) and keeps those match accepts.
func (g *GitHub) openPulls(ctx context.Context, head string, match func(*github.PullRequest) bool) ([]PullRequest, error) {
	opts := &github.PullRequestListOptions{State: "open", Head: head, ListOptions: github.ListOptions{PerPage: 100}}
	var out []PullRequest
	for pages := 1; ; pages++ {
		list, resp, err := g.gh.PullRequests.List(ctx, g.owner, g.repo, opts)
		if err != nil {
			return nil, classify(err, resp, "listing open pull requests")
		}
		for _, p := range list {
			if p.GetState() == "open" && match(p) {
				out = append(out, pullOf(p))
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		if pages == MaxPullPages {
			return nil, fmt.Errorf("finding the pull request: more than %d open pull requests; give its number (pr)", MaxPullPages*100)
		}
		opts.Page = resp.NextPage
	}
}

func ambiguous(list []PullRequest, what string) error {
	var n []string
	for _, p := range list {
		n = append(n, fmt.Sprintf("#%d", p.Number))
	}
	return fmt.Errorf("finding the pull request: open pull requests %s all have %s; give the number (pr)", strings.Join(n, ", "), what)
}

// ShortSHA is a commit as a message in the log names it: 12 characters,
// which git resolves in any repository (a report shows 7, as GitHub does,
// beside a link to the whole).
func ShortSHA(sha string) string { return sha[:min(12, len(sha))] }

// ResolvePullRequest returns the pull request to comment on, in this
// order: number when it is > 0 (the pr input); the event's own pull
// request (c.PullRequest), unless headSHA names another commit; else the
// one FindPullRequest finds for headSHA (the head-sha input) or the event's
// head commit, with the event's head repository and branch when they
// belong to that commit. It calls the API only in the last case; c may be
// nil outside Actions. A workflow_run whose head repository is unknown is
// matched to no pull request (ErrNoPullRequest) unless number is given.
func (g *GitHub) ResolvePullRequest(ctx context.Context, c *Context, number int, headSHA string) (PullRequest, error) {
	if number > 0 {
		return PullRequest{Number: number}, nil
	}
	if c == nil {
		c = &Context{}
	}
	if c.PullRequest > 0 && (headSHA == "" || headSHA == c.Head.SHA) {
		return PullRequest{Number: c.PullRequest, HeadSHA: c.Head.SHA, HeadRepo: c.Head.Repo, HeadBranch: c.Head.Branch, BaseSHA: c.BaseSHA}, nil
	}
	if c.TriggerRunID != 0 && c.Head.Repo == "" {
		// The run's head repository is unknown (a fork deleted while its
		// run was in progress gives head_repository null): its commit may
		// be anyone's, and a commit alone would find this repository's
		// pull request on the same commit.
		return PullRequest{}, fmt.Errorf("%w: the triggering run's head repository is unknown (a deleted fork?), so its results are matched to no pull request by commit alone; give pr", ErrNoPullRequest)
	}
	head := c.Head
	if headSHA != "" && headSHA != head.SHA {
		head = Head{SHA: headSHA}
	}
	if head.SHA == "" {
		return PullRequest{}, errors.New("not a pull request: no pull request in the event (give pr or head-sha)")
	}
	return g.FindPullRequest(ctx, head)
}

package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
)

// ErrForbidden means the token may not do this (a fork's read-only token,
// or missing permissions such as pull-requests: write).
var ErrForbidden = errors.New("forbidden")

// ErrRateLimited means the token has used up GitHub's API rate limit (403
// with X-RateLimit-Remaining: 0, or 429): a matter of waiting, not of
// permissions.
var ErrRateLimited = errors.New("GitHub's API rate limit is exhausted")

// ErrNoArtifact means no successful run on the branch has the artifact.
var ErrNoArtifact = errors.New("no baseline artifact found")

// DefaultBot is the author of comments made with the workflow's GITHUB_TOKEN.
const DefaultBot = "github-actions[bot]"

// MaxArtifactBytes bounds an artifact download and its unzipped results.
const MaxArtifactBytes = 256 << 20

// GitHub talks to the REST API of github.com or a GitHub Enterprise Server.
type GitHub struct {
	gh          *github.Client
	http        *http.Client
	owner, repo string
	// Identity is the login whose comments may be edited; found with
	// GET /user, or DefaultBot when the token cannot read its user.
	Identity string
}

// NewGitHub returns a client for repository "owner/name" at apiURL (the
// value of GITHUB_API_URL, e.g. https://api.github.com or
// https://ghe.example.com/api/v3).
func NewGitHub(client *http.Client, apiURL, token, repository string) (*GitHub, error) {
	owner, repo, ok := strings.Cut(repository, "/")
	if !ok || owner == "" || repo == "" {
		return nil, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name", repository)
	}
	if apiURL == "" {
		apiURL = "https://api.github.com"
	}
	base, err := url.Parse(strings.TrimRight(apiURL, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("GITHUB_API_URL %q: %v", apiURL, err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	gh := github.NewClient(client)
	if token != "" {
		gh = gh.WithAuthToken(token)
	}
	gh.BaseURL = base
	return &GitHub{gh: gh, http: client, owner: owner, repo: repo}, nil
}

func classify(err error, resp *github.Response, doing string) error {
	if err == nil {
		return nil
	}
	if status, reset, ok := rateLimited(err, resp); ok {
		return fmt.Errorf("%s: %w (HTTP %d)%s", doing, ErrRateLimited, status, resetsAt(reset, time.Now()))
	}
	if resp != nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized) {
		return fmt.Errorf("%s: %w (HTTP %d)", doing, ErrForbidden, resp.StatusCode)
	}
	var ge *github.ErrorResponse
	if errors.As(err, &ge) {
		return fmt.Errorf("%s: HTTP %d: %s", doing, ge.Response.StatusCode, ge.Message)
	}
	return fmt.Errorf("%s: %v", doing, err)
}

// rateLimited reports whether err is GitHub's rate limit, with the status
// and when it resets (zero when GitHub did not say). go-github answers a
// known exhausted limit itself, without a request, as a 403.
func rateLimited(err error, resp *github.Response) (int, time.Time, bool) {
	var rl *github.RateLimitError
	if errors.As(err, &rl) {
		return rl.Response.StatusCode, rl.Rate.Reset.Time, true
	}
	var ab *github.AbuseRateLimitError
	if errors.As(err, &ab) {
		var reset time.Time
		if ab.RetryAfter != nil {
			reset = time.Now().Add(*ab.RetryAfter)
		}
		return ab.Response.StatusCode, reset, true
	}
	if resp == nil || resp.Response == nil {
		return 0, time.Time{}, false
	}
	h := resp.Header
	if resp.StatusCode != http.StatusTooManyRequests && (resp.StatusCode != http.StatusForbidden || h.Get("X-RateLimit-Remaining") != "0") {
		return 0, time.Time{}, false
	}
	var reset time.Time
	if secs, err := strconv.ParseInt(h.Get("Retry-After"), 10, 64); err == nil {
		reset = time.Now().Add(time.Duration(secs) * time.Second)
	} else if unix, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		reset = time.Unix(unix, 0)
	}
	return resp.StatusCode, reset, true
}

// resetsAt says when a rate limit resets.
func resetsAt(reset, now time.Time) string {
	if reset.IsZero() {
		return "; try again later"
	}
	in := max(0, reset.Sub(now)).Round(time.Second)
	return fmt.Sprintf("; it resets at %s (in %s)", reset.UTC().Format("15:04:05 UTC"), in)
}

// identity resolves whose comments are ours.
func (g *GitHub) identity(ctx context.Context) string {
	if g.Identity != "" {
		return g.Identity
	}
	g.Identity = DefaultBot
	if u, _, err := g.gh.Users.Get(ctx, ""); err == nil && u.GetLogin() != "" {
		g.Identity = u.GetLogin()
	}
	return g.Identity
}

// CommentResult says what UpsertComment did.
type CommentResult struct {
	URL     string
	Created bool
}

// UpsertComment finds the comment on pull request pr that contains marker
// and was written by this token's identity (listing comments page by page),
// and edits it; if there is none, it creates one. Other comments are never
// touched.
func (g *GitHub) UpsertComment(ctx context.Context, pr int, marker, body string) (CommentResult, error) {
	me := g.identity(ctx)
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	var found *github.IssueComment
	for {
		list, resp, err := g.gh.Issues.ListComments(ctx, g.owner, g.repo, pr, opts)
		if err != nil {
			return CommentResult{}, classify(err, resp, "listing comments")
		}
		for _, c := range list {
			if strings.Contains(c.GetBody(), marker) && strings.EqualFold(c.GetUser().GetLogin(), me) {
				found = c
			}
		}
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if found != nil {
		c, resp, err := g.gh.Issues.EditComment(ctx, g.owner, g.repo, found.GetID(), &github.IssueComment{Body: github.String(body)})
		if err != nil {
			return CommentResult{}, classify(err, resp, "updating the comment")
		}
		return CommentResult{URL: c.GetHTMLURL()}, nil
	}
	c, resp, err := g.gh.Issues.CreateComment(ctx, g.owner, g.repo, pr, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return CommentResult{}, classify(err, resp, "creating the comment")
	}
	return CommentResult{URL: c.GetHTMLURL(), Created: true}, nil
}

// ArtifactQuery says where to look for a baseline artifact.
type ArtifactQuery struct {
	Name         string // artifact name
	Branch       string // base branch, e.g. main
	WorkflowFile string // e.g. latgate.yml; "" = any workflow
	MaxRuns      int    // successful runs to look through (default 20)
}

package publish

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/google/go-github/v62/github"
)

// ErrForbidden means the token may not do this (a fork's read-only token,
// or missing permissions such as pull-requests: write).
var ErrForbidden = errors.New("forbidden")

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
	if resp != nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized) {
		return fmt.Errorf("%s: %w (HTTP %d)", doing, ErrForbidden, resp.StatusCode)
	}
	var ge *github.ErrorResponse
	if errors.As(err, &ge) {
		return fmt.Errorf("%s: HTTP %d: %s", doing, ge.Response.StatusCode, ge.Message)
	}
	return fmt.Errorf("%s: %v", doing, err)
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

// PullRequestForCommit finds the open pull request whose head is sha (what
// a workflow_run job needs, since fork runs carry no pull_requests list).
func (g *GitHub) PullRequestForCommit(ctx context.Context, sha string) (int, error) {
	prs, resp, err := g.gh.PullRequests.ListPullRequestsWithCommit(ctx, g.owner, g.repo, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return 0, classify(err, resp, "finding the pull request of "+sha)
	}
	for _, p := range prs {
		if p.GetHead().GetSHA() == sha && p.GetState() == "open" {
			return p.GetNumber(), nil
		}
	}
	for _, p := range prs {
		if p.GetState() == "open" {
			return p.GetNumber(), nil
		}
	}
	return 0, fmt.Errorf("no open pull request has commit %s", sha)
}

// ArtifactQuery says where to look for a baseline artifact.
type ArtifactQuery struct {
	Name         string // artifact name
	Branch       string // base branch, e.g. main
	WorkflowFile string // e.g. latgate.yml; "" = any workflow
	MaxRuns      int    // successful runs to look through (default 20)
}

// FetchArtifact downloads the newest artifact named q.Name from a
// successful run on q.Branch and returns the results JSON inside it and
// the run's URL.
func (g *GitHub) FetchArtifact(ctx context.Context, q ArtifactQuery) ([]byte, string, error) {
	if q.MaxRuns <= 0 {
		q.MaxRuns = 20
	}
	opts := &github.ListWorkflowRunsOptions{Branch: q.Branch, Status: "success", ListOptions: github.ListOptions{PerPage: q.MaxRuns}}
	var runs *github.WorkflowRuns
	var resp *github.Response
	var err error
	if q.WorkflowFile != "" {
		runs, resp, err = g.gh.Actions.ListWorkflowRunsByFileName(ctx, g.owner, g.repo, q.WorkflowFile, opts)
	} else {
		runs, resp, err = g.gh.Actions.ListRepositoryWorkflowRuns(ctx, g.owner, g.repo, opts)
	}
	if err != nil {
		return nil, "", classify(err, resp, "listing workflow runs")
	}
	list := runs.WorkflowRuns
	sort.SliceStable(list, func(i, j int) bool { return list[i].GetCreatedAt().After(list[j].GetCreatedAt().Time) })
	for _, run := range list {
		arts, resp, err := g.gh.Actions.ListWorkflowRunArtifacts(ctx, g.owner, g.repo, run.GetID(), &github.ListOptions{PerPage: 100})
		if err != nil {
			return nil, "", classify(err, resp, "listing artifacts")
		}
		for _, a := range arts.Artifacts {
			if a.GetName() != q.Name || a.GetExpired() {
				continue
			}
			data, err := g.download(ctx, a.GetID())
			if err != nil {
				return nil, "", err
			}
			return data, run.GetHTMLURL(), nil
		}
	}
	return nil, "", fmt.Errorf("%w: no successful run on %q has an artifact named %q (record one with mode: record on pushes to %s)", ErrNoArtifact, q.Branch, q.Name, q.Branch)
}

func (g *GitHub) download(ctx context.Context, id int64) ([]byte, error) {
	u, resp, err := g.gh.Actions.DownloadArtifact(ctx, g.owner, g.repo, id, 0)
	if err != nil {
		return nil, classify(err, resp, "downloading the artifact")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	// The storage URL is pre-signed: no token is sent to it.
	r, err := g.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %v", err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading the artifact: HTTP %d", r.StatusCode)
	}
	zb, err := io.ReadAll(io.LimitReader(r.Body, MaxArtifactBytes+1))
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %v", err)
	}
	if len(zb) > MaxArtifactBytes {
		return nil, fmt.Errorf("the artifact is larger than %d MiB", MaxArtifactBytes>>20)
	}
	return resultsFromZip(zb)
}

// resultsFromZip returns the first .json file of an artifact zip.
func resultsFromZip(zb []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		return nil, fmt.Errorf("the artifact is not a zip file: %v", err)
	}
	files := append([]*zip.File(nil), zr.File...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		if path.Ext(f.Name) != ".json" || f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("reading %s in the artifact: %v", f.Name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, MaxArtifactBytes+1))
		if err != nil {
			return nil, fmt.Errorf("reading %s in the artifact: %v", f.Name, err)
		}
		if len(b) > MaxArtifactBytes {
			return nil, fmt.Errorf("%s in the artifact is larger than %d MiB", f.Name, MaxArtifactBytes>>20)
		}
		return b, nil
	}
	return nil, errors.New("the artifact holds no .json results file")
}

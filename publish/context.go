package publish

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/go-github/v62/github"
	"github.com/sethvargo/go-githubactions"
)

// Context is what latgate knows of the workflow run it is part of, read
// from the runner's environment and the event payload with
// go-githubactions. Outside GitHub Actions every field is empty except
// ServerURL and APIURL (github.com's).
type Context struct {
	InActions   bool   // GITHUB_ACTIONS
	EventName   string // e.g. pull_request, push, workflow_run
	Repository  string // owner/name
	SHA         string // the commit the run is for (on pull_request: the merge commit)
	Ref         string // e.g. refs/heads/main, refs/pull/7/merge
	RefName     string // e.g. main, 7/merge
	BaseRef     string // GITHUB_BASE_REF: the pull request's base branch
	Workflow    string // the workflow's name
	WorkflowRef string // owner/repo/.github/workflows/latgate.yml@refs/heads/main
	Job         string
	RunID       int64
	RunAttempt  int64
	ServerURL   string // https://github.com or a GitHub Enterprise Server
	APIURL      string
	Workspace   string
	RunnerName  string // RUNNER_NAME (not read by go-githubactions)

	// From the event payload.

	// DefaultBranch is the repository's default branch (every event's
	// repository.default_branch), "" when the payload does not say.
	DefaultBranch string

	// PullRequest is the pull request of the run: the pull_request (or
	// pull_request_target, …) event's, or the workflow_run's when its
	// payload names exactly one of this repository with the run's head
	// commit. 0 when unknown: use FindPullRequest with Head.
	PullRequest int
	// BaseSHA is the pull request's base commit (pull_request events, and
	// workflow_run events that name their pull request).
	BaseSHA string
	// Head is the pull request's head (pull_request events) or the
	// triggering run's head commit, repository and branch (workflow_run).
	Head Head
	// TriggerRunID is the workflow_run event's triggering run, whose
	// artifacts hold a pull request's results in the fork-safe split.
	TriggerRunID int64
	// Labels are the pull request's labels (pull_request events).
	Labels []string
	// Action is the event's activity (e.g. "labeled"); Label the label it
	// names and Sender who caused it.
	Action, Label, Sender string
}

// Labeled reports whether the pull request carries label, and who added it
// when this very event added it ("" when unknown).
func (c *Context) Labeled(label string) (bool, string) {
	if label == "" {
		return false, ""
	}
	for _, l := range c.Labels {
		if l == label {
			if c.Action == "labeled" && c.Label == label {
				return true, c.Sender
			}
			return true, ""
		}
	}
	return false, ""
}

// NewContext reads the context through getenv (os.Getenv in production;
// a map in tests). A malformed variable or event file is an error.
func NewContext(getenv func(string) string) (*Context, error) {
	gc, err := githubactions.New(githubactions.WithGetenv(githubactions.GetenvFunc(getenv))).Context()
	if err != nil {
		return nil, fmt.Errorf("reading the GitHub Actions context: %s%v", badVariable(getenv), err)
	}
	c := &Context{
		InActions: gc.Actions, EventName: gc.EventName, Repository: gc.Repository,
		SHA: gc.SHA, Ref: gc.Ref, RefName: gc.RefName, BaseRef: gc.BaseRef,
		Workflow: gc.Workflow, WorkflowRef: getenv("GITHUB_WORKFLOW_REF"), Job: gc.Job,
		RunID: gc.RunID, RunAttempt: gc.RunAttempt,
		ServerURL: strings.TrimRight(gc.ServerURL, "/"), APIURL: gc.APIURL,
		Workspace: gc.Workspace, RunnerName: getenv("RUNNER_NAME"),
	}
	if gc.Event == nil {
		return c, nil
	}
	if repo, ok := gc.Event["repository"].(map[string]any); ok {
		c.DefaultBranch, _ = repo["default_branch"].(string)
	}
	// One decoder for payloads: go-github's event types.
	raw, err := json.Marshal(gc.Event)
	if err != nil {
		return nil, fmt.Errorf("reading the event payload %s: %v", gc.EventPath, err)
	}
	switch {
	case gc.Event["pull_request"] != nil:
		var ev github.PullRequestEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("reading the pull_request event %s: %v", gc.EventPath, err)
		}
		p := ev.GetPullRequest()
		c.PullRequest = p.GetNumber()
		c.BaseSHA = p.GetBase().GetSHA()
		c.Head = Head{SHA: p.GetHead().GetSHA(), Repo: p.GetHead().GetRepo().GetFullName(), Branch: p.GetHead().GetRef()}
		for _, l := range p.Labels {
			c.Labels = append(c.Labels, l.GetName())
		}
		c.Action, c.Label, c.Sender = ev.GetAction(), ev.GetLabel().GetName(), ev.GetSender().GetLogin()
	case gc.Event["workflow_run"] != nil:
		var ev github.WorkflowRunEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("reading the workflow_run event %s: %v", gc.EventPath, err)
		}
		wr := ev.GetWorkflowRun()
		c.TriggerRunID = wr.GetID()
		c.Head = Head{SHA: wr.GetHeadSHA(), Repo: wr.GetHeadRepository().GetFullName(), Branch: wr.GetHeadBranch()}
		// pull_requests is empty for forks, and may name pull requests of
		// other repositories, or ours with the same branch name and commit
		// as a fork's run: keep only ours whose head is the run's.
		var ours []*github.PullRequest
		for _, p := range wr.PullRequests {
			if c.runsPull(p) {
				ours = append(ours, p)
			}
		}
		if len(ours) == 1 {
			c.PullRequest = ours[0].GetNumber()
			c.BaseSHA = ours[0].GetBase().GetSHA()
		}
	}
	return c, nil
}

// runsPull reports whether a pull request named by a workflow_run payload
// is this repository's and has the run's head: its commit, branch and
// repository (when the payload names them).
func (c *Context) runsPull(p *github.PullRequest) bool {
	repoIs := func(url, full string) bool {
		return strings.HasSuffix(strings.ToLower(url), "/repos/"+strings.ToLower(full))
	}
	head := p.GetHead()
	return c.Repository != "" && repoIs(p.GetBase().GetRepo().GetURL(), c.Repository) &&
		head.GetSHA() == c.Head.SHA &&
		(c.Head.Branch == "" || head.GetRef() == "" || head.GetRef() == c.Head.Branch) &&
		(c.Head.Repo == "" || head.GetRepo().GetURL() == "" || repoIs(head.GetRepo().GetURL(), c.Head.Repo))
}

// RunURL is the address of this workflow run, or "" outside Actions.
func (c *Context) RunURL() string {
	if c.Repository == "" || c.RunID == 0 {
		return ""
	}
	u := c.ServerURL + "/" + c.Repository + "/actions/runs/" + strconv.FormatInt(c.RunID, 10)
	if c.RunAttempt > 1 {
		u += "/attempts/" + strconv.FormatInt(c.RunAttempt, 10)
	}
	return u
}

// WorkflowFile is the workflow's file name ("latgate.yml" from
// WorkflowRef), or "".
func (c *Context) WorkflowFile() string {
	ref, _, _ := strings.Cut(c.WorkflowRef, "@")
	if _, file, ok := strings.Cut(ref, "/.github/workflows/"); ok {
		return file
	}
	return ""
}

// NewGitHub returns a client for this run's repository at its API URL.
func (c *Context) NewGitHub(client *http.Client, token string) (*GitHub, error) {
	if c.Repository == "" {
		return nil, fmt.Errorf("GITHUB_REPOSITORY is not set: not in GitHub Actions")
	}
	return NewGitHub(client, c.APIURL, token, c.Repository)
}

// badVariable names the variable go-githubactions could not parse (its
// errors do not), as "NAME=value: ".
func badVariable(getenv func(string) string) string {
	for _, k := range []string{"GITHUB_ACTIONS", "GITHUB_REF_PROTECTED"} {
		if v := getenv(k); v != "" {
			if _, err := strconv.ParseBool(v); err != nil {
				return fmt.Sprintf("%s=%q: ", k, v)
			}
		}
	}
	for _, k := range []string{"GITHUB_RETENTION_DAYS", "GITHUB_RUN_ATTEMPT", "GITHUB_RUN_ID", "GITHUB_RUN_NUMBER"} {
		if v := getenv(k); v != "" {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return fmt.Sprintf("%s=%q: ", k, v)
			}
		}
	}
	return ""
}

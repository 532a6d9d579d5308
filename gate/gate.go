package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// Env is the injected process environment of a pipeline.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// HTTPClient talks to the GitHub API; nil: a client with a timeout.
	HTTPClient *http.Client
	// Color: stdout is a terminal. TTY: draw a progress bar on Stderr.
	Color, TTY  bool
	ToolVersion string
}

// Inputs are the Action's inputs (action.yml). The command line gives each
// as a flag of the same name, else reads it from INPUT_<NAME>.
type Inputs struct {
	Config           string
	Mode             string // gate, record
	Baseline         string // a results file, or "none" for an explicit "no baseline yet"
	BaselineArtifact string
	BaseBranch       string
	Comment          bool
	CommentKey       string
	GitHubToken      string
	FailOn           string
	WorkingDirectory string
	DryRun           bool
	Results          string
	Report           string
	Region           string
	PR               int
	HeadSHA          string
	// Select narrows the suite (flags only, for local iteration).
	Select Selection
}

// NoBaseline is the baseline input that says explicitly that there is no
// baseline yet (the first run on a new repository).
const NoBaseline = "none"

// Path resolves a path input against the working directory.
func (in Inputs) Path(p string) string {
	if p == "" || filepath.IsAbs(p) || in.WorkingDirectory == "" {
		return p
	}
	return filepath.Join(in.WorkingDirectory, p)
}

// Validate checks the inputs that need no file or network, before any
// request is sent.
func (in Inputs) Validate(command string) error {
	if command == "gate" && in.Mode != "gate" && in.Mode != "record" {
		return BadInputf("mode: want gate or record, got %q", in.Mode)
	}
	if in.Mode == "record" && (len(in.Select.Scenarios) > 0 || in.Select.Requests > 0) {
		return BadInputf("--scenario and --requests narrow a run for local iteration; a recorded baseline measures the whole suite as configured")
	}
	if in.PR < 0 {
		return BadInputf("pr: want a pull request number, got %d", in.PR)
	}
	for _, p := range []struct{ name, path string }{{"results", in.Results}, {"report", in.Report}} {
		if err := WritableDir(in.Path(p.path)); err != nil {
			return BadInputf("%s: %v", p.name, err)
		}
	}
	if in.Baseline != "" && in.Baseline != NoBaseline {
		if _, err := os.Stat(in.Path(in.Baseline)); err != nil {
			return BadInputf("baseline %s: %v (to run without a baseline say so: baseline: %s)", in.Path(in.Baseline), unwrapPath(err), NoBaseline)
		}
	}
	return nil
}

// WritableDir checks that the folder a file will be written to exists.
func WritableDir(path string) error {
	if path == "" {
		return nil
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: folder %s: %v", path, dir, unwrapPath(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Gate runs what the Action runs: measure the suite, then record it as the
// baseline (mode record) or compare it with the baseline and publish the
// verdict (mode gate). It returns ErrFailed when the gate fails.
func Gate(ctx context.Context, env Env, in Inputs) error {
	act := publish.NewActions(env.Stdout, env.Getenv)
	act.Mask(in.GitHubToken) // before anything else is printed
	if err := in.Validate("gate"); err != nil {
		return err
	}
	cfg, err := LoadConfig(in.Path(in.Config), env.Getenv, false)
	if err != nil {
		return err
	}
	act.Mask(cfg.Secrets()...)
	if err := in.Select.Apply(cfg); err != nil {
		return err
	}
	th, err := Thresholds(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	// The baseline is read before the run, so that a bad one costs no request.
	var base *results.File
	var where string
	if in.Mode == "gate" {
		if base, where, err = loadBaseline(ctx, env, in); err != nil {
			return err
		}
	}
	cur, merr := Measure(ctx, cfg, MeasureOptions{Source: GitSource(env.Getenv, in.Region), Progress: env.Stderr, TTY: env.TTY, ToolVersion: env.ToolVersion})
	if cur != nil && len(cur.Runs) > 0 {
		if werr := baseline.Write(in.Path(in.Results), cur); werr != nil {
			return AsCannotRun(werr)
		}
		if cur.Incomplete != "" {
			fmt.Fprintf(env.Stderr, "latgate: wrote what was measured to %s, marked incomplete\n", in.Path(in.Results))
		}
	}
	if merr != nil {
		_ = act.SetOutputs([]string{"verdict", "results"}, map[string]string{"verdict": "error", "results": ""})
		return merr
	}
	if in.Mode == "record" {
		var b strings.Builder
		report.Measurements(&b, cur)
		fmt.Fprint(env.Stdout, b.String())
		fmt.Fprintf(env.Stderr, "latgate: baseline recorded in %s: upload it as an artifact for pull requests to compare with\n", in.Path(in.Results))
		summary := "### ⏱️ latgate: baseline recorded\n\n```\n" + b.String() + "```\n"
		if err := act.Summary(summary); err != nil {
			act.Warning(err.Error())
		}
		return outputs(act, "pass", in.Path(in.Results), "", 0, "")
	}
	return publishVerdict(ctx, env, act, in, cfg, th, base, where, cur)
}

// Publish compares a results file measured elsewhere (the fork-safe split's
// second half) with its baseline and publishes the verdict.
func Publish(ctx context.Context, env Env, in Inputs) error {
	act := publish.NewActions(env.Stdout, env.Getenv)
	act.Mask(in.GitHubToken)
	if err := in.Validate("publish"); err != nil {
		return err
	}
	var cfg *suite.Config
	if p := in.Path(in.Config); p != "" {
		var err error
		if cfg, err = LoadConfig(p, env.Getenv, true); err != nil {
			return err
		}
	}
	th, err := Thresholds(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	if in.Results == "" {
		return BadInputf("results: give the results file to publish (--results FILE)")
	}
	cur, err := baseline.Read(in.Path(in.Results))
	if err != nil {
		return AsBadInput(err)
	}
	fmt.Fprintf(env.Stderr, "latgate: publishing %s (recorded %s)\n", in.Path(in.Results), cur.CreatedAt.Format(time.RFC3339))
	base, where, err := loadBaseline(ctx, env, in)
	if err != nil {
		return err
	}
	return publishVerdict(ctx, env, act, in, cfg, th, base, where, cur)
}

func githubClient(env Env, in Inputs) (*publish.GitHub, error) {
	repo := env.Getenv("GITHUB_REPOSITORY")
	if repo == "" {
		return nil, errors.New("GITHUB_REPOSITORY is not set")
	}
	client := env.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	return publish.NewGitHub(client, env.Getenv("GITHUB_API_URL"), in.GitHubToken, repo)
}

// loadBaseline finds the baseline: a file, else an artifact. A baseline
// that was asked for and cannot be had is an error; only an explicit
// "none", or an artifact that the base branch has never recorded (the
// first run on a new repository), means "no baseline yet".
func loadBaseline(ctx context.Context, env Env, in Inputs) (*results.File, string, error) {
	switch {
	case in.Baseline == NoBaseline:
		return nil, "", nil
	case in.Baseline != "":
		p := in.Path(in.Baseline)
		f, err := baseline.Read(p)
		if err != nil {
			return nil, "", AsBadInput(err)
		}
		return f, p, nil
	case in.BaselineArtifact == "":
		return nil, "", BadInputf("no baseline: give baseline (a results file), baseline-artifact (an artifact recorded on the base branch), or baseline: %s to run without one", NoBaseline)
	}
	name := in.BaselineArtifact
	if in.GitHubToken == "" {
		return nil, "", BadInputf("baseline-artifact %q: no GitHub token to fetch it (github-token input or GITHUB_TOKEN)", name)
	}
	gh, err := githubClient(env, in)
	if err != nil {
		return nil, "", BadInputf("baseline-artifact %q: %v", name, err)
	}
	branch := in.BaseBranch
	if branch == "" {
		branch = env.Getenv("GITHUB_BASE_REF")
	}
	if branch == "" {
		branch = "main"
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	data, from, err := gh.FetchArtifact(ctx, publish.ArtifactQuery{Name: name, Branch: branch, WorkflowFile: workflowFile(env.Getenv("GITHUB_WORKFLOW_REF"))})
	if errors.Is(err, publish.ErrNoArtifact) {
		fmt.Fprintf(env.Stderr, "latgate: no baseline yet: %v\n", err)
		return nil, "", nil
	}
	if err != nil {
		return nil, "", AsCannotRun(fmt.Errorf("fetching the baseline artifact %q: %w", name, err))
	}
	f, err := baseline.Decode("artifact "+name, data)
	if err != nil {
		return nil, "", AsBadInput(err)
	}
	fmt.Fprintf(env.Stderr, "latgate: baseline from artifact %q of %s\n", name, from)
	return f, "artifact " + name, nil
}

// workflowFile extracts "latgate.yml" from GITHUB_WORKFLOW_REF
// ("owner/repo/.github/workflows/latgate.yml@refs/heads/main").
func workflowFile(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.Index(ref, "/.github/workflows/"); i >= 0 {
		return ref[i+len("/.github/workflows/"):]
	}
	return ""
}

// publishVerdict compares, renders, writes the report, the summary,
// outputs, annotations and the comment, and returns the verdict as an error.
func publishVerdict(ctx context.Context, env Env, act *publish.Actions, in Inputs, cfg *suite.Config, th compare.Config, base *results.File, where string, cur *results.File) error {
	var rep *report.Report
	var err error
	if base != nil {
		rep, err = CompareFiles(base, cur, where, in.Path(in.Results), th)
		if errors.Is(err, ErrNoCommonRun) {
			fmt.Fprintf(env.Stderr, "latgate: warning: %v: every check is no_baseline\n", err)
			base, err = nil, nil
		}
		if err != nil {
			return err
		}
	}
	if base == nil {
		if rep, err = CompareFiles(nil, cur, "", in.Path(in.Results), th); err != nil {
			return err
		}
		rep.Warnings = append(rep.Warnings, "no baseline yet: every check is no_baseline; record one on the base branch with mode: record")
	}

	key := in.CommentKey
	if key == "" {
		key = strings.Trim(strings.Join([]string{env.Getenv("GITHUB_WORKFLOW"), env.Getenv("GITHUB_JOB"), in.Config}, "/"), "/")
	}
	marker := CommentMarker(key)
	runURL := ""
	if s, r, id := env.Getenv("GITHUB_SERVER_URL"), env.Getenv("GITHUB_REPOSITORY"), env.Getenv("GITHUB_RUN_ID"); s != "" && r != "" && id != "" {
		runURL = s + "/" + r + "/actions/runs/" + id
	}
	full := report.Markdown(rep, report.MarkdownOptions{})
	if err := baseline.WriteAtomic(in.Path(in.Report), []byte(full)); err != nil {
		return AsCannotRun(err)
	}
	report.Text(env.Stdout, rep, env.Color)
	if err := act.Summary(full); err != nil {
		fmt.Fprintf(env.Stderr, "latgate: warning: %v\n", err)
	}
	act.Annotate(annotations(env, in, cfg, rep))

	body := report.Markdown(rep, report.MarkdownOptions{Marker: marker, MaxLen: 65536, SummaryURL: runURL})
	commentURL := ""
	switch {
	case in.DryRun:
		fmt.Fprintln(env.Stdout, "\nPR comment (dry run, not posted):")
		fmt.Fprintln(env.Stdout, "-----8<-----")
		fmt.Fprint(env.Stdout, body)
		fmt.Fprintln(env.Stdout, "-----8<-----")
	case in.Comment:
		commentURL = postComment(ctx, env, act, in, marker, body)
	}
	regressions := 0
	for _, c := range rep.Result.Checks {
		if c.Status == compare.Regression {
			regressions++
		}
	}
	if err := outputs(act, rep.Verdict, in.Path(in.Results), in.Path(in.Report), regressions, commentURL); err != nil {
		return err
	}
	if rep.Verdict == "fail" {
		fmt.Fprintln(env.Stderr, "latgate: the gate failed: "+rep.Headline)
		return ErrFailed
	}
	return nil
}

func outputs(act *publish.Actions, verdict, results, reportPath string, regressions int, commentURL string) error {
	err := act.SetOutputs([]string{"verdict", "results", "report", "regressions", "comment-url"}, map[string]string{
		"verdict": verdict, "results": results, "report": reportPath,
		"regressions": strconv.Itoa(regressions), "comment-url": commentURL,
	})
	return AsCannotRun(err)
}

// postComment posts or updates the sticky comment. Problems are warnings:
// they never change the verdict or the exit code.
func postComment(ctx context.Context, env Env, act *publish.Actions, in Inputs, marker, body string) string {
	warn := func(msg string) {
		fmt.Fprintln(env.Stderr, "latgate: warning: "+msg)
		act.Warning(msg)
	}
	if in.GitHubToken == "" {
		warn("no GitHub token (github-token input or GITHUB_TOKEN): the comment was not posted; the verdict stands")
		return ""
	}
	gh, err := githubClient(env, in)
	if err != nil {
		warn("cannot post the comment: " + err.Error())
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	pr, err := pullRequest(ctx, env, in, gh)
	if err != nil {
		warn(err.Error() + ": no comment posted")
		return ""
	}
	res, err := gh.UpsertComment(ctx, pr, marker, body)
	if errors.Is(err, publish.ErrForbidden) {
		warn("the token may not comment on pull requests (" + err.Error() + "). Pull requests from forks get a read-only token: " +
			"use the fork-safe split in docs/workflows.md (a pull_request job uploads the results, a workflow_run job publishes them). The verdict stands")
		return ""
	}
	if err != nil {
		warn("the comment was not posted: " + err.Error())
		return ""
	}
	verb := "updated"
	if res.Created {
		verb = "posted"
	}
	fmt.Fprintf(env.Stderr, "latgate: %s the comment %s\n", verb, res.URL)
	return res.URL
}

// pullRequest finds the pull request: the pr input, the event's
// pull_request, a workflow_run's pull_requests or head commit, or head-sha.
func pullRequest(ctx context.Context, env Env, in Inputs, gh *publish.GitHub) (int, error) {
	if in.PR > 0 {
		return in.PR, nil
	}
	sha := in.HeadSHA
	if p := env.Getenv("GITHUB_EVENT_PATH"); p != "" && sha == "" {
		var ev struct {
			PullRequest *struct {
				Number int `json:"number"`
			} `json:"pull_request"`
			WorkflowRun *struct {
				HeadSHA      string `json:"head_sha"`
				PullRequests []struct {
					Number int `json:"number"`
				} `json:"pull_requests"`
			} `json:"workflow_run"`
		}
		if b, err := os.ReadFile(p); err == nil && json.Unmarshal(b, &ev) == nil {
			switch {
			case ev.PullRequest != nil && ev.PullRequest.Number > 0:
				return ev.PullRequest.Number, nil
			case ev.WorkflowRun != nil && len(ev.WorkflowRun.PullRequests) > 0:
				return ev.WorkflowRun.PullRequests[0].Number, nil
			case ev.WorkflowRun != nil:
				sha = ev.WorkflowRun.HeadSHA
			}
		}
	}
	if sha == "" {
		return 0, errors.New("not a pull request (give pr or head-sha)")
	}
	return gh.PullRequestForCommit(ctx, sha)
}

// annotations point each failing scenario at its line in the config.
func annotations(env Env, in Inputs, cfg *suite.Config, rep *report.Report) []publish.Annotation {
	file := in.Path(in.Config)
	if ws := env.Getenv("GITHUB_WORKSPACE"); ws != "" {
		if abs, err := filepath.Abs(file); err == nil {
			if rel, err := filepath.Rel(ws, abs); err == nil && !strings.HasPrefix(rel, "..") {
				file = filepath.ToSlash(rel)
			}
		}
	}
	var out []publish.Annotation
	for _, s := range rep.Scenarios {
		var msgs []string
		for _, c := range s.Checks {
			if c.Status == compare.Regression || c.Status == compare.OverBudget {
				msgs = append(msgs, checkLine(c))
			}
		}
		if len(msgs) == 0 {
			continue
		}
		line := s.ConfigLine
		if cfg != nil {
			for _, sc := range cfg.Scenarios {
				if sc.Name == s.Scenario {
					line = sc.Line
				}
			}
		}
		out = append(out, publish.Annotation{Level: "error", File: file, Line: line,
			Title: fmt.Sprintf("latgate: %s @ %s", s.Scenario, s.Endpoint), Msg: strings.Join(msgs, "; ")})
	}
	return out
}

func checkLine(c compare.Check) string {
	name := c.Metric + " " + c.Stat
	if c.Metric == "errors" {
		return fmt.Sprintf("error rate %s: %.1f%% → %.1f%%", strings.ReplaceAll(string(c.Status), "_", " "), 100*c.Baseline, 100*c.Current)
	}
	if c.Status == compare.OverBudget {
		return fmt.Sprintf("%s %s ms over its budget of %s ms", name, report.Millis(c.Current), report.Millis(c.Budget))
	}
	return fmt.Sprintf("%s regressed %+.1f%% (%s → %s ms)", name, c.DeltaPct, report.Millis(c.Baseline), report.Millis(c.Current))
}

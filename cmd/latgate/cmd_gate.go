package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
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
	"github.com/latgate/latgate/suite"
)

// gateInputs are the Action inputs (SPEC §7); each is also a flag of the
// same name, read from INPUT_<NAME> when the flag is absent.
var gateInputs = []struct{ name, def, usage string }{
	{"config", "latgate.yaml", "suite file"},
	{"mode", "gate", "gate (run, compare, publish) or record (run and write the baseline)"},
	{"baseline", "", "baseline results file"},
	{"baseline-artifact", "", "name of an artifact on the base branch holding the baseline"},
	{"base-branch", "", "branch whose runs hold the baseline artifact (default $GITHUB_BASE_REF, else main)"},
	{"comment", "true", "post or update the sticky pull-request comment"},
	{"comment-key", "", "key of the sticky comment (default: workflow/job/config)"},
	{"github-token", "", "token for the GitHub API (default $GITHUB_TOKEN)"},
	{"fail-on", "", "statuses that fail the gate, comma-separated (default from the config)"},
	{"working-directory", "", "folder that relative paths are resolved against"},
	{"dry-run", "", "print the comment instead of posting it (default: true outside GitHub Actions)"},
	{"results", "latgate-results.json", "where to write (gate) or read (publish) the results file"},
	{"report", "latgate-report.md", "where to write the Markdown report"},
	{"region", "", "region label recorded in the results"},
	{"pr", "", "pull request number to comment on (default: from the event)"},
	{"head-sha", "", "find the pull request by its head commit (workflow_run jobs)"},
}

type inputs map[string]string

func (in inputs) bool(name string, def bool) (bool, error) {
	v, err := boolValue(in[name], def)
	if err != nil {
		return false, usagef("%s: want true or false, got %q", name, in[name])
	}
	return v, nil
}

// parseInputs reads flags, then INPUT_* for the flags not given.
func parseInputs(e *env, cmd string, args []string, act *publish.Actions) (inputs, error) {
	fs := flag.NewFlagSet("latgate "+cmd, flag.ContinueOnError)
	vals := map[string]*string{}
	for _, in := range gateInputs {
		usage := fmt.Sprintf("%s (Action input %q", in.usage, in.name)
		if in.def != "" {
			usage += fmt.Sprintf("; default %q", in.def)
		}
		vals[in.name] = fs.String(in.name, "", usage+")")
	}
	fs.StringVar(vals["config"], "c", "", "suite file (same as --config)")
	pos, err := parseFlags(fs, normalizeBoolFlags(args), e.stderr)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, usagef("%s takes no arguments, got %q (see latgate %s -h)", cmd, pos[0], cmd)
	}
	in := inputs{}
	for _, d := range gateInputs {
		v := *vals[d.name]
		if !set(fs, d.name) && !(d.name == "config" && set(fs, "c")) {
			v = act.Input(d.name)
		}
		if v == "" {
			v = d.def
		}
		in[d.name] = v
	}
	if in["github-token"] == "" {
		in["github-token"] = e.getenv("GITHUB_TOKEN")
	}
	return in, nil
}

// normalizeBoolFlags turns a bare --dry-run (or --comment) into
// --dry-run=true, since they are string flags so that INPUT_* can fill them.
func normalizeBoolFlags(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		trim := strings.TrimLeft(a, "-")
		if (trim == "dry-run" || trim == "comment") && strings.HasPrefix(a, "-") {
			next := ""
			if i+1 < len(args) {
				next = args[i+1]
			}
			if next != "true" && next != "false" {
				a += "=true"
			}
		}
		out = append(out, a)
	}
	return out
}

func (in inputs) path(name string) string {
	p := in[name]
	if p == "" || filepath.IsAbs(p) || in["working-directory"] == "" {
		return p
	}
	return filepath.Join(in["working-directory"], p)
}

func cmdGate(e *env, args []string) error {
	act := publish.NewActions(e.stdout, e.getenv)
	in, err := parseInputs(e, "gate", args, act)
	if err != nil {
		return err
	}
	act.Mask(in["github-token"]) // before anything else is printed
	mode := in["mode"]
	if mode != "gate" && mode != "record" {
		return usagef("mode: want gate or record, got %q", mode)
	}
	cfg, err := loadConfig(in.path("config"), e.getenv, false)
	if err != nil {
		return err
	}
	act.Mask(cfg.Secrets()...)
	th, err := gateThresholds(cfg, in)
	if err != nil {
		return err
	}
	cur, merr := measure(e.ctx, cfg, measureOptions{source: gitSource(e.getenv, in["region"]), progress: e.stderr, isTTY: progressBar(e)})
	if cur != nil && len(cur.Runs) > 0 {
		if werr := baseline.Write(in.path("results"), cur); werr != nil {
			return cannotRunError{werr}
		}
	}
	if merr != nil {
		_ = act.SetOutputs([]string{"verdict", "results"}, map[string]string{"verdict": "error", "results": ""})
		return merr
	}
	if mode == "record" {
		var b strings.Builder
		report.Measurements(&b, cur)
		fmt.Fprint(e.stdout, b.String())
		fmt.Fprintf(e.stderr, "latgate: baseline recorded in %s: upload it as an artifact for pull requests to compare with\n", in.path("results"))
		summary := "### ⏱️ latgate: baseline recorded\n\n```\n" + b.String() + "```\n"
		if err := act.Summary(summary); err != nil {
			act.Warning(err.Error())
		}
		return outputs(act, "pass", in.path("results"), "", 0, "")
	}
	base, where, err := loadBaseline(e, in)
	if err != nil {
		return err
	}
	return publishFlow(e, act, in, cfg, th, base, where, cur)
}

func cmdPublish(e *env, args []string) error {
	act := publish.NewActions(e.stdout, e.getenv)
	in, err := parseInputs(e, "publish", args, act)
	if err != nil {
		return err
	}
	act.Mask(in["github-token"])
	var cfg *suite.Config
	th := defaultThresholds()
	if p := in.path("config"); p != "" {
		if _, statErr := os.Stat(p); statErr == nil {
			if cfg, err = loadConfig(p, e.getenv, true); err != nil {
				return err
			}
			th = thresholds{regression: cfg.Regression, budgets: cfg.Budgets}
		}
	}
	if in["fail-on"] != "" {
		fo, err := suite.ParseFailOn([]string{in["fail-on"]})
		if err != nil {
			return usagef("fail-on: %v", err)
		}
		th.regression.FailOn = fo
	}
	cur, err := baseline.Read(in.path("results"))
	if err != nil {
		return usageError{err}
	}
	base, where, err := loadBaseline(e, in)
	if err != nil {
		return err
	}
	return publishFlow(e, act, in, cfg, th, base, where, cur)
}

func gateThresholds(cfg *suite.Config, in inputs) (thresholds, error) {
	th := thresholds{regression: cfg.Regression, budgets: cfg.Budgets}
	if in["fail-on"] != "" {
		fo, err := suite.ParseFailOn([]string{in["fail-on"]})
		if err != nil {
			return th, usagef("fail-on: %v", err)
		}
		th.regression.FailOn = fo
	}
	return th, nil
}

func githubClient(e *env, in inputs) (*publish.GitHub, error) {
	repo := e.getenv("GITHUB_REPOSITORY")
	if repo == "" {
		return nil, errors.New("GITHUB_REPOSITORY is not set")
	}
	return publish.NewGitHub(&http.Client{Timeout: 2 * time.Minute}, e.getenv("GITHUB_API_URL"), in["github-token"], repo)
}

// loadBaseline finds the baseline: a file, else an artifact, else none
// (every check is then no_baseline). A corrupt baseline is an input error.
func loadBaseline(e *env, in inputs) (*baseline.File, string, error) {
	if p := in.path("baseline"); p != "" {
		if _, err := os.Stat(p); err == nil {
			f, err := baseline.Read(p)
			if err != nil {
				return nil, "", usageError{err}
			}
			return f, p, nil
		}
		if in["baseline-artifact"] == "" {
			fmt.Fprintf(e.stderr, "latgate: warning: baseline %s does not exist: every check is no_baseline\n", p)
			return nil, "", nil
		}
	}
	name := in["baseline-artifact"]
	if name == "" {
		fmt.Fprintln(e.stderr, "latgate: warning: no baseline given (baseline or baseline-artifact): every check is no_baseline")
		return nil, "", nil
	}
	if in["github-token"] == "" {
		fmt.Fprintln(e.stderr, "latgate: warning: no GitHub token to fetch the baseline artifact: every check is no_baseline")
		return nil, "", nil
	}
	gh, err := githubClient(e, in)
	if err != nil {
		fmt.Fprintf(e.stderr, "latgate: warning: cannot fetch the baseline artifact: %v\n", err)
		return nil, "", nil
	}
	branch := in["base-branch"]
	if branch == "" {
		branch = e.getenv("GITHUB_BASE_REF")
	}
	if branch == "" {
		branch = "main"
	}
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Minute)
	defer cancel()
	data, from, err := gh.FetchArtifact(ctx, publish.ArtifactQuery{Name: name, Branch: branch, WorkflowFile: workflowFile(e.getenv("GITHUB_WORKFLOW_REF"))})
	if err != nil {
		fmt.Fprintf(e.stderr, "latgate: warning: %v: every check is no_baseline\n", err)
		return nil, "", nil
	}
	f, err := baseline.Decode("artifact "+name, data)
	if err != nil {
		return nil, "", usageError{err}
	}
	fmt.Fprintf(e.stderr, "latgate: baseline from artifact %q of %s\n", name, from)
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

// publishFlow compares, renders, writes the report, the summary, outputs,
// annotations and the comment, and returns the verdict as an error.
func publishFlow(e *env, act *publish.Actions, in inputs, cfg *suite.Config, th thresholds, base *baseline.File, where string, cur *baseline.File) error {
	var rep *report.Report
	var err error
	if base != nil {
		rep, err = compareFiles(base, cur, where, in.path("results"), th)
		var ue usageError
		if errors.As(err, &ue) && strings.HasPrefix(ue.Error(), "no run in common") {
			fmt.Fprintf(e.stderr, "latgate: warning: %v: every check is no_baseline\n", ue.error)
			base, err = nil, nil
		}
		if err != nil {
			return err
		}
	}
	if base == nil {
		pairs := baseline.Match(nil, cur)
		rep = report.Build(pairs, compare.Compare(baseline.Runs(pairs), th.compareConfig()), th.reportOptions())
		rep.Warnings = append(rep.Warnings, "no baseline: every check is no_baseline; record one on the base branch with mode: record")
	}

	key := in["comment-key"]
	if key == "" {
		key = strings.Trim(strings.Join([]string{e.getenv("GITHUB_WORKFLOW"), e.getenv("GITHUB_JOB"), in["config"]}, "/"), "/")
	}
	marker := commentMarker(key)
	runURL := ""
	if s, r, id := e.getenv("GITHUB_SERVER_URL"), e.getenv("GITHUB_REPOSITORY"), e.getenv("GITHUB_RUN_ID"); s != "" && r != "" && id != "" {
		runURL = s + "/" + r + "/actions/runs/" + id
	}
	full := report.Markdown(rep, report.MarkdownOptions{})
	if err := baseline.WriteAtomic(in.path("report"), []byte(full)); err != nil {
		return err
	}
	report.Text(e.stdout, rep, isTerminal(e.stdout))
	if err := act.Summary(full); err != nil {
		fmt.Fprintf(e.stderr, "latgate: warning: %v\n", err)
	}
	act.Annotate(annotations(e, in, cfg, rep))

	body := report.Markdown(rep, report.MarkdownOptions{Marker: marker, MaxLen: 65536, SummaryURL: runURL})
	commentURL := ""
	dry, err := in.bool("dry-run", !act.InActions())
	if err != nil {
		return err
	}
	want, err := in.bool("comment", true)
	if err != nil {
		return err
	}
	switch {
	case dry:
		fmt.Fprintln(e.stdout, "\nPR comment (dry run, not posted):")
		fmt.Fprintln(e.stdout, "-----8<-----")
		fmt.Fprint(e.stdout, body)
		fmt.Fprintln(e.stdout, "-----8<-----")
	case want:
		commentURL = postComment(e, act, in, marker, body)
	}
	regressions := 0
	for _, c := range rep.Result.Checks {
		if c.Status == compare.Regression {
			regressions++
		}
	}
	if err := outputs(act, rep.Verdict, in.path("results"), in.path("report"), regressions, commentURL); err != nil {
		return err
	}
	if rep.Verdict == "fail" {
		fmt.Fprintln(e.stderr, "latgate: the gate failed: "+rep.Headline)
		return errGateFailed
	}
	return nil
}

func outputs(act *publish.Actions, verdict, results, reportPath string, regressions int, commentURL string) error {
	err := act.SetOutputs([]string{"verdict", "results", "report", "regressions", "comment-url"}, map[string]string{
		"verdict": verdict, "results": results, "report": reportPath,
		"regressions": strconv.Itoa(regressions), "comment-url": commentURL,
	})
	if err != nil {
		return cannotRunError{err}
	}
	return nil
}

// postComment posts or updates the sticky comment. Problems are warnings:
// they never change the verdict or the exit code.
func postComment(e *env, act *publish.Actions, in inputs, marker, body string) string {
	warn := func(msg string) {
		fmt.Fprintln(e.stderr, "latgate: warning: "+msg)
		act.Warning(msg)
	}
	if in["github-token"] == "" {
		warn("no GitHub token (github-token input or GITHUB_TOKEN): the comment was not posted; the verdict stands")
		return ""
	}
	gh, err := githubClient(e, in)
	if err != nil {
		warn("cannot post the comment: " + err.Error())
		return ""
	}
	ctx, cancel := context.WithTimeout(e.ctx, 2*time.Minute)
	defer cancel()
	pr, err := pullRequest(ctx, e, in, gh)
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
	fmt.Fprintf(e.stderr, "latgate: %s the comment %s\n", verb, res.URL)
	return res.URL
}

// pullRequest finds the pull request: the pr input, the event's
// pull_request, a workflow_run's pull_requests or head commit, or head-sha.
func pullRequest(ctx context.Context, e *env, in inputs, gh *publish.GitHub) (int, error) {
	if in["pr"] != "" {
		n, err := strconv.Atoi(in["pr"])
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("pr: want a pull request number, got %q", in["pr"])
		}
		return n, nil
	}
	sha := in["head-sha"]
	if p := e.getenv("GITHUB_EVENT_PATH"); p != "" && sha == "" {
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
func annotations(e *env, in inputs, cfg *suite.Config, rep *report.Report) []publish.Annotation {
	file := in.path("config")
	if ws := e.getenv("GITHUB_WORKSPACE"); ws != "" {
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

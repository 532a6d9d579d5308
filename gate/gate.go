package gate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
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
	Mode             string // gate, record, ab
	Baseline         string // a results file, or "none" for an explicit "no baseline yet"
	BaselineArtifact string
	// BaselineWorkflow is the workflow file (e.g. latgate.yml) whose push
	// runs record the baseline artifact; "" is this run's own workflow.
	BaselineWorkflow string
	BaselineDir      string // record: the folder of the baseline history to upload
	BaseBranch       string
	BaseConfig       string   // ab: the base suite (default: Config at the base commit)
	BaseURL, HeadURL []string // ab: ENDPOINT=URL overrides per variant
	Comment          bool
	// CommentRequired (comment: required) makes a comment that could not
	// be posted an error in gate mode too (see commentOutcome).
	CommentRequired  bool
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
	// AcceptLabel is the pull-request label that accepts a latency
	// regression on purpose (a larger model, longer answers): the
	// regression is reported as accepted and does not fail the gate.
	AcceptLabel string
	// FailOnChangePoint fails a record run that announces a change point
	// of main's trend that is a slowdown.
	FailOnChangePoint bool
	// Select narrows the suite (flags only, for local iteration).
	Select Selection
}

// Modes of the gate command.
var Modes = []string{"gate", "record", "ab"}

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
	if command == "gate" && !slices.Contains(Modes, in.Mode) {
		return BadInputf("mode: want gate, record or ab, got %q", in.Mode)
	}
	if in.Mode == "record" && (len(in.Select.Scenarios) > 0 || in.Select.Requests > 0) {
		return BadInputf("--scenario and --requests narrow a run for local iteration; a recorded baseline measures the whole suite as configured")
	}
	if in.Mode == "ab" && (in.Baseline != "" || in.BaselineArtifact != "") {
		return BadInputf("baseline and baseline-artifact belong to modes gate and record: mode ab measures its own base variant (give base-config, or none for the config at the base commit)")
	}
	if in.BaselineWorkflow != "" && in.BaselineArtifact == "" {
		return BadInputf("baseline-workflow names the workflow whose runs hold baseline-artifact: give baseline-artifact too")
	}
	if in.Mode != "ab" && (in.BaseConfig != "" || len(in.BaseURL) > 0 || len(in.HeadURL) > 0) {
		return BadInputf("base-config, base-url and head-url belong to mode ab (mode is %q)", in.Mode)
	}
	if in.PR < 0 {
		return BadInputf("pr: want a pull request number, got %d", in.PR)
	}
	for _, p := range []struct{ name, path string }{{"results", in.Results}, {"report", in.Report}} {
		if err := WritableDir(in.Path(p.path)); err != nil {
			return BadInputf("%s: %v", p.name, err)
		}
	}
	if err := in.checkOutputs(command); err != nil {
		return err
	}
	if in.Mode == "record" && in.BaselineDir != "" {
		if err := CreatableDir(in.Path(in.BaselineDir)); err != nil {
			return BadInputf("baseline-dir: %v", err)
		}
	}
	if in.Baseline != "" && in.Baseline != NoBaseline && in.Mode != "ab" {
		for _, b := range strings.Split(in.Baseline, ",") {
			if _, err := os.Stat(in.Path(strings.TrimSpace(b))); err != nil {
				return BadInputf("baseline %s: %v (to run without a baseline say so: baseline: %s)", in.Path(b), unwrapPath(err), NoBaseline)
			}
		}
	}
	return nil
}

// checkOutputs refuses, before anything runs, an output that would replace
// an input (the suite, a baseline, the base suite) or a file latgate did
// not write: the results, the Markdown report and the HTML report beside
// it.
func (in Inputs) checkOutputs(command string) error {
	inputs := []string{in.Path(in.Config), in.Path(in.BaseConfig)}
	if in.BaseConfig == "" {
		inputs[1] = ""
	}
	results := in.Path(in.Results)
	if command == "publish" {
		inputs, results = append(inputs, results), "" // publish reads the results
	}
	if in.Baseline != "" && in.Baseline != NoBaseline {
		for _, b := range strings.Split(in.Baseline, ",") {
			inputs = append(inputs, in.Path(strings.TrimSpace(b)))
		}
	}
	report := in.Path(in.Report)
	for _, o := range []struct {
		name, path string
		kind       fileio.Kind
	}{{"results", results, fileio.Results}, {"report", report, fileio.Markdown}, {"report (its HTML page)", HTMLPath(report), fileio.HTML}} {
		if o.path == "" || o.path == HTMLPath("") {
			continue
		}
		if err := fileio.CheckOutput(o.path, o.kind, inputs...); err != nil {
			return BadInputf("%s: %v", o.name, err)
		}
		inputs = append(inputs, o.path) // no two outputs on one file
	}
	return nil
}

// WritableDir checks that the folder a file will be written to exists.
func WritableDir(path string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return errors.New("cannot write the results to standard output (-): give a file name; latgate compare --format json prints a verdict")
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

// CreatableDir checks that dir is a folder that files can be written
// into, or that it can be created: its nearest existing ancestor is a
// folder that can be written. It leaves nothing behind.
func CreatableDir(dir string) error {
	p := filepath.Clean(dir)
	for {
		st, err := os.Stat(p)
		if (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && filepath.Dir(p) != p {
			p = filepath.Dir(p)
			continue
		}
		what := "cannot create the folder " + dir
		if p == filepath.Clean(dir) {
			what = "cannot write into the folder " + dir
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %v", what, p, unwrapPath(err))
		}
		if !st.IsDir() {
			return fmt.Errorf("%s: %s is not a folder", what, p)
		}
		f, err := os.CreateTemp(p, ".latgate-write-check-*")
		if err != nil {
			return fmt.Errorf("%s: %s takes no new file: %v", what, p, unwrapPath(err))
		}
		f.Close()
		return os.Remove(f.Name())
	}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pipeline is one run of Gate or Publish: its environment, inputs, GitHub
// context and Actions output.
type pipeline struct {
	command string // gate or publish
	env     Env
	in      Inputs
	gc      *publish.Context
	act     *publish.Actions
	// trendURL is the run that recorded the baseline artifact, when the
	// artifact holds main's trend (the comment links it).
	trendURL string
}

func newPipeline(env Env, in Inputs, command string) (*pipeline, error) {
	act := publish.NewActions(env.Stdout, env.Getenv)
	act.Mask(in.GitHubToken) // before anything else is printed
	if err := in.Validate(command); err != nil {
		return nil, err
	}
	gc, err := publish.NewContext(env.Getenv)
	if err != nil {
		return nil, BadInputf("the GitHub Actions environment: %v", err)
	}
	return &pipeline{command: command, env: env, in: in, gc: gc, act: act}, nil
}

// Gate runs what the Action runs: measure the suite, then record it as the
// baseline (mode record), compare it with the stored baseline (mode gate),
// or measure the base and head variants interleaved and compare them (mode
// ab); then publish the verdict. It returns ErrFailed when the gate fails.
func Gate(ctx context.Context, env Env, in Inputs) error {
	p, err := newPipeline(env, in, "gate")
	if err != nil {
		return err
	}
	if in.Mode == "ab" {
		return p.ab(ctx)
	}
	cfg, err := LoadConfig(in.Path(in.Config), env.Getenv, false)
	if err != nil {
		return err
	}
	p.act.Mask(cfg.Secrets()...)
	if err := in.Select.Apply(cfg); err != nil {
		return err
	}
	ConfigWarnings(env.Stderr, cfg) // after --requests, which replaces the count warnings
	th, err := Thresholds(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	// Baselines are read before the run, so that a bad one costs no request.
	var hist []*results.File
	var names []string
	if in.Mode == "gate" {
		if hist, names, err = p.loadBaselines(ctx); err != nil {
			return err
		}
	}
	cur, err := p.measure(ctx, func(o MeasureOptions) (*results.File, error) {
		// Adaptive scenarios look at the stored baseline between batches;
		// against a history (or none) they run to their max.
		o.Thresholds = &th
		if len(hist) == 1 {
			o.Baseline = hist[0]
		}
		return Measure(ctx, cfg, o)
	})
	if err != nil {
		return err
	}
	if in.Mode == "record" {
		return p.record(ctx, cfg, cur)
	}
	rep, err := p.compareStored(hist, names, cur, cfg, th)
	if err != nil {
		return err
	}
	return p.publish(ctx, cfg, rep, nil)
}

// measure runs a measurement with the pipeline's options and writes its
// results, incomplete ones included (marked so).
func (p *pipeline) measure(ctx context.Context, run func(MeasureOptions) (*results.File, error)) (*results.File, error) {
	src := GitSource(p.env.Getenv, p.in.Region)
	if p.gc.InActions {
		src.GitSHA, src.GitRef, src.Runner = p.gc.SHA, p.gc.Ref, p.gc.RunnerName
		if p.gc.Head.SHA != "" && p.gc.PullRequest > 0 {
			src.GitSHA = p.gc.Head.SHA // the pull request's head, not the merge commit
		}
	}
	cur, merr := run(MeasureOptions{Source: src, Progress: p.env.Stderr, TTY: p.env.TTY, ToolVersion: p.env.ToolVersion})
	if cur != nil && len(cur.Runs) > 0 {
		if werr := fileio.Write(p.in.Path(p.in.Results), cur); werr != nil {
			return nil, AsCannotRun(werr)
		}
		if cur.Incomplete != "" {
			fmt.Fprintf(p.env.Stderr, "latgate: wrote what was measured to %s, marked incomplete\n", p.in.Path(p.in.Results))
		}
	}
	if merr != nil {
		_ = p.act.SetOutputs([]string{"verdict", "results"}, map[string]string{"verdict": "error", "results": ""})
		return nil, merr
	}
	return cur, nil
}

// record writes the baseline: the results, the baseline history folder
// (the previous history from the artifact, or without one the runs that an
// earlier record left in the folder, plus this run) and, in the same
// folder, main's trend with this run; then the job summary and the report
// name the trend's change points.
func (p *pipeline) record(ctx context.Context, cfg *suite.Config, cur *results.File) error {
	var b strings.Builder
	report.Measurements(&b, cur)
	fmt.Fprint(p.env.Stdout, b.String())
	dir := p.in.Path(p.in.BaselineDir)
	var tr *report.Trend
	if dir != "" {
		prev, prevTrend, err := p.recordHistory(ctx, cfg, cur, dir)
		if err != nil {
			return err
		}
		if tr, err = p.recordTrend(cfg, cur, prev, prevTrend, dir); err != nil {
			return err
		}
		tr.Recorded = b.String()
	} else {
		fmt.Fprintf(p.env.Stderr, "latgate: baseline recorded in %s: upload it as an artifact for pull requests to compare with\n", p.in.Path(p.in.Results))
	}
	summary := "### ⏱️ latgate: baseline recorded\n\n```\n" + b.String() + "```\n"
	if tr == nil {
		if err := p.act.Summary(summary); err != nil {
			p.act.Warning(err.Error())
		}
		return outputs(p.act, map[string]string{"verdict": "pass", "results": p.in.Path(p.in.Results), "baseline-dir": dir})
	}
	return p.publishTrend(tr, summary, dir)
}

// recordHistory writes the baseline history folder and returns what the
// trend starts from: the previous history (every run, of any
// configuration) and the previous trend file as stored (nil when none).
func (p *pipeline) recordHistory(ctx context.Context, cfg *suite.Config, cur *results.File, dir string) ([]publish.HistoryFile, []byte, error) {
	var prev []publish.HistoryFile
	var prevTrend []byte
	var err error
	if p.in.BaselineArtifact != "" {
		h, err := p.fetchHistory(ctx, p.gc.RefName)
		if err != nil && !errors.Is(err, publish.ErrNoArtifact) {
			return nil, nil, err
		}
		if h.TrendErr != nil {
			fmt.Fprintf(p.env.Stderr, "latgate: warning: the artifact's trend file cannot be read (%v): the trend starts again from the history\n", h.TrendErr)
		}
		prev, prevTrend = h.Files, h.Trend
	} else if prev, err = publish.ReadHistoryDir(dir); err != nil {
		return nil, nil, AsCannotRun(err)
	} else {
		if len(prev) > 0 {
			fmt.Fprintf(p.env.Stderr, "latgate: no baseline-artifact: the history continues from the %d run(s) already in %s\n", len(prev), dir)
		}
		prevTrend = readTrendDir(dir, p.env.Stderr)
	}
	data, err := os.ReadFile(p.in.Path(p.in.Results))
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	hf, err := publish.NewHistoryFile(publish.HistoryName(cur.CreatedAt), data)
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	keep := publish.NextHistory(sameSuite(prev, cur, p.env.Stderr), hf, cfg.Regression.History)
	removed, err := publish.WriteHistory(dir, keep, p.in.Path(p.in.Results))
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	if len(removed) > 0 {
		fmt.Fprintf(p.env.Stderr, "latgate: removed %d run(s) that left the history from %s: %s\n", len(removed), dir, strings.Join(removed, ", "))
	}
	fmt.Fprintf(p.env.Stderr, "latgate: baseline history of %d run(s) in %s: %s\n", len(keep), dir, uploadHint(p.in.BaselineArtifact))
	return prev, prevTrend, nil
}

// uploadHint says what to do with the baseline history folder.
func uploadHint(artifact string) string {
	if artifact == "" {
		return "upload the folder as an artifact and give its name as baseline-artifact to the pull-request runs " +
			"(and to this record step, so that the next recording keeps this history)"
	}
	return fmt.Sprintf("upload the folder as the artifact %q for pull requests to compare with", artifact)
}

// sameSuite keeps the history files that measured every (endpoint,
// scenario) they share with cur under the same configuration: a change to
// the suite on the base branch starts a new history instead of mixing runs
// of two configurations.
func sameSuite(prev []publish.HistoryFile, cur *results.File, log io.Writer) []publish.HistoryFile {
	fp := map[string]string{}
	for _, r := range cur.Runs {
		fp[r.Key()] = r.Fingerprint
	}
	var keep []publish.HistoryFile
	for _, hf := range prev {
		f, err := fileio.Decode(hf.Name, hf.Data)
		if err != nil {
			fmt.Fprintf(log, "latgate: dropping %s from the baseline history: %v\n", hf.Name, err)
			continue
		}
		same := true
		for _, r := range f.Runs {
			if want, ok := fp[r.Key()]; ok && want != r.Fingerprint {
				same = false
			}
		}
		if !same {
			fmt.Fprintf(log, "latgate: dropping %s from the baseline history: the suite's configuration changed since\n", hf.Name)
			continue
		}
		keep = append(keep, hf)
	}
	return keep
}

// ab measures the base and head variants interleaved and compares them.
func (p *pipeline) ab(ctx context.Context) error {
	in := p.in
	base, head, err := LoadAB(ctx, p.env, ABOptions{Config: in.Path(in.Config), BaseConfig: in.Path(in.BaseConfig),
		BaseURL: in.BaseURL, HeadURL: in.HeadURL, Region: in.Region, Select: in.Select, HeadOnlyIfNew: true})
	if err != nil {
		return err
	}
	p.act.Mask(head.Secrets()...)
	th, err := Thresholds(head, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	if base == nil {
		return p.headOnly(ctx, head, th)
	}
	p.act.Mask(base.Secrets()...)
	cur, err := p.measure(ctx, func(o MeasureOptions) (*results.File, error) {
		o.Thresholds = &th
		return MeasureAB(ctx, base, head, o)
	})
	if err != nil {
		return err
	}
	rep, noise, err := CompareAB(cur, in.Path(in.Results), th)
	if err != nil {
		return err
	}
	return p.publish(ctx, head, rep, noise)
}

// headOnly is mode ab on the pull request that adds the suite: there is no
// base variant, so the head is measured alone and every check is
// no_baseline (budgets still apply), as with baseline: none.
func (p *pipeline) headOnly(ctx context.Context, head *suite.Config, th compare.Config) error {
	cur, err := p.measure(ctx, func(o MeasureOptions) (*results.File, error) {
		o.Thresholds = &th
		return Measure(ctx, head, o)
	})
	if err != nil {
		return err
	}
	rep, err := CompareFiles(nil, cur, "", p.in.Path(p.in.Results), th)
	if err != nil {
		return err
	}
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("no baseline yet: the suite is new in this pull request (not at the base commit %s), "+
		"so only the head was measured; budgets still apply", shortSHA(p.gc.BaseSHA)))
	return p.publish(ctx, head, rep, nil)
}

// Publish compares a results file measured elsewhere (the fork-safe split's
// second half) with its baseline and publishes the verdict. An A/B file
// needs no baseline.
func Publish(ctx context.Context, env Env, in Inputs) error {
	p, err := newPipeline(env, in, "publish")
	if err != nil {
		return err
	}
	if in.Results == "" {
		return BadInputf("results: give the results file to publish (--results FILE)")
	}
	cur, err := fileio.Read(in.Path(in.Results))
	if err != nil {
		return AsBadInput(err)
	}
	cfg, err := publishSuite(env, in, cur)
	if err != nil {
		return err
	}
	th, err := Thresholds(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "latgate: publishing %s (recorded %s)\n", in.Path(in.Results), cur.CreatedAt.Format(time.RFC3339))
	if cur.Interleaved() {
		rep, noise, err := CompareAB(cur, in.Path(in.Results), th)
		if err != nil {
			return err
		}
		return p.publish(ctx, cfg, rep, noise)
	}
	hist, names, err := p.loadBaselines(ctx)
	if err != nil {
		return err
	}
	rep, err := p.compareStored(hist, names, cur, cfg, th)
	if err != nil {
		return err
	}
	return p.publish(ctx, cfg, rep, nil)
}

// publishSuite is the suite whose thresholds and budgets publish applies.
// A file imported from another tool (latgate import) was measured without
// one: when the default suite file does not exist, the default thresholds
// apply, as in latgate compare.
func publishSuite(env Env, in Inputs, cur *results.File) (*suite.Config, error) {
	path := in.Path(in.Config)
	if cur.Source.Tool != "" && in.Config == DefaultConfig {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(env.Stderr, "latgate: %s was imported from %s and there is no %s: default thresholds, no budgets\n", in.Path(in.Results), cur.Source.Tool, path)
			return nil, nil
		}
	}
	cfg, err := LoadConfig(path, env.Getenv, true)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "latgate: thresholds and budgets from %s\n", path)
	return cfg, nil
}

func (p *pipeline) github() (*publish.GitHub, error) {
	client := p.env.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	return p.gc.NewGitHub(client, p.in.GitHubToken)
}

func (p *pipeline) fetchHistory(ctx context.Context, branch string) (publish.History, error) {
	name := p.in.BaselineArtifact
	if p.in.GitHubToken == "" {
		return publish.History{}, BadInputf("baseline-artifact %q: no GitHub token to fetch it (github-token input or GITHUB_TOKEN)", name)
	}
	gh, err := p.github()
	if err != nil {
		return publish.History{}, BadInputf("baseline-artifact %q: %v", name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	h, err := gh.FetchHistory(ctx, publish.ArtifactQuery{Name: name, Branch: branch, WorkflowFile: cmp.Or(p.in.BaselineWorkflow, p.gc.WorkflowFile())})
	switch {
	case errors.Is(err, publish.ErrNoArtifact):
		return h, err
	case errors.Is(err, publish.ErrBadArtifact):
		return h, BadInputf("baseline-artifact %q: %v", name, err)
	case err != nil:
		return h, AsCannotRun(fmt.Errorf("fetching the baseline artifact %q: %w", name, err))
	}
	return h, nil
}

// loadBaselines finds the stored baselines: files (comma-separated, oldest
// first), else an artifact (every run of its history). A baseline that was
// asked for and cannot be had is an error; only an explicit "none", or an
// artifact that the base branch has never recorded (the first run on a new
// repository), means "no baseline yet".
func (p *pipeline) loadBaselines(ctx context.Context) ([]*results.File, []string, error) {
	in := p.in
	switch {
	case in.Baseline == NoBaseline:
		return nil, nil, nil
	case in.Baseline != "":
		var files []*results.File
		var names []string
		for _, b := range strings.Split(in.Baseline, ",") {
			path := in.Path(strings.TrimSpace(b))
			f, err := fileio.Read(path)
			if err != nil {
				return nil, nil, AsBadInput(err)
			}
			files, names = append(files, f), append(names, path)
		}
		return files, names, nil
	case in.BaselineArtifact == "":
		return nil, nil, BadInputf("no baseline: give baseline (a results file), baseline-artifact (an artifact recorded on the base branch), mode: ab (no stored baseline needed), or baseline: %s to run without one", NoBaseline)
	}
	h, err := p.fetchHistory(ctx, cmp.Or(in.BaseBranch, p.gc.BaseRef, p.gc.DefaultBranch, "main"))
	if errors.Is(err, publish.ErrNoArtifact) {
		fmt.Fprintf(p.env.Stderr, "latgate: no baseline yet: %v\n", err)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var files []*results.File
	var names []string
	for _, hf := range h.Files {
		f, err := fileio.Decode("artifact "+in.BaselineArtifact+"/"+hf.Name, hf.Data)
		if err != nil {
			return nil, nil, AsBadInput(err)
		}
		files, names = append(files, f), append(names, "artifact "+in.BaselineArtifact+"/"+hf.Name)
	}
	fmt.Fprintf(p.env.Stderr, "latgate: baseline history of %d run(s) from artifact %q of %s\n", len(files), in.BaselineArtifact, h.RunURL)
	if _, err := fileio.DecodeTrend(fileio.TrendName, h.Trend); len(h.Trend) > 0 && err == nil {
		p.trendURL = h.RunURL // its record run's report draws the trend
	}
	return files, names, nil
}

// compareStored compares with the stored baselines (none: every check is
// no_baseline) and adds the baseline's provenance warnings.
func (p *pipeline) compareStored(hist []*results.File, names []string, cur *results.File, cfg *suite.Config, th compare.Config) (*report.Report, error) {
	resultsName := p.in.Path(p.in.Results)
	rep, err := CompareStored(hist, names, cur, resultsName, th)
	if errors.Is(err, ErrNoCommonRun) {
		fmt.Fprintf(p.env.Stderr, "latgate: warning: %v: every check is no_baseline\n", err)
		hist = nil
		rep, err = CompareFiles(nil, cur, "", resultsName, th)
	}
	if err != nil {
		return nil, err
	}
	if len(hist) == 0 {
		rep.Warnings = append(rep.Warnings, "no baseline yet: every check is no_baseline; record one on the base branch with mode: record, or use mode: ab")
		return rep, nil
	}
	maxAge := time.Duration(0)
	if cfg != nil {
		maxAge = cfg.Regression.MaxBaselineAge
	}
	rep.Warnings = append(rep.Warnings, provenanceWarnings(hist[len(hist)-1], cur, maxAge)...)
	return rep, nil
}

// publish renders the report, writes it, the summary, outputs, annotations
// and the comment, and returns the verdict as an error.
func (p *pipeline) publish(ctx context.Context, cfg *suite.Config, rep *report.Report, noise []compare.NoiseCheck) error {
	env, in := p.env, p.in
	key := in.CommentKey
	if key == "" {
		key = strings.Trim(strings.Join([]string{p.gc.Workflow, p.gc.Job, in.Config}, "/"), "/")
	}
	marker := CommentMarker(key)
	runURL := p.gc.RunURL()
	rep.Provenance.RunURL = runURL
	rep.Provenance.TrendURL = p.trendURL
	if runURL != "" {
		rep.Provenance.ReportURL = runURL + "#artifacts"
	}
	if rep.Provenance.Mode == "ab" && p.gc.BaseSHA != "" {
		rep.Provenance.BaseSHA = p.gc.BaseSHA
	}
	p.accept(rep)
	extra := report.NoiseMarkdown(noise)
	full := report.Markdown(rep, report.MarkdownOptions{}) + extra
	if err := fileio.WriteAtomic(in.Path(in.Report), []byte(full)); err != nil {
		return AsCannotRun(err)
	}
	htmlPath := HTMLPath(in.Path(in.Report))
	var page strings.Builder
	if err := report.HTML(&page, rep); err != nil {
		return AsCannotRun(err)
	}
	if err := fileio.WriteAtomic(htmlPath, []byte(page.String())); err != nil {
		return AsCannotRun(err)
	}
	report.Text(env.Stdout, rep, env.Color)
	report.NoiseText(env.Stdout, noise)
	if err := p.act.Summary(full); err != nil {
		fmt.Fprintf(env.Stderr, "latgate: warning: %v\n", err)
	}
	p.act.Annotate(annotations(env, in, cfg, rep))

	body := report.Markdown(rep, report.MarkdownOptions{Marker: marker, MaxLen: 65536 - len(extra), SummaryURL: runURL}) + extra
	commentURL, commentErr := p.comment(ctx, marker, body)
	regressions := 0
	for _, c := range rep.Result.Checks {
		if c.Status == vocab.Regression {
			regressions++
		}
	}
	err := outputs(p.act, map[string]string{"verdict": rep.Verdict, "results": in.Path(in.Results), "report": in.Path(in.Report), "report-html": htmlPath,
		"regressions": strconv.Itoa(regressions), "comment-url": commentURL})
	if err != nil {
		return err
	}
	if rep.Verdict == "fail" {
		fmt.Fprintln(env.Stderr, "latgate: the gate failed: "+rep.Headline)
	}
	return p.commentOutcome(commentErr, rep.Verdict == "fail")
}

// accept turns a failing verdict into an accepted one when the pull request
// carries the accept label and every failing check is about latency (an
// error-rate rise is never accepted this way).
func (p *pipeline) accept(rep *report.Report) {
	ok, by := p.gc.Labeled(p.in.AcceptLabel)
	if !ok || rep.Verdict != "fail" {
		return
	}
	failing := 0
	for _, c := range rep.Result.Checks {
		if slices.Contains(rep.Thresholds.FailOn, c.Status) {
			if c.Metric == vocab.Errors {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("the label %q accepts latency changes, not a rise in failed requests: the gate still fails", p.in.AcceptLabel))
				return
			}
			failing++
		}
	}
	who := "the label"
	if by != "" {
		who = "@" + by + " with the label"
	}
	rep.Verdict = "pass"
	rep.Headline = fmt.Sprintf("accepted: %s (accepted by %s %q)", rep.Headline, who, p.in.AcceptLabel)
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d failing check(s) accepted on purpose by %s %q: reported, not failed", failing, who, p.in.AcceptLabel))
}

// Outputs are the Action's outputs (action.yml).
var Outputs = []string{"verdict", "results", "report", "report-html", "regressions", "comment-url", "baseline-dir", "change-points"}

// HTMLPath is where the HTML report goes: beside the Markdown report.
func HTMLPath(markdown string) string {
	return strings.TrimSuffix(markdown, filepath.Ext(markdown)) + ".html"
}

func outputs(act *publish.Actions, values map[string]string) error {
	return AsCannotRun(act.SetOutputs(Outputs, values))
}

// annotations point each failing scenario at its line in the config (at
// no file without a suite: an imported results file).
func annotations(env Env, in Inputs, cfg *suite.Config, rep *report.Report) []publish.Annotation {
	file := in.Path(in.Config)
	if cfg == nil {
		file = ""
	}
	if ws := env.Getenv("GITHUB_WORKSPACE"); ws != "" && file != "" {
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
			if c.Status == vocab.Regression || c.Status == vocab.OverBudget {
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
	name := string(c.Metric) + " " + string(c.Stat)
	if c.Metric == vocab.Errors {
		return fmt.Sprintf("error rate %s: %.1f%% → %.1f%%", strings.ReplaceAll(string(c.Status), "_", " "), 100*c.Baseline, 100*c.Current)
	}
	if c.Status == vocab.OverBudget {
		return fmt.Sprintf("%s %s ms over its budget of %s ms", name, report.Millis(c.Current), report.Millis(c.Budget))
	}
	return fmt.Sprintf("%s regressed %+.1f%% (%s → %s ms)", name, c.DeltaPct, report.Millis(c.Baseline), report.Millis(c.Current))
}

package gate

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
)

// InputSpec describes one Action input (action.yml): each is also a flag
// of gate and publish, read from INPUT_<NAME> when the flag is absent.
type InputSpec struct {
	Name, Default, Usage string
	Bool                 bool
	// Words are the values accepted besides true and false (Bool inputs),
	// or the only values (mode).
	Words    []string
	GateOnly bool // not a flag of publish
	Set      func(in *Inputs, v string) error
}

func str(dst func(*Inputs) *string) func(*Inputs, string) error {
	return func(in *Inputs, v string) error { *dst(in) = v; return nil }
}

func list(dst func(*Inputs) *[]string) func(*Inputs, string) error {
	return func(in *Inputs, v string) error {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
			if f = strings.TrimSpace(f); f != "" {
				*dst(in) = append(*dst(in), f)
			}
		}
		return nil
	}
}

func boolean(name string, dst func(*Inputs) *bool) func(*Inputs, string) error {
	return func(in *Inputs, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return BadInputf("%s: want true or false, got %q", name, v)
		}
		*dst(in) = b
		return nil
	}
}

// DefaultConfig is the suite file gate and publish read when none is given
// (the default of action.yml's config input, and what latgate init writes).
const DefaultConfig = "latgate.yaml"

// InputSpecs lists every Action input (action.yml).
var InputSpecs = []InputSpec{
	{Name: "config", Default: DefaultConfig, Usage: "suite file", Set: str(func(in *Inputs) *string { return &in.Config })},
	{Name: "mode", Default: "gate", Usage: "gate (compare with a stored baseline), record (write the baseline) or ab (base and head interleaved in this job)", Words: Modes, GateOnly: true, Set: str(func(in *Inputs) *string { return &in.Mode })},
	{Name: "baseline", Usage: `baseline results file(s), comma-separated and oldest first for a history, or "none" to run without one`, Set: str(func(in *Inputs) *string { return &in.Baseline })},
	{Name: "baseline-artifact", Usage: "name of an artifact on the base branch holding the baseline history", Set: str(func(in *Inputs) *string { return &in.BaselineArtifact })},
	{Name: "baseline-workflow", Usage: "the workflow file (e.g. latgate.yml) whose push runs on the base branch record baseline-artifact (default: this run's workflow; the fork-safe publish job names the recording workflow)", Set: workflowFile},
	{Name: "baseline-dir", Default: "latgate-baseline", Usage: "record: the folder of the baseline history to upload as the artifact (latgate removes only the results-<created_at>.json files it wrote there)", GateOnly: true, Set: str(func(in *Inputs) *string { return &in.BaselineDir })},
	{Name: "base-config", Usage: "ab: the base suite (default: the config at the pull request's base commit; absent there, the head is measured alone: no baseline yet)", GateOnly: true, Set: str(func(in *Inputs) *string { return &in.BaseConfig })},
	{Name: "base-url", Usage: "ab: ENDPOINT=URL for the base variant (comma- or newline-separated)", GateOnly: true, Set: list(func(in *Inputs) *[]string { return &in.BaseURL })},
	{Name: "head-url", Usage: "ab: ENDPOINT=URL for the head variant (comma- or newline-separated)", GateOnly: true, Set: list(func(in *Inputs) *[]string { return &in.HeadURL })},
	{Name: "base-branch", Usage: "branch whose push runs hold the baseline artifact (default $GITHUB_BASE_REF, else the repository's default branch)", Set: str(func(in *Inputs) *string { return &in.BaseBranch })},
	{Name: "comment", Default: "true", Bool: true, Words: []string{"required"}, Usage: "post or update the sticky pull-request comment: true (a comment that cannot be posted is a warning in gate, an error in publish), false, or required (an error in gate too)", Set: commentMode},
	{Name: "comment-key", Usage: "key of the sticky comment (default: workflow/job/config)", Set: str(func(in *Inputs) *string { return &in.CommentKey })},
	{Name: "github-token", Usage: "token for the GitHub API (default $GITHUB_TOKEN)", Set: str(func(in *Inputs) *string { return &in.GitHubToken })},
	{Name: "fail-on", Usage: "statuses that fail the gate, comma-separated (default from the config)", Set: str(func(in *Inputs) *string { return &in.FailOn })},
	{Name: "working-directory", Usage: "folder that relative paths are resolved against", Set: str(func(in *Inputs) *string { return &in.WorkingDirectory })},
	{Name: "dry-run", Bool: true, Usage: "print the comment instead of posting it (default: true outside GitHub Actions)", Set: boolean("dry-run", func(in *Inputs) *bool { return &in.DryRun })},
	{Name: "results", Default: "latgate-results.json", Usage: "where to write (gate) or read (publish, required) the results file", Set: str(func(in *Inputs) *string { return &in.Results })},
	{Name: "report", Default: "latgate-report.md", Usage: "where to write the Markdown report", Set: str(func(in *Inputs) *string { return &in.Report })},
	{Name: "region", Usage: "region label recorded in the results", GateOnly: true, Set: str(func(in *Inputs) *string { return &in.Region })},
	{Name: "pr", Usage: "pull request number to comment on (default: from the event)", Set: func(in *Inputs, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return BadInputf("pr: want a pull request number, got %q", v)
		}
		in.PR = n
		return nil
	}},
	{Name: "accept-label", Default: "latency-accepted", Usage: "a pull-request label that accepts a latency regression on purpose: reported as accepted, not failed (\"\" turns it off)", Set: str(func(in *Inputs) *string { return &in.AcceptLabel })},
	{Name: "head-sha", Usage: "find the pull request by its head commit (workflow_run jobs)", Set: str(func(in *Inputs) *string { return &in.HeadSHA })},
	{Name: "fail-on-change-point", Default: "false", Bool: true, GateOnly: true, Usage: "record: fail the run when it announces a change point of main's trend that is a slowdown (the baseline and the trend are written first)",
		Set: boolean("fail-on-change-point", func(in *Inputs) *bool { return &in.FailOnChangePoint })},
}

// commentMode sets the comment input: true, false or required.
func commentMode(in *Inputs, v string) error {
	if v == "required" {
		in.Comment, in.CommentRequired = true, true
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return BadInputf("comment: want true, false or required, got %q", v)
	}
	in.Comment, in.CommentRequired = b, false
	return nil
}

// workflowFile sets the baseline-workflow input: a workflow's file name
// (latgate.yml, or .github/workflows/latgate.yml), as the API names it.
func workflowFile(in *Inputs, v string) error {
	name := strings.TrimPrefix(v, ".github/workflows/")
	if !validWorkflowFile.MatchString(name) {
		return BadInputf("baseline-workflow: want a workflow's file name such as latgate.yml, got %q", v)
	}
	in.BaselineWorkflow = name
	return nil
}

var validWorkflowFile = regexp.MustCompile(`^[A-Za-z0-9_.-]+\.ya?ml$`)

// DefaultFor is the input's default for a command (publish reads results
// it is given, so it has no default there).
func (s InputSpec) DefaultFor(command string) string {
	if command == "publish" && s.Name == "results" {
		return ""
	}
	return s.Default
}

// SpecsFor lists the inputs of a command (gate or publish).
func SpecsFor(command string) []InputSpec {
	var out []InputSpec
	for _, s := range InputSpecs {
		if command == "publish" && s.GateOnly {
			continue
		}
		out = append(out, s)
	}
	return out
}

// ResolveInputs builds a command's inputs: a flag given on the command line
// wins, even empty ("" turns a default off); else the Action input
// (INPUT_<NAME>); else the default. dry-run defaults to true outside GitHub
// Actions, github-token to $GITHUB_TOKEN.
func ResolveInputs(command string, given map[string]string, getenv func(string) string) (Inputs, error) {
	act := publish.NewActions(io.Discard, getenv)
	in := Inputs{DryRun: !act.InActions(), defaulted: map[string]bool{}}
	for _, s := range SpecsFor(command) {
		v, ok := given[s.Name]
		if !ok {
			if v = act.Input(s.Name); v == "" {
				v = s.DefaultFor(command)
				in.defaulted[s.Name] = true
			}
		}
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if err := s.Set(&in, v); err != nil {
			return Inputs{}, err
		}
	}
	if in.GitHubToken == "" {
		in.GitHubToken = getenv("GITHUB_TOKEN")
	}
	return in, nil
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
	// defaulted are the inputs ResolveInputs took from their defaults
	// (given neither as a flag nor as an Action input).
	defaulted map[string]bool
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
		if err := fileio.WritableDir(in.Path(p.path)); err != nil {
			return BadInputf("%s: %v", p.name, err)
		}
	}
	if err := in.checkOutputs(command); err != nil {
		return err
	}
	if in.Mode == "record" && in.BaselineDir != "" {
		if err := fileio.CreatableDir(in.Path(in.BaselineDir)); err != nil {
			return BadInputf("baseline-dir: %v", err)
		}
	}
	if in.Baseline != "" && in.Baseline != NoBaseline && in.Mode != "ab" {
		for _, b := range strings.Split(in.Baseline, ",") {
			if _, err := os.Stat(in.Path(strings.TrimSpace(b))); err != nil {
				return BadInputf("baseline %s: %v (to run without a baseline say so: baseline: %s)", in.Path(b), fileio.PathCause(err), NoBaseline)
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

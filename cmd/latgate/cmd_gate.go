package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/publish"
)

// actionInput describes one Action input (action.yml): each is also a flag
// of gate and publish, read from INPUT_<NAME> when the flag is absent.
type actionInput struct {
	name, def, usage string
	boolean          bool
	gateOnly         bool // not a flag of publish
	set              func(in *gate.Inputs, v string) error
}

func str(dst func(*gate.Inputs) *string) func(*gate.Inputs, string) error {
	return func(in *gate.Inputs, v string) error { *dst(in) = v; return nil }
}

func list(dst func(*gate.Inputs) *[]string) func(*gate.Inputs, string) error {
	return func(in *gate.Inputs, v string) error {
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '\n' }) {
			if f = strings.TrimSpace(f); f != "" {
				*dst(in) = append(*dst(in), f)
			}
		}
		return nil
	}
}

func boolean(name string, dst func(*gate.Inputs) *bool) func(*gate.Inputs, string) error {
	return func(in *gate.Inputs, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return gate.BadInputf("%s: want true or false, got %q", name, v)
		}
		*dst(in) = b
		return nil
	}
}

var actionInputs = []actionInput{
	{name: "config", def: "latgate.yaml", usage: "suite file", set: str(func(in *gate.Inputs) *string { return &in.Config })},
	{name: "mode", def: "gate", usage: "gate (compare with a stored baseline), record (write the baseline) or ab (base and head interleaved in this job)", gateOnly: true, set: str(func(in *gate.Inputs) *string { return &in.Mode })},
	{name: "baseline", usage: `baseline results file(s), comma-separated and oldest first for a history, or "none" to run without one`, set: str(func(in *gate.Inputs) *string { return &in.Baseline })},
	{name: "baseline-artifact", usage: "name of an artifact on the base branch holding the baseline history", set: str(func(in *gate.Inputs) *string { return &in.BaselineArtifact })},
	{name: "baseline-dir", def: "latgate-baseline", usage: "record: the folder of the baseline history to upload as the artifact", gateOnly: true, set: str(func(in *gate.Inputs) *string { return &in.BaselineDir })},
	{name: "base-config", usage: "ab: the base suite (default: the config at the pull request's base commit)", gateOnly: true, set: str(func(in *gate.Inputs) *string { return &in.BaseConfig })},
	{name: "base-url", usage: "ab: ENDPOINT=URL for the base variant (comma- or newline-separated)", gateOnly: true, set: list(func(in *gate.Inputs) *[]string { return &in.BaseURL })},
	{name: "head-url", usage: "ab: ENDPOINT=URL for the head variant (comma- or newline-separated)", gateOnly: true, set: list(func(in *gate.Inputs) *[]string { return &in.HeadURL })},
	{name: "base-branch", usage: "branch whose runs hold the baseline artifact (default $GITHUB_BASE_REF, else main)", set: str(func(in *gate.Inputs) *string { return &in.BaseBranch })},
	{name: "comment", def: "true", boolean: true, usage: "post or update the sticky pull-request comment", set: boolean("comment", func(in *gate.Inputs) *bool { return &in.Comment })},
	{name: "comment-key", usage: "key of the sticky comment (default: workflow/job/config)", set: str(func(in *gate.Inputs) *string { return &in.CommentKey })},
	{name: "github-token", usage: "token for the GitHub API (default $GITHUB_TOKEN)", set: str(func(in *gate.Inputs) *string { return &in.GitHubToken })},
	{name: "fail-on", usage: "statuses that fail the gate, comma-separated (default from the config)", set: str(func(in *gate.Inputs) *string { return &in.FailOn })},
	{name: "working-directory", usage: "folder that relative paths are resolved against", set: str(func(in *gate.Inputs) *string { return &in.WorkingDirectory })},
	{name: "dry-run", boolean: true, usage: "print the comment instead of posting it (default: true outside GitHub Actions)", set: boolean("dry-run", func(in *gate.Inputs) *bool { return &in.DryRun })},
	{name: "results", def: "latgate-results.json", usage: "where to write (gate) or read (publish, required) the results file", set: str(func(in *gate.Inputs) *string { return &in.Results })},
	{name: "report", def: "latgate-report.md", usage: "where to write the Markdown report", set: str(func(in *gate.Inputs) *string { return &in.Report })},
	{name: "region", usage: "region label recorded in the results", gateOnly: true, set: str(func(in *gate.Inputs) *string { return &in.Region })},
	{name: "pr", usage: "pull request number to comment on (default: from the event)", set: func(in *gate.Inputs, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return gate.BadInputf("pr: want a pull request number, got %q", v)
		}
		in.PR = n
		return nil
	}},
	{name: "accept-label", def: "latency-accepted", usage: "a pull-request label that accepts a latency regression on purpose: reported as accepted, not failed (\"\" turns it off)", set: str(func(in *gate.Inputs) *string { return &in.AcceptLabel })},
	{name: "head-sha", usage: "find the pull request by its head commit (workflow_run jobs)", set: str(func(in *gate.Inputs) *string { return &in.HeadSHA })},
}

// boolFlag is a real boolean flag (--dry-run, --dry-run=false) that
// remembers its text, so INPUT_* can fill it when it is absent.
type boolFlag struct{ v *string }

func (b boolFlag) String() string {
	if b.v == nil {
		return ""
	}
	return *b.v
}
func (b boolFlag) Set(s string) error {
	if _, err := strconv.ParseBool(s); err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	*b.v = s
	return nil
}
func (b boolFlag) IsBoolFlag() bool { return true }

// parseInputs reads flags, then INPUT_* for the flags not given, then the
// defaults; dry-run defaults to true outside GitHub Actions.
func parseInputs(e *env, cmd string, args []string, act *publish.Actions) (gate.Inputs, error) {
	fs := flag.NewFlagSet("latgate "+cmd, flag.ContinueOnError)
	vals := map[string]*string{}
	for _, d := range actionInputs {
		if cmd == "publish" && d.gateOnly {
			continue
		}
		def := d.def
		if cmd == "publish" && d.name == "results" {
			def = ""
		}
		usage := fmt.Sprintf("%s (Action input %q", d.usage, d.name)
		if def != "" {
			usage += fmt.Sprintf("; default %s", def)
		}
		usage += ")"
		v := new(string)
		vals[d.name] = v
		if d.boolean {
			fs.Var(boolFlag{v}, d.name, usage)
		} else {
			fs.StringVar(v, d.name, "", usage)
		}
	}
	fs.StringVar(vals["config"], "c", "", "suite file (same as --config)")
	var sel *gate.Selection
	if cmd == "gate" {
		sel = selectionFlags(fs)
	}
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return gate.Inputs{}, err
	}
	if len(pos) > 0 {
		return gate.Inputs{}, gate.BadInputf("%s takes no arguments, got %q (see latgate %s -h)", cmd, pos[0], cmd)
	}
	in := gate.Inputs{DryRun: !act.InActions()}
	if sel != nil {
		in.Select = *sel
	}
	for _, d := range actionInputs {
		p, ok := vals[d.name]
		if !ok {
			continue
		}
		v := *p
		// A flag given on the command line wins, even empty ("" turns a
		// default off); else the Action input; else the default.
		if !set(fs, d.name) && !(d.name == "config" && set(fs, "c")) {
			if v = act.Input(d.name); v == "" && !(cmd == "publish" && d.name == "results") {
				v = d.def
			}
		}
		if v == "" {
			continue
		}
		if err := d.set(&in, strings.TrimSpace(v)); err != nil {
			return gate.Inputs{}, err
		}
	}
	if in.GitHubToken == "" {
		in.GitHubToken = e.getenv("GITHUB_TOKEN")
	}
	return in, nil
}

func (e *env) gateEnv() gate.Env {
	return gate.Env{Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv, Color: isTerminal(e.stdout), TTY: progressBar(e), ToolVersion: toolVersion()}
}

func cmdGate(e *env, args []string) error {
	in, err := parseInputs(e, "gate", args, publish.NewActions(e.stdout, e.getenv))
	if err != nil {
		return err
	}
	return gate.Gate(e.ctx, e.gateEnv(), in)
}

func cmdPublish(e *env, args []string) error {
	in, err := parseInputs(e, "publish", args, publish.NewActions(e.stdout, e.getenv))
	if err != nil {
		return err
	}
	return gate.Publish(e.ctx, e.gateEnv(), in)
}

// Package publish is latgate's GitHub side: the workflow run's typed
// context (Context: repository, commit, run, the event's pull request),
// the sticky pull-request comment, finding a pull request by its head
// (fork pull requests included), the job summary, step outputs,
// annotations, secret masks, the baseline artifact with its history of
// results files, and a file as it is at a commit (Git.FileAt, for the base
// variant of an A/B run). Workflow commands, files and the context go
// through go-githubactions; REST calls through go-github with an injected
// *http.Client, so tests fake the API (internal/ghfake).
//
// It renders nothing and decides nothing: bodies come from package report,
// verdicts from package compare, and results files are decoded by package
// baseline. A failure to publish is returned to the caller, which decides
// what it means for the exit code; publishing never changes a verdict.
package publish

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/latgate/latgate/internal/redact"
)

// Actions writes workflow commands (to out) and workflow files (named by
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY).
type Actions struct {
	a      *githubactions.Action
	getenv func(string) string
}

// NewActions returns an Actions writing commands to out.
func NewActions(out io.Writer, getenv func(string) string) *Actions {
	return &Actions{
		a:      githubactions.New(githubactions.WithWriter(out), githubactions.WithGetenv(githubactions.GetenvFunc(getenv))),
		getenv: getenv,
	}
}

// InActions reports whether this process runs inside GitHub Actions.
func (x *Actions) InActions() bool { return x.getenv("GITHUB_ACTIONS") == "true" }

// Mask asks the runner to hide each secret in the log, and its encodings
// (percent-encoded, JSON-escaped, base64: redact.Forms): the runner masks
// exact strings, and what it derives itself is its own. Call it before printing anything else. Outside
// Actions it does nothing.
func (x *Actions) Mask(secrets ...string) {
	if !x.InActions() {
		return
	}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		for _, f := range redact.Forms(s) {
			x.a.AddMask(f)
		}
	}
}

// fileCommand runs a go-githubactions file command, which panics when the
// file cannot be written, and turns that into an error.
func (x *Actions) fileCommand(env string, f func()) (err error) {
	if x.getenv(env) == "" {
		return nil // not in Actions, or the runner does not offer this file
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("writing %s: %v", env, r)
		}
	}()
	f()
	return nil
}

// SetOutputs sets step outputs (GITHUB_OUTPUT), in the order of keys.
func (x *Actions) SetOutputs(keys []string, values map[string]string) error {
	return x.fileCommand("GITHUB_OUTPUT", func() {
		for _, k := range keys {
			x.a.SetOutput(k, values[k])
		}
	})
}

// Summary appends Markdown to the job summary (GITHUB_STEP_SUMMARY).
func (x *Actions) Summary(markdown string) error {
	return x.fileCommand("GITHUB_STEP_SUMMARY", func() { x.a.AddStepSummary(markdown) })
}

// Annotation points at a line of a file.
type Annotation struct {
	Level string // "error", "warning" or "notice"
	File  string
	Line  int
	Title string
	Msg   string
}

// Annotate emits annotations; outside Actions it does nothing.
func (x *Actions) Annotate(list []Annotation) {
	if !x.InActions() {
		return
	}
	for _, an := range list {
		fields := map[string]string{"title": an.Title}
		if an.File != "" {
			fields["file"] = an.File
		}
		if an.Line > 0 {
			fields["line"] = strconv.Itoa(an.Line)
		}
		a := x.a.WithFieldsMap(fields)
		switch an.Level {
		case "warning":
			a.Warningf("%s", an.Msg)
		case "notice":
			a.Noticef("%s", an.Msg)
		default:
			a.Errorf("%s", an.Msg)
		}
	}
}

// Warning prints a warning annotation in Actions.
func (x *Actions) Warning(msg string) {
	if x.InActions() {
		x.a.Warningf("%s", msg)
	}
}

// Error prints an error annotation in Actions.
func (x *Actions) Error(msg string) {
	if x.InActions() {
		x.a.Errorf("%s", msg)
	}
}

// Input reads an Action input from INPUT_<NAME> (GitHub keeps dashes; some
// wrappers turn them into underscores, so both are read).
func (x *Actions) Input(name string) string {
	up := strings.ToUpper(strings.ReplaceAll(name, " ", "_"))
	if v := x.getenv("INPUT_" + up); v != "" {
		return strings.TrimSpace(v)
	}
	return strings.TrimSpace(x.getenv("INPUT_" + strings.ReplaceAll(up, "-", "_")))
}

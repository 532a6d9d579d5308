package gate

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/suite"
)

// ValidateOptions say what latgate validate checks.
type ValidateOptions struct {
	Config string
	// SkipEnv checks the suite without the environment: API keys and
	// ${VAR}s are not resolved (a pre-commit hook or an editor has no
	// secrets); everything else is checked as run checks it.
	SkipEnv bool
}

// Validate is latgate validate: the suite checked with every rule run
// applies before it sends anything — the file, its prompt files, the
// environment's keys and ${VAR}s (unless SkipEnv), the plan (the
// requests it sends against limits.max_requests, each API's request
// body) and the thresholds — and nothing sent. It prints the suite's
// warnings and, when it is valid, one line saying what a run sends; in
// GitHub Actions each mistake is an annotation at its line too. The
// error is BadInput.
func Validate(env Env, o ValidateOptions) error {
	cfg, plan, err := checkSuite(env, o)
	if err != nil {
		annotateConfigErrors(env, err)
		if !o.SkipEnv {
			if _, _, rest := checkSuite(Env{}, ValidateOptions{Config: o.Config, SkipEnv: true}); rest == nil {
				return &Error{Kind: BadInput, Err: err, Hint: "The rest of the suite is valid: latgate validate --skip-env checks it without the environment (as a pre-commit hook, which has no secrets, does)."}
			}
		}
		return err
	}
	ConfigWarnings(env.Stderr, cfg)
	ends, scens := 0, len(cfg.Scenarios)
	used := map[string]bool{}
	for _, s := range cfg.Scenarios {
		for _, e := range cfg.EndpointsFor(s) {
			if !used[e.Name] {
				used[e.Name], ends = true, ends+1
			}
		}
	}
	n, upTo := plan.total, ""
	if len(plan.searches) > 0 {
		upTo = "up to " // a capacity search stops when it has its answer
	}
	note := ""
	// latgate ab (and the Action's mode ab) measures the suite on both
	// sides: a suite run takes may still be more than ab's cap allows.
	if _, err := planMeasure(cfg, cfg); err != nil {
		fmt.Fprintf(env.Stderr, "latgate: warning: latgate ab with this suite on both sides would refuse it before any request: %v\n", err)
		note = " (ab refuses it: see the warning)"
	}
	if o.SkipEnv {
		note += "; API keys and ${VAR}s not checked (--skip-env)"
	}
	fmt.Fprintf(env.Stdout, "%s: valid: %s, %s; a run sends %s%d requests (warmup included), latgate ab %s%d%s\n",
		o.Config, count(ends, "endpoint"), count(scens, "scenario"), upTo, n, upTo, 2*n, note)
	return nil
}

// checkSuite is every check run makes of a suite before its first
// request: LoadConfig, the plan (planMeasure) and the thresholds.
func checkSuite(env Env, o ValidateOptions) (*suite.Config, *measurement, error) {
	cfg, err := LoadConfig(o.Config, env.Getenv, o.SkipEnv)
	if err != nil {
		return nil, nil, err
	}
	plan, err := planMeasure(cfg, nil)
	if err != nil {
		return nil, nil, err
	}
	if _, err := CompareConfig(cfg, Overrides{}); err != nil {
		return nil, nil, err
	}
	return cfg, plan, nil
}

// annotateConfigErrors makes each of a suite's mistakes an error
// annotation at its file and line (in GitHub Actions; nothing elsewhere).
func annotateConfigErrors(env Env, err error) {
	var list []*suite.Error
	var es suite.Errors
	var one *suite.Error
	switch {
	case errors.As(err, &es):
		list = es
	case errors.As(err, &one):
		list = []*suite.Error{one}
	}
	var out []publish.Annotation
	for _, e := range list {
		out = append(out, publish.Annotation{Level: "error", File: workspacePath(env, e.File), Line: e.Line, Title: "latgate validate", Msg: e.Msg})
	}
	publish.NewActions(env.Stdout, env.Getenv).Annotate(out)
}

// workspacePath is file relative to the workspace ($GITHUB_WORKSPACE),
// as annotations name files; file itself when it is outside or there is
// no workspace.
func workspacePath(env Env, file string) string {
	ws := env.Getenv("GITHUB_WORKSPACE")
	if ws == "" || file == "" {
		return file
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(ws, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return filepath.ToSlash(rel)
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// RunOptions say what latgate run measures and where it writes.
type RunOptions struct {
	Config string // the suite
	Out    string // the results file
	Region string
	Select Selection
	// FailOnBudget makes a blown budget fail the run (ErrFailed, exit 1);
	// without it a run that measured is done (exit 0) and says which
	// budgets it blew.
	FailOnBudget bool
	// StartAt (--start-at: RFC 3339, or +DURATION from now) starts the
	// suite's capacity ladders at a time every leg of a sharded matrix
	// shares, each level in its window (ladder.go); "" for none.
	StartAt string
}

// Run is latgate run: it measures the suite, writes the results to o.Out
// (an incomplete run too, marked so) and prints the measurements, the
// run's warnings and its budgets (RunBudgets). The error is the
// measurement's (CannotRun when the run is incomplete), else ErrFailed
// when o.FailOnBudget and a budget was blown.
func Run(ctx context.Context, env Env, o RunOptions) error {
	start, err := startAt(o.StartAt)
	if err != nil {
		return err
	}
	if err := checkResultsOut(o.Out, o.Config); err != nil {
		return err
	}
	cfg, err := LoadConfig(o.Config, env.Getenv, false)
	if err != nil {
		return err
	}
	if err := o.Select.Apply(cfg); err != nil {
		return err
	}
	ConfigWarnings(env.Stderr, cfg)
	f, err := measureInto(env, o.Out, MeasureOptions{Source: GitSource(env.Getenv, o.Region), StartAt: start}, func(mo MeasureOptions) (*results.File, error) {
		return Measure(ctx, cfg, mo)
	})
	if f != nil && len(f.Runs) > 0 {
		report.Measurements(env.Stdout, f)
		for _, w := range RunWarnings(f) {
			fmt.Fprintln(env.Stderr, "latgate: warning: "+w)
		}
	}
	if err != nil {
		return err
	}
	blown, err := RunBudgets(env.Stdout, cfg, f, o.Out)
	if err != nil || blown == 0 {
		return err
	}
	if o.FailOnBudget {
		fmt.Fprintln(env.Stderr, "latgate: the run blew a budget (above): it fails (--fail-on-budget)")
		return ErrFailed
	}
	fmt.Fprintln(env.Stderr, "latgate: the run blew a budget (above); latgate run exits 0 all the same (it measures): --fail-on-budget makes it exit 1, and compare, ab and gate fail on it")
	return nil
}

// RunBudgets writes the budgets of a run's suite (the run alone: every
// check without a baseline, each budget held or blown, as compare of the
// one file reports it) and returns how many were blown.
func RunBudgets(w io.Writer, cfg *suite.Config, f *results.File, name string) (int, error) {
	th, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		return 0, err
	}
	rep, err := CompareFiles(nil, f, "", name, th)
	if err != nil {
		return 0, err
	}
	report.BudgetText(w, rep, cfg.Path)
	blown := 0
	for _, c := range rep.Budgets() {
		if c.Status == vocab.OverBudget {
			blown++
		}
	}
	return blown, nil
}

// checkResultsOut refuses, before anything runs, a results file (-o) that
// cannot be written or would replace an input or a file latgate did not
// write.
func checkResultsOut(out string, inputs ...string) error {
	if err := fileio.WritableDir(out); err != nil {
		return BadInputf("-o: %v", err)
	}
	if err := fileio.CheckOutput(out, fileio.Results, inputs...); err != nil {
		return BadInputf("-o: %v", err)
	}
	return nil
}

// measureInto is the one way run, ab and gate measure: measure runs with
// o and env's I/O (the probe's client, the progress on Stderr), and what
// it measured is written to path, an incomplete run too (marked so). It
// returns the results and the measurement's error; an error writing the file is CannotRun.
func measureInto(env Env, path string, o MeasureOptions, measure func(MeasureOptions) (*results.File, error)) (*results.File, error) {
	o.Client, o.Progress, o.TTY, o.ToolVersion, o.Getenv = env.ProbeClient, env.Stderr, env.TTY, env.ToolVersion, env.Getenv
	f, err := measure(o)
	if f == nil || len(f.Runs) == 0 {
		return f, err // nothing to write
	}
	if werr := fileio.Write(path, f); werr != nil {
		return nil, AsCannotRun(werr)
	}
	note := ""
	if f.Incomplete != "" {
		note = ", marked incomplete"
	}
	fmt.Fprintf(env.Stderr, "latgate: wrote %s%s\n", path, note)
	return f, err
}

package main

import (
	"flag"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
)

// abFlags: latgate ab measures base and head interleaved in one job and
// compares them.
func abFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.ABOptions{}
	fs.StringVar(&o.Config, "c", gate.DefaultConfig, "the head suite `file`")
	fs.StringVar(&o.Config, "config", gate.DefaultConfig, "the head suite `file` (same as -c)")
	fs.StringVar(&o.BaseConfig, "base-config", "", "the base suite `file` (default in a pull request: the config at the base commit)")
	fs.Var(cli.List{V: &o.BaseURL}, "base-url", "`ENDPOINT=URL` for the base variant (repeatable)")
	fs.Var(cli.List{V: &o.HeadURL}, "head-url", "`ENDPOINT=URL` for the head variant (repeatable)")
	out := fs.String("o", gate.ABResults, "results `file` to write (both variants)")
	format := formatVar(fs, report.ReportFormats)
	fs.StringVar(&o.StartAt, "start-at", "", "start the suite's capacity ladders (capacity.levels) at this `time`, each level in its window: RFC 3339 (2025-06-01T10:00:00Z) or +DURATION from now (+90s); every leg of a sharded matrix gets the same")
	fs.StringVar(&o.Region, "region", "", "region label recorded in the results")
	sel := selectionFlags(fs)
	over := thresholdFlags(fs)
	return func(e *env, _ []string) error {
		o.Select = *sel
		rep, noise, err := gate.AB(e.ctx, e.gateEnv(), o, *over, *out)
		if err != nil {
			return err
		}
		return renderVerdict(e, rep, noise, *format)
	}
}

// renderVerdict prints a report (and an A/A run's noise) and returns the
// verdict as an error.
func renderVerdict(e *env, rep *report.Report, noise []compare.NoiseCheck, f report.ReportFormat) error {
	if err := gate.Render(e.stdout, rep, noise, f, report.RenderOptions{Color: isTerminal(e.stdout)}); err != nil {
		return err
	}
	return gate.VerdictError(rep)
}

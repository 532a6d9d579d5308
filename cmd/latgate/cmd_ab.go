package main

import (
	"flag"
	"fmt"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/report"
)

const abUsage = "usage: latgate ab [-c HEAD.yaml] --base-config BASE.yaml [-o ab.json] [--format text|markdown|json|html|benchstat|bmf|csv|otlp|openmetrics] [--base-url ENDPOINT=URL ...] [--head-url ENDPOINT=URL ...]"

// cmdAB measures base and head interleaved in one job and compares them.
func cmdAB(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate ab", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(fs.Output(), abUsage+"\n\nFlags:"); fs.PrintDefaults() }
	o := gate.ABOptions{}
	fs.StringVar(&o.Config, "c", gate.DefaultConfig, "the head suite `file`")
	fs.StringVar(&o.Config, "config", gate.DefaultConfig, "the head suite `file` (same as -c)")
	fs.StringVar(&o.BaseConfig, "base-config", "", "the base suite `file` (default in a pull request: the config at the base commit)")
	fs.Var(listFlag{&o.BaseURL}, "base-url", "`ENDPOINT=URL` for the base variant (repeatable)")
	fs.Var(listFlag{&o.HeadURL}, "head-url", "`ENDPOINT=URL` for the head variant (repeatable)")
	out := fs.String("o", "ab.json", "results `file` to write (both variants)")
	format := fs.String("format", "text", "output `format`: text, markdown, json, html, benchstat, bmf, csv, otlp or openmetrics")
	fs.StringVar(&o.Region, "region", "", "region label recorded in the results")
	sel := selectionFlags(fs)
	over := thresholdFlags(fs)
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return gate.BadInputf("%s", abUsage)
	}
	if err := gate.CheckFormat(*format); err != nil {
		return err
	}
	o.Select = *sel
	rep, noise, err := gate.AB(e.ctx, e.gateEnv(), o, *over, *out)
	if err != nil {
		return err
	}
	return renderVerdict(e, rep, noise, *format)
}

// renderVerdict prints a report (and an A/A run's noise) and returns the
// verdict as an error.
func renderVerdict(e *env, rep *report.Report, noise []compare.NoiseCheck, format string) error {
	if err := gate.Render(e.stdout, rep, format, isTerminal(e.stdout), report.MarkdownOptions{}); err != nil {
		return err
	}
	switch format {
	case "text":
		report.NoiseText(e.stdout, noise)
	case "markdown":
		fmt.Fprint(e.stdout, report.NoiseMarkdown(noise))
	}
	if rep.Verdict == "fail" {
		return gate.ErrFailed
	}
	return nil
}

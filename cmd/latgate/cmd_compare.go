package main

import (
	"flag"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/suite"
)

// thresholdFlags registers the flags that override the config's thresholds.
func thresholdFlags(fs *flag.FlagSet) *gate.Overrides {
	o := &gate.Overrides{}
	fs.StringVar(&o.Tolerance, "tolerance", "", "smallest relative change worth failing for, e.g. 10% (overrides the config)")
	fs.StringVar(&o.MinDelta, "min-delta", "", "smallest absolute change worth failing for, e.g. 25ms (overrides the config)")
	fs.StringVar(&o.Alpha, "alpha", "", "family-wise significance level, e.g. 0.05 (overrides the config)")
	fs.StringVar(&o.FailOn, "fail-on", "", "statuses that fail the gate, comma-separated (overrides the config)")
	return o
}

const compareUsage = "usage: latgate compare BASELINE.json CURRENT.json [-c latgate.yaml] [--format text|markdown|json]"

func cmdCompare(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate compare", flag.ContinueOnError)
	fs.Usage = func() { fs.Output().Write([]byte(compareUsage + "\n\nFlags:\n")); fs.PrintDefaults() }
	cfgPath := fs.String("c", "", "suite `file` for budgets and thresholds (optional)")
	fs.StringVar(cfgPath, "config", "", "suite `file` (same as -c)")
	format := fs.String("format", "text", "output `format`: text, markdown or json")
	over := thresholdFlags(fs)
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return gate.BadInputf("%s", compareUsage)
	}
	if err := gate.CheckFormat(*format); err != nil {
		return err
	}
	var cfg *suite.Config
	if *cfgPath != "" {
		if cfg, err = gate.LoadConfig(*cfgPath, e.getenv, true); err != nil {
			return err
		}
	}
	th, err := gate.Thresholds(cfg, *over)
	if err != nil {
		return err
	}
	base, err := baseline.Read(pos[0])
	if err != nil {
		return gate.AsBadInput(err)
	}
	cur, err := baseline.Read(pos[1])
	if err != nil {
		return gate.AsBadInput(err)
	}
	rep, err := gate.CompareFiles(base, cur, pos[0], pos[1], th)
	if err != nil {
		return err
	}
	if err := gate.Render(e.stdout, rep, *format, isTerminal(e.stdout), report.MarkdownOptions{}); err != nil {
		return err
	}
	if rep.Verdict == "fail" {
		return gate.ErrFailed
	}
	return nil
}

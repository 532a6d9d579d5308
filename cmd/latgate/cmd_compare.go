package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/suite"
)

// thresholdFlags registers the flags that override the config's thresholds.
func thresholdFlags(fs *flag.FlagSet) *gate.Overrides {
	o := &gate.Overrides{}
	fs.StringVar(&o.Tolerance, "tolerance", "", "smallest relative change worth failing for, 10% or 0.10: at least 0 and below 100% (overrides the config)")
	fs.StringVar(&o.MinDelta, "min-delta", "", "smallest absolute change worth failing for, with its unit: 25ms (overrides the config)")
	fs.StringVar(&o.Alpha, "alpha", "", "family-wise significance level, 0.05 or 5%: above 0 and below 0.5 (overrides the config)")
	fs.StringVar(&o.FailOn, "fail-on", "", "statuses that fail the gate, comma-separated (overrides the config)")
	return o
}

func trimNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func pctText(f float64) string { return trimNum(100*f) + "%" }

const compareUsage = `usage: latgate compare BASELINE.json CURRENT.json   a baseline and a current run
       latgate compare B1.json B2.json ... CURRENT.json   a baseline history (oldest first) and a current run
       latgate compare AB.json                      the variants of an interleaved A/B run (latgate ab)
       [-c latgate.yaml] [--format text|markdown|json|html|benchstat|bmf|csv|otlp|openmetrics]`

func cmdCompare(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate compare", flag.ContinueOnError)
	fs.Usage = func() { fs.Output().Write([]byte(compareUsage + "\n\nFlags:\n")); fs.PrintDefaults() }
	cfgPath := fs.String("c", "", "suite `file` for budgets and thresholds (default: "+gate.DefaultConfig+" when it exists)")
	fs.StringVar(cfgPath, "config", "", "suite `file` (same as -c)")
	format := fs.String("format", "text", "output `format`: text, markdown, json, html, benchstat, bmf, csv, otlp or openmetrics")
	over := thresholdFlags(fs)
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return gate.BadInputf("%s", compareUsage)
	}
	if err := gate.CheckFormat(*format); err != nil {
		return err
	}
	// Like run, ab and gate, compare reads latgate.yaml when it is there:
	// a suite's budgets and thresholds must not be dropped silently.
	if *cfgPath == "" {
		if _, err := os.Stat(gate.DefaultConfig); err == nil {
			*cfgPath = gate.DefaultConfig
			fmt.Fprintf(e.stderr, "latgate: budgets and thresholds from %s (-c FILE for another suite)\n", gate.DefaultConfig)
		}
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
	if cfg == nil {
		fmt.Fprintf(e.stderr, "latgate: no suite file: default thresholds (tolerance %s, min_delta %s ms, alpha %s), no budgets (-c FILE to use a suite's)\n",
			pctText(th.Tolerance), trimNum(th.MinDelta), trimNum(th.Alpha))
	}
	history := 0
	if cfg != nil {
		history = cfg.Regression.History
	}
	rep, noise, err := gate.ComparePaths(pos, *format, th, history, e.stderr)
	if err != nil {
		return err
	}
	return renderVerdict(e, rep, noise, *format)
}

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/suite"
)

// thresholds are the comparison settings: config, then flags.
type thresholds struct {
	regression suite.Regression
	budgets    []suite.Budget
}

func defaultThresholds() thresholds {
	return thresholds{regression: suite.Regression{
		Tolerance: suite.DefaultTolerance, MinDelta: suite.DefaultMinDelta,
		Alpha: suite.DefaultAlpha, FailOn: suite.DefaultFailOn,
	}}
}

func (t thresholds) compareConfig() compare.Config {
	c := compare.Config{
		Tolerance: t.regression.Tolerance, MinDelta: t.regression.MinDelta.Seconds(), Alpha: t.regression.Alpha,
	}
	for _, f := range t.regression.FailOn {
		c.FailOn = append(c.FailOn, compare.Status(f))
	}
	if c.FailOn == nil {
		c.FailOn = []compare.Status{}
	}
	for _, b := range t.budgets {
		c.Budgets = append(c.Budgets, compare.Budget{Metric: b.Metric, Stat: b.Stat, Value: b.Value})
	}
	return c
}

func (t thresholds) reportOptions() report.Options {
	return report.Options{
		Tolerance: t.regression.Tolerance, MinDeltaMs: float64(t.regression.MinDelta.Microseconds()) / 1000,
		Alpha: t.regression.Alpha, FailOn: t.regression.FailOn,
	}
}

// thresholdFlags registers the flags that override the config's thresholds.
type thresholdFlags struct {
	tolerance, minDelta, alpha, failOn *string
}

func addThresholdFlags(fs *flag.FlagSet) thresholdFlags {
	return thresholdFlags{
		tolerance: fs.String("tolerance", "", "smallest relative change worth failing for, e.g. 10% (overrides the config)"),
		minDelta:  fs.String("min-delta", "", "smallest absolute change worth failing for, e.g. 25ms (overrides the config)"),
		alpha:     fs.String("alpha", "", "family-wise significance level, e.g. 0.05 (overrides the config)"),
		failOn:    fs.String("fail-on", "", "statuses that fail the gate, comma-separated (overrides the config)"),
	}
}

func (f thresholdFlags) apply(t *thresholds) error {
	if *f.tolerance != "" {
		v, err := suite.ParsePercent(*f.tolerance)
		if err != nil || v < 0 {
			return usagef("--tolerance: want a percentage such as 10%%, got %q", *f.tolerance)
		}
		t.regression.Tolerance = v
	}
	if *f.minDelta != "" {
		v, err := suite.ParseMillis(*f.minDelta)
		if err != nil || v < 0 {
			return usagef("--min-delta: want a duration such as 25ms, got %q", *f.minDelta)
		}
		t.regression.MinDelta = v
	}
	if *f.alpha != "" {
		var v float64
		if _, err := fmt.Sscan(*f.alpha, &v); err != nil || v <= 0 || v >= 0.5 {
			return usagef("--alpha: want a number between 0 and 0.5, got %q", *f.alpha)
		}
		t.regression.Alpha = v
	}
	if *f.failOn != "" {
		fo, err := suite.ParseFailOn([]string{*f.failOn})
		if err != nil {
			return usagef("--fail-on: %v", err)
		}
		t.regression.FailOn = fo
	}
	return nil
}

func cmdCompare(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate compare", flag.ContinueOnError)
	cfgPath := fs.String("c", "", "suite `file` for budgets and thresholds (optional)")
	fs.StringVar(cfgPath, "config", "", "suite `file` (same as -c)")
	format := fs.String("format", "text", "output format: text, markdown or json")
	tf := addThresholdFlags(fs)
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("usage: latgate compare BASELINE CURRENT [-c latgate.yaml] [--format text|markdown|json]")
	}
	if *format != "text" && *format != "markdown" && *format != "json" {
		return usagef("--format: want text, markdown or json, got %q", *format)
	}
	th := defaultThresholds()
	if *cfgPath != "" {
		cfg, err := loadConfig(*cfgPath, e.getenv, true)
		if err != nil {
			return err
		}
		th = thresholds{regression: cfg.Regression, budgets: cfg.Budgets}
	}
	if err := tf.apply(&th); err != nil {
		return err
	}
	base, err := baseline.Read(pos[0])
	if err != nil {
		return usageError{err}
	}
	cur, err := baseline.Read(pos[1])
	if err != nil {
		return usageError{err}
	}
	rep, err := compareFiles(base, cur, pos[0], pos[1], th)
	if err != nil {
		return err
	}
	if err := render(e.stdout, rep, *format, isTerminal(e.stdout), report.MarkdownOptions{}); err != nil {
		return err
	}
	if rep.Verdict == "fail" {
		return errGateFailed
	}
	return nil
}

// compareFiles matches, validates and compares two results files.
func compareFiles(base, cur *baseline.File, baseName, curName string, th thresholds) (*report.Report, error) {
	pairs := baseline.Match(base, cur)
	common := 0
	for _, p := range pairs {
		if p.Base != nil && p.Current != nil {
			common++
			if p.Base.OKCount() == 0 {
				return nil, usagef("%s: endpoint %q, scenario %q has no successful request: it cannot serve as a baseline; record the baseline again", baseName, p.Endpoint, p.Scenario)
			}
		}
	}
	if common == 0 && base != nil {
		return nil, usagef("no run in common: %s has %s, %s has %s (runs match by endpoint and scenario)", baseName, runNames(base), curName, runNames(cur))
	}
	res := compare.Compare(baseline.Runs(pairs), th.compareConfig())
	return report.Build(pairs, res, th.reportOptions()), nil
}

func runNames(f *baseline.File) string {
	var n []string
	for _, r := range f.Runs {
		n = append(n, r.Scenario+" @ "+r.Endpoint)
	}
	if len(n) > 4 {
		n = append(n[:4], fmt.Sprintf("and %d more", len(n)-4))
	}
	return strings.Join(n, ", ")
}

func render(w io.Writer, rep *report.Report, format string, color bool, mo report.MarkdownOptions) error {
	switch format {
	case "json":
		return report.JSON(w, rep)
	case "markdown":
		_, err := io.WriteString(w, report.Markdown(rep, mo))
		return err
	}
	report.Text(w, rep, color)
	return nil
}

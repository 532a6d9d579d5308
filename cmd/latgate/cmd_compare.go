package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/suite"
)

func compareFlags(fs *flag.FlagSet) func(*env, []string) error {
	cfgPath := fs.String("c", "", "suite `file` for budgets and thresholds (default: "+gate.DefaultConfig+" when it exists)")
	fs.StringVar(cfgPath, "config", "", "suite `file` (same as -c)")
	format := formatVar(fs, report.ReportFormats)
	over := thresholdFlags(fs)
	return func(e *env, pos []string) error {
		if len(pos) == 0 {
			return cli.ErrUsage
		}
		cfg, err := compareSuite(e, *cfgPath)
		if err != nil {
			return err
		}
		th, err := gate.CompareConfig(cfg, *over)
		if err != nil {
			return err
		}
		history, compare := 0, gate.ComparePaths
		if cfg != nil {
			history = cfg.Regression.History
		} else {
			// No suite: the budgets the file was measured with (it
			// records them), never none in silence.
			fmt.Fprintf(e.stderr, "latgate: no suite file: default thresholds (tolerance %s%%, min_delta %s ms, alpha %s) (-c FILE to use a suite's)\n",
				trimNum(100*th.Tolerance), trimNum(th.MinDelta), trimNum(th.Alpha))
			compare = gate.CompareAsRecorded
		}
		rep, noise, err := compare(pos, *format, th, history, e.stderr)
		if err != nil {
			return err
		}
		return renderVerdict(e, rep, noise, *format)
	}
}

// compareSuite is the suite whose budgets and thresholds compare applies:
// -c, else latgate.yaml when it is there (like run, ab and gate: a suite's
// budgets and thresholds must not be dropped silently), else none.
func compareSuite(e *env, path string) (*suite.Config, error) {
	if path == "" {
		if _, err := os.Stat(gate.DefaultConfig); err != nil {
			return nil, nil
		}
		path = gate.DefaultConfig
		fmt.Fprintf(e.stderr, "latgate: budgets and thresholds from %s (-c FILE for another suite)\n", gate.DefaultConfig)
	}
	return gate.LoadConfig(path, e.getenv, true)
}

func trimNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

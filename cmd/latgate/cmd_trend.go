package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
)

func trendFlags(fs *flag.FlagSet) func(*env, []string) error {
	format := formatVar(fs, report.TrendFormats)
	return func(e *env, pos []string) error {
		if len(pos) == 0 {
			return cli.ErrUsage
		}
		t, err := gate.Trend(e.gateEnv(), pos)
		if err != nil {
			return err
		}
		return gate.AsCannotRun(format.Write(e.stdout, t, report.RenderOptions{Color: isTerminal(e.stdout)}))
	}
}

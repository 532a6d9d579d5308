package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
)

const trendUsage = `usage: latgate trend DIR|FILES... [--format text|markdown|json|html]
       DIR: a baseline folder (the artifact of mode: record): its results files and main's trend file
       FILES: results files (latgate run, gate) and trend files (latgate-trend.json.gz), in any order`

func cmdTrend(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate trend", flag.ContinueOnError)
	fs.Usage = func() { fs.Output().Write([]byte(trendUsage + "\n\nFlags:\n")); fs.PrintDefaults() }
	format := fs.String("format", "text", "output `format`: text, markdown, json or html")
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return err
	}
	if err := gate.CheckTrendFormat(*format); err != nil {
		return err
	}
	if len(pos) == 0 {
		return gate.BadInputf("%s", trendUsage)
	}
	t, err := gate.Trend(e.gateEnv(), pos)
	if err != nil {
		return err
	}
	return gate.AsCannotRun(gate.RenderTrend(e.stdout, t, *format, isTerminal(e.stdout)))
}

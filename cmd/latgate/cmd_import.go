package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
)

// importFlags: latgate import turns other tools' per-request results into
// a results file.
func importFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.ImportOptions{}
	fs.StringVar(&o.From, "from", "", "the `tool` that wrote the files: vllm, aiperf or guidellm")
	fs.StringVar(&o.Out, "o", gate.RunResults, "results `file` to write")
	fs.StringVar(&o.Out, "output", gate.RunResults, "results `file` (same as -o)")
	fs.StringVar(&o.Region, "region", "", "region label recorded in the results (default $LATGATE_REGION)")
	return func(e *env, pos []string) error {
		if len(pos) == 0 {
			return cli.ErrUsage
		}
		o.Files = pos
		f, err := gate.Import(e.gateEnv(), o)
		if err != nil {
			return err
		}
		report.Measurements(e.stdout, f)
		for _, r := range f.Runs {
			for _, n := range r.Imported.Notes {
				fmt.Fprintf(e.stderr, "latgate: %s @ %s: %s\n", r.Scenario, r.Endpoint, n)
			}
		}
		files := "file"
		if len(pos) > 1 {
			files = "files"
		}
		fmt.Fprintf(e.stderr, "latgate: imported %d run(s), %d requests, from %d %s %s into %s\n", len(f.Runs), f.Requests(), len(pos), o.From, files, o.Out)
		if strings.TrimSpace(f.Source.GitSHA) == "" {
			fmt.Fprintln(e.stderr, "latgate: note: no commit recorded (not in a git checkout, no GITHUB_SHA)")
		}
		return nil
	}
}

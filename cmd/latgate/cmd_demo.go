package main

import (
	_ "embed"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

//go:embed demo.yaml
var demoSuite string

// cmdDemo runs the whole flow with no API key: the simulator on loopback,
// the demo suite against a baseline profile and a slower candidate, the
// comparison, the budget table and the PR comment a dry run would post.
func cmdDemo(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate demo", flag.ContinueOnError)
	baseName := fs.String("baseline-profile", "fast", "simulator profile for the baseline")
	candName := fs.String("candidate-profile", "slow", "simulator profile for the candidate")
	keep := fs.String("dir", "", "keep the results files in this `folder` (default: a temporary folder)")
	if _, err := parseFlags(fs, args, e.stderr); err != nil {
		return err
	}
	baseP, err := sim.Named(*baseName)
	if err != nil {
		return gate.AsBadInput(err)
	}
	candP, err := sim.Named(*candName)
	if err != nil {
		return gate.AsBadInput(err)
	}
	s := sim.New(baseP, 42)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return gate.AsCannotRun(err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	cfgText := strings.ReplaceAll(demoSuite, "{{SIM}}", "http://"+ln.Addr().String()+"/v1")
	cfg, err := suite.Parse("demo.yaml", []byte(cfgText), suite.Options{Getenv: e.getenv})
	if err != nil {
		return err
	}
	dir := *keep
	if dir == "" {
		dir, err = os.MkdirTemp("", "latgate-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	mo := gate.MeasureOptions{Source: results.Source{GitRef: "demo", Runner: "local"}, Progress: e.stderr, TTY: progressBar(e), ToolVersion: toolVersion()}

	fmt.Fprintf(e.stdout, "latgate demo: simulator on http://%s/v1, baseline profile %q, candidate profile %q\n\n", ln.Addr(), baseP.Name, candP.Name)
	fmt.Fprintln(e.stdout, "1. Recording the baseline (what the main branch would store)…")
	base, err := gate.Measure(e.ctx, cfg, mo)
	if err != nil {
		return err
	}
	report.Measurements(e.stdout, base)
	s.SetProfile(candP)
	fmt.Fprintln(e.stdout, "\n2. Measuring the candidate (what a pull request would measure)…")
	cur, err := gate.Measure(e.ctx, cfg, mo)
	if err != nil {
		return err
	}
	report.Measurements(e.stdout, cur)
	bp, cp := filepath.Join(dir, "baseline.json"), filepath.Join(dir, "results.json")
	if err := baseline.Write(bp, base); err != nil {
		return err
	}
	if err := baseline.Write(cp, cur); err != nil {
		return err
	}
	return demoCompare(e, cfg, base, cur, bp, cp)
}

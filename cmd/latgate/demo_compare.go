package main

import (
	"fmt"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// demoCompare shows the verdict and the comment a dry run would post.
func demoCompare(e *env, cfg *suite.Config, base, cur *results.File, bp, cp string) error {
	th, err := gate.Thresholds(cfg, gate.Overrides{})
	if err != nil {
		return err
	}
	rep, err := gate.CompareFiles(base, cur, bp, cp, th)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\n3. Comparing (latgate compare baseline.json results.json)…")
	fmt.Fprintln(e.stdout)
	report.Text(e.stdout, rep, isTerminal(e.stdout))
	fmt.Fprintln(e.stdout, "\n4. The pull-request comment a gate run would post (dry run):")
	fmt.Fprintln(e.stdout, "-----8<-----")
	fmt.Fprint(e.stdout, report.Markdown(rep, report.MarkdownOptions{Marker: gate.CommentMarker("demo")}))
	fmt.Fprintln(e.stdout, "-----8<-----")
	fmt.Fprintf(e.stdout, "\nIn CI this verdict (%s) would exit %d. Try it on your own endpoint: latgate run -c latgate.yaml\n", rep.Verdict, map[string]int{"pass": 0, "fail": 1}[rep.Verdict])
	return nil
}

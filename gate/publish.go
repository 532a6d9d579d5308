package gate

// Publishing a verdict: the report, the job summary, outputs, annotations
// and the sticky comment; and latgate publish, the fork-safe split's second
// half.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Publish compares a results file measured elsewhere (the fork-safe split's
// second half) with its baseline and publishes the verdict. An A/B file
// needs no baseline.
func Publish(ctx context.Context, env Env, in Inputs) error {
	p, err := newPipeline(env, in, "publish")
	if err != nil {
		return err
	}
	defer p.dryRunDone()
	in = p.in
	if in.Results == "" {
		return BadInputf("results: give the results file to publish (--results FILE)")
	}
	cur, err := fileio.Read(in.Path(in.Results))
	if err != nil {
		return AsBadInput(err)
	}
	cfg, err := publishSuite(env, in, cur)
	if err != nil {
		return err
	}
	th, err := CompareConfig(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "latgate: publishing %s (recorded %s)\n", in.Path(in.Results), cur.CreatedAt.Format(time.RFC3339))
	if cur.Interleaved() {
		rep, noise, err := CompareAB(cur, in.Path(in.Results), th)
		if err != nil {
			return err
		}
		return p.publish(ctx, cfg, rep, noise)
	}
	hist, names, err := p.loadBaselines(ctx)
	if err != nil {
		return err
	}
	rep, err := p.compareStored(hist, names, cur, cfg, th)
	if err != nil {
		return err
	}
	return p.publish(ctx, cfg, rep, nil)
}

// publishSuite is the suite whose thresholds and budgets publish applies.
// A file imported from another tool (latgate import) was measured without
// one: when the default suite file does not exist, the default thresholds
// apply, as in latgate compare.
func publishSuite(env Env, in Inputs, cur *results.File) (*suite.Config, error) {
	path := in.Path(in.Config)
	if cur.Source.Tool != "" && in.Config == DefaultConfig {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(env.Stderr, "latgate: %s was imported from %s and there is no %s: default thresholds, no budgets\n", in.Path(in.Results), cur.Source.Tool, path)
			return nil, nil
		}
	}
	cfg, err := LoadConfig(path, env.Getenv, true)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.Stderr, "latgate: thresholds and budgets from %s\n", path)
	return cfg, nil
}

// publish renders the report, writes it, the summary, outputs, annotations
// and the comment, and returns the verdict as an error.
func (p *pipeline) publish(ctx context.Context, cfg *suite.Config, rep *report.Report, noise []compare.NoiseCheck) error {
	env, in := p.env, p.in
	marker := CommentMarker(p.commentKey())
	runURL := p.gc.RunURL()
	rep.Provenance.RunURL = runURL
	rep.Provenance.TrendURL = p.trendURL
	if runURL != "" {
		rep.Provenance.ReportURL = runURL + "#artifacts"
	}
	if rep.Provenance.Mode == "ab" && p.gc.BaseSHA != "" {
		rep.Provenance.BaseSHA = p.gc.BaseSHA
	}
	p.accept(rep)
	extra := report.NoiseMarkdown(noise)
	full := report.Markdown(rep, report.MarkdownOptions{}) + extra
	if err := fileio.WriteAtomic(in.Path(in.Report), []byte(full)); err != nil {
		return AsCannotRun(err)
	}
	htmlPath := HTMLPath(in.Path(in.Report))
	var page strings.Builder
	if err := report.HTML(&page, rep); err != nil {
		return AsCannotRun(err)
	}
	if err := fileio.WriteAtomic(htmlPath, []byte(page.String())); err != nil {
		return AsCannotRun(err)
	}
	report.Text(env.Stdout, rep, env.Color)
	report.NoiseText(env.Stdout, noise)
	if err := p.act.Summary(full); err != nil {
		fmt.Fprintf(env.Stderr, "latgate: warning: %v\n", err)
	}
	p.act.Annotate(annotations(env, in, cfg, rep))

	body := report.Markdown(rep, report.MarkdownOptions{Marker: marker, MaxLen: 65536 - len(extra), SummaryURL: runURL}) + extra
	commentURL, commentErr := p.comment(ctx, marker, body)
	regressions := 0
	for _, c := range rep.Result.Checks {
		if c.Status == vocab.Regression {
			regressions++
		}
	}
	for _, c := range rep.Capacity {
		if c.Status == vocab.Regression {
			regressions++
		}
	}
	err := outputs(p.act, map[string]string{"verdict": string(rep.Verdict), "results": in.Path(in.Results), "report": in.Path(in.Report), "report-html": htmlPath,
		"regressions": strconv.Itoa(regressions), "comment-url": commentURL})
	if err != nil {
		return err
	}
	if rep.Verdict == vocab.Fail {
		fmt.Fprintln(env.Stderr, "latgate: the gate failed: "+rep.Headline)
	}
	return p.commentOutcome(commentErr, rep.Verdict == vocab.Fail)
}

// accept turns a failing verdict into an accepted one when the pull request
// carries the accept label and every failing check is about latency (an
// error-rate rise is never accepted this way).
func (p *pipeline) accept(rep *report.Report) {
	ok, by := p.gc.Labeled(p.in.AcceptLabel)
	if !ok || rep.Verdict != vocab.Fail {
		return
	}
	failing := 0
	for _, c := range rep.Result.Checks {
		if slices.Contains(rep.Thresholds.FailOn, c.Status) {
			if c.Metric == vocab.Errors {
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("the label %q accepts latency changes, not a rise in failed requests: the gate still fails", p.in.AcceptLabel))
				return
			}
			failing++
		}
	}
	who := "the label"
	if by != "" {
		who = "@" + by + " with the label"
	}
	rep.Verdict = vocab.Pass
	rep.Headline = fmt.Sprintf("accepted: %s (accepted by %s %q)", rep.Headline, who, p.in.AcceptLabel)
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d failing check(s) accepted on purpose by %s %q: reported, not failed", failing, who, p.in.AcceptLabel))
}

// Outputs are the Action's outputs (action.yml).
var Outputs = []string{"verdict", "results", "report", "report-html", "regressions", "comment-url", "baseline-dir", "change-points"}

// HTMLPath is where the HTML report goes: beside the Markdown report.
func HTMLPath(markdown string) string {
	return strings.TrimSuffix(markdown, filepath.Ext(markdown)) + ".html"
}

func outputs(act *publish.Actions, values map[string]string) error {
	return AsCannotRun(act.SetOutputs(Outputs, values))
}

// annotations point each failing scenario at its line in the config (at
// no file without a suite: an imported results file).
func annotations(env Env, in Inputs, cfg *suite.Config, rep *report.Report) []publish.Annotation {
	file := workspacePath(env, in.Path(in.Config))
	if cfg == nil {
		file = ""
	}
	lineOf := func(scenario string, line int) int {
		if cfg != nil {
			for _, sc := range cfg.Scenarios {
				if sc.Name == scenario {
					line = sc.Line
				}
			}
		}
		return line
	}
	var out []publish.Annotation
	for _, s := range rep.Scenarios {
		var msgs []string
		for _, c := range s.Checks {
			if c.Status == vocab.Regression || c.Status == vocab.OverBudget {
				msgs = append(msgs, checkLine(c))
			}
		}
		if len(msgs) == 0 {
			continue
		}
		out = append(out, publish.Annotation{Level: "error", File: file, Line: lineOf(s.Scenario, s.ConfigLine),
			Title: fmt.Sprintf("latgate: %s @ %s", s.Scenario, s.Endpoint), Msg: strings.Join(msgs, "; ")})
	}
	for _, c := range rep.Capacity {
		// A capacity regression, and a head search that was cut: each
		// fails the gate.
		if c.Status == vocab.Regression || !c.Head.Result.Complete() {
			out = append(out, publish.Annotation{Level: "error", File: file, Line: lineOf(c.Scenario, 0),
				Title: fmt.Sprintf("latgate: capacity of %s @ %s", c.Scenario, c.Endpoint), Msg: c.Line() + "; " + c.Verdict()})
		}
	}
	return out
}

func checkLine(c compare.Check) string {
	name := string(c.Metric) + " " + string(c.Stat)
	if c.Metric == vocab.Errors {
		return fmt.Sprintf("error rate %s: %.1f%% → %.1f%%", strings.ReplaceAll(string(c.Status), "_", " "), 100*c.Baseline, 100*c.Current)
	}
	if c.Status == vocab.OverBudget {
		return fmt.Sprintf("%s %s ms over its budget of %s ms", name, report.Millis(c.Current), report.Millis(c.Budget))
	}
	return fmt.Sprintf("%s regressed %+.1f%% (%s → %s ms)", name, c.DeltaPct, report.Millis(c.Baseline), report.Millis(c.Current))
}

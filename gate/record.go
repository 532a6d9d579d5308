package gate

// Record mode: the baseline written, with its history and main's trend.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// record writes the baseline: the results, the baseline history folder
// (the previous history from the artifact, or without one the runs that an
// earlier record left in the folder, plus this run) and, in the same
// folder, main's trend with this run; then the job summary and the report
// name the trend's change points.
func (p *pipeline) record(ctx context.Context, cfg *suite.Config, cur *results.File) error {
	var b strings.Builder
	report.Measurements(&b, cur)
	fmt.Fprint(p.env.Stdout, b.String())
	dir := p.in.Path(p.in.BaselineDir)
	var tr *report.Trend
	if dir != "" {
		prev, prevTrend, err := p.recordHistory(ctx, cfg, cur, dir)
		if err != nil {
			return err
		}
		if tr, err = p.recordTrend(cfg, cur, prev, prevTrend, dir); err != nil {
			return err
		}
		tr.Recorded = b.String()
	} else {
		fmt.Fprintf(p.env.Stderr, "latgate: baseline recorded in %s: upload it as an artifact for pull requests to compare with\n", p.in.Path(p.in.Results))
	}
	summary := "### ⏱️ latgate: baseline recorded\n\n```\n" + b.String() + "```\n"
	if tr == nil {
		if err := p.act.Summary(summary); err != nil {
			p.act.Warning(err.Error())
		}
		return outputs(p.act, map[string]string{"verdict": string(vocab.Pass), "results": p.in.Path(p.in.Results), "baseline-dir": dir})
	}
	return p.publishTrend(tr, summary, dir)
}

// recordHistory writes the baseline history folder and returns what the
// trend starts from: the previous history (every run, of any
// configuration) and the previous trend file as stored (nil when none).
func (p *pipeline) recordHistory(ctx context.Context, cfg *suite.Config, cur *results.File, dir string) ([]publish.HistoryFile, []byte, error) {
	var prev []publish.HistoryFile
	var prevTrend []byte
	var err error
	if p.in.BaselineArtifact != "" {
		h, err := p.fetchHistory(ctx, p.gc.RefName)
		if err != nil && !errors.Is(err, publish.ErrNoArtifact) {
			return nil, nil, err
		}
		if h.TrendErr != nil {
			fmt.Fprintf(p.env.Stderr, "latgate: warning: the artifact's trend file cannot be read (%v): the trend starts again from the history\n", h.TrendErr)
		}
		prev, prevTrend = h.Files, h.Trend
	} else if prev, err = publish.ReadHistoryDir(dir); err != nil {
		return nil, nil, AsCannotRun(err)
	} else {
		if len(prev) > 0 {
			fmt.Fprintf(p.env.Stderr, "latgate: no baseline-artifact: the history continues from the %d run(s) already in %s\n", len(prev), dir)
		}
		prevTrend = readTrendDir(dir, p.env.Stderr)
	}
	data, err := os.ReadFile(p.in.Path(p.in.Results))
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	hf, err := publish.NewHistoryFile(publish.HistoryName(cur.CreatedAt), data)
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	keep := publish.NextHistory(sameSuite(prev, cur, p.env.Stderr), hf, cfg.Regression.History)
	removed, err := publish.WriteHistory(dir, keep, p.in.Path(p.in.Results))
	if err != nil {
		return nil, nil, AsCannotRun(err)
	}
	if len(removed) > 0 {
		fmt.Fprintf(p.env.Stderr, "latgate: removed %d run(s) that left the history from %s: %s\n", len(removed), dir, strings.Join(removed, ", "))
	}
	fmt.Fprintf(p.env.Stderr, "latgate: baseline history of %d run(s) in %s: %s\n", len(keep), dir, uploadHint(p.in.BaselineArtifact))
	return prev, prevTrend, nil
}

// uploadHint says what to do with the baseline history folder.
func uploadHint(artifact string) string {
	if artifact == "" {
		return "upload the folder as an artifact and give its name as baseline-artifact to the pull-request runs " +
			"(and to this record step, so that the next recording keeps this history)"
	}
	return fmt.Sprintf("upload the folder as the artifact %q for pull requests to compare with", artifact)
}

// sameSuite keeps the history files that measured every (endpoint,
// scenario) they share with cur under the same configuration (its
// fingerprint and its load: results.Changed): a change to the suite on the
// base branch starts a new history instead of mixing runs of two
// configurations.
func sameSuite(prev []publish.HistoryFile, cur *results.File, log io.Writer) []publish.HistoryFile {
	now := map[string]*results.Run{}
	for i := range cur.Runs {
		now[cur.Runs[i].Key()] = &cur.Runs[i]
	}
	var keep []publish.HistoryFile
	for _, hf := range prev {
		f, err := fileio.Decode(hf.Name, hf.Data)
		if err != nil {
			fmt.Fprintf(log, "latgate: dropping %s from the baseline history: %v\n", hf.Name, err)
			continue
		}
		var changed []string
		for i := range f.Runs {
			r := &f.Runs[i]
			if c, ok := now[r.Key()]; ok && len(changed) == 0 {
				changed = results.Changed(results.Pair{Endpoint: r.Endpoint, Scenario: r.Scenario, Base: r, Head: c})
			}
		}
		if len(changed) > 0 {
			fmt.Fprintf(log, "latgate: dropping %s from the baseline history: the suite's configuration changed since (%s)\n", hf.Name, strings.Join(changed, ", "))
			continue
		}
		keep = append(keep, hf)
	}
	return keep
}

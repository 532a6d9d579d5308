package gate

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/trend"
	"github.com/latgate/latgate/vocab"
)

// readTrendDir returns the trend file an earlier record left in dir as
// stored; nil when there is none or it cannot be read (said).
func readTrendDir(dir string, log io.Writer) []byte {
	b, err := fileio.ReadLimited(filepath.Join(dir, fileio.TrendName), fileio.MaxTrendSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		fmt.Fprintf(log, "latgate: warning: %v: the trend starts again from the history\n", err)
		return nil
	}
	return b
}

// recordTrend adds the recorded run to main's trend — the previous trend
// file, else the runs of the previous history — finds the change points,
// announces those that are new (trend.Announce: once each, and only when
// they hold at the suite's level) and keeps the newest regression.trend
// runs and the announcements in dir's trend file. The first trend (no
// trend file yet) announces nothing: it takes the change points already in
// the history as known.
func (p *pipeline) recordTrend(cfg *suite.Config, cur *results.File, prev []publish.HistoryFile, prevTrend []byte, dir string) (*report.Trend, error) {
	path := filepath.Join(dir, fileio.TrendName)
	var old []trend.Run
	var announced []trend.Announced
	repo, quiet := "", true
	if prevTrend != nil {
		f, err := fileio.DecodeTrend(fileio.TrendName, prevTrend)
		if err != nil {
			fmt.Fprintf(p.env.Stderr, "latgate: warning: %v: the trend starts again from the history\n", err)
		} else {
			old, announced, repo, quiet = f.Runs, f.Announced, f.Repository, false
		}
	}
	if _, err := os.Lstat(path); err == nil && old == nil {
		if _, err := fileio.ReadTrend(path); err != nil {
			return nil, AsCannotRun(fmt.Errorf("%s exists and is not a latgate trend file: not overwritten", path))
		}
	}
	fromHistory := historyRuns(prev)
	if old == nil && len(fromHistory) > 0 {
		fmt.Fprintf(p.env.Stderr, "latgate: main's trend starts from the %d run(s) of the baseline history\n", len(fromHistory))
	}
	run, err := trend.RunOf(cur, trend.Provenance{Event: p.gc.EventName, RunURL: p.gc.RunURL()})
	if err != nil {
		return nil, AsCannotRun(err)
	}
	repo = cmp.Or(repositoryURL(p.gc.ServerURL, p.gc.Repository), repo)
	runs := trend.Merge(cfg.Regression.Trend, []trend.Run{run}, old, fromHistory)
	a := trend.Analyze(runs, trend.Method{})
	announced = trend.Announce(&a, announced, quiet)
	if err := fileio.WriteTrend(path, &trend.File{Schema: trend.Schema, Repository: repo, Runs: runs, Announced: announced}); err != nil {
		return nil, AsCannotRun(err)
	}
	fmt.Fprintf(p.env.Stderr, "latgate: main's trend of %d run(s) in %s\n", len(runs), path)
	return &report.Trend{Analysis: a, Repository: repo}, nil
}

// historyRuns are the trend runs of history files; a file that cannot be
// read is left out (sameSuite has said so).
func historyRuns(files []publish.HistoryFile) []trend.Run {
	var out []trend.Run
	for _, hf := range files {
		f, err := fileio.Decode(hf.Name, hf.Data)
		if err != nil {
			continue
		}
		if r, err := trend.RunOf(f, trend.Provenance{}); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// publishTrend ends a record run: the trend in the report (Markdown and
// HTML), the job summary and the log, the outputs, warnings on new
// slowdowns, and with fail-on-change-point a failed run when there is one.
func (p *pipeline) publishTrend(tr *report.Trend, summary, dir string) error {
	full := summary + "\n" + report.TrendMarkdown(tr)
	mdPath, htmlPath := p.in.Path(p.in.Report), HTMLPath(p.in.Path(p.in.Report))
	if err := fileio.WriteAtomic(mdPath, []byte(full)); err != nil {
		return AsCannotRun(err)
	}
	var page bytes.Buffer
	if err := report.TrendHTML(&page, tr); err != nil {
		return AsCannotRun(err)
	}
	if err := fileio.WriteAtomic(htmlPath, page.Bytes()); err != nil {
		return AsCannotRun(err)
	}
	if err := p.act.Summary(full); err != nil {
		p.act.Warning(err.Error())
	}
	fmt.Fprintln(p.env.Stdout)
	report.TrendText(p.env.Stdout, tr, p.env.Color)
	fresh, slower := tr.Analysis.New()
	for _, kc := range fresh[:min(len(fresh), 10)] {
		if kc.StepPct > 0 {
			p.act.Warning(fmt.Sprintf("latgate: main's trend: %s @ %s %s %s %+.1f%% from %s", kc.Scenario, kc.Endpoint, kc.Metric, kc.Stat, kc.StepPct, publish.ShortSHA(kc.GitSHA)))
		}
	}
	verdict := vocab.Pass
	failed := p.in.FailOnChangePoint && slower > 0
	if failed {
		verdict = vocab.Fail
	}
	err := outputs(p.act, map[string]string{"verdict": string(verdict), "results": p.in.Path(p.in.Results), "report": mdPath, "report-html": htmlPath,
		"baseline-dir": dir, "change-points": strconv.Itoa(len(fresh))})
	if err != nil {
		return err
	}
	if failed {
		fmt.Fprintf(p.env.Stderr, "latgate: %d new change point(s) in main's trend are slowdowns (fail-on-change-point); the baseline and the trend are written\n", slower)
		return ErrFailed
	}
	return nil
}

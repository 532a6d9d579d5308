package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/trend"
)

// benchSuiteRun is run i of a 20-scenario suite, 50 requests per scenario,
// with a per-run drift of σ 0.05 and a +15% step in every fourth scenario
// from run 60.
func benchSuiteRun(i int) *results.File {
	rng := rand.New(rand.NewPCG(uint64(i), 77))
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "bench",
		CreatedAt: time.Date(2026, 6, 1, 3, 0, 0, 0, time.UTC).Add(time.Duration(i) * 24 * time.Hour),
		Source:    results.Source{GitSHA: fmt.Sprintf("%040x", 0xbe7c0000+i), GitRef: "refs/heads/main", Runner: "bench"}}
	drift := math.Exp(0.05 * rng.NormFloat64())
	for s := range 20 {
		level := 300 * (1 + 0.1*float64(s)) * drift
		if s%4 == 0 && i >= 60 {
			level *= 1.15
		}
		run := results.Run{Endpoint: "us-east", Scenario: fmt.Sprintf("scenario-%02d", s), Fingerprint: fmt.Sprintf("sha256:%064x", s),
			Config: results.RunConfig{MaxTokens: 128, Concurrency: 4, Requests: 50, ReadingRate: 10}}
		for range 50 {
			ttft := level * math.Exp(0.3*rng.NormFloat64())
			total := ttft + 127*15*math.Exp(0.1*rng.NormFloat64())
			run.Requests = append(run.Requests, results.Request{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total,
				ITLMs: make([]float64, 0), OutputTokens: 128, TokensSource: "usage"})
		}
		f.Runs = append(f.Runs, run)
	}
	return f
}

// benchTrendDirs writes 100 runs of the suite as results files into one
// folder, and as one trend file into another.
func benchTrendDirs(b *testing.B) (results, trendFile string) {
	b.Helper()
	results, tdir := b.TempDir(), b.TempDir()
	var runs []trend.Run
	for i := range 100 {
		f := benchSuiteRun(i)
		if err := fileio.Write(filepath.Join(results, fmt.Sprintf("results-%03d.json", i)), f); err != nil {
			b.Fatal(err)
		}
		r, _ := trend.RunOf(f, trend.Provenance{Event: "push", RunURL: "https://github.com/acme/app/actions/runs/1234567890"})
		runs = append(runs, r)
	}
	trendFile = filepath.Join(tdir, fileio.TrendName)
	tf := &trend.File{Schema: trend.Schema, Repository: "https://github.com/acme/app", Runs: runs}
	if err := fileio.WriteTrend(trendFile, tf); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(trendFile)
	b.ReportMetric(float64(st.Size()), "trend-file-bytes")
	return results, trendFile
}

// BenchmarkTrend is latgate trend on 100 runs of a 20-scenario suite (60
// series): reading, the change points, and the text and HTML renderings;
// from the trend file record mode keeps, and from 100 results files (a
// baseline folder without one).
func BenchmarkTrend(b *testing.B) {
	resultsDir, trendFile := benchTrendDirs(b)
	for _, in := range []struct{ name, path string }{{"trend-file", trendFile}, {"results-files", resultsDir}} {
		b.Run(in.name, func(b *testing.B) {
			for b.Loop() {
				tr, err := Trend(Env{Getenv: noEnv}, []string{in.path})
				if err != nil {
					b.Fatal(err)
				}
				if len(tr.Analysis.Runs) != 100 || len(tr.Analysis.Series) != 60 {
					b.Fatalf("%d runs, %d series", len(tr.Analysis.Runs), len(tr.Analysis.Series))
				}
				report.TrendText(io.Discard, tr, false)
				if err := report.TrendHTML(io.Discard, tr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTrendFileSize: 100 runs of a 20-scenario suite stay small in the
// baseline artifact (docs/formats.md states the figures).
func TestTrendFileSize(t *testing.T) {
	var runs []trend.Run
	for i := range 100 {
		r, _ := trend.RunOf(benchSuiteRun(i), trend.Provenance{Event: "schedule", RunURL: "https://github.com/acme/app/actions/runs/1234567890"})
		runs = append(runs, r)
	}
	tf := &trend.File{Schema: trend.Schema, Repository: "https://github.com/acme/app", Runs: runs}
	gz, err := fileio.EncodeTrend(tf)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(tf)
	t.Logf("100 runs × 20 scenarios: %d bytes of JSON, %d bytes gzip-compressed (the file)", len(raw), len(gz))
	if len(raw) > 1<<20 || len(gz) > 256<<10 {
		t.Errorf("100 runs × 20 scenarios: %d bytes of JSON, %d compressed; want under 1 MiB and 256 KiB", len(raw), len(gz))
	}
}

// BenchmarkRecordTrend is what a record run adds on 100 runs of a
// 20-scenario suite: the analysis, and announcing its 15 change points
// when none was announced yet (the worst case: each is confirmed at the
// suite's level with up to 24,000 permutations).
func BenchmarkRecordTrend(b *testing.B) {
	var runs []trend.Run
	for i := range 100 {
		r, _ := trend.RunOf(benchSuiteRun(i), trend.Provenance{})
		runs = append(runs, r)
	}
	for b.Loop() {
		a := trend.Analyze(runs, trend.Method{})
		if n := len(trend.Announce(&a, nil, false)); n < 10 {
			b.Fatalf("%d announced", n)
		}
	}
}

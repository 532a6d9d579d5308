package gate

import (
	"bytes"
	"compress/gzip"
	"io"
	"path/filepath"
	"testing"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/trend"
)

// TestSchemaTrendFiles holds the trend file record mode writes, and latgate
// trend's JSON, to their schemas in docs/schema: a trend of a measured run
// (failed requests, too few for p95: null values) after 30 runs of main with
// a step (change points, levels, a configuration change).
func TestSchemaTrendFiles(t *testing.T) {
	trendSchema := compileSchema(t, "trend.schema.json")
	reportSchema := compileSchema(t, "trend-report.schema.json")
	dir := t.TempDir()
	measured, err := measureTo(t, schemaSuite(t, ""), filepath.Join(dir, "measured.json"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []trend.Run
	for _, p := range writeTrendRuns(t, dir, 0, 30, 18) {
		f, err := fileio.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := trend.RunOf(f, trend.Provenance{Event: "schedule", RunURL: "https://github.test/o/r/actions/runs/1"})
		runs = append(runs, r)
	}
	runs[29].Scenarios[1].Fingerprint = "sha256:changed"
	now, err := trend.RunOf(measured, trend.Provenance{Event: "push"})
	if err != nil {
		t.Fatal(err)
	}
	nulls := 0
	for _, sc := range now.Scenarios {
		for _, v := range sc.Values {
			if v.Value == nil {
				nulls++
			}
		}
	}
	if nulls == 0 {
		t.Fatal("the measured run has no null value: the schema's null case is not exercised")
	}
	path := filepath.Join(dir, fileio.TrendName)
	all := trend.Merge(100, []trend.Run{now}, runs)
	a := trend.Analyze(all, trend.Method{})
	announced := trend.Announce(&a, nil, false)
	if len(announced) == 0 {
		t.Fatal("nothing announced: the schema's announcements are not exercised")
	}
	if err := fileio.WriteTrend(path, &trend.File{Schema: trend.Schema, Repository: "https://github.test/o/r", Runs: all, Announced: announced}); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(readFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(zr)
	mustValidate(t, trendSchema, fileio.TrendName, raw)

	tr, err := Trend(Env{Getenv: noEnv}, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Analysis.ChangePoints()) == 0 || len(tr.Analysis.Configs) == 0 {
		t.Fatalf("the trend lacks a case the schema must cover: %d change points, %d configuration changes", len(tr.Analysis.ChangePoints()), len(tr.Analysis.Configs))
	}
	var b bytes.Buffer
	if err := report.TrendJSON(&b, tr); err != nil {
		t.Fatal(err)
	}
	mustValidate(t, reportSchema, "latgate trend --format json", b.Bytes())

	// The schema refuses what the reader refuses.
	for name, doc := range map[string]string{
		"negative value": `{"schema":"latgate/trend/v1","runs":[{"created_at":"2026-11-30T04:00:00Z","git_sha":"a","metrics_version":2,"scenarios":[{"endpoint":"e","scenario":"s","fingerprint":"f","requests":1,"values":[{"metric":"ttft","stat":"p50","value":-1,"n":1}]}]}]}`,
		"metric name":    `{"schema":"latgate/trend/v1","runs":[{"created_at":"2026-11-30T04:00:00Z","git_sha":"a","metrics_version":2,"scenarios":[{"endpoint":"e","scenario":"s","fingerprint":"f","requests":1,"values":[{"metric":"<b>","stat":"p50","value":1,"n":1}]}]}]}`,
		"no time":        `{"schema":"latgate/trend/v1","runs":[{"git_sha":"a","metrics_version":2,"scenarios":[]}]}`,
	} {
		if trendSchema.Validate(instance(t, []byte(doc))) == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
		if _, err := fileio.DecodeTrend(name, []byte(doc)); err == nil {
			t.Errorf("%s: the reader accepts it", name)
		}
	}
}

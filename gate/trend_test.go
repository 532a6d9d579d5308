package gate

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/trend"
	"github.com/latgate/latgate/vocab"
)

var trendT0 = time.Date(2026, 9, 1, 3, 0, 0, 0, time.UTC)

// trendResults is run i of main: per scenario, 50 requests whose TTFT is
// log-normal around the scenario's level (σ 0.2) and whose total is four
// times the TTFT.
func trendResults(i int, levels map[string]float64) *results.File {
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "test",
		CreatedAt: trendT0.Add(time.Duration(i) * 24 * time.Hour), Source: results.Source{GitSHA: fmt.Sprintf("%07x%033x", 0xabc000+i, i), GitRef: "refs/heads/main"}}
	rng := rand.New(rand.NewPCG(uint64(i), 9))
	for _, name := range []string{"chat", "summarize"} {
		level, ok := levels[name]
		if !ok {
			continue
		}
		run := results.Run{Endpoint: "us-east", Scenario: name, Fingerprint: "sha256:" + name, Config: results.RunConfig{MaxTokens: 64, Requests: 50}}
		for range 50 {
			ttft := level * math.Exp(0.2*rng.NormFloat64())
			total := 4 * ttft
			run.Requests = append(run.Requests, results.Request{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total, ITLMs: []float64{}})
		}
		f.Runs = append(f.Runs, run)
	}
	return f
}

// writeTrendRuns writes runs first..last−1 of a main whose chat TTFT rises
// by 30% from run stepAt, as history files into dir.
func writeTrendRuns(t *testing.T, dir string, first, last, stepAt int) []string {
	t.Helper()
	var paths []string
	for i := first; i < last; i++ {
		chat := 400.0
		if i >= stepAt {
			chat = 520
		}
		f := trendResults(i, map[string]float64{"chat": chat, "summarize": 900})
		p := filepath.Join(dir, fmt.Sprintf("results-%02d.json", i))
		if err := fileio.Write(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func noEnv(string) string { return "" }

func changePoints(tr *report.Trend) []trend.KeyedChange { return tr.Analysis.ChangePoints() }

func TestTrendFindsTheStepInAFolder(t *testing.T) {
	dir := t.TempDir()
	writeTrendRuns(t, dir, 0, 30, 18)
	// Foreign files are ignored and named; a folder too.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "app"}`), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	ab := trendResults(99, map[string]float64{"chat": 400})
	ab.Runs[0].Variant = vocab.Head
	fileio.Write(filepath.Join(dir, "ab.json"), ab)

	tr, err := Trend(Env{Getenv: noEnv}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cps := changePoints(tr)
	if len(cps) != 3 {
		t.Fatalf("change points %+v, want chat's TTFT p50, p95 and total p50 at run 18", cps)
	}
	for _, cp := range cps {
		if cp.Scenario != "chat" || cp.Index != 18 || cp.GitSHA != fmt.Sprintf("%07x%033x", 0xabc000+18, 18) {
			t.Errorf("change point %s %s %s at %d (%s)", cp.Scenario, cp.Metric, cp.Stat, cp.Index, cp.GitSHA)
		}
		if cp.StepPct < 22 || cp.StepPct > 38 || cp.CIPct[0] > cp.StepPct || cp.CIPct[1] < cp.StepPct {
			t.Errorf("step %+.1f%% %v, want about +30%%", cp.StepPct, cp.CIPct)
		}
	}
	notes := strings.Join(tr.Notes, "\n")
	for _, want := range []string{"notes.txt", "package.json", "sub (not a regular file)", "ab.json (an A/B file"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
}

func TestTrendSortsFilesAndReadsTrendFiles(t *testing.T) {
	dir := t.TempDir()
	paths := writeTrendRuns(t, dir, 0, 30, 18)
	want, err := Trend(Env{Getenv: noEnv}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	// The same runs, files given backwards, the older half from a trend file.
	var old []trend.Run
	for _, p := range paths[:15] {
		f, _ := fileio.Read(p)
		r, _ := trend.RunOf(f, trend.Provenance{Event: "schedule"})
		old = append(old, r)
	}
	tf := filepath.Join(t.TempDir(), fileio.TrendName)
	if err := fileio.WriteTrend(tf, &trend.File{Schema: trend.Schema, Repository: "https://github.test/o/r", Runs: old}); err != nil {
		t.Fatal(err)
	}
	args := []string{}
	for i := len(paths) - 1; i >= 10; i-- {
		args = append(args, paths[i])
	}
	got, err := Trend(Env{Getenv: noEnv}, append(args, tf))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Analysis.Runs) != 30 || got.Repository != "https://github.test/o/r" {
		t.Fatalf("%d runs, repository %q", len(got.Analysis.Runs), got.Repository)
	}
	if got.Analysis.Runs[0].Event != "schedule" {
		t.Error("a run in both a trend file and a results file: the trend file's provenance is lost")
	}
	if g, w := changePoints(got), changePoints(want); len(g) != len(w) || g[0].Index != w[0].Index || g[0].StepPct != w[0].StepPct {
		t.Errorf("change points %+v, want %+v", g, w)
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "sorted by created_at") {
		t.Errorf("notes %q: want the sorting said", got.Notes)
	}
}

func TestTrendSaysWhatItCannotDo(t *testing.T) {
	dir := t.TempDir()
	paths := writeTrendRuns(t, dir, 0, 4, 99)
	tr, err := Trend(Env{Getenv: noEnv}, paths)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	report.TrendText(&b, tr, false)
	if !strings.Contains(b.String(), "4 runs") || !strings.Contains(b.String(), "the method needs 6 runs") {
		t.Errorf("too few runs not said:\n%s", b.String())
	}
	// Another suite: the same names under another configuration are kept
	// apart, and said.
	other := trendResults(10, map[string]float64{"chat": 2000})
	other.Runs[0].Fingerprint = "sha256:other"
	p := filepath.Join(dir, "other.json")
	fileio.Write(p, other)
	tr, err = Trend(Env{Getenv: noEnv}, append(paths, p))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Analysis.Configs) != 1 || !strings.Contains(strings.Join(trendText(tr), "\n"), "measured under 2 configurations") {
		t.Errorf("configurations %+v", tr.Analysis.Configs)
	}
	for _, s := range tr.Analysis.Series {
		if s.Fingerprint == "sha256:other" && len(s.Points) != 1 {
			t.Errorf("the other configuration's series has %d points", len(s.Points))
		}
	}
}

func trendText(tr *report.Trend) []string {
	var b bytes.Buffer
	report.TrendText(&b, tr, false)
	return strings.Split(b.String(), "\n")
}

func TestTrendBadInput(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "notes.json")
	os.WriteFile(foreign, []byte(`{"name": "x"}`), 0o644)
	broken := filepath.Join(dir, "results-x.json")
	os.WriteFile(broken, []byte(`{"schema": "latgate/results/v1", "runs": [`), 0o644)
	empty := t.TempDir()
	// A huge file is refused by its size, never read (a sparse file: no disk).
	huge := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(huge, []byte(`{"schema": "latgate/results/v1"`), 0o644); err != nil || os.Truncate(huge, fileio.MaxFileSize+1) != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		paths []string
		want  string
	}{
		"nothing":             {nil, "no input"},
		"missing":             {[]string{filepath.Join(dir, "nope")}, "no such file"},
		"foreign file":        {[]string{foreign}, "not a latgate results or trend file"},
		"broken results file": {[]string{broken}, "truncated"},
		"empty folder":        {[]string{empty}, "no run to follow"},
		"only foreign files":  {[]string{dir}, "ignored 1 file(s)"},
		"huge file":           {[]string{huge}, "too large to be a file latgate reads"},
		"huge file in folder": {[]string{filepath.Dir(huge)}, "huge.json ("},
	} {
		_, err := Trend(Env{Getenv: noEnv}, tc.paths)
		if KindOf(err) != BadInput || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (kind %d), want bad input saying %q", name, err, KindOf(err), tc.want)
		}
	}
}

func TestTrendEscapesHostileNames(t *testing.T) {
	dir := t.TempDir()
	for i := range 8 {
		f := trendResults(i, map[string]float64{"chat": 400})
		f.Runs[0].Scenario = "chat\x1b[2J\n::error::pwned\u202e"
		if err := fileio.Write(filepath.Join(dir, fmt.Sprintf("r%d.json", i)), f); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "evil\x1b]0;x\x07.txt"), []byte("x"), 0o644)
	tr, err := Trend(Env{Getenv: noEnv}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(trendText(tr), "\n")
	for _, bad := range []string{"\x1b", "\n::error::", "\u202e", "\x07"} {
		if strings.Contains(out, bad) {
			t.Errorf("the text output holds %q:\n%q", bad, out)
		}
	}
	if !strings.Contains(out, `chat\x1b[2J\x0a::error::pwned\u202e`) {
		t.Errorf("the name is not shown escaped:\n%s", out)
	}
}

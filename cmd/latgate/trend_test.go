package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/internal/ghfake"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/trend"
)

// seedTrend writes a trend file into hist whose runs are the run of
// results at its level, n times a day apart before it, then slow times at
// factor (the two newest), so that one more slow run makes the new level
// a change point.
func seedTrend(t *testing.T, results, hist string, n, slow int, factor float64) {
	t.Helper()
	f, err := fileio.Read(results)
	if err != nil {
		t.Fatal(err)
	}
	base, err := trend.RunOf(f, trend.Provenance{Event: "push"})
	if err != nil {
		t.Fatal(err)
	}
	var runs []trend.Run
	for i := range n + slow {
		r := base
		r.CreatedAt = f.CreatedAt.Add(-time.Duration(n+slow-i) * 24 * time.Hour)
		r.GitSHA = strings.Repeat(string("0123456789abcdef"[i%16]), 40)
		scale := 1 + 0.01*float64(i%3-1)
		if i >= n {
			scale = factor
		}
		r.Scenarios = nil
		for _, sc := range base.Scenarios {
			sc.Values = append([]trend.Value(nil), sc.Values...)
			for k, v := range sc.Values {
				if v.Value != nil {
					x := *v.Value * scale
					sc.Values[k].Value = &x
				}
			}
			r.Scenarios = append(r.Scenarios, sc)
		}
		runs = append(runs, r)
	}
	if err := os.MkdirAll(hist, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fileio.WriteTrend(filepath.Join(hist, fileio.TrendName), &trend.File{Schema: trend.Schema, Runs: runs}); err != nil {
		t.Fatal(err)
	}
}

// TestRecordNamesANewChangePoint: main was steady for 20 runs, then two
// runs came in slower; the third slow run that record measures makes it a
// level: the job summary, the log and the output name the new change
// point (at the first slow run's commit, linked), the HTML report draws
// the trend, and with
// fail-on-change-point the run fails (exit 1) after writing everything.
func TestRecordNamesANewChangePoint(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, s := simSuite(t, fastProfile(20*time.Millisecond), "")
		env := map[string]string{"TEST_API_KEY": testKey}
		fast := filepath.Join(dir, "fast.json")
		if r := runCLI(t, env, "run", "-c", cfg, "-o", fast); r.code != 0 {
			t.Fatalf("run: exit %d: %s", r.code, r.stderr)
		}
		for _, failOn := range []bool{false, true} {
			hist := filepath.Join(t.TempDir(), "latgate-baseline")
			seedTrend(t, fast, hist, 20, 4, 4)
			s.SetProfile(fastProfile(90 * time.Millisecond))
			api := newFakeAPI(t)
			ae := actionsEnv(t, dir, api)
			ae["GITHUB_EVENT_NAME"], ae["GITHUB_SHA"] = "push", "feedface00000000000000000000000000000000"
			ae["INPUT_BASELINE_DIR"] = hist
			args := []string{"gate", "--mode", "record", "-c", cfg, "--results", filepath.Join(dir, "now.json")}
			if failOn {
				args = append(args, "--fail-on-change-point")
			}
			os.Remove(ae["GITHUB_OUTPUT"])
			os.Remove(ae["GITHUB_STEP_SUMMARY"])
			r := runCLI(t, ae, args...)
			if want := map[bool]int{false: 0, true: 1}[failOn]; r.code != want {
				t.Fatalf("fail-on-change-point %v: exit %d, want %d\n%s\n%s", failOn, r.code, want, r.stdout, r.stderr)
			}
			sum, _ := os.ReadFile(ae["GITHUB_STEP_SUMMARY"])
			out, _ := os.ReadFile(ae["GITHUB_OUTPUT"])
			page, _ := os.ReadFile(filepath.Join(dir, "latgate-report.html"))
			for what, want := range map[string][]string{
				"summary": {"baseline recorded", "New change points, with the newest run", "🆕 **chat @ local ",
					"[`4444444`](https://github.test/o/r/commit/4444444444444444444444444444444444444444)"},
				"stdout":  {"NEW", "::warning::latgate: main's trend: chat @ local "},
				"outputs": {"change-points<<", "report-html<<"},
				"report":  {"main's trend", `href="https://github.test/o/r/commit/4444444444444444444444444444444444444444"`, "<circle"},
			} {
				text := map[string]string{"summary": string(sum), "stdout": r.stdout, "outputs": string(out), "report": string(page)}[what]
				for _, w := range want {
					if !strings.Contains(text, w) {
						t.Errorf("fail-on-change-point %v: the %s lacks %q:\n%.3000s", failOn, what, w, text)
					}
				}
			}
			if failOn && !strings.Contains(r.stderr, "fail-on-change-point") {
				t.Errorf("the failure is not explained: %s", r.stderr)
			}
			tf, err := fileio.ReadTrend(filepath.Join(hist, fileio.TrendName))
			if err != nil || len(tf.Runs) != 25 || len(tf.Announced) == 0 || tf.Repository != "https://github.test/o/r" || tf.Runs[24].Event != "push" || tf.Runs[24].RunURL == "" {
				t.Errorf("trend file: %v, %+v", err, tf)
			}
			// latgate trend reads the folder the record run left.
			tr := runCLI(t, nil, "trend", hist)
			if tr.code != 0 || !strings.Contains(tr.stdout, "25 runs") || !strings.Contains(tr.stdout, "NEW") || !strings.Contains(tr.stdout, "chat @ local") {
				t.Errorf("latgate trend %s: exit %d\n%s\n%s", hist, tr.code, tr.stdout, tr.stderr)
			}
		}
	})
}

func TestTrendCommand(t *testing.T) {
	dir := t.TempDir()
	if r := runCLI(t, nil, "trend"); r.code != 2 || !strings.Contains(r.stderr, "usage: latgate trend") {
		t.Errorf("no argument: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "trend", "--format", "csv", dir); r.code != 2 || !strings.Contains(r.stderr, "want one of "+strings.Join(report.TrendFormats.Names(), ", ")+`, got "csv"`) {
		t.Errorf("csv: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "trend", dir); r.code != 2 || !strings.Contains(r.stderr, "no run to follow") {
		t.Errorf("empty folder: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "trend", "-h"); r.code != 0 || !strings.Contains(r.stderr, "output format: "+cli.OrList(report.TrendFormats.Names())) {
		t.Errorf("-h: exit %d, %s", r.code, r.stderr)
	}
}

// TestCommentLinksTheTrend: a baseline artifact that holds main's trend
// gives the comment a link to the run that recorded it; one without does
// not.
func TestCommentLinksTheTrend(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		bl := filepath.Join(dir, "b.json")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", bl); r.code != 0 {
			t.Fatal(r.stderr)
		}
		data, _ := os.ReadFile(bl)
		f, _ := fileio.Read(bl)
		run, _ := trend.RunOf(f, trend.Provenance{Event: "push"})
		tz, err := fileio.EncodeTrend(&trend.File{Schema: trend.Schema, Runs: []trend.Run{run}})
		if err != nil {
			t.Fatal(err)
		}
		for _, withTrend := range []bool{true, false} {
			api := newFakeAPI(t)
			env := actionsEnv(t, dir, api)
			files := []ghfake.File{{Name: "latgate-results.json", Body: string(data)}}
			if withTrend {
				files = append(files, ghfake.File{Name: fileio.TrendName, Body: string(tz)})
			}
			api.AddRun(ghfake.Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Event: "push", Conclusion: "success",
				Artifacts: []ghfake.Artifact{{ID: 5, Name: "latgate-baseline", Zip: ghfake.Zip(files...)}}})
			api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
			r := runCLI(t, env, "gate", "-c", cfg, "--baseline-artifact", "latgate-baseline", "--dry-run", "--results", filepath.Join(dir, "r.json"))
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if link := "[main's trend](" + api.RunURL(9) + ")"; strings.Contains(dryRunComment(t, r.stdout), link) != withTrend {
				t.Errorf("trend in the artifact %v: the comment's link %q present %v:\n%s", withTrend, link, !withTrend, r.stdout)
			}
		}
	})
}

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/ghfake"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/sim"
)

const ghToken = "ghs_FAKE_TOKEN_abcdef123456"

// newFakeAPI is the shared fake GitHub API with pull request 7 open and
// one comment by someone else on it, on clocktest's in-memory loopback
// (inside the test's synctest bubble): runCLI reaches it there.
func newFakeAPI(t *testing.T) *ghfake.Fake {
	f := ghfake.Virtual(t, "o/r")
	onLoopback(t, f.Client())
	f.Token = ghToken
	f.AddPull(ghfake.Pull{Number: 7, HeadSHA: "c0ffee0000000000000000000000000000000000", BaseSHA: "ba5e000000000000000000000000000000000000"})
	f.AddComment(7, "alice", "nice PR")
	return f
}

// actionsEnv is what the runner gives a step on a pull_request event.
func actionsEnv(t *testing.T, dir string, api *ghfake.Fake) map[string]string {
	event := filepath.Join(dir, "event.json")
	_ = os.WriteFile(event, []byte(`{"pull_request":{"number":7}}`), 0o644)
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_API_URL": api.APIURL,
		"GITHUB_EVENT_PATH": event, "GITHUB_TOKEN": ghToken, "GITHUB_WORKSPACE": dir,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_WORKFLOW": "latency", "GITHUB_JOB": "gate", "GITHUB_SERVER_URL": "https://github.test", "GITHUB_RUN_ID": "42",
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/latgate.yml@refs/pull/7/merge", "GITHUB_BASE_REF": "main",
		"TEST_API_KEY": testKey, "INPUT_REPORT": filepath.Join(dir, "latgate-report.md"), "INPUT_BASELINE_DIR": filepath.Join(dir, "latgate-baseline"),
	}
}

func noSecrets(t *testing.T, where string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "::add-mask::") {
				continue
			}
			if strings.Contains(line, ghToken) || strings.Contains(line, testKey) {
				t.Errorf("a secret appears in %s: %q", where, line)
			}
		}
	}
}

// TestGateRecordThenUnchangedThenSlower: record, then an unchanged server
// passes with a new sticky comment, then a server 980ms slower fails with
// the same comment edited and an annotation at the scenario's line.
func TestGateRecordThenUnchangedThenSlower(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, s := simSuiteN(t, fastProfile(20*time.Millisecond), 12, "")
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		bl := filepath.Join(dir, "baseline.json")

		r := runCLI(t, env, "gate", "--mode", "record", "-c", cfg, "--results", bl)
		if r.code != 0 {
			t.Fatalf("record: exit %d: %s", r.code, r.stderr)
		}
		// The token, then the key, each with its encodings: before any
		// other line.
		var masks []string
		for _, l := range strings.SplitAfter(r.stdout, "\n") {
			m, ok := strings.CutPrefix(l, "::add-mask::")
			if !ok {
				break
			}
			masks = append(masks, strings.TrimSuffix(m, "\n"))
		}
		if len(masks) == 0 || masks[0] != ghToken || slices.Index(masks, testKey) < 1 {
			t.Errorf("secrets are not masked before anything else is printed:\n%.600s", r.stdout)
		}
		api.Verify() // record mode: no call expected

		// Unchanged: pass, a new sticky comment.
		api.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		r = runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r1.json"), "--report", filepath.Join(dir, "r1.md"))
		if r.code != 0 {
			t.Fatalf("unchanged gate: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		api.Verify()
		out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
		for _, want := range []string{"verdict<<", "pass", "results<<", "r1.json", "report<<", "r1.md", "regressions<<", "comment-url<<", "https://github.test/o/r/pull/7#issuecomment-"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
			}
		}

		// Slower server: fail, the same comment edited, an annotation.
		s.SetProfile(fastProfile(time.Second))
		api.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.UpdateComment)
		r2 := runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r2.json"))
		if r2.code != 1 {
			t.Fatalf("slower gate: exit %d, want 1:\n%s\n%s", r2.code, r2.stdout, r2.stderr)
		}
		api.Verify()
		comments := api.Comments(7)
		if n := len(comments); n != 2 {
			t.Fatalf("%d comments on the PR, want 2 (alice's and one sticky)", n)
		}
		body := comments[1].Body
		// The key names the suite by its path in the repository (the
		// workspace), not on the runner: -c was an absolute path.
		for _, want := range []string{`<!-- latgate:comment key="latency/gate/latgate.yaml" -->`, "### ❌ latgate: latency fail", "regression", "TTFT"} {
			if !strings.Contains(body, want) {
				t.Errorf("comment lacks %q:\n%s", want, body)
			}
		}
		if comments[0].Body != "nice PR" {
			t.Error("someone else's comment changed")
		}
		if !strings.Contains(r2.stdout, "::error file=latgate.yaml,line=7,title=latgate%3A chat @ local::ttft p50 regressed") {
			t.Errorf("no annotation at the scenario's line:\n%s", r2.stdout)
		}
		sum, _ := os.ReadFile(env["GITHUB_STEP_SUMMARY"])
		if !strings.Contains(string(sum), "latency fail") {
			t.Error("the job summary lacks the report")
		}
		results, _ := os.ReadFile(filepath.Join(dir, "r2.json"))
		noSecrets(t, "gate output", r.stdout, r.stderr, r2.stdout, r2.stderr, string(out), string(sum), body, string(results))
	})
}

// TestGateRecordIntoAFolderOfOtherFiles: record with --baseline-dir . (a
// project's root) touches nothing but its own history files, keeps the
// results file it wrote, and a second local record (no artifact) continues
// the history already in the folder.
func TestGateRecordIntoAFolderOfOtherFiles(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		others := map[string]string{"package.json": `{"name": "app"}`, "tsconfig.json": "{}", "notes.txt": "mine"}
		for name, body := range others {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res := filepath.Join(dir, "latgate-results.json")
		var log string
		for i, want := range []string{"history of 1 run(s)", "history continues from the 1 run(s) already in " + dir} {
			if i > 0 {
				// created_at has whole seconds: two runs in one second are one
				// history entry. Date the first a second back instead of waiting.
				ageHistory(t, dir, time.Second)
			}
			r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "gate", "--mode", "record", "-c", cfg, "--baseline-dir", dir, "--results", res,
				"--report", filepath.Join(dir, "latgate-report.md"))
			log += r.stderr
			if r.code != 0 || !strings.Contains(r.stderr, want) {
				t.Fatalf("record %d: exit %d, stderr %q; want 0 and %q", i+1, r.code, r.stderr, want)
			}
			// No artifact name was given: none is made up.
			if strings.Contains(r.stderr, `artifact ""`) || !strings.Contains(r.stderr, "give its name as baseline-artifact") {
				t.Errorf("record %d: stderr %q; want how to name the artifact, not an empty name", i+1, r.stderr)
			}
		}
		for name, body := range others {
			if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != body {
				t.Errorf("%s: got %q, %v; want it untouched", name, b, err)
			}
		}
		for _, name := range []string{"latgate.yaml", "latgate-results.json"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				t.Errorf("%s: %v, want it kept", name, err)
			}
		}
		h, err := publish.ReadHistoryDir(dir)
		if err != nil || len(h) != 2 {
			t.Errorf("history: got %d run(s), %v; want both recordings:\n%s", len(h), err, log)
		}
		// Main's trend continues from the folder too.
		tf, err := fileio.ReadTrend(filepath.Join(dir, fileio.TrendName))
		if err != nil || len(tf.Runs) != 2 || !strings.Contains(log, "main's trend of 2 run(s)") {
			t.Errorf("trend: %v; want both recordings:\n%s", err, log)
		}
	})
}

// ageHistory dates every results file of the history folder dir by
// earlier, as if it had been recorded that much before.
func ageHistory(t *testing.T, dir string, by time.Duration) {
	t.Helper()
	h, err := publish.ReadHistoryDir(dir)
	if err != nil || len(h) == 0 {
		t.Fatalf("history in %s: %d file(s), %v", dir, len(h), err)
	}
	for _, hf := range h {
		var f map[string]json.RawMessage
		if err := json.Unmarshal(hf.Data, &f); err != nil {
			t.Fatal(err)
		}
		at := hf.CreatedAt.Add(-by)
		f["created_at"], _ = json.Marshal(at)
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, publish.HistoryName(at)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, hf.Name)); err != nil {
			t.Fatal(err)
		}
	}
	// Main's trend holds the same runs: date them back alike.
	path := filepath.Join(dir, fileio.TrendName)
	if tf, err := fileio.ReadTrend(path); err == nil {
		for i := range tf.Runs {
			tf.Runs[i].CreatedAt = tf.Runs[i].CreatedAt.Add(-by)
		}
		if err := fileio.WriteTrend(path, tf); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGateForbiddenCommentKeepsVerdict(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		api.FailWith(ghfake.CreateComment, 403)
		api.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		env := actionsEnv(t, dir, api)
		r := runCLI(t, env, "gate", "-c", cfg, "--baseline", "none", "--results", filepath.Join(dir, "r.json"))
		if r.code != 0 {
			t.Errorf("exit %d, want 0 (no baseline, no budget: pass) even though commenting failed", r.code)
		}
		if !strings.Contains(r.stderr, "Pull requests from forks get a read-only token") || !strings.Contains(r.stdout, "::warning::") {
			t.Errorf("no clear warning about the read-only token:\n%s\n%s", r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout, "no baseline yet") {
			t.Errorf("a missing baseline is not reported:\n%s", r.stdout)
		}
		noSecrets(t, "output", r.stdout, r.stderr)
	})
}

func TestGateDryRunMakesNoAPICall(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		env["INPUT_DRY-RUN"] = "true" // as an Action input, not a flag
		env["INPUT_CONFIG"] = cfg
		env["INPUT_RESULTS"] = filepath.Join(dir, "r.json")
		env["INPUT_BASELINE"] = "none"
		r := runCLI(t, env, "gate")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		api.Verify() // a dry run makes no call
		if comment := dryRunComment(t, r.stdout); !strings.Contains(comment, "<!-- latgate:comment") {
			t.Errorf("dry run did not write the comment:\n%s", r.stdout)
		}
		if strings.Contains(r.stdout, "&#") || strings.Contains(r.stdout, "<!--") {
			t.Errorf("the dry run printed Markdown to the terminal:\n%s", r.stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, "r.json")); err != nil {
			t.Error("INPUT_RESULTS was not used")
		}
	})
}

// TestGateBaselineFromArtifact: the baseline comes from the base branch's
// artifact; an artifact the base branch never recorded is an explicit "no
// baseline yet".
func TestGateBaselineFromArtifact(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		bl := filepath.Join(dir, "b.json")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", bl); r.code != 0 {
			t.Fatal(r.stderr)
		}
		data, _ := os.ReadFile(bl)
		api.AddRun(ghfake.Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Event: "push", Conclusion: "success",
			Artifacts: []ghfake.Artifact{{ID: 5, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "latgate-results.json", Body: string(data)})}}})
		api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
		r := runCLI(t, env, "gate", "-c", cfg, "--baseline-artifact", "latgate-baseline", "--comment=false", "--results", filepath.Join(dir, "r.json"))
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, `baseline history of 1 run(s) from artifact "latgate-baseline" of `+api.RunURL(9)) {
			t.Errorf("stderr: %s", r.stderr)
		}
		if strings.Contains(r.stdout, "no baseline") {
			t.Error("the artifact baseline was not used")
		}
		api.Verify()

		// The artifact's name is not on the base branch: an explicit "no
		// baseline yet" that passes and says so.
		api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts)
		r = runCLI(t, env, "gate", "-c", cfg, "--baseline-artifact", "other-name", "--comment=false", "--results", filepath.Join(dir, "r.json"))
		if r.code != 0 || !strings.Contains(r.stderr, "no baseline yet") || !strings.Contains(r.stdout, "no baseline yet") {
			t.Errorf("first run on a new repository: exit %d, want 0 and \"no baseline yet\" in the log and the report:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
	})
}

func TestPublishOnly(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		res := filepath.Join(dir, "r.json")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", res); r.code != 0 {
			t.Fatal(r.stderr)
		}
		env := actionsEnv(t, dir, api)
		delete(env, "TEST_API_KEY") // the workflow_run job has no model secrets
		event := filepath.Join(dir, "wr.json")
		_ = os.WriteFile(event, []byte(`{"workflow_run":{"head_sha":"c0ffee0000000000000000000000000000000000","pull_requests":[{"number":7,"head":{"sha":"c0ffee0000000000000000000000000000000000"},"base":{"sha":"ba5e000000000000000000000000000000000000","repo":{"full_name":"o/r"}}}]}}`), 0o644)
		env["GITHUB_EVENT_PATH"] = event
		env["GITHUB_EVENT_NAME"] = "workflow_run"
		// The pull request is found by its head commit among the open ones.
		api.Expect(ghfake.ListPulls, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		r := runCLI(t, env, "publish", "--results", res, "--baseline", res, "-c", cfg)
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		api.Verify()
		if c := api.Comments(7); len(c) != 2 || !strings.Contains(c[1].Body, "latgate") {
			t.Errorf("comments: %+v, want the sticky comment on #7", c)
		}
	})
}

func TestGateWithoutTokenWarns(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "budgets:\n  ttft: {p50: 1ms}\n")
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		delete(env, "GITHUB_TOKEN")
		// no call expected
		r := runCLI(t, env, "gate", "-c", cfg, "--baseline=none", "--results", filepath.Join(dir, "r.json"))
		if r.code != 1 {
			t.Errorf("exit %d, want 1: the budget is blown whether or not a comment can be posted", r.code)
		}
		if !strings.Contains(r.stderr, "no GitHub token") {
			t.Errorf("want a clear warning and no API call; stderr %q", r.stderr)
		}
	})
}

// TestGateAcceptLabel: a pull request labelled latency-accepted reports its
// regression as accepted, by whom, and passes; without the label it fails.
func TestGateAcceptLabel(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, s := simSuite(t, fastProfile(20*time.Millisecond), "")
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		bl := filepath.Join(dir, "baseline.json")
		if r := runCLI(t, env, "gate", "--mode", "record", "-c", cfg, "--results", bl); r.code != 0 {
			t.Fatalf("record: exit %d: %s", r.code, r.stderr)
		}
		s.SetProfile(fastProfile(150 * time.Millisecond))
		event := filepath.Join(dir, "labeled.json")
		_ = os.WriteFile(event, []byte(`{"action":"labeled","label":{"name":"latency-accepted"},"sender":{"login":"carol"},
			"pull_request":{"number":7,"labels":[{"name":"latency-accepted"}],"head":{"sha":"c0ffee0000000000000000000000000000000000"},"base":{"sha":"ba5e000000000000000000000000000000000000"}}}`), 0o644)
		env["GITHUB_EVENT_PATH"] = event
		env["GITHUB_EVENT_NAME"] = "pull_request"
		r := runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r.json"), "--dry-run")
		if r.code != 0 {
			t.Errorf("accepted regression: exit %d, want 0:\n%s", r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, `accepted by @carol with the label "latency-accepted"`) || !strings.Contains(r.stdout, "regression") {
			t.Errorf("the comment does not report the regression as accepted and by whom:\n%s", r.stdout)
		}
		r = runCLI(t, env, "gate", "-c", cfg, "--baseline", bl, "--results", filepath.Join(dir, "r.json"), "--dry-run", "--accept-label", "")
		if r.code != 1 {
			t.Errorf("without an accept label: exit %d, want 1", r.code)
		}
	})
}

// TestErrorsBeforeTheRun: bad flags, paths and baselines are reported
// (exit 2) before a single request is sent.
func TestErrorsBeforeTheRun(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	s := sim.New(fastProfile(time.Millisecond), 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); s.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "latgate.yaml")
	_ = os.WriteFile(cfg, []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: 3}\n"), 0o644)
	trunc := filepath.Join(dir, "trunc.json")
	_ = os.WriteFile(trunc, []byte(`{"schema":"latgate/results/v1","metrics_version":2,"runs":[{"scen`), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"dry-run not a boolean", []string{"gate", "-c", cfg, "--dry-run=maybe"}, "want true or false"},
		{"comment not a boolean", []string{"gate", "-c", cfg, "--comment=nah"}, `want true, false or required, got "nah"`},
		{"truncated baseline", []string{"gate", "-c", cfg, "--baseline", trunc, "--dry-run"}, "not a complete JSON document"},
		{"mistyped baseline", []string{"gate", "-c", cfg, "--baseline", filepath.Join(dir, "missing.json"), "--dry-run"}, "no such file"},
		{"results folder missing", []string{"run", "-c", cfg, "-o", filepath.Join(dir, "no", "r.json")}, "cannot write"},
		{"report folder missing", []string{"gate", "-c", cfg, "--baseline", "none", "--report", filepath.Join(dir, "no", "r.md")}, "cannot write"},
		{"unknown scenario", []string{"run", "-c", cfg, "--scenario", "nope", "-o", filepath.Join(dir, "r.json")}, `scenario "nope" is not in`},
		{"unknown mode", []string{"gate", "-c", cfg, "--mode", "fast"}, "mode: want gate, record or ab"},
		{"a baseline in mode ab", []string{"gate", "-c", cfg, "--mode", "ab", "--baseline", trunc}, "mode ab measures its own base variant"},
		{"base-url outside mode ab", []string{"gate", "-c", cfg, "--base-url", "e=http://x"}, "belong to mode ab"},
		{"publish without results", []string{"publish", "-c", cfg, "--baseline", "none"}, "results: give the results file"},
		{"baseline-dir under a file", []string{"gate", "--mode", "record", "-c", cfg, "--results", filepath.Join(dir, "r.json"), "--baseline-dir", filepath.Join(trunc, "history")},
			"baseline-dir: cannot create the folder " + filepath.Join(trunc, "history") + ": " + trunc + " is not a folder"},
	}
	if st, err := os.Stat("/proc/self"); err == nil && st.IsDir() { // a folder that takes no new file, even for root
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"baseline-dir in /proc", []string{"gate", "--mode", "record", "-c", cfg, "--results", filepath.Join(dir, "r.json"), "--baseline-dir", "/proc/nope"},
			"baseline-dir: cannot create the folder /proc/nope: /proc takes no new file"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, map[string]string{}, tt.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, tt.want)
			}
			if n := hits.Swap(0); n != 0 {
				t.Errorf("%d requests were sent before the error", n)
			}
		})
	}
}

// pushEnv is what the runner gives a step on a push to main.
func pushEnv(t *testing.T, dir string, api *ghfake.Fake) map[string]string {
	env := actionsEnv(t, dir, api)
	event := filepath.Join(dir, "push.json")
	_ = os.WriteFile(event, []byte(`{"ref":"refs/heads/main","repository":{"full_name":"o/r","default_branch":"main"}}`), 0o644)
	env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = event, "push"
	env["GITHUB_REF"], env["GITHUB_REF_NAME"] = "refs/heads/main", "main"
	env["GITHUB_WORKFLOW_REF"] = "o/r/.github/workflows/latgate.yml@refs/heads/main"
	delete(env, "GITHUB_BASE_REF")
	return env
}

// resultsAt runs the suite and returns the results file with its
// created_at moved by d (two runs in one second would be one history
// entry).
func resultsAt(t *testing.T, cfg, path string, d time.Duration) (string, time.Time) {
	t.Helper()
	if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", path); r.code != 0 {
		t.Fatal(r.stderr)
	}
	f, err := fileio.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	f.CreatedAt = f.CreatedAt.Add(d)
	if err := fileio.Write(path, f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return string(b), f.CreatedAt
}

// TestRecordNeverCarriesAPlantedBaseline: on a push to main, record mode
// continues the history of the repository's own push runs; a fork's
// pull request whose branch is named main uploaded a newer
// latgate-baseline artifact, which is never read nor carried forward.
func TestRecordNeverCarriesAPlantedBaseline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		good, goodAt := resultsAt(t, cfg, filepath.Join(dir, "good.json"), -2*time.Hour)
		planted, plantedAt := resultsAt(t, cfg, filepath.Join(dir, "planted.json"), -time.Hour)
		api.AddRun(ghfake.Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
			{ID: 5, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: publish.HistoryName(goodAt), Body: good})}}})
		api.AddRun(ghfake.Run{ID: 30, Workflow: "latgate.yml", Branch: "main", Event: "pull_request", HeadRepo: api.ForkOf("mallory"),
			Artifacts: []ghfake.Artifact{{ID: 6, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: publish.HistoryName(plantedAt), Body: planted})}}})
		env := pushEnv(t, dir, api)
		hist := filepath.Join(dir, "hist")
		api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
		r := runCLI(t, env, "gate", "--mode", "record", "-c", cfg, "--baseline-artifact", "latgate-baseline",
			"--baseline-dir", hist, "--results", filepath.Join(dir, "cur.json"))
		if r.code != 0 {
			t.Fatalf("record: exit %d:\n%s", r.code, r.stderr)
		}
		files, err := publish.ReadHistoryDir(hist)
		if err != nil || len(files) != 2 || files[0].Name != publish.HistoryName(goodAt) {
			t.Errorf("history %v, %v; want the push run's file and this run's", names(files), err)
		}
		for _, f := range files {
			if f.Name == publish.HistoryName(plantedAt) {
				t.Errorf("the planted file %s was carried forward:\n%s", f.Name, r.stderr)
			}
		}
		for _, c := range api.Calls() {
			if strings.Contains(c.Path, "/runs/30/") || strings.Contains(c.Path, "/artifacts/6/") {
				t.Errorf("the fork's run was read: %s", c)
			}
		}
	})
}

func names(files []publish.HistoryFile) []string {
	var n []string
	for _, f := range files {
		n = append(n, f.Name)
	}
	return n
}

// dryRunComment is the comment a dry run wrote to the file its output
// names ("" when it names none).
func dryRunComment(t *testing.T, stdout string) string {
	t.Helper()
	_, path, ok := strings.Cut(stdout, "The PR comment (dry run, not posted): ")
	if !ok {
		return ""
	}
	path, _, _ = strings.Cut(path, "\n")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("the dry run's comment: %v", err)
	}
	return string(data)
}

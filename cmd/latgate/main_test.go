package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/scaffold"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
)

const testKey = "sk-latgate-test-SECRET-0123456789"

type result struct {
	code           int
	stdout, stderr string
}

// loopback holds the client of each test that serves on clocktest's
// in-memory loopback, inside its synctest bubble (simSuite, newFakeAPI):
// runCLI sends that test's requests, to its simulators and to the fake
// GitHub API, through it, on virtual time.
var loopback sync.Map // *testing.T → *http.Client

// onLoopback makes runCLI in t send its requests through client.
func onLoopback(t *testing.T, client *http.Client) {
	if _, loaded := loopback.LoadOrStore(t, client); !loaded {
		t.Cleanup(func() { loopback.Delete(t) })
	}
}

// runCLI runs latgate as main does: on clocktest's loopback and virtual
// time in a test that serves there (onLoopback), else on the real network.
func runCLI(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	return runCLIContext(t, context.Background(), env, args...)
}

// runCLIContext is runCLI with the context a signal would cancel.
func runCLIContext(t *testing.T, ctx context.Context, vars map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }, ctx: ctx}
	if c, ok := loopback.Load(t); ok {
		e.client, e.github = c.(*http.Client), c.(*http.Client)
	}
	code := runEnv(e, args)
	return result{code, out.String(), errb.String()}
}

// simSuite starts a simulator on clocktest's in-memory loopback (inside
// the test's synctest bubble) and writes a suite for it: 40 requests at
// concurrency 4.
func simSuite(t *testing.T, p sim.Profile, extra string) (dir, cfg string, s *sim.Server) {
	t.Helper()
	return simSuiteN(t, p, 40, extra)
}

// simSuiteN is simSuite with requests measured requests.
func simSuiteN(t *testing.T, p sim.Profile, requests int, extra string) (dir, cfg string, s *sim.Server) {
	t.Helper()
	s = sim.New(p, 7)
	s.APIKey = testKey
	srv := clocktest.NewServer(t, s)
	onLoopback(t, srv.Client())
	dir, cfg = writeSuiteN(t, srv.URL, requests, extra)
	return dir, cfg, s
}

// writeSuite writes a suite of one scenario (40 requests at concurrency
// 4) against the simulator at url.
func writeSuite(t *testing.T, url, extra string) (dir, cfg string) {
	t.Helper()
	return writeSuiteN(t, url, 40, extra)
}

// writeSuiteN is writeSuite with requests measured requests.
func writeSuiteN(t *testing.T, url string, requests int, extra string) (dir, cfg string) {
	t.Helper()
	dir = t.TempDir()
	cfg = filepath.Join(dir, "latgate.yaml")
	yaml := `endpoints:
  - name: local
    base_url: ` + url + `/v1
    model: test-model
    api_key_env: TEST_API_KEY
scenarios:
  - name: chat
    prompt: "Say hello."
    max_tokens: 16
    requests: ` + strconv.Itoa(requests) + `
    concurrency: 4
limits:
  timeout: 10s
  stall_timeout: 2s
` + extra
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

func fastProfile(ttft time.Duration) sim.Profile {
	return sim.Profile{TTFT: sim.Fixed(ttft), ITL: sim.Fixed(time.Millisecond), Tokens: 16, Quirks: sim.Quirks{RoleChunk: true}}
}

func TestRunCompareExitCodes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, s := simSuite(t, fastProfile(20*time.Millisecond), "")
		env := map[string]string{"TEST_API_KEY": testKey}
		base := filepath.Join(dir, "base.json")
		r := runCLI(t, env, "run", "-c", cfg, "-o", base)
		if r.code != 0 {
			t.Fatalf("run exit %d: %s", r.code, r.stderr)
		}
		f, err := fileio.Read(base)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Runs[0].Requests); n != 40 || f.Runs[0].OKCount() != 40 {
			t.Fatalf("%d requests, %d ok; want 40 and 40", n, f.Runs[0].OKCount())
		}
		for i, q := range f.Runs[0].Requests {
			if *q.TTFTMs != 20 {
				t.Fatalf("request %d: ttft %v ms, want exactly 20 (virtual time)", i, *q.TTFTMs)
			}
		}
		if !strings.Contains(r.stdout, "chat") || !strings.Contains(r.stdout, "40/40") {
			t.Errorf("run printed no table:\n%s", r.stdout)
		}
		// Same server: unchanged → pass (flags after the positional arguments).
		same := filepath.Join(dir, "same.json")
		if r := runCLI(t, env, "run", "-c", cfg, "-o", same); r.code != 0 {
			t.Fatalf("second run exit %d: %s", r.code, r.stderr)
		}
		if r := runCLI(t, nil, "compare", base, same, "-c", cfg); r.code != 0 {
			t.Errorf("unchanged compare exit %d, want 0:\n%s%s", r.code, r.stdout, r.stderr)
		}
		// Slower server → fail, JSON verdict.
		s.SetProfile(fastProfile(120 * time.Millisecond))
		slow := filepath.Join(dir, "slow.json")
		if r := runCLI(t, env, "run", "-c", cfg, "-o", slow); r.code != 0 {
			t.Fatalf("slow run exit %d: %s", r.code, r.stderr)
		}
		r = runCLI(t, nil, "compare", "--format", "json", base, slow, "-c", cfg)
		if r.code != 1 {
			t.Fatalf("slower compare exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
		}
		var v struct {
			Schema, Verdict string
			Checks          []struct{ Metric, Stat, Status string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("json: %v\n%s", err, r.stdout)
		}
		regressed := false
		for _, c := range v.Checks {
			if c.Metric == "ttft" && c.Stat == "p50" && c.Status == "regression" {
				regressed = true
			}
		}
		if v.Schema != "latgate/verdict/v1" || v.Verdict != "fail" || !regressed {
			t.Errorf("verdict %q schema %q, ttft p50 regression %v", v.Verdict, v.Schema, regressed)
		}
		// --fail-on over_budget only (and no budget): the same comparison passes.
		if r := runCLI(t, nil, "compare", base, slow, "--fail-on", "over_budget"); r.code != 0 {
			t.Errorf("with --fail-on over_budget exit %d, want 0", r.code)
		}
		if r := runCLI(t, nil, "compare", base, slow, "--format", "markdown"); !strings.Contains(r.stdout, "### ❌ latgate") {
			t.Errorf("markdown output:\n%s", r.stdout)
		}
	})
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// A profile with every kind of failure, and a server that echoes a
		// wrong key back in its 401 message.
		flaky, _ := sim.Named("flaky")
		flaky.Faults.StallFor = 3 * time.Second
		dir, cfg, _ := simSuite(t, flaky, "")
		env := map[string]string{"TEST_API_KEY": testKey, "GITHUB_TOKEN": "ghs_should_not_matter"}
		out := filepath.Join(dir, "r.json")
		r := runCLI(t, env, "run", "-c", cfg, "-o", out)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		file, _ := os.ReadFile(out)
		r2 := runCLI(t, nil, "compare", out, out, "--format", "markdown")
		// A wrong key that the server echoes: the probe must redact it.
		env["TEST_API_KEY"] = testKey + "-wrong"
		out3 := filepath.Join(dir, "r3.json")
		r3 := runCLI(t, env, "run", "-c", cfg, "-o", out3)
		if r3.code != 3 || !strings.Contains(r3.stderr, "HTTP 401") {
			t.Errorf("every request 401: exit %d, want 3 with the provider's message; stderr %s", r3.code, r3.stderr)
		}
		for name, text := range map[string]string{"stdout": r.stdout + r2.stdout + r3.stdout, "stderr": r.stderr + r2.stderr + r3.stderr, "results": string(file)} {
			if strings.Contains(text, testKey) || strings.Contains(text, "SECRET-0123456789") {
				t.Errorf("the API key appears in %s", name)
			}
		}
		if !strings.Contains(string(file), `"error":"HTTP 503`) {
			t.Error("the flaky profile's failures are not recorded as data")
		}
	})
}

func TestBadInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ms := func(v float64) *float64 { return &v }
	req := results.Request{OK: true, Status: 200, TTFTMs: ms(100), TotalMs: ms(200), ITLMs: []float64{}}
	file := func(scenario string, reqs ...results.Request) string {
		f := results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{{Scenario: scenario, Endpoint: "e", Requests: reqs}}}
		b, _ := json.Marshal(f)
		return string(b)
	}
	abFile := func(scenario string, q results.Request) string {
		q.Block = 1
		f := results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
			{Scenario: scenario, Endpoint: "e", Variant: "base", Requests: []results.Request{q}},
			{Scenario: scenario, Endpoint: "e", Variant: "head", Requests: []results.Request{q}}}}
		b, _ := json.Marshal(f)
		return string(b)
	}
	good := write("good.json", file("s", req, req, req))
	cfgNoKey := write("nokey.yaml", "endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n")
	cfgOK := write("ok.yaml", "endpoints:\n  - {name: e, base_url: http://x/v1, model: m, api_key_env: UNSET_KEY}\nscenarios:\n  - {name: s, prompt: hi}\n")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"truncated", []string{"compare", good, write("trunc.json", file("s", req)[:40])}, 2, "not a complete JSON document"},
		{"invalid json", []string{"compare", good, write("bad.json", "{\"schema\": nope}")}, 2, "bad.json:1:13: invalid JSON"},
		{"wrong schema", []string{"compare", good, write("schema.json", `{"schema":"other/v1","metrics_version":1,"runs":[]}`)}, 2, `schema is "other/v1", want "latgate/results/v1"`},
		{"metrics version", []string{"compare", good, write("mv.json", `{"schema":"latgate/results/v1","metrics_version":9,"runs":[]}`)}, 2, "recorded with metrics_version 9"},
		{"no run in common", []string{"compare", good, write("other.json", file("t", req))}, 2, "no run in common"},
		{"baseline without success", []string{"compare", write("nosuccess.json", file("s", results.Request{Error: "x", ITLMs: []float64{}})), good}, 2, "has no successful request"},
		{"missing file", []string{"compare", good, filepath.Join(dir, "nope.json")}, 2, "no such file"},
		{"no file", []string{"compare"}, 2, "usage: latgate compare BASELINE.json CURRENT.json"},
		{"results to stdout", []string{"run", "-c", cfgNoKey, "-o", "-"}, 2, "cannot write the results to standard output (-): give a file name"},
		{"base-url with the API path", []string{"ab", "-c", cfgNoKey, "--base-config", cfgNoKey, "--base-url", "e=http://127.0.0.1:9/v1/chat/completions", "-o", filepath.Join(dir, "ab.json")}, 2,
			`endpoint "e": base-url "http://127.0.0.1:9/v1/chat/completions" already ends in the API path: latgate appends /chat/completions itself; write http://127.0.0.1:9/v1`},
		{"one run: its budgets only", []string{"compare", good}, 0, "no suite file"},
		{"A/B file as a baseline", []string{"compare", write("ab.json", abFile("s", req)), good}, 2, "is an A/B file"},
		{"history from different suites", []string{"compare", good, write("fp2.json", strings.Replace(file("s", req, req, req), `"fingerprint":""`, `"fingerprint":"sha256:other"`, 1)), good}, 2, "different configurations"},
		{"ab without base", []string{"ab", "-c", cfgNoKey}, 2, "no base config: give --base-config FILE"},
		{"ab unknown endpoint", []string{"ab", "-c", cfgNoKey, "--base-config", cfgNoKey, "--base-url", "nope=http://x"}, 2, `base-url: no endpoint "nope"`},
		{"ab nothing in common", []string{"ab", "-c", cfgNoKey, "--base-config", write("other.yaml", "endpoints:\n  - {name: e, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: t, prompt: hi}\n")}, 2, "no (endpoint, scenario) in common"},
		{"history below 2", []string{"compare", good, good, "-c", write("h.yaml", "endpoints:\n  - {name: e, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\nregression:\n  history: 1\n")}, 2, "regression.history"},
		{"bad format", []string{"compare", good, good, "--format", "xml"}, 2, `-format: want one of ` + strings.Join(report.ReportFormats.Names(), ", ") + `, got "xml"`},
		{"bad threshold flag", []string{"compare", good, good, "--alpha", "3"}, 2, "alpha: want a number between 0 and 0.5"},
		// Flags are checked as the same keys in the config are.
		{"tolerance flag out of range", []string{"compare", good, good, "--tolerance", "150%"}, 2, "tolerance: 150% is out of range: want at least 0% and below 100%"},
		{"min-delta flag without unit", []string{"compare", good, good, "--min-delta", "50"}, 2, `min-delta: "50" has no unit: write 50ms or 50s`},
		{"alpha flag as a percentage", []string{"compare", good, good, "--alpha", "5%"}, 0, ""},
		{"start-at without a unit", []string{"run", "-c", cfgNoKey, "--start-at", "+90"}, 2, `--start-at "+90": a duration needs its unit: +90s`},
		{"start-at in the past", []string{"run", "-c", cfgNoKey, "--start-at", "2020-01-01T00:00:00Z", "-o", filepath.Join(dir, "past.json")}, 2, "--start-at 2020-01-01T00:00:00Z is "},
		{"start-at without a ladder", []string{"ab", "-c", cfgNoKey, "--base-config", cfgNoKey, "--start-at", "+1m", "-o", filepath.Join(dir, "sa.json")}, 2, `--start-at: scenario "s" is measured at one load`},
		{"requests flag 0", []string{"run", "-c", cfgNoKey, "--requests", "0"}, 2, `invalid value "0" for flag -requests: must be at least 1, got 0`},
		{"requests flag negative", []string{"run", "-c", cfgNoKey, "--requests", "-3"}, 2, `invalid value "-3" for flag -requests: must be at least 1, got -3`},
		{"requests flag fraction", []string{"ab", "-c", cfgNoKey, "--requests", "12.9"}, 2, `invalid value "12.9" for flag -requests: want a whole number, got "12.9"`},
		{"requests flag of gate", []string{"gate", "-c", cfgNoKey, "--requests", "0"}, 2, `invalid value "0" for flag -requests: must be at least 1`},
		{"config thresholds out of range", []string{"compare", good, good, "-c", write("bad.yaml", "endpoints:\n  - {name: e, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\nregression:\n  alpha: 0.9\n")}, 2, "bad.yaml:6: regression.alpha"},
		{"compare needs no key", []string{"compare", good, good, "-c", cfgOK}, 0, ""},
		{"run without key", []string{"run", "-c", cfgOK}, 2, "environment variable UNSET_KEY (api_key_env) is not set"},
		{"run missing config", []string{"run", "-c", filepath.Join(dir, "none.yaml")}, 2, "no such file"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"merge conflict", []string{"merge", good, write("good2.json", file("s", req, req)), "-o", filepath.Join(dir, "m.json")}, 2, "different data"},
		{"merge a leg twice", []string{"merge", "--shards", good, good, "-o", filepath.Join(dir, "m.json")}, 2, good + " and " + good + " are the same leg"},
		{"help", []string{"compare", "-h"}, 0, ""},
		// No output replaces an input or a file latgate did not write.
		{"results over the suite", []string{"run", "-c", cfgOK, "-o", cfgOK}, 2, "ok.yaml is also an input: latgate never writes over its inputs"},
		{"results over the baseline", []string{"gate", "-c", cfgNoKey, "--baseline", good, "--results", good, "--dry-run"}, 2, "results: " + good + " is also an input"},
		{"report over the user's notes", []string{"gate", "-c", cfgNoKey, "--baseline", good, "--results", filepath.Join(dir, "r.json"), "--report", write("notes.md", "# notes\n"), "--dry-run"}, 2,
			"notes.md exists and latgate did not write it"},
		{"the report's page over the user's file", []string{"gate", "-c", cfgNoKey, "--baseline", good, "--results", filepath.Join(dir, "r.json"), "--report", filepath.Join(dir, "page.md"), "--dry-run"}, 2,
			"report (its HTML page): " + write("page.html", "<p>mine</p>") + " exists and latgate did not write it"},
		{"ab over its base suite", []string{"ab", "-c", cfgNoKey, "--base-config", cfgOK, "-o", cfgOK}, 2, "ok.yaml is also an input"},
		{"merge over an input", []string{"merge", good, write("good3.json", file("s", req)), "-o", good}, 2, "good.json is also an input"},
		// A pull request's suite reads no file outside its repository.
		{"content_file outside", []string{"run", "-c", write("environ.yaml", "endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - name: s\n    messages: [{role: user, content_file: ../../../../../../proc/self/environ}]\n")}, 2,
			"outside the repository"},
		{"prompt_file absolute", []string{"run", "-c", write("abs.yaml", "endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt_file: /proc/self/environ}\n")}, 2,
			"abs.yaml:4: /proc/self/environ: a file of the suite is named relative to the config file"},
		// A name from a results file never starts a line of its own: a
		// workflow command in it would run in the privileged job's log.
		{"no run in common with a hostile name", []string{"compare", good, write("hostile.json", file("t\n::warning::pwned", req))}, 2, `t\n::warning::pwned`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, nil, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tt.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("stderr %q, want it to contain %q", r.stderr, tt.want)
			}
			if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
				t.Errorf("stack trace on stderr: %s", r.stderr)
			}
			for _, line := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(line, "::") && !strings.HasPrefix(line, "::add-mask::") {
					t.Errorf("a workflow command in the log: %q", line)
				}
			}
		})
	}
}

func TestMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ms := func(v float64) *float64 { return &v }
	req := results.Request{OK: true, TTFTMs: ms(100), TotalMs: ms(200), ITLMs: []float64{}}
	for _, region := range []string{"us", "eu"} {
		f := results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Source: results.Source{Region: region},
			Runs: []results.Run{{Scenario: "s", Endpoint: "api-" + region, Requests: []results.Request{req}}}}
		if err := fileio.Write(filepath.Join(dir, region+".json"), &f); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "all.json")
	r := runCLI(t, nil, "merge", filepath.Join(dir, "us.json"), filepath.Join(dir, "eu.json"), "-o", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 2 || m.Source.Region != "us,eu" || m.Runs[1].Region != "eu" {
		t.Errorf("merged: %d runs, region %q", len(m.Runs), m.Source.Region)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := runCLI(t, nil, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "latgate dev (commit ") || !strings.Contains(r.stdout, "go1.") {
		t.Errorf("version: %d %q", r.code, r.stdout)
	}
}

// TestInterruptStillWritesResults: 4 warmup then 40 requests of 1s at
// concurrency 4 take 11s. The run is interrupted (the context a signal
// cancels) when the 9th request arrives, so after a measured one
// completed; it stops at once, on virtual time, with what was measured
// written and marked interrupted.
func TestInterruptStillWritesResults(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := sim.New(sim.Profile{TTFT: sim.Fixed(100 * time.Millisecond), ITL: sim.Fixed(100 * time.Millisecond), Tokens: 10}, 7)
		s.APIKey = testKey
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var arrived atomic.Int64
		var interrupted time.Time
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if arrived.Add(1) == 9 {
				interrupted = time.Now()
				cancel()
			}
			s.ServeHTTP(w, r)
		}))
		onLoopback(t, srv.Client())
		dir, cfg := writeSuite(t, srv.URL, "")
		out := filepath.Join(dir, "r.json")
		r := runCLIContext(t, ctx, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", out)
		if interrupted.IsZero() {
			t.Fatal("the run ended before its 9th request")
		}
		if el := time.Since(interrupted); el != 0 {
			t.Errorf("stopping took %v after the interrupt, want no time: the in-flight streams are aborted", el)
		}
		if r.code != 3 || !strings.Contains(r.stderr, "incomplete run (interrupted") {
			t.Errorf("exit %d, want 3 and the interruption named: %s", r.code, r.stderr)
		}
		f, err := fileio.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		n := len(f.Runs[0].Requests)
		if n == 0 || n >= 40 || f.Runs[0].OKCount() != n {
			t.Errorf("%d requests (%d ok) written, want some, all ok", n, f.Runs[0].OKCount())
		}
		if !strings.HasPrefix(f.Incomplete, "interrupted") {
			t.Errorf("incomplete %q, want the interruption recorded", f.Incomplete)
		}
		// An incomplete file can neither be a baseline nor pass a gate.
		if r := runCLI(t, nil, "compare", out, out); r.code != 2 || !strings.Contains(r.stderr, "is incomplete") {
			t.Errorf("compare: exit %d, stderr %q; want 2 naming the incomplete file", r.code, r.stderr)
		}
	})
}

func TestCapsAreCheckedOrMarkIncomplete(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// A request cap the plan cannot fit in is an error before any request.
		_, cfg, _ := simSuite(t, fastProfile(time.Millisecond), "  max_requests: 2\n")
		r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", filepath.Join(t.TempDir(), "r.json"))
		if r.code != 2 || !strings.Contains(r.stderr, "limits.max_requests is 2") {
			t.Errorf("exit %d, stderr %q; want 2 naming the cap", r.code, r.stderr)
		}
		// A token cap reached mid-run stops it: exit 3, results marked incomplete.
		dir, cfg, _ := simSuite(t, fastProfile(time.Millisecond), "  max_output_tokens: 100\n")
		out := filepath.Join(dir, "r.json")
		r = runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", out)
		if r.code != 3 || !strings.Contains(r.stderr, "incomplete run") {
			t.Errorf("exit %d, stderr %q; want 3 and an incomplete run", r.code, r.stderr)
		}
		if f, err := fileio.Read(out); err != nil || !strings.Contains(f.Incomplete, "max_output_tokens") {
			t.Errorf("results: %v; want them written and marked incomplete by the token cap", err)
		}
	})
}

// TestColdConnections: the client gate makes keeps a connection per request
// in flight, none with cold_connections. It is gate's own client's test, so
// it runs on the real loopback (a test client would replace it); it asserts
// no time. Real clock: the suite's 2 s stall timeout (10 s a request) is
// the only bound, met at load average 23–35 on 2 cores (6 of 6 runs, 5
// with -race, 2026-12-04) by a simulator answering in 1 ms a token.
func TestColdConnections(t *testing.T) {
	t.Parallel()
	s := sim.New(fastProfile(time.Millisecond), 7)
	s.APIKey = testKey
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	for _, cold := range []bool{false, true} {
		extra := ""
		if cold {
			extra = "  cold_connections: true\n"
		}
		dir, cfg := writeSuite(t, srv.URL, extra)
		out := filepath.Join(dir, "r.json")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", out); r.code != 0 {
			t.Fatal(r.stderr)
		}
		f, err := fileio.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		newConns := 0
		for _, q := range f.Runs[0].Requests {
			if !q.Reused {
				newConns++
				if q.ConnectMs <= 0 {
					t.Errorf("a new connection with connect_ms %v", q.ConnectMs)
				}
			}
		}
		// Warm by default: warmup = concurrency, so no measured request opens
		// a connection; cold: every one does.
		if want := map[bool]int{false: 0, true: 40}[cold]; newConns != want {
			t.Errorf("cold_connections %v: %d of 40 requests opened a connection, want %d", cold, newConns, want)
		}
		r := runCLI(t, nil, "compare", out, out)
		if want := map[bool]string{false: "0 of 40 requests opened a new connection", true: "40 of 40 requests opened a new connection"}[cold]; !strings.Contains(r.stdout, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestInitAndCompletion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := runCLI(t, nil, "init", "--dir", dir); r.code != 0 {
		t.Fatalf("init exit %d: %s", r.code, r.stderr)
	}
	for _, name := range append(scaffold.Paths, scaffold.Gitignore) {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Mode().Perm(); got != 0o644 {
			t.Errorf("%s: got mode %v, want -rw-r--r-- (a file to commit)", name, got)
		}
	}
	if r := runCLI(t, nil, "run", "-c", filepath.Join(dir, "latgate.yaml"), "-o", filepath.Join(t.TempDir(), "nodir", "r.json")); r.code != 2 || !strings.Contains(r.stderr, "cannot write") {
		t.Errorf("run into a missing folder: exit %d, stderr %q; want 2 before any request", r.code, r.stderr)
	}
	if r := runCLI(t, nil, "init", "--dir", dir); r.code != 2 || !strings.Contains(r.stderr, "exists: not overwritten") {
		t.Errorf("second init: exit %d, stderr %q; want 2 refusing to overwrite", r.code, r.stderr)
	}
	other := t.TempDir()
	if r := runCLI(t, nil, "init", "--dir", other, "--base-url", "https://api.example.com/v1"); r.code != 2 || !strings.Contains(r.stderr, "needs --model") {
		t.Errorf("init --base-url without --model: exit %d, stderr %q; want 2 asking for --model", r.code, r.stderr)
	}
	if entries, _ := os.ReadDir(other); len(entries) != 0 {
		t.Errorf("init --base-url without --model wrote %d file(s), want none", len(entries))
	}
	r := runCLI(t, nil, "completion", "bash")
	for _, want := range []string{"--scenario", "--requests", "--baseline-artifact", "--format"} {
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("completion bash lacks %s (exit %d)", want, r.code)
		}
	}
}

// TestInterruptedGateNeverRecordsOrPasses: SIGTERM during gate --mode
// record records no baseline; during a gate it never prints PASS.
func TestInterruptedGateNeverRecordsOrPasses(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, sim.Profile{TTFT: sim.Fixed(100 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond), Tokens: 10}, "")
		for _, mode := range []string{"record", "gate"} {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(700*time.Millisecond, cancel) // a quarter of the run, on virtual time
			hist := filepath.Join(dir, "history-"+mode)
			r := runCLIContext(t, ctx, map[string]string{"TEST_API_KEY": testKey}, "gate", "--mode", mode, "-c", cfg, "--baseline", "none", "--dry-run",
				"--results", filepath.Join(dir, mode+".json"), "--report", filepath.Join(dir, mode+".md"), "--baseline-dir", hist)
			cancel()
			if r.code != 3 {
				t.Errorf("%s interrupted: exit %d, want 3\n%s", mode, r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "baseline recorded") || strings.Contains(r.stderr, "baseline history") {
				t.Errorf("%s interrupted: a baseline was recorded:\n%s", mode, r.stderr)
			}
			if _, err := os.Stat(hist); err == nil {
				t.Errorf("%s interrupted: the baseline folder %s was written", mode, hist)
			}
			if strings.Contains(r.stdout, "PASS") {
				t.Errorf("%s interrupted: the output says PASS:\n%s", mode, r.stdout)
			}
		}
	})
}

// TestCompareReadsTheSuiteInTheFolder: without -c, compare uses
// latgate.yaml when it is there (its budget applies) and says so; without
// one it says the thresholds are the defaults, and that the files record
// no budgets (those written by latgate run record their suite's).
func TestCompareReadsTheSuiteInTheFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ms := func(v float64) *float64 { return &v }
	var reqs []results.Request
	for i := range 30 {
		v := 200 + float64(i)
		reqs = append(reqs, results.Request{OK: true, Status: 200, TTFTMs: ms(v), TotalMs: ms(2 * v), ITLMs: []float64{}})
	}
	f := results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{{Scenario: "s", Endpoint: "e", Requests: reqs}}}
	b, _ := json.Marshal(f)
	for _, name := range []string{"a.json", "b.json"} {
		if err := os.WriteFile(name, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := runCLI(t, nil, "compare", "a.json", "b.json")
	if r.code != 0 || !strings.Contains(r.stderr, "no suite file: default thresholds (tolerance 10%, min_delta 25 ms, alpha 0.05)") ||
		!strings.Contains(r.stderr, "budgets: none (b.json records none)") {
		t.Errorf("without a suite: exit %d, stderr %q", r.code, r.stderr)
	}
	suite := "endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\nbudgets:\n  ttft: {p50: 100ms}\n"
	if err := os.WriteFile("latgate.yaml", []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, nil, "compare", "a.json", "b.json")
	if r.code != 1 || !strings.Contains(r.stderr, "budgets and thresholds from latgate.yaml") || !strings.Contains(r.stdout, "over budget") {
		t.Errorf("with latgate.yaml: exit %d, stderr %q, stdout %q; want the budget applied", r.code, r.stderr, r.stdout)
	}
}

// TestDefaultConfigInHelp: every command that reads a suite defaults to
// latgate.yaml, and its -h says so.
func TestDefaultConfigInHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"run", "ab", "gate", "publish"} {
		t.Run(cmd, func(t *testing.T) {
			r := runCLI(t, nil, cmd, "-h")
			_, after, ok := strings.Cut(r.stderr, "  -config ")
			line, _, _ := strings.Cut(strings.TrimSpace(after), "\n  -")
			if !ok || !strings.Contains(line, "latgate.yaml") {
				t.Errorf("got the -config help %q, want the default latgate.yaml", line)
			}
		})
	}
}

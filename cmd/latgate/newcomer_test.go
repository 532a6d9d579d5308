package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/goldenfile"
	"github.com/latgate/latgate/internal/scaffold"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// A newcomer's path, command by command, as the terminal shows it: each
// test runs the commands a new user types, in a fresh folder that is the
// current one (so paths read as they do for the user), and compares the
// transcript with its golden file under testdata/newcomer/ (go test
// ./cmd/latgate -update rewrites them; a mismatch is shown as a diff).
// Requests go to simulators on virtual time, so the figures are exact.

// transcript records commands and what they printed.
type transcript struct {
	t    *testing.T
	pkg  string // the package's folder, where testdata/ is
	env  map[string]string
	b    strings.Builder
	subs []string // pairs: replace the first by the second
}

// newcomer makes a fresh folder the current one (the test cannot be
// parallel) and returns a transcript of commands run there.
func newcomer(t *testing.T) *transcript {
	pkg, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	return &transcript{t: t, pkg: pkg, env: map[string]string{}}
}

// run runs latgate with args and records the command line, its stdout,
// its stderr and its exit code; it returns the result.
func (tr *transcript) run(args ...string) result {
	tr.t.Helper()
	return tr.runContext(context.Background(), args...)
}

// runContext is run with the context a signal would cancel.
func (tr *transcript) runContext(ctx context.Context, args ...string) result {
	tr.t.Helper()
	r := runCLIContext(tr.t, ctx, tr.env, args...)
	fmt.Fprintf(&tr.b, "$ latgate %s\n", strings.Join(args, " "))
	for _, part := range []struct{ name, text string }{{"stdout", r.stdout}, {"stderr", r.stderr}} {
		if part.text != "" {
			fmt.Fprintf(&tr.b, "[%s]\n%s", part.name, part.text)
			if !strings.HasSuffix(part.text, "\n") {
				tr.b.WriteString("\n")
			}
		}
	}
	fmt.Fprintf(&tr.b, "[exit %d]\n\n", r.code)
	return r
}

// note adds a line of the transcript's own (what the user did between
// commands).
func (tr *transcript) note(format string, args ...any) {
	fmt.Fprintf(&tr.b, "# "+format+"\n\n", args...)
}

// bubble runs f in a synctest bubble on virtual time, the transcript's
// commands on f's t, and gives the transcript back its test after, so that
// check reports a mismatch on a test that is still running.
func (tr *transcript) bubble(f func(t *testing.T)) {
	outer := tr.t
	synctest.Test(outer, func(t *testing.T) {
		tr.t = t
		defer func() { tr.t = outer }()
		f(t)
	})
}

// lastWaveElapsed is a run's last progress line's elapsed time: on many
// lanes the last wave's length depends on which lane drew which of the
// simulator's latencies, which the scheduler decides (seen: 48 s or 49 s
// for init's 800 requests on 48 lanes).
var lastWaveElapsed = regexp.MustCompile(`(requests \(100%\), \d+ failed, )[0-9.ms]+ elapsed`)

// midProgress are a run's progress lines before its last: on 192 lanes
// which requests are in at a given second depends on the scheduler too
// (963 or 965 of 1000 at 16 s), so they are kept as one line; the plan,
// the last progress line and every result are compared.
var midProgress = regexp.MustCompile(`(?m)(^latgate: \d+/\d+ requests \((?:\d|[1-9]\d)%\).*\n)+`)

// check compares the transcript with testdata/newcomer/name.
func (tr *transcript) check(name string) {
	tr.t.Helper()
	out := tr.b.String()
	for i := 0; i+1 < len(tr.subs); i += 2 {
		out = strings.ReplaceAll(out, tr.subs[i], tr.subs[i+1])
	}
	out = lastWaveElapsed.ReplaceAllString(out, "${1}Ns elapsed")
	out = midProgress.ReplaceAllString(out, "latgate: … (progress) …\n")
	goldenfile.Check(tr.t, filepath.Join(tr.pkg, "testdata", "newcomer", name), []byte(out), *update)
}

// writeFile writes a file of the folder.
func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editFile replaces old with new in a file of the folder.
func editFile(t *testing.T, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q", name, old)
	}
	writeFile(t, name, strings.Replace(string(b), old, new, 1))
}

// simAtInitsURL serves the simulator at profile on the in-memory loopback
// and points init's latgate.yaml at it, as `latgate sim` at init's
// address would be; the transcript shows init's address.
func simAtInitsURL(t *testing.T, tr *transcript, profile string) *sim.Server {
	t.Helper()
	p, err := sim.Named(profile)
	if err != nil {
		t.Fatal(err)
	}
	s := sim.New(p, 1)
	srv := clocktest.NewServer(t, s)
	onLoopback(t, srv.Client())
	addr, inits := strings.TrimPrefix(srv.URL, "http://"), strings.TrimPrefix(strings.TrimSuffix(scaffold.SimURL, "/v1"), "http://")
	editFile(t, "latgate.yaml", inits, addr)
	tr.subs = append(tr.subs, addr, inits)
	return s
}

// TestNewcomerFirstRun: init, validate, run and a one-run report, on the
// simulator init's suite measures.
func TestNewcomerFirstRun(t *testing.T) {
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		for _, f := range []string{"latgate.yaml", ".gitignore"} {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			goldenfile.Check(t, filepath.Join(tr.pkg, "testdata", "newcomer", "init-"+strings.TrimPrefix(f, ".")), b, *update)
		}
		tr.run("validate")
		simAtInitsURL(t, tr, "realistic")
		tr.note("latgate sim is serving at init's address")
		tr.run("run")
		tr.run("compare", "results.json")
		tr.note("the budget tightened: ttft: {p95: 300}")
		editFile(t, "latgate.yaml", "ttft: {p95: 1500}", "ttft: {p95: 300}")
		tr.run("run", "--requests", "40")
		tr.run("run", "--requests", "40", "--fail-on-budget", "-o", "strict.json")
		tr.run("compare", "results.json")
	})
	tr.check("first-run.txt")
}

// TestNewcomerDryRun: a local gate is a dry run: its results and report
// go to a temporary folder it names, not among the user's files, and the
// comment's key is the suite's path in the repository, not on the machine.
func TestNewcomerDryRun(t *testing.T) {
	tr := newcomer(t)
	tmp := t.TempDir()
	tr.env["TMPDIR"], tr.env["RUNNER_NAME"] = tmp, "laptop"
	pwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tr.subs = append(tr.subs, tmp, "$TMPDIR", pwd, "$PWD")
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		simAtInitsURL(t, tr, "realistic")
		tr.run("gate", "--dry-run", "--baseline", "none", "--requests", "40", "-c", filepath.Join(pwd, "latgate.yaml"))
		tr.note("the folder now holds: %s", strings.Join(files(t, "."), " "))
		tr.note("the dry run's folder holds: %s", strings.Join(files(t, dryRunDir(t, tmp)), " "))
		comment, err := os.ReadFile(filepath.Join(dryRunDir(t, tmp), "latgate-comment.md"))
		if err != nil {
			t.Fatal(err)
		}
		tr.note("latgate-comment.md, the comment a pull request would get:\n%s", comment)
	})
	tr.subs = append([]string{dryRunDir(t, tmp), "$TMPDIR/latgate-dry-run-N"}, tr.subs...)
	tr.check("dry-run.txt")
}

// files lists a folder's files, those in its subfolders by their paths.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dryRunDir is the one dry-run folder in tmp.
func dryRunDir(t *testing.T, tmp string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(tmp, "latgate-dry-run-*"))
	if len(m) != 1 {
		t.Fatalf("dry-run folders %v, want one", m)
	}
	return m[0]
}

// TestNewcomerSimTrap: init's model: realistic names a simulator
// profile, so a latgate sim --profile slow started for a slower head
// serves it at realistic all the same: the simulator says so in its log
// (once per model) and in each response's headers. On the real loopback:
// latgate sim listens on a socket, and the test waits up to 5 s for it
// (at load average 28–30 on 2 cores it answered at once or after one wait
// of 50 ms: 8 of 8 runs, 3 with -race, 2026-12-04).
func TestNewcomerSimTrap(t *testing.T) {
	tr := newcomer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tr.subs = append(tr.subs, addr, "127.0.0.1:8081")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() { done <- runCLIContext(t, ctx, nil, "sim", "--addr", addr, "--profile", "slow") }()
	fmt.Fprintf(&tr.b, "$ latgate sim --addr %s --profile slow &\n\n", addr)
	defer cancel()
	url := "http://" + addr
	for i := 0; ; i++ {
		if resp, err := http.Get(url + "/v1/models"); err == nil {
			resp.Body.Close()
			t.Logf("latgate sim answered after %d waits of 50 ms", i)
			break
		}
		if i == 100 {
			t.Fatal("latgate sim does not answer")
		}
		time.Sleep(50 * time.Millisecond) // waiting for the listener, not timing anything
	}
	for _, model := range []string{"realistic", "realistic", "sim"} {
		resp, err := http.Post(url+"/v1/chat/completions", "application/json",
			strings.NewReader(`{"model":"`+model+`","stream":true,"max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		tr.note("a request for model %s: %s: %s, %s: %s", model, sim.ProfileHeader, resp.Header.Get(sim.ProfileHeader),
			sim.ServerProfileHeader, resp.Header.Get(sim.ServerProfileHeader))
	}
	cancel()
	r := <-done
	fmt.Fprintf(&tr.b, "# Ctrl-C: what the simulator said\n[stderr]\n%s[exit %d]\n", r.stderr, r.code)
	tr.check("sim-trap.txt")
}

// TestNewcomerMistakes: the mistakes a newcomer makes, each said at its
// cause before any request is sent.
func TestNewcomerMistakes(t *testing.T) {
	tr := newcomer(t)
	tr.run("rn")
	tr.run("init")
	tr.run("run", "--scenaro", "chat-short")
	tr.run("run", "--scenario", "chat-shrot")
	tr.note("an empty prompt")
	editFile(t, "latgate.yaml", `      - {role: user, content: "Summarise the plot of Hamlet in three sentences."}`, `      - {role: user, content: ""}`)
	tr.run("validate")
	tr.note("max_tokens indented by one space too few")
	editFile(t, "latgate.yaml", `      - {role: user, content: ""}`, `      - {role: user, content: "Hi"}`)
	editFile(t, "latgate.yaml", "    max_tokens: 128", "   max_tokens: 128")
	tr.run("validate")
	tr.note("a prompt given as nothing")
	writeFile(t, "latgate.yaml", "endpoints:\n  - {name: main, base_url: http://127.0.0.1:8080/v1, model: m, api_key_env: OPENAI_API_KEY}\nscenarios:\n  - name: chat\n    prompt: \"\"\n")
	tr.run("validate")
	tr.run("validate", "--skip-env")
	tr.check("mistakes.txt")
}

// verdictCheck is the JSON verdict's check of (metric, stat) in a report
// latgate compare wrote with --format json.
func verdictCheck(t *testing.T, out, metric, stat string) map[string]any {
	t.Helper()
	var v struct {
		Checks []map[string]any `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("the JSON verdict: %v\n%s", err, out)
	}
	for _, c := range v.Checks {
		if c["metric"] == metric && c["stat"] == stat {
			return c
		}
	}
	t.Fatalf("the JSON verdict has no %s %s check:\n%s", metric, stat, out)
	return nil
}

// TestNewcomerTooFewForBudget: requests: 5 beside a p95 budget. The run
// warns that 5 requests can never test a p95, and the budget's every
// rendering agrees: the run's table, compare's report, the comment and the
// JSON verdict say "not tested (needs 40)", the count vocab.P95.MinN that
// the warning names, never "over budget", although the p95 of 5 requests
// is beyond it. The same budget at 40 requests is tested, and blown.
func TestNewcomerTooFewForBudget(t *testing.T) {
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		simAtInitsURL(t, tr, "realistic")
		tr.note("5 requests, and a p95 budget: requests: 5, ttft: {p95: 400}")
		editFile(t, "latgate.yaml", "requests: {min: 100, max: 1000}", "requests: 5")
		editFile(t, "latgate.yaml", "ttft: {p95: 1500}", "ttft: {p95: 400}")
		r := tr.run("run", "--fail-on-budget")
		need := fmt.Sprintf("not tested (needs %d)", vocab.P95.MinN())
		if r.code != 0 || !strings.Contains(r.stdout, need) || strings.Contains(r.stdout, "OVER BUDGET") {
			t.Errorf("run at 5 requests: exit %d, want 0 and the budget %q, never over budget", r.code, need)
		}
		r = tr.run("compare", "results.json")
		if r.code != 0 || strings.Contains(r.stdout, "over budget") {
			t.Errorf("compare at 5 requests: exit %d, want 0 and no budget blown", r.code)
		}
		md := tr.run("compare", "results.json", "--format", "markdown")
		if strings.Contains(md.stdout, "over its budget") || strings.Contains(md.stdout, "⛔ TTFT") || md.code != 0 {
			t.Errorf("the comment says a budget of 5 requests is blown (exit %d)", md.code)
		}
		js := runCLI(t, tr.env, "compare", "results.json", "--format", "json")
		c := verdictCheck(t, js.stdout, "ttft", "p95")
		cur, _ := c["current"].(float64)
		budget, _ := c["budget"].(float64)
		tr.note("the JSON verdict's TTFT p95 check: status %v, reason %v, need_n %v, current %v ms, budget %v ms", c["status"], c["reason"], c["need_n"], cur, budget)
		if c["status"] != string(vocab.NotTested) || c["need_n"] != float64(vocab.P95.MinN()) || !(cur > budget) {
			t.Errorf("the JSON verdict's TTFT p95: status %v, need_n %v, current %v, budget %v; want not_tested, %d, a p95 of 5 beyond its budget",
				c["status"], c["need_n"], cur, budget, vocab.P95.MinN())
		}
		tr.note("enough requests for the p95: --requests %d", vocab.P95.MinN())
		r = tr.run("run", "--requests", fmt.Sprint(vocab.P95.MinN()), "--fail-on-budget", "-o", "forty.json")
		if r.code != 1 || !strings.Contains(r.stdout, "OVER BUDGET") {
			t.Errorf("run at %d requests: exit %d, want 1 and the budget blown:\n%s", vocab.P95.MinN(), r.code, r.stdout)
		}
	})
	tr.check("too-few-for-budget.txt")
}

// TestNewcomerCompareRecordedBudgets: latgate compare of one run in a
// folder without latgate.yaml judges it by the budgets the file records,
// those of the suite it was measured with, says so, and fails on a blown
// one; a file that records none says it has none; a suite given with -c
// is the judge instead.
func TestNewcomerCompareRecordedBudgets(t *testing.T) {
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		simAtInitsURL(t, tr, "realistic")
		tr.note("the budget tightened: ttft: {p95: 300}")
		editFile(t, "latgate.yaml", "ttft: {p95: 1500}", "ttft: {p95: 300}")
		tr.run("run", "--requests", "40", "-o", "one.json")
		f, err := fileio.Read("one.json")
		if err != nil {
			t.Fatal(err)
		}
		want := results.Budget{Metric: vocab.TTFT, Stat: vocab.P95, Value: 300}
		if f.Budgets == nil || len(f.Budgets.Limits) != 1 || f.Budgets.Limits[0] != want {
			t.Fatalf("one.json records budgets %+v, want the suite's %+v", f.Budgets, want)
		}
		tr.note("the suite moved to suite.yaml: the folder has no latgate.yaml")
		if err := os.Rename("latgate.yaml", "suite.yaml"); err != nil {
			t.Fatal(err)
		}
		r := tr.run("compare", "one.json")
		if r.code != 1 || !strings.Contains(r.stderr, "as recorded in one.json") {
			t.Errorf("compare one.json without a suite: exit %d, want 1 and the budgets it records named", r.code)
		}
		js := runCLI(t, tr.env, "compare", "one.json", "--format", "json")
		if c := verdictCheck(t, js.stdout, "ttft", "p95"); c["status"] != string(vocab.OverBudget) || c["budget"] != 300.0 {
			t.Errorf("the JSON verdict's TTFT p95: status %v, budget %v; want over_budget, 300", c["status"], c["budget"])
		}
		tr.note("a file that records no budgets (written before files recorded them)")
		f.Budgets = nil
		if err := fileio.Write("old.json", f); err != nil {
			t.Fatal(err)
		}
		if r := tr.run("compare", "old.json"); r.code != 0 || !strings.Contains(r.stderr, "none (old.json records none)") {
			t.Errorf("compare old.json: exit %d, want 0 and no budgets said", r.code)
		}
		tr.note("a suite given is the judge: suite.yaml with ttft: {p95: 1500}")
		editFile(t, "suite.yaml", "ttft: {p95: 300}", "ttft: {p95: 1500}")
		if r := tr.run("compare", "one.json", "-c", "suite.yaml"); r.code != 0 {
			t.Errorf("compare -c suite.yaml: exit %d, want 0 (its budget holds)", r.code)
		}
	})
	tr.check("compare-recorded-budgets.txt")
}

// TestNewcomerInterruptedAB: Ctrl-C (the context a signal cancels) a
// minute into an adaptive latgate ab, on one lane so that which requests
// are in at the signal is the same in every run. Like latgate run
// interrupted, it says the run was interrupted, prints the table of what
// it measured, writes the file marked incomplete and exits 3; the
// scenario's stop is vocab.Interrupted at the count the file holds, never
// "max reached" (it was said so, with "the comparison does" after it, and
// no table).
func TestNewcomerInterruptedAB(t *testing.T) {
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		simAtInitsURL(t, tr, "realistic")
		for _, args := range [][]string{{"run", "--lanes", "1"}, {"ab", "--base-config", "latgate.yaml", "--lanes", "1"}} {
			tr.note("Ctrl-C a minute into latgate %s", strings.Join(args, " "))
			ctx, cancel := context.WithCancel(context.Background())
			stop := time.AfterFunc(time.Minute, cancel)
			r := tr.runContext(ctx, args...)
			stop.Stop()
			cancel()
			if r.code != exitCannot || !strings.Contains(r.stdout, "latencies in ms") || !strings.Contains(r.stdout, "INCOMPLETE: interrupted") {
				t.Errorf("latgate %s interrupted: exit %d, want %d, the table of what it measured and INCOMPLETE", args[0], r.code, exitCannot)
			}
		}
		f, err := fileio.Read("ab.json")
		if err != nil {
			t.Fatal(err)
		}
		var counts []int
		for _, run := range f.Runs {
			if run.Stop != vocab.Interrupted || run.StoppedAt != len(run.Requests) || !strings.Contains(run.StopReason, "interrupted") {
				t.Errorf("ab.json's %s run: stop %q (%q) at %d of %d requests; want interrupted at its count", run.Variant, run.Stop, run.StopReason, run.StoppedAt, len(run.Requests))
			}
			counts = append(counts, len(run.Requests))
		}
		slices.Sort(counts)
		said := fmt.Sprintf("interrupted at %d–%d of 1000 requests per side, before max", counts[0], counts[len(counts)-1])
		if counts[0] == counts[len(counts)-1] {
			said = fmt.Sprintf("interrupted at %d of 1000 requests per side, before max", counts[0])
		}
		out := tr.b.String()
		if !strings.Contains(out, said) || strings.Contains(out, "max reached") {
			t.Errorf("ab's stop line: want %q, never max reached", said)
		}
	})
	tr.check("interrupted-ab.txt")
}

// TestNewcomerLanesChanged: a baseline measured on one lane and a run on
// 48 meet different loads (48 copies of the scenario's at once), though
// their fingerprints are the same: the comparison says the configuration
// changed and names the lanes, in the terminal and in the comment.
func TestNewcomerLanesChanged(t *testing.T) {
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		simAtInitsURL(t, tr, "realistic")
		tr.note("the baseline, measured on one lane: lanes: 1")
		editFile(t, "latgate.yaml", "lanes: 192", "lanes: 1")
		tr.run("run", "--requests", "40", "-o", "base.json")
		tr.note("the suite now runs 48 lanes: lanes: 48")
		editFile(t, "latgate.yaml", "lanes: 1", "lanes: 48")
		tr.run("run", "--requests", "40", "-o", "head.json")
		var lanes []int
		for _, name := range []string{"base.json", "head.json"} {
			f, err := fileio.Read(name)
			if err != nil {
				t.Fatal(err)
			}
			lanes = append(lanes, max(1, f.Runs[0].Config.Lanes))
		}
		want := fmt.Sprintf("lanes %d → %d", lanes[0], lanes[1])
		r := tr.run("compare", "base.json", "head.json")
		if !strings.Contains(r.stdout, "configuration changed since the baseline: "+want) {
			t.Errorf("compare: want the configuration change %q named", want)
		}
		md := runCLI(t, tr.env, "compare", "base.json", "head.json", "--format", "markdown")
		var said string
		for _, line := range strings.Split(md.stdout, "\n") {
			if strings.HasPrefix(line, "⚙️ Configuration") {
				said = line
			}
		}
		tr.note("the comment (compare --format markdown) says: %s", said)
		if !strings.Contains(said, want) {
			t.Errorf("the comment: want the configuration change %q named", want)
		}
	})
	tr.check("lanes-changed.txt")
}

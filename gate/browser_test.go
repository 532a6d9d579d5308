//go:build browser

package gate

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// chromium is the system browser, or the test skips.
func chromium(t *testing.T) string {
	t.Helper()
	p, err := browser.Find(browser.OSEnv)
	if err != nil {
		t.Skipf("%v (make browser-test installs Debian's chromium)", err)
	}
	return p
}

// pageSuite is a suite of one chat page: the simulator's at query.
func pageSuite(t *testing.T, url, query string) *suite.Config {
	t.Helper()
	text := `endpoints:
  - name: web
    api: browser
    url: "` + url + `/chat?` + query + `"
    browser: {input: textarea, submit: "button[type=submit]", output: "[data-role=assistant]", done: "[data-status=ready]"}
scenarios:
  - {name: page, prompt: "Say something.", requests: 10, warmup: 1, turns: ["And then?"]}
budgets:
  client: {p95: 60}
regression: {tolerance: 10%, min_delta: 10ms}
limits: {timeout: 20s}
`
	cfg, err := suite.Parse("page.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestBrowserRunAndAB: api browser end to end on the simulator's chat
// page: every request of a two-turn conversation has its painted times,
// its stream and its client stage in a results file that reads back
// valid; an ab of the page with 40 ms of work per update in its head
// fails on client. The bound asks nothing of the load: the page's work is
// a spin of 40 ms on its own clock between its reader's first text (after
// the wire's) and the frame that paints it, which load does not shorten,
// so the head's client stage is 40 ms or more at p50 at any load (a
// driver that missed the work would see the base's); the base's, a
// frame's wait, grows with the load, so their difference does not hold a
// bound (it was 33–38 ms at load average 26–35 against the old bound of
// 25). Real clock: holds at load average 35 on 2 cores (2 of 2 runs
// beside a CPU hog, 2026-12-07: the head's client p50 45.0 and 46.5 ms).
func TestBrowserRunAndAB(t *testing.T) {
	chromium(t)
	p, _ := sim.Named("fast")
	p.ToolSteps, p.TTFT, p.ITL, p.Tokens = 0, sim.Fixed(150*time.Millisecond), sim.Fixed(80*time.Millisecond), 5
	srv := httptest.NewServer(sim.New(p, 1))
	defer srv.Close()
	base, head := pageSuite(t, srv.URL, "render=append"), pageSuite(t, srv.URL, "render=append&cost=40")
	path, rep := abReport(t, base, head)
	f, err := fileio.Read(path)
	if err != nil {
		t.Fatalf("the file does not read back: %v", err)
	}
	mustValidate(t, compileSchema(t, "results.schema.json"), path, readFile(t, path))
	for _, r := range f.Runs {
		for i, q := range r.Requests {
			if !q.OK || q.Stream == nil || q.Stream.FirstTextMs == nil || q.ClientMs == nil || *q.TTFTMs < 150 || q.StepCount == nil || *q.StepCount != 2 ||
				q.PaintedChars == nil || *q.PaintedChars == 0 || q.AnswerMs == nil || *q.AnswerMs <= *q.TTFTMs {
				t.Fatalf("%s request %d: %+v", r.Variant, i, q)
			}
		}
	}
	checkShown(t, f, path)
	var client []string
	for _, s := range rep.Scenarios {
		for _, c := range s.Checks {
			if c.Metric == vocab.Client && c.Stat == vocab.P50 {
				client = append(client, string(c.Status))
				t.Logf("client p50 %.1f → %.1f ms (%+.1f): %s (load average %s)", c.Baseline, c.Current, c.Current-c.Baseline, c.Status, loadAverage())
				if c.Current < 39 || c.Current <= c.Baseline || (c.Status != vocab.Regression && c.Status != vocab.OverBudget) { // 39: the 40 ms spin, less the rounding to whole ms
					t.Errorf("client p50 %.1f → %.1f ms: %s, want a regression to 40 ms or more (the work)", c.Baseline, c.Current, c.Status)
				}
			}
		}
	}
	if len(client) == 0 || rep.Verdict != vocab.Fail {
		t.Errorf("client checks %v, verdict %s: want the client stage checked and the gate failed", client, rep.Verdict)
	}
}

// checkShown: each run keeps its page timeline and screenshots on its
// median and p95 request by TTFT only, both screenshots JPEGs.
func checkShown(t *testing.T, f *results.File, path string) {
	t.Helper()
	for _, r := range f.Runs {
		shown := report.PageShown(r.Requests)
		for i, q := range r.Requests {
			kept := q.PageTimeline != nil || len(q.Screenshots) > 0
			if slices.Contains(shown, i) != kept {
				t.Errorf("%s request %d: kept a timeline or screenshots %v, shown %v", r.Variant, i, kept, shown)
			}
			if !kept {
				continue
			}
			if len(q.PageTimeline.Painted) == 0 || len(q.PageTimeline.Received) == 0 || len(q.Screenshots) != 2 ||
				q.Screenshots[0].At != vocab.FirstPaint || q.Screenshots[1].At != vocab.End {
				t.Errorf("%s request %d: timeline %+v, screenshots %d", r.Variant, i, q.PageTimeline, len(q.Screenshots))
			}
		}
	}
	if st, err := os.Stat(path); err == nil {
		t.Logf("%s: %d bytes for %d requests", filepath.Base(path), st.Size(), f.Requests())
	}
}

// abReport measures base and head interleaved (latgate ab), writes the
// file and compares it: the file's path and the report.
func abReport(t *testing.T, base, head *suite.Config) (string, *report.Report) {
	t.Helper()
	f, err := MeasureAB(context.Background(), base, head, MeasureOptions{Progress: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ab.json")
	if err := fileio.Write(path, f); err != nil {
		t.Fatal(err)
	}
	th, err := CompareConfig(head, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := CompareAB(f, path, th)
	if err != nil {
		t.Fatal(err)
	}
	return path, rep
}

// TestBrowserDemo: latgate demo with the browser found, on the real
// loopback: the API's part, then the simulator's page in the browser,
// measured alone after it (Chromium starting beside the API's first
// requests starved their reads: a false "buffered" stop in 3 of 7 runs),
// its verdict printed with the client stage, the whole on one screen; as
// root, where the sandbox cannot run, without it on its own page (nothing
// in its environment allows it here), saying so. Real clock: it asserts
// what is said, not a time (the wall time is logged: docs/performance.md),
// and holds at load average 36–40 on 2 cores (2 of 2 runs beside a CPU
// hog, 2026-12-07: 31 and 33 s).
func TestBrowserDemo(t *testing.T) {
	path := chromium(t)
	var out bytes.Buffer
	env := Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	o := DemoOptions{BaseProfile: "fast", HeadProfile: "slow", Dir: t.TempDir(), FindBrowser: func() (string, error) { return path, nil }}
	start := time.Now()
	if err := Demo(context.Background(), env, o); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	text := out.String()
	t.Logf("%s in %s, load average %s", text, time.Since(start).Round(100*time.Millisecond), loadAverage())
	for _, want := range []string{"The simulator's chat page in a browser (api browser", "measured after the API, alone", "client p50", "chat-page @ web: ", "agent-order @ sim: "} {
		if !strings.Contains(text, want) {
			t.Errorf("the demo lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n"); n > 60 {
		t.Errorf("the demo printed %d lines, want one screen (at most 60)", n)
	}
	if says := strings.Contains(text, "(api browser, without Chromium's sandbox: the page is latgate's own)"); says != (os.Getuid() == 0) {
		t.Errorf("as uid %d the demo says it runs without the sandbox: %v", os.Getuid(), says)
	}
}

// loadAverage is the machine's load average over 1, 5 and 15 minutes.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

var perf = flag.Bool("perf", false, "measure the cost of a browser request (docs/performance.md)")

// TestBrowserCostOfARequest measures what a browser request costs on this
// machine (go test -tags browser -run TestBrowserCostOfARequest ./gate
// -perf; docs/performance.md): latgate run of the simulator's chat page
// (api browser) at concurrency 1 and 4, requests per second and the
// page's figures, and latgate's own HTTP client on the same route (api
// ai-sdk) for the first text.
func TestBrowserCostOfARequest(t *testing.T) {
	if !*perf {
		t.Skip("a measurement: -perf")
	}
	chromium(t)
	p, _ := sim.Named("fast")
	p.ToolSteps, p.TTFT, p.ITL, p.Tokens = 0, sim.Fixed(150*time.Millisecond), sim.Fixed(15*time.Millisecond), 24
	srv := httptest.NewServer(sim.New(p, 1))
	defer srv.Close()
	const n = 40
	run := func(endpoint string, c int) (*results.Run, time.Duration) {
		cfg, err := suite.Parse("cost.yaml", []byte(fmt.Sprintf(`endpoints:
  - name: web
    api: browser
    url: "%[1]s/chat"
    browser: {input: textarea, submit: "button[type=submit]", output: "[data-role=assistant]", done: "[data-status=ready]"}
  - {name: app, api: ai-sdk, url: "%[1]s/api/chat"}
scenarios:
  - {name: chat, prompt: "Say something.", requests: %[2]d, warmup: %[3]d, concurrency: %[3]d, endpoints: [%[4]s]}
limits: {timeout: 20s}
`, srv.URL, n, c, endpoint)), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		f, err := Measure(context.Background(), cfg, MeasureOptions{Progress: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		return &f.Runs[0], time.Since(start)
	}
	for _, c := range []int{1, 4} {
		r, took := run("web", c)
		var ttft, client, wire []float64
		for _, q := range r.Requests {
			ttft, client, wire = append(ttft, *q.TTFTMs), append(client, *q.ClientMs), append(wire, *q.Stream.FirstTextMs)
		}
		t.Logf("api browser, concurrency %d: %d requests (and %d warmup) in %.1f s = %.2f requests/s; TTFT p50 %.1f p95 %.1f ms; client p50 %.1f p95 %.1f ms; the stream's first text p50 %.1f ms",
			c, n, c, took.Seconds(), float64(n+c)/took.Seconds(), pct(ttft, .5), pct(ttft, .95), pct(client, .5), pct(client, .95), pct(wire, .5))
	}
	r, _ := run("app", 1)
	var ttfc []float64
	for _, q := range r.Requests {
		ttfc = append(ttfc, *q.TTFCMs)
	}
	t.Logf("api ai-sdk on the same route: first text (ttfc) p50 %.1f p95 %.1f ms", pct(ttfc, .5), pct(ttfc, .95))
}

func pct(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[max(0, min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1))]
}

// TestBrowserCtrlCLeavesNoProcess: a run canceled while its pages are
// measured (Ctrl-C: latgate's context ends) returns, and no process of
// its browser is left. Real clock: holds at load average 26–35 on 2 cores
// (5 of 5 runs, 2026-12-04); the run returned 225–340 ms after its
// cancellation (4 runs that logged it), against a bound of 15 s.
func TestBrowserCtrlCLeavesNoProcess(t *testing.T) {
	chromium(t)
	p, _ := sim.Named("fast")
	p.ToolSteps, p.TTFT, p.ITL, p.Tokens = 0, sim.Fixed(300*time.Millisecond), sim.Fixed(50*time.Millisecond), 40
	srv := httptest.NewServer(sim.New(p, 1))
	defer srv.Close()
	cfg := pageSuite(t, srv.URL, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Measure(ctx, cfg, MeasureOptions{Progress: io.Discard})
		done <- err
	}()
	var procs []int
	for deadline := time.Now().Add(20 * time.Second); len(procs) < 3 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		procs = browserProcs()
	}
	if len(procs) < 3 {
		t.Fatalf("the run started %d browser processes", len(procs))
	}
	time.Sleep(time.Second) // a request in flight
	cancel()
	canceled := time.Now()
	select {
	case <-done:
		t.Logf("the run returned %v after its cancellation", time.Since(canceled).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatal("the run did not return within 15 s of its cancellation")
	}
	var alive []int
	for _, pid := range procs {
		if syscall.Kill(pid, 0) == nil && strings.Contains(procCmdline(pid), "latgate-browser-") {
			alive = append(alive, pid)
		}
	}
	if len(alive) > 0 {
		t.Errorf("browser processes still running after the run was canceled: %v of %v", alive, procs)
	}
}

// browserProcs are the processes below this one whose command line names
// the browser's own temporary folder (latgate-browser-*: the browser and
// its children).
func browserProcs() []int {
	self := os.Getpid()
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == self {
				if strings.Contains(procCmdline(pid), "latgate-browser-") {
					out = append(out, pid)
				}
				break
			}
		}
	}
	return out
}

func procCmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return string(b)
}

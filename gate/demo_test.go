package gate

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/vocab"
)

// TestDemo runs the README's first command on virtual time: both builds
// measured interleaved, the agent scenario's sessions with their three
// model calls and exact tool time, the verdict and the comment printed;
// the browser part (skipped here) only after the API's measurement.
func TestDemo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dialer := clocktest.NewServer(t, http.NotFoundHandler()) // its client reaches every server of the test
		var out bytes.Buffer
		dir := t.TempDir()
		o := DemoOptions{BaseProfile: "fast", HeadProfile: "slow", Dir: dir, Client: dialer.Client(),
			Serve: func(h http.Handler) (string, func(), error) {
				s := clocktest.NewServer(t, h)
				return s.URL + "/v1", s.Close, nil
			},
			// No browser on virtual time: the demo says how to get one.
			// It looks for one once the API's measurement has ended (its
			// file written): a browser starting beside it starves the
			// API's client of CPU.
			FindBrowser: func() (string, error) {
				if _, err := os.Stat(filepath.Join(dir, ABResults)); err != nil {
					t.Errorf("the demo looked for a browser before the API's measurement ended: %v", err)
				}
				return browser.Find(browser.Env{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", exec.ErrNotFound }})
			}}
		env := Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }, ToolVersion: "v0.0.0-test"}
		if err := Demo(context.Background(), env, o); err != nil {
			t.Fatal(err)
		}
		// One screen on the terminal, plain text; the full report and
		// the comment in the folder it names.
		text := out.String()
		for _, want := range []string{"both measured interleaved in one job", "latgate FAIL: ", "agent-order @ sim: ", "over budget",
			"In CI this verdict (fail) would exit 1.", "The full report: " + filepath.Join(dir, "report.html"),
			"A chat page in a browser (api browser): skipped: no Chromium or Chrome found on PATH", "apt-get install chromium"} {
			if !strings.Contains(text, want) {
				t.Errorf("the demo's output lacks %q", want)
			}
		}
		if n := strings.Count(text, "\n"); n > 60 {
			t.Errorf("the demo printed %d lines, want one screen (at most 60):\n%s", n, text)
		}
		if strings.ContainsAny(text, "<>|") || strings.Contains(text, "&#") || strings.Contains(text, "**") {
			t.Errorf("the demo's terminal output has Markdown or HTML:\n%s", text)
		}
		comment, err := os.ReadFile(filepath.Join(dir, "comment.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"<b>agent-order</b> @ sim", "| First tool call |", "| Answer |", "| Model calls (per session) |", "| step | sessions |",
			"tool time of the whole session: 200 → 200"} {
			if !strings.Contains(string(comment), want) {
				t.Errorf("the demo's comment lacks %q", want)
			}
		}
		if page, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !strings.Contains(string(page), "agent-order") {
			t.Errorf("the demo's report: %v", err)
		}
		f, err := fileio.Read(filepath.Join(dir, "ab.json"))
		if err != nil {
			t.Fatal(err)
		}
		sessions := 0
		for _, r := range f.Runs {
			if r.Scenario != "agent-order" {
				continue
			}
			for _, q := range r.Requests {
				sessions++
				if !q.OK || q.StepCount == nil || *q.StepCount != 3 || q.SessionEnd != "answer" || *q.ToolMs != 200 || *q.SessionMs != *q.TotalMs || *q.AnswerMs >= *q.SessionMs {
					t.Fatalf("%s session: ok %v, %v steps ending %q, tool %v ms, session %v, total %v, answer %v",
						r.Variant, q.OK, q.StepCount, q.SessionEnd, q.ToolMs, q.SessionMs, q.TotalMs, q.AnswerMs)
				}
				if q.Steps[0].Tools[0] != "lookup_order" || q.Steps[1].ToolMs != 100 || q.Steps[2].ToolCalls != 0 {
					t.Fatalf("%s steps: %+v", r.Variant, q.Steps)
				}
			}
			if r.Variant != vocab.Base && r.Variant != vocab.Head {
				t.Errorf("agent-order run of variant %q", r.Variant)
			}
		}
		// Adaptive: from the first look (40 per build) to max (80).
		if sessions < 80 || sessions > 160 || sessions%2 != 0 {
			t.Errorf("%d agent sessions measured, want 40 to 80 per build, as many of each", sessions)
		}
	})
}

// TestDemoPageNotMeasured: a browser that cannot measure the demo's chat
// page (here a program that exits at once, as a browser that does not
// start in time on a loaded machine fails every request) is said on the
// demo's screen, not the demo's end: its API part stands. Real clock: it
// asserts what is said, not a time.
func TestDemoPageNotMeasured(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	env := Env{Stdout: &out, Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"LATGATE_BROWSER_NO_SANDBOX": "1"}[k]
	}}
	o := DemoOptions{FindBrowser: func() (string, error) { return "/bin/false", nil }}
	if err := demoPageStep(context.Background(), env, o, t.TempDir()); err != nil {
		t.Fatalf("the demo ended on its page's part: %v", err)
	}
	if text := out.String(); !strings.Contains(text, "A chat page in a browser (api browser): not measured: ") {
		t.Errorf("the demo says\n%s\nwant the page not measured, and why", text)
	}
	t.Log(out.String())
}

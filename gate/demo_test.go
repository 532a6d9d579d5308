package gate

import (
	"bytes"
	"context"
	"io"
	"net/http"
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
// model calls and exact tool time, the verdict and the comment printed.
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
			FindBrowser: func() (string, error) {
				return browser.Find(browser.Env{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", exec.ErrNotFound }})
			}}
		env := Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }, ToolVersion: "v0.0.0-test"}
		if err := Demo(context.Background(), env, o); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		for _, want := range []string{"1. Measuring both builds", "2. Comparing head with base", "3. The pull-request comment",
			"<b>agent-order</b> @ sim", "| First tool call |", "| Answer |", "| Model calls (per session) |", "| step | sessions |",
			"tool time of the whole session: 200 → 200", "In CI this verdict (fail) would exit 1.",
			"4. A chat page in a browser (api browser): skipped: no Chromium or Chrome found on PATH", "apt-get install chromium"} {
			if !strings.Contains(text, want) {
				t.Errorf("the demo's output lacks %q", want)
			}
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

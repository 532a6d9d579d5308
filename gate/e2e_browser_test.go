//go:build browser

package gate

import (
	"os"
	"testing"

	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// TestE2EBrowserAB: latgate ab of the real frontend's two builds (make
// e2e-browser serves them: a useChat page whose head re-renders the whole
// Markdown of the conversation on every token) with api browser, at
// DevTools' mid-tier mobile CPU (cpu_throttle: 4), a conversation of two
// long Markdown answers (the second's client stage re-renders the first):
// the head's client stage is a regression or over its budget
// (budgets.client: {p95: 500}) where the base's is within it, and the
// gate fails. Real clock: the head's regression and the gate's failure
// hold at load average 22–23 on 2 cores (beside a CPU hog, 2026-12-04);
// the base within its budget only on a quiet machine (-perf).
func TestE2EBrowserAB(t *testing.T) {
	site := os.Getenv("LATGATE_E2E_BROWSER_URL")
	if site == "" {
		t.Skip("needs the frontend and its AI SDK route: make e2e-browser")
	}
	load := func(build string) *suite.Config {
		cfg, err := suite.Parse(build+".yaml", []byte(`endpoints:
  - name: web
    api: browser
    url: "`+site+`/`+build+`/?answer=markdown&delay_ms=300&chunk_ms=10"
    browser: {input: textarea, submit: "button[type=submit]", output: "[data-role=assistant]", done: "[data-status=ready]", cpu_throttle: 4}
scenarios:
  - {name: markdown, prompt: "Write the long answer.", turns: ["Once more, please."], requests: 10, warmup: 1}
budgets:
  client: {p95: 500}
regression: {tolerance: 10%, min_delta: 10ms}
limits: {timeout: 60s}
`), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	_, rep := abReport(t, load("base"), load("head"))
	failed := false
	for _, s := range rep.Scenarios {
		for _, c := range s.Checks {
			if c.Metric != vocab.Client {
				continue
			}
			t.Logf("client %s: base %.1f ms, head %.1f ms: %s", c.Stat, c.Baseline, c.Current, c.Status)
			failed = failed || c.Status == vocab.Regression || c.Status == vocab.OverBudget
			// The light build within the budget at a throttled CPU is a
			// quiet machine's figure (-perf): at load average 23 on 2 cores
			// its p95 was 655 ms (the head's 1631 ms, a regression still).
			if c.Stat == vocab.P95 && c.Baseline > 500 && *perf {
				t.Errorf("client p95: the base's %.1f ms is over its budget: want the light build within it", c.Baseline)
			}
		}
	}
	if !failed {
		t.Error("no client check failed: want the head's client stage a regression or over its budget")
	}
	if rep.Verdict != vocab.Fail {
		t.Errorf("verdict %s, want fail", rep.Verdict)
	}
}

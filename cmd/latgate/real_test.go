package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/latgate/latgate/baseline"
)

// TestRealEngine runs latgate against a real Ollama serving a generated tiny
// model (scripts/e2e-real.sh sets it up; make e2e-real). It checks the
// measurements against what the engine must produce, shows the prompt cache
// in TTFT, and gates an unchanged and a slower engine configuration.
func TestRealEngine(t *testing.T) {
	url := os.Getenv("LATGATE_OLLAMA_URL")
	if url == "" {
		t.Skip("needs a real engine: make e2e-real")
	}
	const maxTokens = 24
	dir := t.TempDir()
	cfg := filepath.Join(dir, "latgate.yaml")
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 12) // ~540 byte tokens of prefill
	yaml := `endpoints:
  - name: ollama
    base_url: ` + url + `
    model: tiny
scenarios:
  - name: warm-cache
    prompt: "` + long + `"
    max_tokens: 24
    requests: 40
    warmup: 2
  - name: cold-cache
    prompt: "` + long + `"
    max_tokens: 24
    requests: 40
    warmup: 2
    cache: cold
limits:
  timeout: 60s
  stall_timeout: 30s
`
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "baseline.json")
	if r := runCLI(t, nil, "gate", "--mode", "record", "-c", cfg, "--results", base); r.code != 0 {
		t.Fatalf("record: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	f, err := baseline.Read(base)
	if err != nil {
		t.Fatal(err)
	}
	ttft := map[string][]float64{}
	for _, run := range f.Runs {
		for i, q := range run.Requests {
			if !q.OK {
				t.Fatalf("%s request %d failed: %s", run.Scenario, i, q.Error)
			}
			if q.OutputTokens != maxTokens || q.TokensSource != "usage" {
				t.Errorf("%s request %d: %d tokens from %q, want %d from usage", run.Scenario, i, q.OutputTokens, q.TokensSource, maxTokens)
			}
			sum := 0.0
			for _, g := range q.ITLMs {
				if g <= 0 {
					t.Errorf("%s request %d: a non-positive gap %v", run.Scenario, i, g)
				}
				sum += g
			}
			if *q.TTFTMs <= 0 || math.Abs(*q.TTFTMs+sum-*q.TotalMs) > 50 {
				t.Errorf("%s request %d: ttft %.1f + gaps %.1f is not total %.1f (±50ms)", run.Scenario, i, *q.TTFTMs, sum, *q.TotalMs)
			}
			ttft[run.Scenario] = append(ttft[run.Scenario], *q.TTFTMs)
		}
	}
	med := func(xs []float64) float64 { s := append([]float64(nil), xs...); sort.Float64s(s); return s[len(s)/2] }
	warm, cold := med(ttft["warm-cache"]), med(ttft["cold-cache"])
	t.Logf("TTFT p50: warm cache %.1f ms, cold cache %.1f ms (%.1fx)", warm, cold, cold/warm)
	if cold < 2*warm {
		t.Errorf("cold-cache TTFT %.1f ms is not at least twice the warm-cache %.1f ms: the prompt cache is not visible", cold, warm)
	}
	var out strings.Builder
	r := runCLI(t, nil, "compare", base, base)
	out.WriteString(r.stdout)

	// The same engine again: the gate passes.
	r = runCLI(t, nil, "gate", "-c", cfg, "--baseline", base, "--results", filepath.Join(dir, "same.json"), "--dry-run")
	t.Logf("unchanged engine:\n%s", r.stdout)
	if r.code != 0 {
		t.Errorf("unchanged engine: exit %d, want 0\n%s", r.code, r.stderr)
	}

	// A slower engine configuration (a larger model under the same name).
	create := exec.Command(os.Getenv("LATGATE_OLLAMA_BIN"), "create", "tiny", "-f", os.Getenv("LATGATE_OLLAMA_SLOW_MODELFILE"))
	create.Env = append(os.Environ(), "HOME="+os.Getenv("LATGATE_OLLAMA_HOME"), "OLLAMA_MODELS="+os.Getenv("LATGATE_OLLAMA_MODELS"))
	if b, err := create.CombinedOutput(); err != nil {
		t.Fatalf("ollama create: %v\n%s", err, b)
	}
	r = runCLI(t, nil, "gate", "-c", cfg, "--baseline", base, "--results", filepath.Join(dir, "slow.json"), "--dry-run")
	t.Logf("slower engine:\n%s", r.stdout)
	if r.code != 1 || !strings.Contains(r.stdout, "regression") {
		t.Errorf("slower engine: exit %d, want 1 with a regression\n%s", r.code, r.stderr)
	}
}

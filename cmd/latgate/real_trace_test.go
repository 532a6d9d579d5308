package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/fileio"
)

// TestRealEngineTraceReplay: a Mooncake trace whose entries come in pairs
// that share their first blocks (hash_ids), replayed in the trace's order
// by one user against Ollama (NUM_PARALLEL=1: one slot, whose KV cache
// keeps the last prompt), through its native API, which reports the
// prefill (prompt_eval_duration) and the tokens it evaluated
// (prompt_eval_count). The second of a pair finds its shared prefix in
// the cache: its prefill is a fraction of the first's; the first of a
// pair shares nothing, and Ollama's count of it is the trace's input
// length within 2 % at the median and 5 % at most. make e2e-real
// runs it (scripts/e2e-real/capacity.sh starts the servers).
func TestRealEngineTraceReplay(t *testing.T) {
	p1 := os.Getenv("LATGATE_OLLAMA_P1_URL")
	if p1 == "" {
		t.Skip("needs an Ollama server with OLLAMA_NUM_PARALLEL=1: make e2e-real")
	}
	dir := t.TempDir()
	t.Logf("load average before: %s", loadAvg())
	// 12 pairs: a shared prefix of 2 blocks of 128 tokens, then each
	// entry's own 40 to 150 tokens; inputs within the model's 2048.
	var trace strings.Builder
	for i := range 24 {
		pair := i / 2
		own := 40 + 10*(i%12)
		hashes := []int{100*pair + 1, 100*pair + 2, 10000 + i}
		h, _ := json.Marshal(hashes)
		fmt.Fprintf(&trace, `{"timestamp": %d, "input_length": %d, "output_length": 8, "hash_ids": %s}`+"\n", 500*i, 256+own, h)
	}
	if err := os.WriteFile(filepath.Join(dir, "trace.jsonl"), []byte(trace.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	native := strings.TrimSuffix(p1, "/v1")
	cfg := filepath.Join(dir, "trace.yaml")
	yaml := fmt.Sprintf(`endpoints:
  - {name: ollama, api: ollama, base_url: %s, model: tiny}
scenarios:
  - name: replay
    warmup: 1
    workload: {trace: trace.jsonl, sample: 24, block_tokens: 128}
limits: {timeout: 60s, stall_timeout: 30s}
`, native)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run.json")
	r := runCLI(t, nil, "run", "-c", cfg, "-o", out)
	t.Logf("latgate run (load average after: %s):\n%s\n%s", loadAvg(), r.stdout, r.stderr)
	if r.code != 0 {
		t.Fatalf("latgate run: exit %d", r.code)
	}
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	run := f.Runs[0]
	w := run.Workload
	t.Logf("token model: %.3f a word, %+.1f (%s)", w.Tokens.PerWord, w.Tokens.Overhead, w.Tokens.Source)
	var cold, warm, coldErr []float64
	for _, q := range run.Requests {
		if !q.OK || q.Trace == nil || q.Server == nil || q.Server.PrefillMs == nil {
			t.Fatalf("request %+v: not ok, or no trace entry or prefill", q)
		}
		if (q.Trace.Line-1)%2 == 0 {
			cold = append(cold, *q.Server.PrefillMs)
			coldErr = append(coldErr, math.Abs(float64(q.PromptTokens-q.Trace.Input))/float64(q.Trace.Input))
		} else {
			warm = append(warm, *q.Server.PrefillMs)
			if q.Trace.Line == 2 {
				t.Logf("line 2 (its first 256 tokens those of line 1): prompt_tokens %d of the trace's %d", q.PromptTokens, q.Trace.Input)
			}
		}
	}
	median := func(v []float64) float64 { s := slices.Clone(v); slices.Sort(s); return s[len(s)/2] }
	t.Logf("prefill: first of a pair p50 %.1f ms, second (256 tokens cached) p50 %.1f ms (%.0f %%); token count error of the first: p50 %.1f %%, max %.1f %%",
		median(cold), median(warm), 100*median(warm)/median(cold), 100*median(coldErr), 100*slices.Max(coldErr))
	if !(median(warm) < 0.6*median(cold)) {
		t.Errorf("the cached prefix does not show in the server's prefill: %.1f ms against %.1f ms", median(warm), median(cold))
	}
	if median(coldErr) > 0.02 || slices.Max(coldErr) > 0.05 {
		t.Errorf("token count error p50 %.1f %%, max %.1f %%: want within 2 %% and 5 %%", 100*median(coldErr), 100*slices.Max(coldErr))
	}
}

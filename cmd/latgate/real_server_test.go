package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/results"
)

// realEngineServerTiming measures Ollama through api: ollama, its native
// /api/chat: the durations it reports on each answer's last line (its
// queue, prefill and decode) beside what latgate measured around them —
// TTFT, the generation span, the pace — so the part of the TTFT outside
// the engine on loopback is known; and a three-turn conversation whose
// turn-2 prefill drops with Ollama's prefix cache (each session's first
// turn is unique: cache: cold). The single calls are made twice: with a
// prompt new to the cache each time (single) and with one it holds
// (cached), whose TTFT is mostly outside the engine.
func realEngineServerTiming(t *testing.T, url, dir string) {
	host := strings.TrimSuffix(url, "/v1")
	cfg := filepath.Join(dir, "server.yaml")
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 12)
	const single, sessions = 24, 12
	yaml := fmt.Sprintf(`endpoints:
  - {name: ollama, api: ollama, base_url: %s, model: tiny}
scenarios:
  - {name: single, prompt: "%s", max_tokens: 24, requests: %d, warmup: 2, cache: cold}
  - {name: cached, prompt: "%s", max_tokens: 24, requests: %d, warmup: 2}
  - name: conversation
    prompt: "%s"
    turns: ["What did the fox do next?", "And how did the story end?"]
    max_tokens: 16
    cache: cold
    requests: %d
    warmup: 1
limits:
  timeout: 60s
  stall_timeout: 30s
`, host, long, single, long, single, long, sessions)
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "server.json")
	if r := runCLI(t, nil, "run", "-c", cfg, "-o", out); r.code != 0 {
		t.Fatalf("api ollama: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range f.Runs {
		switch run.Scenario {
		case "single", "cached":
			realServerSingle(t, run)
		case "conversation":
			realServerTurns(t, run, sessions)
		}
	}
	// The comparison holds the server's stages: a run against itself.
	if r := runCLI(t, nil, "compare", out, out); r.code != 0 || !strings.Contains(r.stdout, "Prefill") || !strings.Contains(r.stdout, "Outside") {
		t.Errorf("compare: exit %d, the budget table lacks the server's stages:\n%s", r.code, r.stdout)
	}
}

// realServerSingle checks and prints one call's server timing against
// latgate's own measurements.
func realServerSingle(t *testing.T, run results.Run) {
	var ttft, queue, prefill, outside, decode, span, perToken, itl []float64
	for i, q := range run.Requests {
		s := q.Server
		if !q.OK || s == nil || s.Source != "ollama" || s.QueueMs == nil || s.PrefillMs == nil || s.DecodeMs == nil || s.ProcessingMs == nil || s.Ignored != 0 || q.OutsideMs == nil {
			t.Fatalf("single request %d: ok %v (%s), server %+v, outside %v", i, q.OK, q.Error, s, q.OutsideMs)
		}
		gen := *q.TotalMs - *q.TTFTMs // latgate's first output to the end of the stream
		ttft, queue, prefill, outside = append(ttft, *q.TTFTMs), append(queue, *s.QueueMs), append(prefill, *s.PrefillMs), append(outside, *q.OutsideMs)
		decode, span = append(decode, *s.DecodeMs), append(span, gen)
		if q.OutputTokens > 1 {
			perToken = append(perToken, *s.DecodeMs/float64(q.OutputTokens-1))
		}
		sum := 0.0
		for _, g := range q.ITLMs {
			sum += g
		}
		if len(q.ITLMs) > 0 {
			itl = append(itl, sum/float64(len(q.ITLMs)))
		}
	}
	t.Logf("api ollama, %d single calls of %s (p50s, ms): latgate TTFT %.1f beside Ollama's queue (load_duration) %.2f and prefill (prompt_eval_duration) %.1f, outside %.1f (%.1f%% of the TTFT outside the engine on loopback); Ollama's decode (eval_duration) %.1f beside latgate's first output to end %.1f; per token %.2f beside latgate's mean gap %.2f; load average %s",
		len(run.Requests), run.Scenario, median(ttft), median(queue), median(prefill), median(outside), 100*median(outside)/median(ttft), median(decode), median(span), median(perToken), median(itl), loadAvg())
	// Ollama's decode runs from its first token to its last as the runner
	// computes them, latgate's span from the first piece's arrival to the
	// done line's: they differ by what delivering the first and the last
	// piece takes, a little either way. On an idle machine that is within
	// max(50 ms, 5 %); a load delays each delivery by the scheduler's wait
	// (the server's and latgate's), which the same requests measure: the
	// part of the TTFT outside the engine is the first piece's delivery,
	// so the bound adds it. A decode read in the wrong unit is 1,000× off.
	bound := max(50, 0.05*median(span)) + median(outside)
	if d, s := median(decode), median(span); median(prefill) <= 0 || median(prefill) > median(ttft) || math.Abs(d-s) > bound {
		t.Errorf("Ollama's prefill %.1f and decode %.1f do not fit latgate's TTFT %.1f and generation span %.1f (within %.1f ms)", median(prefill), d, median(ttft), s, bound)
	}
}

// realServerTurns checks that each turn of a conversation has its own
// server timing and that turns 2 and 3 evaluate much less than turn 1,
// whose prompt is new to the cache: they find the conversation before
// them in it. Each session's turns are compared with its own turn 1,
// seconds apart, so that a load that comes or goes between sessions
// falls on both: the median of the sessions' ratios, under a half (a
// prefill of the turn's new tokens against one of ~540: a tenth or less
// on an idle machine, and a slower CPU stretches both alike).
func realServerTurns(t *testing.T, run results.Run, sessions int) {
	if len(run.Requests) != sessions {
		t.Fatalf("conversation: %d sessions, want %d", len(run.Requests), sessions)
	}
	var prefill, ttft [3][]float64
	for i, q := range run.Requests {
		if !q.OK || len(q.Steps) != 3 {
			t.Fatalf("conversation %d: ok %v (%s), %d steps", i, q.OK, q.Error, len(q.Steps))
		}
		for k, st := range q.Steps {
			if st.Server == nil || st.Server.PrefillMs == nil || st.TTFTMs == nil {
				t.Fatalf("conversation %d turn %d: server %+v", i, k+1, st.Server)
			}
			prefill[k], ttft[k] = append(prefill[k], *st.Server.PrefillMs), append(ttft[k], *st.TTFTMs)
		}
	}
	lines := []string{fmt.Sprintf("%-5s %13s %9s", "turn", "prefill p50", "ttft p50")}
	for k := range 3 {
		lines = append(lines, fmt.Sprintf("%-5d %13.1f %9.1f", k+1, median(prefill[k]), median(ttft[k])))
	}
	t.Logf("a three-turn conversation through api ollama (%d sessions; ms):\n%s", sessions, strings.Join(lines, "\n"))
	for k := 1; k < 3; k++ {
		var ratio []float64
		for i := range prefill[k] {
			ratio = append(ratio, prefill[k][i]/prefill[0][i])
		}
		t.Logf("turn %d's prefill against its session's turn 1: %.3f at p50 (load average %s)", k+1, median(ratio), loadAvg())
		if median(ratio) >= 0.5 {
			t.Errorf("turn %d's prefill is %.2f of its session's turn 1 at p50 (%.1f against %.1f ms): want under half: the prefix cache does not show", k+1, median(ratio), median(prefill[k]), median(prefill[0]))
		}
	}
}

package suite

import (
	"strings"
	"testing"
)

// TestWorkloadParses: a workload's keys, its defaults (timing
// concurrency, block 512, requests from the sample) and its path, next
// to the config file.
func TestWorkloadParses(t *testing.T) {
	t.Parallel()
	text := capEndpoint + "scenarios:\n  - name: prod\n    max_in_flight: 32\n    workload: {trace: traces/chat.jsonl, format: mooncake, sample: 400, timing: replay, speedup: 20x, block_tokens: 256, exact_output: true}\n" +
		"  - name: plain\n    requests: 50\n    workload: {trace: t.csv}\n"
	cfg, err := Parse("ci/latgate.yaml", []byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := cfg.Scenarios[0].Workload
	if w == nil || w.Path != "ci/traces/chat.jsonl" || w.Format != "mooncake" || w.Sample != 400 || w.Timing != TimingReplay || w.Speedup != 20 ||
		w.BlockTokens != 256 || !w.ExactOutput || cfg.Scenarios[0].Requests != 400 || len(cfg.Scenarios[0].Messages) != 0 {
		t.Fatalf("workload %+v, requests %d", w, cfg.Scenarios[0].Requests)
	}
	p := cfg.Scenarios[1].Workload
	if p.Timing != TimingConcurrency || p.BlockTokens != DefaultBlockTokens || p.Sample != 50 || p.Speedup != 1 || p.Format != "" {
		t.Fatalf("defaults %+v", p)
	}
}

// TestWorkloadErrors: what cannot be combined with a trace, or is not a
// workload, is refused at its line before any request.
func TestWorkloadErrors(t *testing.T) {
	t.Parallel()
	sc := func(extra, w string) string {
		return capEndpoint + "scenarios:\n  - name: s\n" + extra + "    workload: " + w + "\n"
	}
	for _, tt := range []struct{ name, yaml, want string }{
		{"a prompt too", sc("    prompt: hi\n", "{trace: t.jsonl}"), `latgate.yaml:6: scenario "s": a workload draws its prompts, sessions and times from the trace: give no prompt, prompt_file or messages beside it`},
		{"turns", sc("    turns: [more]\n", "{trace: t.jsonl}"), `give no tools or turns beside it`},
		{"a rate", sc("    rate: 2/s\n", "{trace: t.jsonl}"), `give no rate beside it`},
		{"cache", sc("    cache: cold\n", "{trace: t.jsonl}"), `give no cache beside it`},
		{"no trace", sc("", "{sample: 10}"), `scenario "s": workload.trace is required`},
		{"absolute", sc("", "{trace: /etc/passwd}"), `workload.trace: /etc/passwd: a file of the suite is named relative to the config file`},
		{"bad timing", sc("", "{trace: t.jsonl, timing: burst}"), `workload.timing: want replay (the trace's times) or concurrency (the scenario's), got "burst"`},
		{"speedup without replay", sc("", "{trace: t.jsonl, speedup: 4}"), `workload.speedup times a replay: give timing: replay with it`},
		{"bad speedup", sc("", "{trace: t.jsonl, timing: replay, speedup: -1}"), `workload.speedup: want how many times faster than the trace`},
		{"replay at a concurrency", sc("    concurrency: 4\n", "{trace: t.jsonl, timing: replay}"), `a replay sends at the trace's times, not at a concurrency`},
		{"sample and requests differ", sc("    requests: 30\n", "{trace: t.jsonl, sample: 40}"), `workload.sample (40) and requests (30) differ`},
		{"adaptive", sc("    requests: {min: 40, max: 80}\n", "{trace: t.jsonl}"), `a workload draws a fixed sample`},
		{"zero sample", sc("", "{trace: t.jsonl, sample: 0}"), `workload.sample: want the entries to draw per side, from 1 to 100000, got 0`},
		{"block", sc("", "{trace: t.jsonl, block_tokens: 0}"), `workload.block_tokens: want the trace's hash_ids block size in tokens`},
		{"unknown key", sc("", "{trace: t.jsonl, smaple: 4}"), `unknown key "smaple"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/fileio"
)

// realEngineConversation runs a three-turn conversation (a first prompt
// and two further turns, each sent with the conversation so far) on Ollama
// through its OpenAI chat completions and its native /api/chat, and prints
// each turn's TTFT and prompt tokens. The first turn is unique to each
// session (cache: cold), so its prompt is evaluated whole; turns 2 and 3
// repeat it and the answer before them, which Ollama's prefix cache can
// reuse. Ollama's prompt_eval_count is the whole prompt, cached or not
// (v0.17.4 counts the inputs before it loads its cache slot): it shows the
// conversation growing, not the cache. The cache shows in TTFT, and in the
// runner's own "loading cache slot" lines (how many inputs it reused and
// how many it evaluated) when the server logs at debug level
// (LATGATE_OLLAMA_LOG, written by scripts/e2e-real.sh): turns 2 and 3 must
// find the conversation before them there.
func realEngineConversation(t *testing.T, url, dir string) {
	host := strings.TrimSuffix(url, "/v1")
	cfg := filepath.Join(dir, "turns.yaml")
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 12)
	const sessions, warmup = 12, 1
	yaml := `endpoints:
  - {name: chat, base_url: ` + url + `, model: tiny}
  - name: native
    api: custom
    url: ` + host + `/api/chat
    body: {model: tiny, stream: true, messages: "{{messages}}", options: {num_predict: "{{max_tokens}}"}}
    stream: {format: ndjson, text: /message/content, done: /done, output_tokens: /eval_count, input_tokens: /prompt_eval_count}
scenarios:
  - name: conversation
    prompt: "` + long + `"
    turns: ["What did the fox do next?", "And how did the story end?"]
    max_tokens: 16
    cache: cold
    requests: ` + strconv.Itoa(sessions) + `
    warmup: ` + strconv.Itoa(warmup) + `
limits:
  timeout: 60s
  stall_timeout: 30s
`
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := os.Getenv("LATGATE_OLLAMA_LOG")
	before := len(cacheSlots(t, logPath))
	out := filepath.Join(dir, "turns.json")
	if r := runCLI(t, nil, "run", "-c", cfg, "-o", out); r.code != 0 {
		t.Fatalf("conversation: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	fig := []string{fmt.Sprintf("%-7s %-5s %9s %15s %14s", "api", "turn", "ttft p50", "prompt tokens", "output tokens")}
	for _, run := range f.Runs {
		if len(run.Requests) != sessions {
			t.Fatalf("%s: %d sessions, want %d", run.Endpoint, len(run.Requests), sessions)
		}
		var ttft, prompt, output [3][]float64
		for i, q := range run.Requests {
			if !q.OK || q.StepCount == nil || *q.StepCount != 3 || len(q.Steps) != 3 || q.SessionEnd != "answer" {
				t.Fatalf("%s session %d: ok %v (%s), %d steps ending %q; want 3 ending with an answer", run.Endpoint, i, q.OK, q.Error, len(q.Steps), q.SessionEnd)
			}
			for k, st := range q.Steps {
				if st.Turn != k || st.TTFTMs == nil || *st.TTFTMs <= 0 || st.PromptTokens <= 0 || st.OutputTokens <= 0 {
					t.Errorf("%s session %d step %d: turn %d, ttft %v, %d prompt and %d output tokens; want turn %d, each measured", run.Endpoint, i, k, st.Turn, st.TTFTMs, st.PromptTokens, st.OutputTokens, k)
					continue
				}
				// Each turn sends the conversation so far: the prompt grows by
				// at least the answer before it.
				if k > 0 && st.PromptTokens < q.Steps[k-1].PromptTokens+q.Steps[k-1].OutputTokens {
					t.Errorf("%s session %d turn %d: %d prompt tokens, not more than turn %d's %d and its %d-token answer: the conversation did not grow", run.Endpoint, i, k+1, st.PromptTokens, k, q.Steps[k-1].PromptTokens, q.Steps[k-1].OutputTokens)
				}
				ttft[k] = append(ttft[k], *st.TTFTMs)
				prompt[k] = append(prompt[k], float64(st.PromptTokens))
				output[k] = append(output[k], float64(st.OutputTokens))
			}
		}
		for k := range 3 {
			fig = append(fig, fmt.Sprintf("%-7s %-5d %9.1f %15.0f %14.0f", run.Endpoint, k+1, median(ttft[k]), median(prompt[k]), median(output[k])))
		}
	}
	t.Logf("three-turn conversation on Ollama (%d sessions per API; p50s):\n%s", sessions, strings.Join(fig, "\n"))

	// The runner's cache, per turn: requests went one at a time, each
	// session's three turns in a row.
	slots := cacheSlots(t, logPath)[before:]
	if logPath == "" || len(slots) == 0 {
		t.Logf("no \"loading cache slot\" lines (the server logs at debug level with OLLAMA_DEBUG=1): the prefix cache is shown by TTFT alone")
		return
	}
	if want := 2 * (sessions + warmup) * 3; len(slots) != want {
		t.Logf("%d \"loading cache slot\" lines for %d requests: not read per turn", len(slots), want)
		return
	}
	lines := []string{fmt.Sprintf("%-5s %14s %16s %16s", "turn", "prompt inputs", "reused (cache)", "evaluated")}
	prev := 0.0
	for k := range 3 {
		var p, used, rest []float64
		for i := k; i < len(slots); i += 3 {
			p, used, rest = append(p, slots[i][0]), append(used, slots[i][1]), append(rest, slots[i][2])
		}
		lines = append(lines, fmt.Sprintf("%-5d %14.0f %16.0f %16.0f", k+1, median(p), median(used), median(rest)))
		// The tiny model's byte vocabulary tokenizes the answer latgate
		// sends back as the model made it, so a later turn finds the whole
		// conversation before it in the cache, unless it was sent otherwise.
		if k > 0 && median(used) < prev {
			t.Errorf("turn %d reused %.0f of its %.0f inputs, less than turn %d's whole prompt (%.0f): the prefix cache missed; was the conversation sent back as the model said it?", k+1, median(used), median(p), k, prev)
		}
		prev = median(p)
	}
	t.Logf("Ollama's runner, per turn (p50 over both APIs' sessions):\n%s", strings.Join(lines, "\n"))
}

var cacheSlotRE = regexp.MustCompile(`loading cache slot.* prompt=(\d+) used=(\d+) remaining=(\d+)`)

// cacheSlots reads the runner's "loading cache slot" lines from Ollama's
// log: per request the prompt's inputs, those reused from the cache and
// those evaluated.
func cacheSlots(t *testing.T, path string) [][3]float64 {
	t.Helper()
	if path == "" {
		return nil
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out [][3]float64
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if m := cacheSlotRE.FindStringSubmatch(sc.Text()); m != nil {
			var v [3]float64
			for i := range v {
				v[i], _ = strconv.ParseFloat(m[i+1], 64)
			}
			out = append(out, v)
		}
	}
	return out
}

package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// wordsOf is n distinct words tagged tag: "tag0 tag1 …".
func wordsOf(tag string, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("%s%d", tag, i)
	}
	return strings.Join(w, " ")
}

// traceProfile is the trace profile as `latgate sim --profile trace`
// serves it.
func traceProfile(t *testing.T) Profile {
	t.Helper()
	p, err := Named("trace")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// chatPrompt is a streamed chat body of one user message saying prompt,
// with usage.
func chatPrompt(model, prompt, extra string) string {
	return `{"model":"` + model + `","stream":true,"stream_options":{"include_usage":true},` + extra +
		`"messages":[{"role":"user","content":"` + prompt + `"}]}`
}

// chatTTFT sends body and says when its first content chunk came, its
// cached tokens and the vLLM metrics' time_to_first_token_ms (the
// engine's prefill as it reports it).
func chatTTFT(t *testing.T, srv *clocktest.Server, body string) (ttft time.Duration, cached int, prefillMs float64) {
	t.Helper()
	_, frames := sseFrames(t, srv, "/v1/chat/completions", body)
	for _, f := range frames {
		var c struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Metrics *struct {
				TTFT float64 `json:"time_to_first_token_ms"`
			} `json:"metrics"`
		}
		if f.data == "[DONE]" {
			continue
		}
		mustJSON(t, f.data, &c)
		if ttft == 0 && len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			ttft = f.at
		}
		if c.Metrics != nil {
			prefillMs = c.Metrics.TTFT
		}
	}
	a := decodeChat(t, frames)
	return ttft, a.cached, prefillMs
}

// TestPrefillGrowsWithThePrompt: on the trace profile the TTFT is the
// drawn TTFT (a fixed 20 ms) plus 50 µs per prompt token not cached
// (words + 4 per message): a 1000-word prompt's comes exactly 900 × 50 µs
// after a 100-word one's, and the engine's self-reports say the same
// prefill (vLLM's time_to_first_token_ms, Ollama's prompt_eval_duration:
// the TTFT less the engine's 2 ms front). On virtual time.
func TestPrefillGrowsWithThePrompt(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := traceProfile(t)
		srv := clocktest.NewServer(t, New(p, 1))
		short, _, shortMs := chatTTFT(t, srv, chatPrompt("sim", wordsOf("a", 100), ""))
		long, _, longMs := chatTTFT(t, srv, chatPrompt("sim", wordsOf("b", 1000), ""))
		if want := 20*time.Millisecond + 104*p.PrefillPerToken; short != want {
			t.Errorf("a 100-word prompt's TTFT is %v, want %v", short, want)
		}
		if d := long - short; d != 900*p.PrefillPerToken {
			t.Errorf("a 1000-word prompt's TTFT is %v after a 100-word one's, want exactly 900 × %v", d, p.PrefillPerToken)
		}
		if shortMs != msOf(short-2*time.Millisecond) || longMs != msOf(long-2*time.Millisecond) {
			t.Errorf("vLLM's time_to_first_token_ms %v and %v, want the TTFTs less the front: %v and %v", shortMs, longMs, msOf(short-2*time.Millisecond), msOf(long-2*time.Millisecond))
		}
		resp, err := srv.Client().Post(srv.URL+"/api/chat", "application/json",
			strings.NewReader(`{"model":"sim","messages":[{"role":"user","content":"`+wordsOf("c", 1000)+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var last struct {
			PromptEval int64 `json:"prompt_eval_duration"`
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			mustJSON(t, sc.Text(), &last)
		}
		if got := time.Duration(last.PromptEval); got != long-2*time.Millisecond {
			t.Errorf("Ollama's prompt_eval_duration %v, want %v", got, long-2*time.Millisecond)
		}
	})
}

// TestBlockCacheOnEveryAPI: two prompts that share their first 1540
// words hit the trace profile's block cache (16-token blocks) for exactly
// 1536 tokens (96 blocks: the shared start floored to a block), reported
// in each API's own usage field; the first prompt hits nothing, and the
// second prompt's TTFT is exactly its uncached prefill shorter than on a
// server that has not seen the first. On virtual time.
func TestBlockCacheOnEveryAPI(t *testing.T) {
	t.Parallel()
	shared := wordsOf("s", 1540)
	for _, tt := range apiCases() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, New(traceProfile(t), 1))
				_, frames := sseFrames(t, srv, tt.path, tt.body([]string{shared + " " + wordsOf("x", 100)}, 0))
				first := tt.decode(t, frames)
				_, frames = sseFrames(t, srv, tt.path, tt.body([]string{shared + " " + wordsOf("y", 200)}, 0))
				second := tt.decode(t, frames)
				if first.cached != 0 || second.cached != 1536 {
					t.Errorf("cached %d and %d of %d and %d prompt tokens, want 0 and 1536", first.cached, second.cached, first.prompt, second.prompt)
				}
			})
		})
	}
	synctest.Test(t, func(t *testing.T) {
		p := traceProfile(t)
		seen, fresh := clocktest.NewServer(t, New(p, 1)), clocktest.NewServer(t, New(p, 1))
		chatTTFT(t, seen, chatPrompt("sim", shared+" "+wordsOf("x", 100), ""))
		second := chatPrompt("sim", shared+" "+wordsOf("y", 200), "")
		hit, cached, _ := chatTTFT(t, seen, second)
		miss, none, _ := chatTTFT(t, fresh, second)
		if cached != 1536 || none != 0 || miss-hit != 1536*p.PrefillPerToken {
			t.Errorf("with %d tokens cached the TTFT is %v, with %d %v: want 1536 and 0, %v shorter", cached, hit, none, miss, 1536*p.PrefillPerToken)
		}
	})
}

// TestBlockCacheHitRate: over a designed sequence the block cache hits
// exactly as designed: 10 prompts of 4 blocks sharing their first 2 hit
// 2 blocks each but the first (9 × 32 of 10 × 68 prompt tokens); blocks
// chain, so a prompt whose first block differs hits nothing though its
// second is seen, and one whose third differs only in its last word hits
// 2; another model hits nothing. Blocks are remembered when a prefill is
// done, so two prompts at once do not hit each other. On virtual time.
func TestBlockCacheHitRate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(traceProfile(t), 1))
		common := wordsOf("c", 32)
		var cached, prompt []int
		for i := range 10 {
			_, frames := sseFrames(t, srv, "/v1/chat/completions", chatPrompt("sim", common+" "+wordsOf(fmt.Sprintf("p%d_", i), 32), ""))
			a := decodeChat(t, frames)
			cached, prompt = append(cached, a.cached), append(prompt, a.prompt)
		}
		want := []int{0, 32, 32, 32, 32, 32, 32, 32, 32, 32}
		sum := func(v []int) (s int) {
			for _, x := range v {
				s += x
			}
			return s
		}
		if fmt.Sprint(cached) != fmt.Sprint(want) || sum(prompt) != 680 {
			t.Errorf("cached %v of %v prompt tokens, want %v of 10 × 68 (hit rate 288/680)", cached, prompt, want)
		}
		// Blocks are remembered once a prefill is done: two prompts at once
		// hit nothing of each other, one after them all.
		same := chatPrompt("sim", wordsOf("t", 48), "")
		got := make(chan int, 2)
		for range 2 {
			go func() {
				_, frames := sseFrames(t, srv, "/v1/chat/completions", same)
				got <- decodeChat(t, frames).cached
			}()
		}
		if a, b := <-got, <-got; a != 0 || b != 0 {
			t.Errorf("two prompts at once hit %d and %d tokens, want 0 and 0", a, b)
		}
		if _, frames := sseFrames(t, srv, "/v1/chat/completions", same); decodeChat(t, frames).cached != 48 {
			t.Errorf("a prompt after them hit %d tokens, want 48", decodeChat(t, frames).cached)
		}
		for _, tt := range []struct {
			name, model, prompt string
			want                int
		}{
			{"first block differs", "sim", wordsOf("z", 16) + " " + wordsOf("c", 32)[len(wordsOf("c", 16))+1:] + " " + wordsOf("p0_", 32), 0},
			{"third block's last word differs", "sim", common + " " + wordsOf("p0_", 15) + " other " + wordsOf("q", 16), 32},
			{"another model", "trace-2", common + " " + wordsOf("p0_", 32), 0},
		} {
			_, frames := sseFrames(t, srv, "/v1/chat/completions", chatPrompt(tt.model, tt.prompt, ""))
			if got := decodeChat(t, frames).cached; got != tt.want {
				t.Errorf("%s: %d cached, want %d", tt.name, got, tt.want)
			}
		}
	})
}

// TestBlockCacheBounded: the block cache holds at most its size (in
// tokens, over the block size) however many distinct prompts come, the
// least recently used forgotten first and a prompt's last blocks before
// its first, so a flood leaves no more than the size and a shared start
// outlives its prompt's tail.
func TestBlockCacheBounded(t *testing.T) {
	t.Parallel()
	c := blockCache{tokens: 8 * 16}
	a, b := blockKeys("m", strings.Fields(wordsOf("a", 64)), 16), blockKeys("m", strings.Fields(wordsOf("b", 64)), 16)
	c.remember(a, 16)
	c.remember(b, 16)
	if c.lookup(a) != 4 || c.lookup(b) != 4 {
		t.Fatalf("a full cache of 8 blocks holds %d and %d of two prompts' 4", c.lookup(a), c.lookup(b))
	}
	c.remember(a, 16) // a used again: b is the least recent
	c.remember(blockKeys("m", strings.Fields(wordsOf("c", 32)), 16), 16)
	if c.lookup(b) != 2 || c.lookup(a) != 4 || c.held() != 8 {
		t.Errorf("2 more blocks evict the least recent prompt's last 2: it keeps %d of 4 (want 2), the other %d (want 4), %d held (want 8)", c.lookup(b), c.lookup(a), c.held())
	}
	synctest.Test(t, func(t *testing.T) {
		p := traceProfile(t)
		p.Tokens = 1
		s := New(p, 1)
		s.blocks.tokens = 8 * 16
		srv := clocktest.NewServer(t, s)
		for i := range 50 {
			_, frames := sseFrames(t, srv, "/v1/chat/completions", chatPrompt("sim", wordsOf(fmt.Sprintf("f%d_", i), 64), ""))
			decodeChat(t, frames)
			if n := s.blocks.held(); n > 8 {
				t.Fatalf("after %d distinct prompts of 4 blocks the cache holds %d blocks, more than its 8", i+1, n)
			}
		}
		if n := s.blocks.held(); n != 8 {
			t.Errorf("after a flood the cache holds %d blocks, want its 8", n)
		}
	})
}

// TestAnswerLengthAsAsked: the answer honours the length a request asks:
// at most max_tokens; on chat completions (vLLM's extra fields) at least
// min_tokens and exactly max_tokens with ignore_eos, min_tokens above
// max_tokens a 400 that says so; on the trace profile (IgnoreEOS) exactly
// each API's own limit.
func TestAnswerLengthAsAsked(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(Profile{Name: "p", TTFT: Fixed(time.Millisecond), ITL: Fixed(time.Millisecond), Tokens: 20}, 1))
		for _, tt := range []struct {
			extra, finish string
			want          int
		}{
			{`"max_tokens":50,`, "stop", 20},
			{`"max_tokens":8,`, "length", 8},
			{`"max_tokens":50,"ignore_eos":true,`, "length", 50},
			{`"ignore_eos":true,`, "stop", 20},
			{`"max_tokens":50,"min_tokens":30,`, "stop", 30},
			{`"min_tokens":60,`, "stop", 60},
			{`"max_tokens":50,"min_tokens":50,`, "length", 50},
		} {
			_, frames := sseFrames(t, srv, "/v1/chat/completions", chatPrompt("m", "hi", tt.extra))
			if a := decodeChat(t, frames); a.output != tt.want || len(strings.Fields(a.text)) != tt.want || a.finish != tt.finish {
				t.Errorf("%s: %d tokens (%d words), finish %s; want %d, %s", tt.extra, a.output, len(strings.Fields(a.text)), a.finish, tt.want, tt.finish)
			}
		}
		for extra, msg := range map[string]string{
			`"max_tokens":50,"min_tokens":60,`: "min_tokens must be less than or equal to max_tokens=50, got 60.",
			`"min_tokens":-1,`:                 "min_tokens must be greater than or equal to 0, got -1.",
		} {
			resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(chatPrompt("m", "hi", extra)))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var e struct{ Error struct{ Message string } }
			_ = json.Unmarshal(b, &e)
			if resp.StatusCode != http.StatusBadRequest || e.Error.Message != msg {
				t.Errorf("%s: %d %s; want 400 saying %q", extra, resp.StatusCode, b, msg)
			}
		}
	})
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(traceProfile(t), 1))
		for _, tt := range []struct {
			api, path, body string
			decode          func(*testing.T, []sseFrame) answer
			want            int
		}{
			{"chat", "/v1/chat/completions", chatPrompt("m", "hi", `"max_tokens":300,`), decodeChat, 300},
			{"responses", "/v1/responses", `{"model":"m","stream":true,"max_output_tokens":301,"input":"hi"}`, decodeResponses, 301},
			{"anthropic", "/v1/messages", `{"model":"m","stream":true,"max_tokens":302,"messages":[{"role":"user","content":"hi"}]}`, decodeAnthropic, 302},
			{"gemini", "/v1beta/models/m:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":303}}`, decodeGemini, 303},
			{"no limit", "/v1/chat/completions", chatPrompt("m", "hi", ""), decodeChat, 128},
		} {
			_, frames := sseFrames(t, srv, tt.path, tt.body)
			if a := tt.decode(t, frames); a.output != tt.want {
				t.Errorf("%s: %d output tokens, want %d", tt.api, a.output, tt.want)
			}
		}
	})
}

// TestTraceProfileServed: the trace profile is served as every built-in
// profile is: by latgate sim --profile trace, and to a request whose
// model is "trace" on a server of another profile.
func TestTraceProfileServed(t *testing.T) {
	t.Parallel()
	s, err := Options{Profile: "realistic"}.Server(1)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.profileFor("trace"); p.Name != "trace" || p.Quirks.BlockCache != 16 || p.PrefillPerToken != 50*time.Microsecond {
		t.Errorf("model trace is served at %q (block cache %d, prefill per token %v)", p.Name, p.Quirks.BlockCache, p.PrefillPerToken)
	}
	o := Options{Profile: "trace", PrefillPerToken: time.Millisecond, BlockCache: 8}
	p, err := o.Build()
	if err != nil || p.Name != "trace" || p.PrefillPerToken != time.Millisecond || p.Quirks.BlockCache != 8 {
		t.Errorf("latgate sim --profile trace --prefill-per-token 1ms --block-cache 8 serves %q, %v, %d (%v)", p.Name, p.PrefillPerToken, p.Quirks.BlockCache, err)
	}
	for _, bad := range []Options{{Profile: "trace", PrefillPerToken: -1}, {Profile: "trace", BlockCache: -1}} {
		if _, err := bad.Build(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestBlockCacheShrinksAnEnginesPrefill: without a prefill per token, an
// engine behind the block cache prefills only the tokens it does not
// hold, its TTFT less its front shrinking in their proportion, as behind
// the prefix cache: a 64-word prompt seen before has 64 of its 68 tokens
// cached, its 90 ms of prefill 4/68 of it. On virtual time.
func TestBlockCacheShrinksAnEnginesPrefill(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ms := time.Millisecond
		p := Profile{Name: "e", TTFT: Fixed(100 * ms), ITL: Fixed(ms), Tokens: 2, Quirks: Quirks{BlockCache: 16}, Engine: &Engine{Front: 10 * ms}}
		srv := clocktest.NewServer(t, New(p, 1))
		body := chatPrompt("m", wordsOf("w", 64), "")
		first, none, _ := chatTTFT(t, srv, body)
		second, cached, _ := chatTTFT(t, srv, body)
		if want := 10*ms + time.Duration(float64(90*ms)*4/68); first != 100*ms || none != 0 || cached != 64 || second != want {
			t.Errorf("TTFT %v with %d cached, then %v with %d; want 100ms with 0, then %v with 64", first, none, second, cached, want)
		}
	})
}

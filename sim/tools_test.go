package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

// sseFrame is one SSE event as a client reads it, with when its blank line
// arrived (from the request's send).
type sseFrame struct {
	at    time.Duration
	event string
	data  string
}

// sseFrames sends body to path and reads the SSE events of the answer.
func sseFrames(t *testing.T, srv *clocktest.Server, path, body string) (http.Header, []sseFrame) {
	t.Helper()
	start := time.Now()
	resp, err := srv.Client().Post(srv.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d", path, resp.StatusCode)
	}
	var out []sseFrame
	var f sseFrame
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" && f.data != "":
			f.at = time.Since(start)
			out = append(out, f)
			f = sseFrame{}
		case strings.HasPrefix(line, "event: "):
			f.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			f.data += strings.TrimPrefix(line, "data: ")
		}
	}
	return resp.Header, out
}

// answer is what a stream said, decoded by the test with the real API's
// structure: its tool calls (with when each argument delta arrived), its
// text, how it finished and its usage.
type answer struct {
	calls                  []*wireCall
	text                   string
	finish                 string
	output, cached, prompt int
}

type wireCall struct {
	id, name, args string
	deltas         []time.Duration
}

func mustJSON(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

// decodeChat reads OpenAI chat chunks: a call's first delta carries its
// index, id, type function, name and empty arguments; the others its index
// and a piece of the arguments.
func decodeChat(t *testing.T, frames []sseFrame) answer {
	var a answer
	for _, f := range frames {
		if f.data == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    *int   `json:"index"`
						ID       string `json:"id"`
						Type     string `json:"type"`
						Function struct {
							Name      string  `json:"name"`
							Arguments *string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				FinishReason string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens        int `json:"prompt_tokens"`
				CompletionTokens    int `json:"completion_tokens"`
				PromptTokensDetails *struct {
					CachedTokens int `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		}
		mustJSON(t, f.data, &c)
		for _, ch := range c.Choices {
			a.text += ch.Delta.Content
			for _, tc := range ch.Delta.ToolCalls {
				if tc.Index == nil || tc.Function.Arguments == nil {
					t.Fatalf("a tool-call delta without index or arguments: %s", f.data)
				}
				switch {
				case tc.ID != "":
					if *tc.Index != len(a.calls) || tc.Type != "function" || tc.Function.Name == "" || *tc.Function.Arguments != "" {
						t.Errorf("a call's first delta is not {index, id, type function, name, arguments \"\"}: %s", f.data)
					}
					a.calls = append(a.calls, &wireCall{id: tc.ID, name: tc.Function.Name})
				case *tc.Index < len(a.calls):
					c := a.calls[*tc.Index]
					c.args += *tc.Function.Arguments
					c.deltas = append(c.deltas, f.at)
				default:
					t.Fatalf("arguments of a call not begun: %s", f.data)
				}
			}
			if ch.FinishReason != "" {
				a.finish = ch.FinishReason
			}
		}
		if c.Usage != nil {
			a.output, a.prompt = c.Usage.CompletionTokens, c.Usage.PromptTokens
			if c.Usage.PromptTokensDetails != nil {
				a.cached = c.Usage.PromptTokensDetails.CachedTokens
			}
		}
	}
	return a
}

// decodeResponses reads Responses API events: a function_call item added
// with empty arguments, argument deltas by item_id at its output_index,
// the arguments done, the item done; response.completed with usage.
func decodeResponses(t *testing.T, frames []sseFrame) answer {
	var a answer
	byItem := map[string]*wireCall{}
	index := map[string]int{}
	for _, f := range frames {
		var e struct {
			Type        string `json:"type"`
			Seq         *int   `json:"sequence_number"`
			ItemID      string `json:"item_id"`
			OutputIndex int    `json:"output_index"`
			Delta       string `json:"delta"`
			Arguments   string `json:"arguments"`
			Item        struct {
				Type, ID, Name, Arguments, Status string
				CallID                            string `json:"call_id"`
			} `json:"item"`
			Response struct {
				Status string `json:"status"`
				Usage  struct {
					InputTokens        int `json:"input_tokens"`
					OutputTokens       int `json:"output_tokens"`
					InputTokensDetails struct {
						CachedTokens int `json:"cached_tokens"`
					} `json:"input_tokens_details"`
				} `json:"usage"`
			} `json:"response"`
		}
		mustJSON(t, f.data, &e)
		if e.Type != f.event || e.Seq == nil {
			t.Errorf("event %q carries type %q and sequence_number %v", f.event, e.Type, e.Seq)
		}
		switch e.Type {
		case "response.output_item.added":
			if e.Item.Type == "function_call" {
				if e.Item.Arguments != "" || e.Item.CallID == "" || e.Item.ID == "" {
					t.Errorf("function_call item added: %s", f.data)
				}
				c := &wireCall{id: e.Item.CallID, name: e.Item.Name}
				a.calls, byItem[e.Item.ID], index[e.Item.ID] = append(a.calls, c), c, e.OutputIndex
			}
		case "response.function_call_arguments.delta":
			c := byItem[e.ItemID]
			if c == nil || index[e.ItemID] != e.OutputIndex {
				t.Fatalf("arguments of an unknown item: %s", f.data)
			}
			c.args += e.Delta
			c.deltas = append(c.deltas, f.at)
		case "response.function_call_arguments.done":
			if c := byItem[e.ItemID]; c == nil || c.args != e.Arguments {
				t.Errorf("arguments done %q, streamed %+v", e.Arguments, c)
			}
		case "response.output_item.done":
			if e.Item.Type == "function_call" && (e.Item.Status != "completed" || e.Item.Arguments != byItem[e.Item.ID].args) {
				t.Errorf("function_call item done: %s", f.data)
			}
		case "response.output_text.delta":
			a.text += e.Delta
		case "response.completed", "response.incomplete":
			u := e.Response.Usage
			a.finish, a.output, a.cached, a.prompt = e.Response.Status, u.OutputTokens, u.InputTokensDetails.CachedTokens, u.InputTokens
		}
	}
	return a
}

// decodeAnthropic reads Messages events: a tool_use block started with an
// empty input, input_json_delta pieces, the block stopped; message_delta
// with the stop reason and usage.
func decodeAnthropic(t *testing.T, frames []sseFrame) answer {
	var a answer
	blocks := map[int]*wireCall{}
	stopped := map[int]bool{}
	for _, f := range frames {
		var e struct {
			Type         string `json:"type"`
			Index        int    `json:"index"`
			ContentBlock struct {
				Type, ID, Name string
				Input          map[string]any `json:"input"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
			Usage struct {
				InputTokens          int `json:"input_tokens"`
				OutputTokens         int `json:"output_tokens"`
				CacheReadInputTokens int `json:"cache_read_input_tokens"`
			} `json:"usage"`
		}
		mustJSON(t, f.data, &e)
		switch e.Type {
		case "content_block_start":
			if e.ContentBlock.Type == "tool_use" {
				if e.ContentBlock.Input == nil || len(e.ContentBlock.Input) != 0 || e.ContentBlock.ID == "" {
					t.Errorf("tool_use block start: %s", f.data)
				}
				blocks[e.Index] = &wireCall{id: e.ContentBlock.ID, name: e.ContentBlock.Name}
				a.calls = append(a.calls, blocks[e.Index])
			}
		case "content_block_delta":
			switch c := blocks[e.Index]; {
			case e.Delta.Type == "input_json_delta" && c != nil && !stopped[e.Index]:
				c.args += e.Delta.PartialJSON
				c.deltas = append(c.deltas, f.at)
			case e.Delta.Type == "text_delta":
				a.text += e.Delta.Text
			case e.Delta.Type == "input_json_delta":
				t.Errorf("input_json_delta outside an open tool_use block: %s", f.data)
			}
		case "content_block_stop":
			stopped[e.Index] = true
		case "message_delta":
			// input_tokens leaves out the tokens read from the cache
			u := e.Usage
			a.finish, a.output, a.cached, a.prompt = e.Delta.StopReason, u.OutputTokens, u.CacheReadInputTokens, u.InputTokens+u.CacheReadInputTokens
		}
	}
	for i := range blocks {
		if !stopped[i] {
			t.Errorf("tool_use block %d never stopped", i)
		}
	}
	return a
}

// decodeGemini reads GenerateContentResponse chunks: a functionCall part
// holds a whole call, its args an object.
func decodeGemini(t *testing.T, frames []sseFrame) answer {
	var a answer
	for _, f := range frames {
		var c struct {
			Candidates []struct {
				Content struct {
					Parts []struct {
						Text         string `json:"text"`
						Thought      bool   `json:"thought"`
						FunctionCall *struct {
							Name string          `json:"name"`
							Args json.RawMessage `json:"args"`
						} `json:"functionCall"`
					} `json:"parts"`
				} `json:"content"`
				FinishReason string `json:"finishReason"`
			} `json:"candidates"`
			UsageMetadata *struct {
				PromptTokenCount        int `json:"promptTokenCount"`
				CandidatesTokenCount    int `json:"candidatesTokenCount"`
				ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
				CachedContentTokenCount int `json:"cachedContentTokenCount"`
			} `json:"usageMetadata"`
		}
		mustJSON(t, f.data, &c)
		for _, cand := range c.Candidates {
			for _, p := range cand.Content.Parts {
				if !p.Thought {
					a.text += p.Text
				}
				if fc := p.FunctionCall; fc != nil {
					a.calls = append(a.calls, &wireCall{name: fc.Name, args: string(fc.Args), deltas: []time.Duration{f.at}})
				}
			}
			if cand.FinishReason != "" {
				a.finish = cand.FinishReason
			}
		}
		if u := c.UsageMetadata; u != nil {
			a.output, a.cached, a.prompt = u.CandidatesTokenCount+u.ThoughtsTokenCount, u.CachedContentTokenCount, u.PromptTokenCount
		}
	}
	return a
}

// apiCase is one API: where it is served, how a conversation is written in
// its request (tools offered, steps answered: an assistant's two calls
// and their two results each), how its stream is decoded and what its
// finishes are called.
type apiCase struct {
	name, path             string
	body                   func(turns []string, answered int) string
	decode                 func(*testing.T, []sseFrame) answer
	toolFinish, textFinish string
}

func apiCases() []apiCase {
	return []apiCase{
		{"chat", "/v1/chat/completions", chatConvo, decodeChat, "tool_calls", "stop"},
		{"azure", "/openai/deployments/d/chat/completions", chatConvo, decodeChat, "tool_calls", "stop"},
		{"responses", "/v1/responses", responsesConvo, decodeResponses, "completed", "completed"},
		{"anthropic", "/v1/messages", anthropicConvo, decodeAnthropic, "tool_use", "end_turn"},
		{"gemini", "/v1beta/models/m:streamGenerateContent?alt=sse", geminiConvo, decodeGemini, "STOP", "STOP"},
	}
}

// turns writes user turns with the assistant's answers between them.
func turns(ts []string, user, assistant func(string) string) []string {
	var out []string
	for i, t := range ts {
		if i > 0 {
			out = append(out, assistant(fmt.Sprintf("Answer %d.", i)))
		}
		out = append(out, user(t))
	}
	return out
}

func chatConvo(ts []string, answered int) string {
	msgs := turns(ts, func(s string) string { return `{"role":"user","content":"` + s + `"}` },
		func(s string) string { return `{"role":"assistant","content":"` + s + `"}` })
	for i := range answered {
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"a%[1]d","type":"function","function":{"name":"lookup_order","arguments":"{}"}},`+
			`{"id":"b%[1]d","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}`, i),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"a%d","content":"shipped"}`, i), fmt.Sprintf(`{"role":"tool","tool_call_id":"b%d","content":"sunny"}`, i))
	}
	return `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[` + strings.Join(msgs, ",") + `],` +
		`"tools":[{"type":"function","function":{"name":"lookup_order","parameters":{"type":"object"}}},{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}]}`
}

func responsesConvo(ts []string, answered int) string {
	items := turns(ts, func(s string) string { return `{"role":"user","content":"` + s + `"}` },
		func(s string) string {
			return `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"` + s + `"}]}`
		})
	for i := range answered {
		items = append(items, fmt.Sprintf(`{"type":"function_call","call_id":"a%d","name":"lookup_order","arguments":"{}"}`, i),
			fmt.Sprintf(`{"type":"function_call","call_id":"b%d","name":"get_weather","arguments":"{}"}`, i),
			fmt.Sprintf(`{"type":"function_call_output","call_id":"a%d","output":"shipped"}`, i),
			fmt.Sprintf(`{"type":"function_call_output","call_id":"b%d","output":"sunny"}`, i))
	}
	return `{"model":"m","stream":true,"instructions":"Be brief.","input":[` + strings.Join(items, ",") + `],` +
		`"tools":[{"type":"function","name":"lookup_order","parameters":{"type":"object"}},{"type":"function","name":"get_weather","parameters":{"type":"object"}}]}`
}

func anthropicConvo(ts []string, answered int) string {
	msgs := turns(ts, func(s string) string { return `{"role":"user","content":"` + s + `"}` },
		func(s string) string { return `{"role":"assistant","content":[{"type":"text","text":"` + s + `"}]}` })
	for i := range answered {
		msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_use","id":"a%[1]d","name":"lookup_order","input":{}},{"type":"tool_use","id":"b%[1]d","name":"get_weather","input":{}}]}`, i),
			fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a%[1]d","content":"shipped"},{"type":"tool_result","tool_use_id":"b%[1]d","content":[{"type":"text","text":"sunny"}]}]}`, i))
	}
	return `{"model":"m","max_tokens":1024,"stream":true,"system":"Be brief.","messages":[` + strings.Join(msgs, ",") + `],` +
		`"tools":[{"name":"lookup_order","input_schema":{"type":"object"}},{"name":"get_weather","input_schema":{"type":"object"}}]}`
}

func geminiConvo(ts []string, answered int) string {
	contents := turns(ts, func(s string) string { return `{"role":"user","parts":[{"text":"` + s + `"}]}` },
		func(s string) string { return `{"role":"model","parts":[{"text":"` + s + `"}]}` })
	for range answered {
		contents = append(contents, `{"role":"model","parts":[{"functionCall":{"name":"lookup_order","args":{}}},{"functionCall":{"name":"get_weather","args":{}}}]}`,
			`{"role":"user","parts":[{"functionResponse":{"name":"lookup_order","response":{"result":"shipped"}}},{"functionResponse":{"name":"get_weather","response":{"result":"sunny"}}}]}`)
	}
	return `{"contents":[` + strings.Join(contents, ",") + `],"tools":[{"functionDeclarations":[{"name":"lookup_order"},{"name":"get_weather"}]}]}`
}

// agentProfile makes two tool steps of two calls each: 24-character
// arguments in deltas of 8 (three per call), TTFT 100ms, ITL 10ms.
func agentProfile() Profile {
	return Profile{HeaderDelay: 5 * time.Millisecond, TTFT: Fixed(100 * time.Millisecond), ITL: Fixed(10 * time.Millisecond), Tokens: 4,
		ToolSteps: 2, ToolCalls: 2, ToolArgs: 24, ToolChunk: 8, Quirks: Quirks{RoleChunk: true}}
}

// TestToolCallsOnEveryAPI: a request that offers tools gets ToolCalls
// calls (the tools offered, in turn) with valid JSON arguments of ToolArgs
// characters, unique ids, the profile's timing (its TTFT, then one ITL per
// argument delta; Gemini sends each call whole, one ITL apart) and usage
// counting the deltas; with one step answered it calls again (a step's two
// results count once), with ToolSteps answered it writes the text answer.
//
// With reasoning, the step reasons first (two events from the TTFT) and
// its calls follow, their output indexes and blocks after the reasoning's.
func TestToolCallsOnEveryAPI(t *testing.T) {
	t.Parallel()
	for _, tt := range apiCases() {
		for _, reasoning := range []int{0, 2} {
			t.Run(fmt.Sprintf("%s reasoning %d", tt.name, reasoning), func(t *testing.T) {
				t.Parallel()
				synctest.Test(t, func(t *testing.T) { checkToolSteps(t, tt, reasoning) })
			})
		}
	}
}

func checkToolSteps(t *testing.T, tt apiCase, reasoning int) {
	ms := time.Millisecond
	p := agentProfile()
	p.Quirks.ReasoningTokens = reasoning
	srv := clocktest.NewServer(t, New(p, 1))
	r := time.Duration(reasoning) * 10 * ms // the reasoning before the calls
	ids := map[string]bool{}
	for answered := range 2 {
		_, frames := sseFrames(t, srv, tt.path, tt.body([]string{"Where is order 42?"}, answered))
		a := tt.decode(t, frames)
		wantDeltas := [][]time.Duration{{r + 100*ms, r + 110*ms, r + 120*ms}, {r + 130*ms, r + 140*ms, r + 150*ms}}
		if tt.name == "gemini" {
			wantDeltas = [][]time.Duration{{r + 100*ms}, {r + 110*ms}}
		}
		if len(a.calls) != 2 || a.text != "" || a.finish != tt.toolFinish || a.output != 6+reasoning {
			t.Fatalf("%d steps answered: %d calls, text %q, finish %q, %d output tokens; want 2 calls, no text, %q, %d tokens",
				answered, len(a.calls), a.text, a.finish, a.output, tt.toolFinish, 6+reasoning)
		}
		for i, c := range a.calls {
			var args map[string]any
			if err := json.Unmarshal([]byte(c.args), &args); err != nil || len(c.args) != 24 {
				t.Errorf("call %d: arguments %q (%d characters, %v), want a JSON object of 24", i, c.args, len(c.args), err)
			}
			if want := []string{"lookup_order", "get_weather"}[i]; c.name != want {
				t.Errorf("call %d calls %q, want %q", i, c.name, want)
			}
			if fmt.Sprint(c.deltas) != fmt.Sprint(wantDeltas[i]) {
				t.Errorf("call %d: argument deltas at %v, want %v", i, c.deltas, wantDeltas[i])
			}
			if tt.name != "gemini" && (c.id == "" || ids[c.id]) {
				t.Errorf("call %d: id %q is empty or not unique", i, c.id)
			}
			ids[c.id] = true
		}
	}
	_, frames := sseFrames(t, srv, tt.path, tt.body([]string{"Where is order 42?"}, 2))
	if a := tt.decode(t, frames); len(a.calls) != 0 || len(strings.Fields(a.text)) != 4 || a.finish != tt.textFinish || a.output != 4+reasoning {
		t.Errorf("two steps answered: %d calls, text %q, finish %q, %d tokens; want the 4-word answer, %q", len(a.calls), a.text, a.finish, a.output, tt.textFinish)
	}
}

// TestNoToolsNoCalls: a request that offers no tools gets the answer, and
// a profile without ToolSteps never calls a tool.
func TestNoToolsNoCalls(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(agentProfile(), 1))
		_, frames := sseFrames(t, srv, "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		if a := decodeChat(t, frames); len(a.calls) != 0 || a.finish != "stop" {
			t.Errorf("no tools offered: %d calls, finish %q", len(a.calls), a.finish)
		}
		plain := agentProfile()
		plain.ToolSteps = 0
		srv = clocktest.NewServer(t, New(plain, 1))
		_, frames = sseFrames(t, srv, "/v1/chat/completions", chatConvo([]string{"hi"}, 0))
		if a := decodeChat(t, frames); len(a.calls) != 0 || a.finish != "stop" {
			t.Errorf("ToolSteps 0: %d calls, finish %q", len(a.calls), a.finish)
		}
	})
}

// TestToolCallDefaults: one call per step, 24 characters of arguments in
// deltas of 8.
func TestToolCallDefaults(t *testing.T) {
	t.Parallel()
	p := Profile{ToolSteps: 1}
	steps := p.steps(request{tools: []string{"f"}}, 7)
	if len(steps) != 1 || len(steps[0].calls) != 1 {
		t.Fatalf("steps %+v, want one step of one call", steps)
	}
	c := steps[0].calls[0]
	if c.id != "call_7_0" || c.name != "f" || len(c.args) != 24 || !slices.Equal(p.pieces(c.args), []string{c.args[:8], c.args[8:16], c.args[16:]}) {
		t.Errorf("call %+v, pieces %q", c, p.pieces(c.args))
	}
	if p.ToolArgs = 3; len(p.call(1, 0, "f").args) != 8 {
		t.Errorf("ToolArgs 3 gives %q, want the shortest object with its key (8)", p.call(1, 0, "f").args)
	}
}

// TestPrefixCache: with the PrefixCache quirk each API reports, in its
// own usage field, the prompt tokens of the longest start of the
// conversation seen before: nothing on turn 1, turn 1's prompt on turn 2,
// turn 2's on turn 3. Without it nothing is cached.
func TestPrefixCache(t *testing.T) {
	t.Parallel()
	for _, tt := range apiCases() {
		for _, on := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s %v", tt.name, on), func(t *testing.T) {
				t.Parallel()
				synctest.Test(t, func(t *testing.T) {
					srv := clocktest.NewServer(t, New(Profile{Tokens: 2, Quirks: Quirks{PrefixCache: on}}, 1))
					conversation := []string{"Where is order 42?", "And when will it arrive?", "Thanks, and order 43?"}
					prev := 0
					for turn := 1; turn <= 3; turn++ {
						_, frames := sseFrames(t, srv, tt.path, tt.body(conversation[:turn], 0))
						a := tt.decode(t, frames)
						want := 0
						if on {
							want = prev
						}
						if a.cached != want || a.prompt <= prev {
							t.Errorf("turn %d: %d of %d prompt tokens cached, want %d (turn %d's prompt: %d)", turn, a.cached, a.prompt, want, turn-1, prev)
						}
						prev = a.prompt
					}
				})
			})
		}
	}
}

// TestPrefixCacheForgetsTheOldest: the cache holds a bounded number of
// prefixes and forgets the oldest first.
func TestPrefixCacheForgetsTheOldest(t *testing.T) {
	t.Parallel()
	var c prefixCache
	c.hit([]prefix{{hash: 1, tokens: 10}})
	if got := c.hit([]prefix{{hash: 1, tokens: 10}, {hash: 2, tokens: 20}}); got != 10 {
		t.Errorf("hit %d, want 10", got)
	}
	for h := range uint64(prefixCacheSize) {
		c.hit([]prefix{{hash: 100 + h}})
	}
	if len(c.seen) != prefixCacheSize {
		t.Errorf("%d prefixes remembered, want %d", len(c.seen), prefixCacheSize)
	}
	if got := c.hit([]prefix{{hash: 1, tokens: 10}}); got != 0 {
		t.Errorf("the oldest prefix still hits: %d", got)
	}
}

// TestToolCallsWithoutStream: a chat request without a stream gets the
// step's calls whole in the message, finish_reason tool_calls, when the
// stream would have ended.
func TestToolCallsWithoutStream(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, New(agentProfile(), 1))
		start := time.Now()
		resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(strings.Replace(chatConvo([]string{"hi"}, 0), `"stream":true`, `"stream":false`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Choices []struct {
				Message struct {
					ToolCalls []struct {
						ID, Type string
						Function struct{ Name, Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason string `json:"finish_reason"`
			}
			Usage struct {
				CompletionTokens int `json:"completion_tokens"`
			}
		}
		mustJSON(t, readAll(t, resp.Body), &out)
		if took := time.Since(start); took != 150*time.Millisecond {
			t.Errorf("answered after %v, want 150ms (the last delta's time)", took)
		}
		if len(out.Choices) != 1 || len(out.Choices[0].Message.ToolCalls) != 2 || out.Choices[0].FinishReason != "tool_calls" || out.Usage.CompletionTokens != 6 {
			t.Fatalf("%+v", out)
		}
		for _, c := range out.Choices[0].Message.ToolCalls {
			if c.ID == "" || c.Type != "function" || !json.Valid([]byte(c.Function.Arguments)) {
				t.Errorf("call %+v", c)
			}
		}
	})
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

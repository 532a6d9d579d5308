package probe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// referenceChatDecoder is the chat decoder as it was before the lean path:
// each chunk decoded whole into go-openai's types, then once more for the
// "reasoning" delta they lack. The lean path must agree with it on every
// chunk it decodes.
type referenceChatDecoder struct{ open int }

type referenceChunk struct {
	openai.ChatCompletionStreamResponse
	Error     json.RawMessage `json:"error"`
	reasoning []string
}

func (c *referenceChunk) UnmarshalJSON(b []byte) error {
	type plain referenceChunk
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = referenceChunk(p)
	if bytes.Contains(b, []byte(`"reasoning"`)) {
		var r struct {
			Choices []struct {
				Delta struct {
					Reasoning string `json:"reasoning"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(b, &r) == nil {
			for _, ch := range r.Choices {
				c.reasoning = append(c.reasoning, ch.Delta.Reasoning)
			}
		}
	}
	return nil
}

func (d *referenceChatDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if string(data) == "[DONE]" {
		e.done = true
		return e, nil
	}
	if len(data) == 0 {
		return e, nil
	}
	var c referenceChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return e, err
	}
	if len(c.Error) > 0 && string(c.Error) != "null" || f.Name == "error" {
		e.err = errorText(c.Error, data)
		return e, nil
	}
	if c.Usage != nil {
		e.usage = &usage{prompt: c.Usage.PromptTokens, output: c.Usage.CompletionTokens}
		if c.Usage.PromptTokensDetails != nil {
			e.usage.cached = c.Usage.PromptTokensDetails.CachedTokens
		}
		if c.Usage.CompletionTokensDetails != nil {
			e.usage.reasoning = c.Usage.CompletionTokensDetails.ReasoningTokens
		}
	}
	for i, ch := range c.Choices {
		e.content += len(ch.Delta.Content)
		e.reasoning += len(ch.Delta.ReasoningContent)
		if i < len(c.reasoning) {
			e.reasoning += len(c.reasoning[i])
		}
		e.text += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			e.tool += len(tc.Function.Arguments)
			idx := 0
			if tc.Index != nil {
				idx = *tc.Index
			}
			e.calls = append(e.calls, callPart{index: idx, id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
			e.toolStart = e.toolStart || tc.Function.Name != ""
			if idx > d.open {
				if d.open >= 0 {
					e.callsDone++
				}
				d.open = idx
			}
		}
		if fc := ch.Delta.FunctionCall; fc != nil {
			e.tool += len(fc.Arguments)
			e.calls = append(e.calls, callPart{name: fc.Name, args: fc.Arguments})
			e.toolStart = e.toolStart || fc.Name != ""
			d.open = max(d.open, 0)
		}
		if ch.FinishReason != "" {
			e.finish = string(ch.FinishReason)
			if d.open >= 0 {
				e.callsDone++
				d.open = -2
			}
		}
	}
	return e, nil
}

// slowChatDecoder is the lean path without its fast scan: every chunk
// through encoding/json.
type slowChatDecoder struct{ chatDecoder }

func (d *slowChatDecoder) decode(f frame) (event, error) {
	data := bytes.TrimSpace(f.Data)
	if string(data) == "[DONE]" || len(data) == 0 {
		return event{done: len(data) > 0}, nil
	}
	var c chatChunk
	if err := json.Unmarshal(data, &c); err != nil {
		return event{}, err
	}
	return d.event(&c, f.Name, data), nil
}

// chatCases are chunk sequences with what makes chunks tricky: escapes,
// unicode, empty deltas, several choices, tool-call indices, usage alone,
// errors, keys spelled otherwise, repeated keys, odd values. fast says the
// fast path reads every chunk of the sequence itself.
var chatCases = []struct {
	name   string
	fast   bool
	frames []frame
}{
	{"typical", true, frames(`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1712345678,"model":"gpt-4o","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1712345678,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":" word"},"logprobs":null,"finish_reason":null}]}`,
		`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`,
		`{"id":"chatcmpl-1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":7,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":3,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":2,"audio_tokens":0}}}`,
		`[DONE]`)},
	{"escaped strings", true, frames(`{"choices":[{"delta":{"content":"line\nbreak \"quoted\" back\\slash \/ tab\t \u00e9 \ud83d\ude00"}}]}`,
		`{"choices":[{"delta":{"content":"lone \ud800 surrogate \udc00 and \uD83D"}}]}`)},
	{"unicode", true, frames(`{"choices":[{"delta":{"content":"héllo wörld ✓ 😀 日本語"}}]}`, `{"choices":[{"delta":{"reasoning_content":"думаю"}}]}`)},
	{"invalid UTF-8", true, frames("{\"choices\":[{\"delta\":{\"content\":\"a\xffb\xc3\"}}]}", "{\"choices\":[{\"delta\":{\"content\":\"\xed\xa0\x80\"}}]}")},
	{"empty and null deltas", true, frames(`{"choices":[{"delta":{}}]}`, `{"choices":[{"delta":null}]}`, `{"choices":[{}]}`, `{"choices":null}`, `{}`,
		`{"choices":[{"delta":{"content":null,"reasoning_content":null,"reasoning":null,"tool_calls":null,"function_call":null},"finish_reason":null}]}`)},
	{"several choices", true, frames(`{"choices":[{"index":0,"delta":{"content":"ab"}},{"index":1,"delta":{"content":"cde","reasoning":"xy"}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"length"}]}`)},
	{"tool-call indices", true, frames(`{"choices":[{"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"lookup","arguments":""}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"id\":"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"42}"}},{"index":1,"id":"call_2","function":{"name":"other","arguments":"{}"}}]}}]}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":null,"function":null},{"id":"x"}]}}]}`,
		`{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}`)},
	{"function call", true, frames(`{"choices":[{"delta":{"function_call":{"name":"f","arguments":""}}}]}`, `{"choices":[{"delta":{"function_call":{}}}]}`,
		`{"choices":[{"delta":{"function_call":{"arguments":"{}"}},"finish_reason":"function_call"}]}`)},
	{"usage alone", true, frames(`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":9}}`, `{"usage":{}}`, `{"usage":null}`,
		`{"usage":{"prompt_tokens":5,"completion_tokens":-0,"prompt_tokens_details":null,"completion_tokens_details":null}}`)},
	{"errors", true, frames(`{"error":{"message":"overloaded","type":"server_error","code":null}}`, `{"error":"quota exceeded"}`, `{"error":null,"choices":[{"delta":{"content":"x"}}]}`,
		`{"error":false}`, `{"error":{"message":"m \"q\""}}`)},
	{"event: error", true, []frame{{Name: "error", Data: []byte(`{"message":"bad thing"}`)}, {Name: "error", Data: []byte(`{"error":null}`)}}},
	{"reasoning", true, frames(`{"choices":[{"delta":{"reasoning":"think","reasoning_content":"more"}}]}`, `{"choices":[{"delta":{"reasoning":""}}]}`)},
	{"reasoning not a string", false, frames(`{"choices":[{"delta":{"reasoning":"think"}},{"delta":{"reasoning":{"effort":"low"}}}]}`, `{"choices":[{"delta":{"reasoning":7,"content":"x"}}]}`)},
	{"keys spelled otherwise", false, frames(`{"choices":[{"delta":{"Content":"abc"}}]}`, `{"CHOICES":[{"delta":{"content":"abc"}}]}`, `{"choices":[{"delta":{"cont\u0065nt":"abc"}}]}`,
		`{"choices":[{"delta":{"Reasoning":"abc"}}]}`, `{"choices":[{"delta":{"Reasoning":"abc","x":"reasoning"}}],"reasoning":1}`, `{"choices":[{"delta":{"reasoning":"a","REASONING":"bcd"}}]}`)},
	{"repeated keys", false, frames(`{"choices":[{"delta":{"content":"a","content":"bc"}}]}`, `{"choices":[{"delta":{"content":"a"}}],"choices":[{"delta":{"content":"bc"}},{"delta":{}}]}`,
		`{"choices":[{"delta":{"reasoning":"a","reasoning":5}}]}`)},
	{"numbers", false, frames(`{"usage":{"prompt_tokens":1.0}}`, `{"usage":{"completion_tokens":1e3}}`, `{"usage":{"completion_tokens":99999999999999999999}}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":1.5}]}}]}`)},
	{"odd values elsewhere", true, frames(`{"id":7,"created":1712345678.5,"model":null,"choices":[{"index":"0","logprobs":{"content":[{"token":"a","logprob":-0.1,"bytes":[97]}]},"delta":{"role":5,"content":"ok"}}],"x":[true,false,null,{"a":[]}]}`)},
	{"not a chunk", false, frames(`null`, `[]`, `"text"`, `{"choices":{}}`, `{"choices":[null]}`, `{"choices":[{"delta":{"content":5}}]}`, `{"choices":[{"finish_reason":1}]}`)},
	{"malformed", false, frames(`{"choices":[`, `{"choices":[]} x`, `{"a":01}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":1,}`, `{"a" 1}`, `{"a":-}`, `{"a":tru}`, `{"a":"\u12"}`, `{"a":1.}`, `{"a":.5}`)},
	{"white space", true, frames(" {\n\"choices\" : [ {\r\n \"delta\" :\t{ \"content\" : \"a\" } } ] ,\n \"usage\" : null } ")},
	{"deep nesting", false, frames(`{"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"choices":[{"delta":{"content":"deep"}}]}`)},
}

func frames(data ...string) []frame {
	fs := make([]frame, len(data))
	for i, d := range data {
		fs[i] = frame{Data: []byte(d)}
	}
	return fs
}

// TestChatLeanPathAgrees checks, chunk by chunk, that the lean decoder (its
// fast path and its encoding/json path) reads what go-openai's types read.
func TestChatLeanPathAgrees(t *testing.T) {
	t.Parallel()
	for _, tt := range chatCases {
		t.Run(tt.name, func(t *testing.T) {
			lean, slow, ref := &chatDecoder{open: -1}, &slowChatDecoder{chatDecoder{open: -1}}, &referenceChatDecoder{open: -1}
			for i, f := range tt.frames {
				data := bytes.TrimSpace(f.Data)
				if fast := scanChat(data, &chatChunk{}); tt.fast && !fast && string(data) != "[DONE]" {
					t.Errorf("chunk %d %s: left to encoding/json, want the fast path", i, f.Data)
				}
				want, werr := ref.decode(f)
				for _, d := range []decoder{lean, slow} {
					got, err := d.decode(f)
					// go-openai's types refuse odd values of fields the
					// lean path does not read (id, created, logprobs, …).
					loose := tt.name == "odd values elsewhere" && isTypeError(werr)
					if (err != nil) != (werr != nil) && !loose {
						t.Errorf("%T chunk %d %s: error %v, go-openai's %v", d, i, f.Data, err, werr)
					}
					if werr == nil && !sameEvent(got, want) {
						t.Errorf("%T chunk %d %s:\n got %+v (usage %+v)\nwant %+v (usage %+v)", d, i, f.Data, got, got.usage, want, want.usage)
					}
				}
			}
		})
	}
}

// isTypeError: go-openai's types refused a value of a field the lean path
// does not read.
func isTypeError(err error) bool {
	_, ok := err.(*json.UnmarshalTypeError)
	return ok
}

// FuzzChatLeanPath: whatever the chunk, the fast path either gives up or
// reads what encoding/json reads into the same fields, and the lean
// decoder reads what go-openai's types read whenever they read the chunk.
func FuzzChatLeanPath(f *testing.F) {
	for _, tt := range chatCases {
		for _, fr := range tt.frames {
			f.Add(fr.Name, fr.Data)
		}
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		fr := frame{Name: name, Data: data}
		trimmed := bytes.TrimSpace(data)
		var c chatChunk
		if scanChat(trimmed, &c) {
			var slow chatChunk
			if err := json.Unmarshal(trimmed, &slow); err != nil {
				t.Fatalf("fast path read %q, encoding/json: %v", data, err)
			}
			fast, want := (&chatDecoder{open: -1}).event(&c, name, trimmed), (&chatDecoder{open: -1}).event(&slow, name, trimmed)
			if !sameEvent(fast, want) {
				t.Fatalf("%q: fast path %+v, encoding/json %+v", data, fast, want)
			}
		}
		want, werr := (&referenceChatDecoder{open: -1}).decode(fr)
		got, err := (&chatDecoder{open: -1}).decode(fr)
		if werr == nil && (err != nil || !sameEvent(got, want)) {
			t.Fatalf("%q: lean %+v (%v), go-openai %+v", data, got, err, want)
		}
	})
}

package probe

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// wide is what latgate measured around a response in the tests that are
// not about the bounds: room for every value.
var wide = measured{ttfb: time.Minute, ttft: time.Minute, total: time.Hour}

func timingOf(h http.Header, events []string, m measured) ServerTiming {
	r := serverReport{forms: allTimingForms}
	if h != nil {
		r.readHeaders(h)
	}
	for _, e := range events {
		r.readEvent([]byte(e))
	}
	return r.check(m)
}

func TestServerTimingForms(t *testing.T) {
	t.Parallel()
	d := func(v float64, unit time.Duration) time.Duration { return time.Duration(v * float64(unit)) }
	tests := []struct {
		name                                        string
		headers                                     http.Header
		events                                      []string
		queue, prefill, decode, processing, gateway time.Duration
		source                                      string
	}{
		{name: "ollama's final chunk, nanoseconds",
			events: []string{`{"model":"m","message":{"role":"assistant","content":"hi"},"done":false}`,
				`{"model":"m","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":174560334,"load_duration":101397084,"prompt_eval_count":11,"prompt_eval_duration":13074791,"eval_count":18,"eval_duration":52479709}`},
			queue: 101397084, prefill: 13074791, decode: 52479709, processing: 174560334, gateway: Missing, source: "ollama"},
		{name: "a form of another shape does not hide ollama's",
			events: []string{`{"done":true,"metrics":"n/a","timings":[1],"eval_duration":7}`},
			queue:  Missing, prefill: Missing, decode: 7, processing: Missing, gateway: Missing, source: "ollama"},
		{name: "ollama's durations before done are not read",
			events: []string{`{"done":false,"total_duration":5,"eval_duration":4}`},
			queue:  Missing, prefill: Missing, decode: Missing, processing: Missing, gateway: Missing},
		{name: "llama.cpp's timings on the last chunk, milliseconds",
			events: []string{`{"choices":[],"usage":{"completion_tokens":25,"prompt_tokens":68},"timings":{"cache_n":60,"prompt_n":8,"prompt_ms":43.237,"prompt_per_token_ms":5.4,"predicted_n":25,"predicted_ms":238.74}}`},
			queue:  Missing, prefill: d(43.237, time.Millisecond), decode: d(238.74, time.Millisecond), processing: Missing, gateway: Missing, source: "llama.cpp"},
		{name: "llama.cpp's timings on every chunk: the last wins",
			events: []string{`{"timings":{"prompt_ms":40,"predicted_ms":1}}`, `{"timings":{"prompt_ms":40,"predicted_ms":90}}`},
			queue:  Missing, prefill: 40 * time.Millisecond, decode: 90 * time.Millisecond, processing: Missing, gateway: Missing, source: "llama.cpp"},
		{name: "vllm's per-request metrics on the usage chunk, null where unknown",
			events: []string{`{"choices":[],"usage":{"prompt_tokens":42},"metrics":{"time_to_first_token_ms":85.2,"generation_time_ms":1240.5,"queue_time_ms":12.3,"mean_itl_ms":null,"tokens_per_second":103.2}}`},
			queue:  d(12.3, time.Millisecond), prefill: d(85.2, time.Millisecond), decode: d(1240.5, time.Millisecond), processing: Missing, gateway: Missing, source: "vllm"},
		{name: "vllm's metrics in the Responses API's response.completed",
			events: []string{`{"type":"response.completed","response":{"id":"r","status":"completed","metrics":{"queue_time_ms":1,"time_to_first_token_ms":2,"generation_time_ms":3}}}`},
			queue:  time.Millisecond, prefill: 2 * time.Millisecond, decode: 3 * time.Millisecond, processing: Missing, gateway: Missing, source: "vllm"},
		{name: "groq's x_groq.usage in the finish chunk, seconds",
			events: []string{`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"x_groq":{"id":"req_1","usage":{"queue_time":0.061348671,"prompt_tokens":18,"prompt_time":0.000211569,"completion_tokens":439,"completion_time":0.798181818,"total_tokens":457,"total_time":0.798393387}}}`},
			queue:  61348671, prefill: 211569, decode: 798181818, processing: 798393387, gateway: Missing, source: "groq"},
		{name: "groq's top-level usage",
			events: []string{`{"choices":[],"usage":{"queue_time":0.5,"prompt_time":0.25,"completion_time":1,"total_time":1.25}}`},
			queue:  500 * time.Millisecond, prefill: 250 * time.Millisecond, decode: time.Second, processing: 1250 * time.Millisecond, gateway: Missing, source: "groq"},
		{name: "an OpenAI usage is no Groq report",
			events: []string{`{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}`},
			queue:  Missing, prefill: Missing, decode: Missing, processing: Missing, gateway: Missing},
		{name: "openai-processing-ms",
			headers: http.Header{"Openai-Processing-Ms": {"342"}},
			queue:   Missing, prefill: Missing, decode: Missing, processing: 342 * time.Millisecond, gateway: Missing, source: "openai"},
		{name: "text generation inference's headers",
			headers: http.Header{"X-Queue-Time": {"7"}, "X-Total-Time": {"250"}, "X-Inference-Time": {"240"}},
			queue:   7 * time.Millisecond, prefill: Missing, decode: Missing, processing: 250 * time.Millisecond, gateway: Missing, source: "tgi"},
		{name: "litellm in front of vllm",
			headers: http.Header{"X-Litellm-Overhead-Duration-Ms": {"3.5"}},
			events:  []string{`{"choices":[],"metrics":{"queue_time_ms":1,"time_to_first_token_ms":2,"generation_time_ms":3}}`},
			queue:   time.Millisecond, prefill: 2 * time.Millisecond, decode: 3 * time.Millisecond, processing: Missing, gateway: 3500 * time.Microsecond, source: "vllm+litellm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := timingOf(tt.headers, tt.events, wide)
			want := ServerTiming{Queue: tt.queue, Prefill: tt.prefill, Decode: tt.decode, Processing: tt.processing, Gateway: tt.gateway, Source: tt.source}
			if got.Queue != want.Queue || got.Prefill != want.Prefill || got.Decode != want.Decode || got.Processing != want.Processing || got.Gateway != want.Gateway || got.Source != want.Source {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if got.IgnoredCount != 0 {
				t.Errorf("ignored %v", got.Ignored)
			}
		})
	}
}

// TestServerTimingBadInput: what latgate cannot trust is dropped with a
// reason, the rest kept.
func TestServerTimingBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		headers http.Header
		events  []string
		m       measured
		reason  string // a part of the one reason given
		kept    func(ServerTiming) bool
	}{
		{name: "a string where a number belongs",
			events: []string{`{"metrics":{"queue_time_ms":"12","time_to_first_token_ms":2}}`}, m: wide,
			reason: `vllm metrics.queue_time_ms: "12" is not a number`,
			kept:   func(s ServerTiming) bool { return s.Queue == Missing && s.Prefill == 2*time.Millisecond }},
		{name: "a bool", events: []string{`{"timings":{"prompt_ms":true}}`}, m: wide, reason: "true is not a number",
			kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "negative", events: []string{`{"done":true,"eval_duration":-5,"prompt_eval_duration":10}`}, m: wide,
			reason: "ollama eval_duration: -5 ns is negative",
			kept:   func(s ServerTiming) bool { return s.Decode == Missing && s.Prefill == 10 }},
		{name: "a fraction of a nanosecond: the wrong unit", events: []string{`{"done":true,"prompt_eval_duration":0.25}`}, m: wide,
			reason: "0.25 is not a whole number of nanoseconds", kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "absurd", events: []string{`{"usage":{"queue_time":1e12}}`}, m: wide, reason: "groq usage.queue_time: 1e+12 s is absurd",
			kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "a header that is not a number", headers: http.Header{"Openai-Processing-Ms": {"12ms"}}, m: wide,
			reason: `openai-processing-ms header "12ms" is not a number`, kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "a header of NaN", headers: http.Header{"X-Queue-Time": {"NaN"}}, m: wide, reason: "NaN is not a finite number",
			kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "a header of Inf", headers: http.Header{"X-Total-Time": {"+Inf"}}, m: wide, reason: "is not a finite number",
			kept: func(s ServerTiming) bool { return !s.Reported() }},
		{name: "a header later than the headers came", headers: http.Header{"Openai-Processing-Ms": {"900"}},
			m:      measured{ttfb: 100 * time.Millisecond, ttft: time.Second, total: 2 * time.Second},
			reason: "openai openai-processing-ms: 900 ms is more than the time to first byte latgate measured (100 ms)",
			kept:   func(s ServerTiming) bool { return !s.Reported() }},
		{name: "longer than the whole request", events: []string{`{"done":true,"total_duration":3000000000,"eval_duration":1000000}`},
			m:      measured{ttfb: 10 * time.Millisecond, ttft: 20 * time.Millisecond, total: 2 * time.Second},
			reason: "ollama total_duration: 3000 ms is more than the whole request latgate measured (2000 ms)",
			kept:   func(s ServerTiming) bool { return s.Processing == Missing && s.Decode == time.Millisecond }},
		{name: "queue and prefill after the first token", events: []string{`{"metrics":{"queue_time_ms":80,"time_to_first_token_ms":50,"generation_time_ms":10}}`},
			m:      measured{ttfb: 10 * time.Millisecond, ttft: 100 * time.Millisecond, total: time.Second},
			reason: "queue + prefill: 130 ms together is more than the time to first token latgate measured (100 ms)",
			kept: func(s ServerTiming) bool {
				return s.Queue == Missing && s.Prefill == Missing && s.Decode == 10*time.Millisecond
			}},
		{name: "queue, prefill and decode longer than the request", events: []string{`{"usage":{"queue_time":0.05,"prompt_time":0.05,"completion_time":0.95}}`},
			m:      measured{ttfb: 10 * time.Millisecond, ttft: 200 * time.Millisecond, total: time.Second},
			reason: "queue + prefill + decode: 1050 ms together is more than the whole request",
			kept:   func(s ServerTiming) bool { return !s.Reported() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := timingOf(tt.headers, tt.events, tt.m)
			if got.IgnoredCount != 1 || len(got.Ignored) != 1 || !strings.Contains(got.Ignored[0], tt.reason) {
				t.Errorf("ignored %d: %q, want one containing %q", got.IgnoredCount, got.Ignored, tt.reason)
			}
			if !tt.kept(got) {
				t.Errorf("kept %+v", got)
			}
		})
	}
}

// TestServerTimingWithinSlack: a value rounded up to the millisecond is
// not more than latgate measured.
func TestServerTimingWithinSlack(t *testing.T) {
	t.Parallel()
	got := timingOf(http.Header{"Openai-Processing-Ms": {"101"}}, nil, measured{ttfb: 100*time.Millisecond + 100*time.Microsecond, ttft: Missing, total: time.Second})
	if got.Processing != 101*time.Millisecond || got.IgnoredCount != 0 {
		t.Errorf("got %+v", got)
	}
}

func TestServerTimingIgnoredBounded(t *testing.T) {
	t.Parallel()
	ev := `{"done":true,"load_duration":"a","prompt_eval_duration":"b","eval_duration":"c","total_duration":"d","timings":{"prompt_ms":"e","predicted_ms":"f"}}`
	got := timingOf(nil, []string{ev}, wide)
	if got.IgnoredCount != 6 || len(got.Ignored) != MaxIgnored {
		t.Errorf("ignored %d, kept %d reasons, want 6 and %d", got.IgnoredCount, len(got.Ignored), MaxIgnored)
	}
}

func TestOutside(t *testing.T) {
	t.Parallel()
	s := NoServerTiming()
	s.Queue, s.Prefill = 20*time.Millisecond, 50*time.Millisecond
	if got := s.Outside(100 * time.Millisecond); got != 30*time.Millisecond {
		t.Errorf("outside = %v, want 30ms", got)
	}
	if got := s.Outside(Missing); got != Missing {
		t.Errorf("outside without a ttft = %v", got)
	}
	s.Queue = Missing
	if got := s.Outside(100 * time.Millisecond); got != Missing {
		t.Errorf("outside without a queue = %v (only when both are reported)", got)
	}
}

// FuzzServerTiming: whatever a server sends, reading its timing never
// panics and keeps only durations that fit what latgate measured.
func FuzzServerTiming(f *testing.F) {
	f.Add(`{"done":true,"total_duration":174560334,"load_duration":101397084,"prompt_eval_duration":13074791,"eval_duration":52479709}`, "342", "1.5")
	f.Add(`{"timings":{"prompt_ms":43.2,"predicted_ms":238.7}}`, "", "")
	f.Add(`{"metrics":{"queue_time_ms":null,"time_to_first_token_ms":1e308}}`, "NaN", "-1")
	f.Add(`{"x_groq":{"usage":{"queue_time":0.06,"prompt_time":"0","completion_time":[1]}}}`, "1e400", "0x10")
	f.Add(`{"response":{"metrics":{"generation_time_ms":-0}}}`, " 7 ", "Inf")
	m := measured{ttfb: 100 * time.Millisecond, ttft: 300 * time.Millisecond, total: 2 * time.Second}
	f.Fuzz(func(t *testing.T, event, processing, queue string) {
		h := http.Header{}
		h.Set("openai-processing-ms", processing)
		h.Set("x-queue-time", queue)
		got := timingOf(h, []string{event}, m)
		for i, d := range []time.Duration{got.Queue, got.Prefill, got.Decode, got.Processing, got.Gateway} {
			if d != Missing && (d < 0 || d > m.total+serverSlack) {
				t.Fatalf("stage %s = %v: outside [0, %v]", stageNames[i], d, m.total)
			}
		}
		if got.Queue != Missing && got.Queue > m.ttfb+serverSlack && got.Source == "tgi" {
			t.Fatalf("a header's queue %v after the first byte", got.Queue)
		}
		if got.Queue != Missing && got.Prefill != Missing && got.Queue+got.Prefill > m.ttft+serverSlack {
			t.Fatalf("queue + prefill %v after the first token", got.Queue+got.Prefill)
		}
		if len(got.Ignored) > MaxIgnored || got.IgnoredCount < len(got.Ignored) {
			t.Fatalf("ignored %d, %d reasons", got.IgnoredCount, len(got.Ignored))
		}
		if got.Reported() != (got.Source != "") {
			t.Fatalf("source %q for %+v", got.Source, got)
		}
	})
}

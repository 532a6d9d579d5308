package suite

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/apis"
)

const scen = "scenarios:\n  - {name: s, prompt: hi}\n"

const everyAPI = `endpoints:
  - {name: chat, base_url: http://x/v1, model: m}
  - {name: resp, api: responses, base_url: http://x/v1, model: m}
  - {name: claude, api: anthropic, model: claude-x, api_key_env: K}
  - {name: gem, api: gemini, model: gemini-x}
  - {name: az, api: azure, base_url: https://r.openai.azure.com, deployment: d1, api_version: 2024-10-21}
  - {name: az2, api: azure, base_url: "https://r.openai.azure.com/openai/deployments/d2/", api_version: v}
  - name: own
    api: custom
    url: http://127.0.0.1:11434/api/chat
    body: {model: llama3, stream: true, messages: "{{messages}}", options: {num_predict: "{{max_tokens}}"}}
    stream: {format: ndjson, text: /message/content, done: /done, output_tokens: /eval_count, input_tokens: /prompt_eval_count}
  - {name: voice, api: realtime, base_url: wss://api.openai.com/v1, model: gpt-realtime, audio: true}
` + scen

const costGoodputAdaptive = `endpoints:
  - {name: a, base_url: http://x/v1, model: gpt-4o-mini}
scenarios:
  - name: s
    prompt: hi
    requests: {min: 40, max: 200}
pricing:
  gpt-4o-mini: {input: 0.15, output: 0.60, cached_input: 0.075}
  other-model: {input: 1, output: 2}
limits:
  max_cost: 2.00
goodput:
  ttft: 800ms
  itl: 60
budgets:
  goodput: {rate: 95%}
  cache_hit_rate: {min: 0.8}
  errors: {rate: 1%}
`

func parseErr(t *testing.T, yml string, opt Options) error {
	t.Helper()
	_, err := Parse("l.yaml", []byte(yml), opt)
	if err != nil {
		var ce *Error
		if !errors.As(err, &ce) {
			t.Errorf("error %T is not a *suite.Error", err)
		}
	}
	return err
}

func TestEnvReferences(t *testing.T) {
	t.Parallel()
	yml := "endpoints:\n  - name: a\n    base_url: http://${HOST}/v1\n    model: m\n    headers: {api-key: \"${AZ_KEY}\", X-Trace: \"t-${RUN}-x\"}\n" + scen
	cfg, err := Parse("l.yaml", []byte(yml), Options{Getenv: env(map[string]string{"HOST": "h:8080", "AZ_KEY": "k1", "RUN": "7"})})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Endpoints[0]
	if e.BaseURL != "http://h:8080/v1" || e.Headers["api-key"] != "k1" || e.Headers["X-Trace"] != "t-7-x" {
		t.Errorf("expanded endpoint = %+v", e)
	}
	if got := strings.Join(cfg.Secrets(), ","); got != "h:8080,k1,t-7-x" {
		t.Errorf("secrets = %q, want every value from the environment (a host too)", got)
	}
	// A token inside a header's value is a secret on its own too: a server
	// may echo it without its "Bearer ".
	bearer := "endpoints:\n  - {name: g, base_url: http://h/v1, model: m, headers: {Authorization: \"Bearer ${GW_TOKEN}\"}}\n" + scen
	cfg3, err := Parse("l.yaml", []byte(bearer), Options{Getenv: env(map[string]string{"GW_TOKEN": "tok-SUPERSECRET-987"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg3.Secrets(), ","); got != "Bearer tok-SUPERSECRET-987,tok-SUPERSECRET-987" {
		t.Errorf("secrets = %q, want the header's value and its token", got)
	}
	// A key in a URL is as secret as one in a header: masked everywhere.
	custom := "endpoints:\n  - {name: c, api: custom, url: \"http://h/gen?key=${URL_KEY}\", body: {p: \"{{prompt}}\"}, stream: {format: ndjson, text: /t}}\n" + scen
	cfg2, err := Parse("l.yaml", []byte(custom), Options{Getenv: env(map[string]string{"URL_KEY": "sk-in-the-url"})})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg2.Secrets(), ","); got != "sk-in-the-url" {
		t.Errorf("secrets = %q, want the key from the url", got)
	}
	// compare needs no key and no variable.
	cfg, err = Parse("l.yaml", []byte(yml), Options{SkipKeys: true})
	if err != nil {
		t.Fatalf("SkipKeys: %v", err)
	}
	if cfg.Endpoints[0].Headers["api-key"] != "${AZ_KEY}" || len(cfg.Secrets()) != 0 {
		t.Errorf("SkipKeys resolved something: %+v", cfg.Endpoints[0])
	}
	// Every unset variable is reported, the first one by line.
	err = parseErr(t, yml, Options{Getenv: env(map[string]string{"HOST": "h"})})
	if err == nil || !strings.Contains(err.Error(), "l.yaml:5: endpoint \"a\": headers.") {
		t.Errorf("unset header variable: %v", err)
	}
}

func TestRegressionHistory(t *testing.T) {
	t.Parallel()
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n" + scen
	cfg, err := Parse("l.yaml", []byte(base), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Regression.History != DefaultHistory || cfg.Regression.Trend != DefaultTrend || cfg.Regression.MaxBaselineAge != 14*24*time.Hour || cfg.Limits.MaxDuration != DefaultMaxDuration {
		t.Errorf("defaults: %+v %+v", cfg.Regression, cfg.Limits)
	}
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{{"14d", 14 * 24 * time.Hour}, {"336h", 336 * time.Hour}, {"1.5d", 36 * time.Hour}} {
		cfg, err := Parse("l.yaml", []byte(base+"regression:\n  history: 5\n  trend: 30\n  max_baseline_age: "+tt.in+"\n"), Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if cfg.Regression.MaxBaselineAge != tt.want || cfg.Regression.History != 5 || cfg.Regression.Trend != 30 {
			t.Errorf("max_baseline_age %s = %v, history %d; want %v, 5", tt.in, cfg.Regression.MaxBaselineAge, cfg.Regression.History, tt.want)
		}
	}
}

func TestValues(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"10%", 0.10, true}, {"0.1", 0.1, true}, {"0", 0, true}, {"150%", 1.5, true}, {"10", 0, false}, {"1", 0, false}, {"1.0", 0, false}, {"x", 0, false}} {
		got, err := ParsePercent(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParsePercent(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"2/s", 2, true}, {"120/m", 2, true}, {"36/hour", 0.01, true}, {"2", 0, false}, {"0/s", 0, false}, {"-1/s", 0, false}, {"2/day", 0, false}} {
		got, err := ParseRate(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseRate(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"800", 800 * time.Millisecond, true}, {"800ms", 800 * time.Millisecond, true}, {"1.2s", 1200 * time.Millisecond, true}, {"0.8", 0, false}, {"fast", 0, false}} {
		got, err := ParseMillis(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseMillis(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"25ms", 25 * time.Millisecond, true}, {"0", 0, true}, {"2d", 48 * time.Hour, true}, {"25", 0, false}, {"d", 0, false}} {
		got, err := ParseDuration(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestAPIs(t *testing.T) {
	t.Parallel()
	good := everyAPI
	cfg, err := Parse("l.yaml", []byte(good), Options{Getenv: env(map[string]string{"K": "sk"})})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Endpoints
	if e[0].API != "chat" || e[2].BaseURL != "https://api.anthropic.com" || e[3].BaseURL != "https://generativelanguage.googleapis.com/v1beta" {
		t.Errorf("defaults: %+v / %+v / %+v", e[0], e[2], e[3])
	}
	// The base URL is as written; the probe adds the deployment's path
	// when it is not there (probe's TestURLAndBody).
	if e[4].Deployment != "d1" || e[4].APIVersion != "2024-10-21" || e[4].Model != "d1" || e[4].BaseURL != "https://r.openai.azure.com" {
		t.Errorf("azure: %+v", e[4])
	}
	if e[5].Deployment != "d2" || e[5].BaseURL != "https://r.openai.azure.com/openai/deployments/d2" {
		t.Errorf("azure with the deployment in base_url: %+v", e[5])
	}
	own := e[6]
	wantBody := map[string]any{"model": "llama3", "stream": true, "messages": "{{messages}}", "options": map[string]any{"num_predict": "{{max_tokens}}"}}
	if own.URL != "http://127.0.0.1:11434/api/chat" || own.Method != "POST" || !reflect.DeepEqual(own.Body, wantBody) ||
		!reflect.DeepEqual(*own.Stream, Stream{Format: "ndjson", Text: "/message/content", Done: "/done", OutputTokens: "/eval_count", InputTokens: "/prompt_eval_count"}) {
		t.Errorf("custom: %+v %+v", own, own.Stream)
	}
	f1, parts := Fingerprint(cfg.Scenarios[0], e[6])
	f0, _ := Fingerprint(cfg.Scenarios[0], e[0])
	if parts["api"] != "custom" || parts["host"] != "127.0.0.1:11434" || f0 == f1 {
		t.Errorf("custom fingerprint parts %v", parts)
	}

	bad := []struct{ name, ep, want string }{
		{"unknown api", "{name: a, api: antropic, base_url: http://x, model: m}", `l.yaml:2: endpoint "a": api: unknown API "antropic" (valid: ` + strings.Join(apis.Names(), ", ") + `); did you mean "anthropic"?`},
		{"azure field on chat", "{name: a, base_url: http://x/v1, model: m, deployment: d}", `l.yaml:2: endpoint "a": deployment is not a key of api chat (chat takes base_url)`},
		{"custom field on chat", "{name: a, base_url: http://x/v1, model: m, stream: {text: /t}}", `endpoint "a": stream is not a key of api chat`},
		{"base_url on custom", "{name: a, api: custom, base_url: http://x, url: http://x/a, stream: {text: /t}}", `endpoint "a": base_url is not a key of api custom (custom takes url, method, body, stream)`},
		{"azure needs deployment", "{name: a, api: azure, base_url: https://r.openai.azure.com, api_version: v}", `endpoint "a": api azure needs deployment`},
		{"azure needs version", "{name: a, api: azure, base_url: https://r.openai.azure.com, deployment: d}", `endpoint "a": api azure needs api_version`},
		{"azure deployment mismatch", "{name: a, api: azure, base_url: https://r.openai.azure.com/openai/deployments/d, deployment: e, api_version: v}", `names deployment "d" but deployment is "e"`},
		{"custom needs url", "{name: a, api: custom, stream: {text: /t}}", `endpoint "a": api custom needs url`},
		{"custom needs stream", "{name: a, api: custom, url: http://x/a}", `endpoint "a": api custom needs stream:`},
		{"custom needs text", "{name: a, api: custom, url: http://x/a, stream: {format: sse, done: /done}}", `endpoint "a": stream.text is required`},
		{"bad pointer", "{name: a, api: custom, url: http://x/a, stream: {text: message.content}}", `endpoint "a": stream.text: "message.content" is not a JSON pointer (RFC 6901): it must start with /`},
		{"bad pointer escape", "{name: a, api: custom, url: http://x/a, stream: {text: /a~2b}}", `~ must be written ~0`},
		{"bad format", "{name: a, api: custom, url: http://x/a, stream: {format: jsonl, text: /t}}", `endpoint "a": stream.format: want sse, ndjson or text, got "jsonl"`},
		{"text format pointers", "{name: a, api: custom, url: http://x/a, stream: {format: text, text: /t}}", `stream.text: format text has no JSON events`},
		{"bad method", "{name: a, api: custom, url: http://x/a, method: FETCH, stream: {text: /t}}", `method: want GET, POST, PUT or PATCH`},
		{"unknown stream key", "{name: a, api: custom, url: http://x/a, stream: {txt: /t}}", `unknown key "txt" in endpoints.stream (did you mean "text"?)`},
		{"unset url var", "{name: a, api: custom, url: \"http://${SVC}/a\", stream: {text: /t}}", `endpoint "a": url: environment variable SVC is not set`},
		{"key pasted into api_key_env", "{name: a, base_url: http://x/v1, model: m, api_key_env: sk-live-abc123}", `endpoint "a": api_key_env names the environment variable that holds the key (such as OPENAI_API_KEY), not the key itself`},
		{"key header and api_key_env", "{name: a, api: anthropic, model: m, api_key_env: K, headers: {x-api-key: k}}", `set either api_key_env or a x-api-key header`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := parseErr(t, "endpoints:\n  - "+tt.ep+"\n"+scen, Options{Getenv: env(map[string]string{"K": "k"})})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "sk-live") {
				t.Errorf("the error echoes a secret: %v", err)
			}
		})
	}
}

func TestCostGoodputAdaptive(t *testing.T) {
	t.Parallel()
	yml := costGoodputAdaptive
	cfg, err := Parse("l.yaml", []byte(yml), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Scenarios[0]
	if s.Requests != 200 || s.RequestsMin != 40 {
		t.Errorf("requests = %d..%d, want 40..200", s.RequestsMin, s.Requests)
	}
	if p := cfg.Pricing["gpt-4o-mini"]; p.Input != 0.15 || p.Output != 0.60 || p.CachedInput != 0.075 {
		t.Errorf("price = %+v", p)
	}
	if p := cfg.Pricing["other-model"]; p.CachedInput != 1 {
		t.Errorf("cached_input defaults to input: %+v", p)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].Error(), `l.yaml:9: pricing: no endpoint uses model "other-model"`) {
		t.Errorf("warnings = %v", cfg.Warnings)
	}
	if cfg.Limits.MaxCost != 2 {
		t.Errorf("max_cost = %v", cfg.Limits.MaxCost)
	}
	want := []SLO{{"ttft", 800 * time.Millisecond, 13}, {"itl", 60 * time.Millisecond, 14}}
	if !reflect.DeepEqual(cfg.Goodput, want) {
		t.Errorf("goodput = %+v, want %+v", cfg.Goodput, want)
	}
	wantFloors := []Budget{{"goodput", "rate", 0.95, 16}, {"cache_hit_rate", "min", 0.8, 17}}
	if !reflect.DeepEqual(cfg.Floors, wantFloors) || len(cfg.Budgets) != 1 || cfg.Budgets[0].Metric != "errors" {
		t.Errorf("floors = %+v, budgets = %+v", cfg.Floors, cfg.Budgets)
	}

	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n"
	bad := []struct{ name, yml, want string }{
		{"min above max", base + "scenarios:\n  - {name: s, prompt: hi, requests: {min: 60, max: 50}}\n", `l.yaml:4: scenario "s": requests: min (60) is above max (50)`},
		{"min too small", base + "scenarios:\n  - {name: s, prompt: hi, requests: {min: 20, max: 50}}\n", `scenario "s": requests.min is 20, but p95 checks need at least 40 successful requests per side`},
		{"range needs both", base + "scenarios:\n  - {name: s, prompt: hi, requests: {max: 50}}\n", `requests: give both min and max`},
		{"range unknown key", base + "scenarios:\n  - {name: s, prompt: hi, requests: {min: 40, maxx: 50}}\n", `unknown key "maxx" in scenarios.requests (did you mean "max"?)`},
		{"negative price", base + scen + "pricing:\n  m: {input: -1, output: 2}\n", `l.yaml:6: pricing.m.input: want a price of at least 0 USD per 1M tokens, got -1`},
		{"price needs output", base + scen + "pricing:\n  m: {input: 1}\n", `pricing.m: give input and output`},
		{"max_cost zero", base + scen + "limits:\n  max_cost: 0\n", `limits.max_cost: want a positive amount of USD`},
		{"goodput unknown metric", base + scen + "goodput:\n  ttfb: 800ms\n", `l.yaml:6: goodput: unknown metric "ttfb" (valid: ttft, ttfc, itl, tpot, total, perceived, client, first_tool_call, answer, session, queue, prefill, decode, outside, cold_ttft, cold_total, failover); did you mean "ttft"?`},
		{"goodput bad value", base + scen + "goodput:\n  ttft: soon\n", `goodput.ttft: want milliseconds`},
		{"goodput budget without slo", base + scen + "budgets:\n  goodput: {rate: 95%}\n", `budgets.goodput: there is no goodput: section`},
		{"cache budget stat", base + scen + "budgets:\n  cache_hit_rate: {rate: 0.8}\n", `budgets.cache_hit_rate: the only statistic is min`},
		{"cache budget ambiguous", base + scen + "budgets:\n  cache_hit_rate: {min: 80}\n", `budgets.cache_hit_rate.min: "80" is ambiguous`},
		{"max_duration bare", base + scen + "limits:\n  max_duration: 30\n", `limits.max_duration: "30" has no unit`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := parseErr(t, tt.yml, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestReadingRate(t *testing.T) {
	t.Parallel()
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n" + scen
	for in, want := range map[string]float64{"12": 12, "600/m": 10, "20/s": 20} {
		cfg, err := Parse("l.yaml", []byte(base+"reading_rate: "+in+"\n"), Options{})
		if err != nil || cfg.ReadingRate != want {
			t.Errorf("reading_rate %s = %v, %v; want %v", in, cfg, err, want)
		}
	}
}

func TestMergeKeys(t *testing.T) {
	t.Parallel()
	yml := "x-defaults: &d {max_tokens: 32, requests: 60}\n"
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - <<: *d\n    name: s\n    prompt: hi\n"
	// Anchors must live under a known key: the top level has no free keys.
	if err := parseErr(t, yml+base, Options{}); err == nil || !strings.Contains(err.Error(), `l.yaml:1: unknown key "x-defaults"`) {
		t.Errorf("error = %v", err)
	}
	good := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - &d {name: s, prompt: hi, max_tokens: 32, requests: 60}\n  - <<: *d\n    name: t\n"
	cfg, err := Parse("l.yaml", []byte(good), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Scenarios[1]; s.Name != "t" || s.MaxTokens != 32 || s.Requests != 60 {
		t.Errorf("merged scenario = %+v", s)
	}
	bad := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - &d {name: s, prompt: hi}\n  - <<: [*d, {reqests: 3}]\n    name: t\n"
	if err := parseErr(t, bad, Options{}); err == nil || !strings.Contains(err.Error(), `l.yaml:5: unknown key "reqests" in scenarios (did you mean "requests"?)`) {
		t.Errorf("unknown key in a merged mapping: %v", err)
	}
}

// A fraction for a whole-number key is an error naming the key, as a
// quoted number is, instead of being truncated (12.9 requests ran 12).
func TestFractionForWholeNumber(t *testing.T) {
	t.Parallel()
	ep := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n"
	sc := ep + "scenarios:\n  - name: s\n    prompt: hi\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"requests", sc + "    requests: 12.9\n", `l.yaml:6: scenarios.requests: want a whole number or a range such as {min: 40, max: 200}, got "12.9"`},
		{"concurrency", sc + "    concurrency: 2.7\n", `l.yaml:6: scenarios.concurrency: want a whole number, got "2.7"`},
		{"max_tokens", sc + "    max_tokens: 16.5\n", `l.yaml:6: scenarios.max_tokens: want a whole number, got "16.5"`},
		{"max_tokens quoted", sc + "    max_tokens: \"16\"\n", `l.yaml:6: scenarios.max_tokens: want a whole number, got "16"`},
		{"warmup", sc + "    warmup: 0.5\n", `l.yaml:6: scenarios.warmup: want a whole number, got "0.5"`},
		{"max_in_flight", sc + "    rate: 2/s\n    max_in_flight: 1.5\n", `l.yaml:7: scenarios.max_in_flight: want a whole number, got "1.5"`},
		{"requests min", sc + "    requests: {min: 40.5, max: 200}\n", `l.yaml:6: scenarios.requests.min: want a whole number, got "40.5"`},
		{"requests max", sc + "    requests:\n      min: 40\n      max: 99.9\n", `l.yaml:8: scenarios.requests.max: want a whole number, got "99.9"`},
		{"flow mapping", ep + "scenarios:\n  - {name: s, prompt: hi, warmup: 1, concurrency: 1e-1}\n", `l.yaml:4: scenarios.concurrency: want a whole number, got "1e-1"`},
		{"max_requests", sc + "limits:\n  max_requests: 10.5\n", `l.yaml:7: limits.max_requests: want a whole number, got "10.5"`},
		{"max_output_tokens", sc + "limits:\n  max_output_tokens: 1000.25\n", `l.yaml:7: limits.max_output_tokens: want a whole number, got "1000.25"`},
		{"history", sc + "regression:\n  history: 2.5\n", `l.yaml:7: regression.history: want a whole number, got "2.5"`},
		{"lanes", sc + "lanes: 4.5\n", `l.yaml:6: lanes: want a whole number, got "4.5"`},
		{"no lanes", sc + "lanes: 0\n", `l.yaml:6: lanes: want 1 to 256 copies of each scenario's load, got 0`},
		{"merged", ep + "scenarios:\n  - name: s\n    prompt: hi\n  - <<: [{concurrency: 3.5}]\n    name: t\n    prompt: hi\n", `l.yaml:6: scenarios.concurrency: want a whole number, got "3.5"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := parseErr(t, tt.yaml, Options{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
	// A whole number written as a float is that number.
	cfg, err := Parse("l.yaml", []byte(sc+"    requests: 12.0\n    concurrency: 2e0\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.Scenarios[0]; s.Requests != 12 || s.Concurrency != 2 {
		t.Errorf("got requests %d, concurrency %d; want 12, 2", s.Requests, s.Concurrency)
	}
}

// limits.max_cost counts only priced requests: without a price for every
// model in use there is no cap, so it is an error naming what has none.
func TestMaxCostNeedsPricing(t *testing.T) {
	t.Parallel()
	eps := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m1}\n  - {name: b, base_url: http://x/v1, model: m2}\n" +
		"  - {name: own, api: custom, url: http://x/a, stream: {text: /t}}\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"no pricing", eps + scen + "limits:\n  max_cost: 2\n",
			`l.yaml:8: limits.max_cost needs pricing for every model the suite sends to (an unpriced request counts nothing toward the cap); no price for "m1" (endpoint "a"), "m2" (endpoint "b"), endpoint "own" (it has no model: give it one): add it under pricing:, in USD per 1M tokens, such as m1: {input: 0.15, output: 0.60}`},
		{"one model priced", eps + "scenarios:\n  - {name: s, prompt: hi, endpoints: [a, b]}\nlimits:\n  max_cost: 2\npricing:\n  m1: {input: 1, output: 2}\n",
			`l.yaml:8: limits.max_cost needs pricing for every model the suite sends to (an unpriced request counts nothing toward the cap); no price for "m2" (endpoint "b"): add it under pricing:, in USD per 1M tokens, such as m2: {input: 0.15, output: 0.60}`},
		{"every model in use priced", eps + "scenarios:\n  - {name: s, prompt: hi, endpoints: [a]}\nlimits:\n  max_cost: 2\npricing:\n  m1: {input: 1, output: 2}\n", ""},
		{"no cap", eps + scen, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := parseErr(t, tt.yaml, Options{})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// A fixed request count below what p50 or p95 checks need is a warning
// naming the line and the scenario; --requests replaces those warnings.
func TestRequestsTooFewWarning(t *testing.T) {
	t.Parallel()
	ep := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n"
	warnings := func(cfg *Config) string {
		var out []string
		for _, w := range cfg.Warnings {
			out = append(out, w.Error())
		}
		return strings.Join(out, "\n")
	}
	tests := []struct {
		name, yaml, want string
	}{
		{"8", ep + "  - name: s\n    prompt: hi\n    requests: 8\n", `l.yaml:6: scenario "s": requests: 8 can never be tested: p50 needs 10 successful requests per side, p95 40 (raise it to 40 or more)`},
		{"20", ep + "  - {name: s, prompt: hi, requests: 20}\n", `l.yaml:4: scenario "s": requests: 20 leaves p95 untested: p95 needs 40 successful requests per side, p50 10 (raise it to 40 or more for p95 checks)`},
		{"40", ep + "  - {name: s, prompt: hi, requests: 40}\n", ""},
		{"default", ep + "  - {name: s, prompt: hi}\n", ""},
		{"adaptive", ep + "  - {name: s, prompt: hi, requests: {min: 40, max: 100}}\n", ""},
		{"p99 budget", ep + "  - {name: s, prompt: hi, requests: 200}\nbudgets:\n  ttft: {p95: 800, p99: 1500}\n",
			`l.yaml:6: budgets.ttft.p99: p99 needs 500 successful requests per side, and scenario "s" runs 200: the budget is not tested there (raise its requests to 500 or more)`},
		{"p99 budget, enough", ep + "  - {name: s, prompt: hi, requests: 500}\nbudgets:\n  ttft: {p99: 1500}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse("l.yaml", []byte(tt.yaml), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := warnings(cfg); got != tt.want {
				t.Errorf("got warnings %q, want %q", got, tt.want)
			}
		})
	}
	cfg, err := Parse("l.yaml", []byte(ep+"  - {name: s, prompt: hi, requests: 8}\n  - {name: t, prompt: hi, requests: {min: 40, max: 100}}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n    int
		want string
	}{
		{50, ""},
		{5, "--requests: 5 can never be tested: p50 needs 10 successful requests per side, p95 40 (raise it to 40 or more)"},
	} {
		t.Run("--requests "+strconv.Itoa(tt.n), func(t *testing.T) {
			cfg.SetRequests(tt.n)
			if got := warnings(cfg); got != tt.want {
				t.Errorf("got warnings %q, want %q", got, tt.want)
			}
			for _, s := range cfg.Scenarios {
				if s.Requests != tt.n || s.RequestsMin != 0 {
					t.Errorf("scenario %s: got requests %d, min %d; want %d, 0", s.Name, s.Requests, s.RequestsMin, tt.n)
				}
			}
		})
	}
}

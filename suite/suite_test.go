package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"
)

func files(m map[string]string) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s, ok := m[name]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

const good = `endpoints:
  - name: us-east
    base_url: https://api.example.com/v1/
    model: gpt-4o-mini
    api_key_env: OPENAI_API_KEY
    headers: {X-Org: "${ORG_ID}", X-Plain: plain}
scenarios:
  - name: chat-short
    messages:
      - {role: system, content_file: prompts/system.md}
      - {role: user, content: "Summarise Hamlet."}
    max_tokens: 64
    requests: 30
  - name: open-loop
    prompt_file: prompts/user.txt
    rate: 120/m
budgets:
  ttft: {p95: 800}
  perceived: {p95: 1.2s}
  errors: {rate: 2%}
regression:
  tolerance: 15%
  min_delta: 30ms
  alpha: 0.01
  fail_on: [regression]
limits:
  timeout: 30s
  max_requests: 500
reading_rate: 12
`

func TestParseGood(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("cfg/latgate.yaml", []byte(good), Options{
		ReadFile: files(map[string]string{"cfg/prompts/system.md": "Be brief.", "cfg/prompts/user.txt": "Hello"}),
		Getenv:   env(map[string]string{"OPENAI_API_KEY": "sk-secret", "ORG_ID": "org-42"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Endpoints[0]
	if e.BaseURL != "https://api.example.com/v1" || e.APIKey != "sk-secret" || e.Headers["X-Org"] != "org-42" || e.Line != 2 {
		t.Errorf("endpoint = %+v", e)
	}
	s := cfg.Scenarios[0]
	if s.Messages[0].Content != "Be brief." || s.MaxTokens != 64 || s.Requests != 30 || s.Warmup != DefaultWarmup || s.Line != 8 {
		t.Errorf("scenario 0 = %+v", s)
	}
	if r := cfg.Scenarios[1]; r.Rate != 2 || r.Messages[0].Content != "Hello" || r.Requests != DefaultRequests {
		t.Errorf("scenario 1 = %+v", r)
	}
	if got := cfg.Regression; got.Tolerance != 0.15 || got.MinDelta != 30*time.Millisecond || got.Alpha != 0.01 || len(got.FailOn) != 1 {
		t.Errorf("regression = %+v", got)
	}
	if cfg.Limits.Timeout != 30*time.Second || cfg.Limits.StallTimeout != DefaultStallTimeout || cfg.Limits.MaxRequests != 500 {
		t.Errorf("limits = %+v", cfg.Limits)
	}
	if len(cfg.Budgets) != 3 || cfg.Budgets[1].Value != 1.2 || cfg.Budgets[2].Value != 0.02 {
		t.Errorf("budgets = %+v", cfg.Budgets)
	}
	if got := strings.Join(cfg.Secrets(), ","); got != "org-42,sk-secret" {
		t.Errorf("secrets = %q, want the key and the env-derived header only", got)
	}
	fp1, _ := Fingerprint(cfg.Scenarios[0], e)
	s.MaxTokens = 65
	fp2, parts := Fingerprint(s, e)
	if fp1 == fp2 || parts["host"] != "api.example.com" {
		t.Errorf("fingerprint did not change with max_tokens, or host %q", parts["host"])
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n"
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown top key", base + "budget:\n  ttft: {p95: 1}\n", `latgate.yaml:6: unknown key "budget"`},
		{"unknown scenario key", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    request: 5\n", `latgate.yaml:6: unknown key "request"`},
		{"missing key env", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    api_key_env: NOPE_KEY\nscenarios:\n  - {name: s, prompt: hi}\n", "latgate.yaml:5: endpoint \"a\": environment variable NOPE_KEY (api_key_env) is not set"},
		{"bad timeout", base + "limits:\n  timeout: forever\n", `latgate.yaml:7: limits.timeout: want a duration such as 25ms, 1.5s or 14d, got "forever"`},
		{"bad rate", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    rate: fast\n", `latgate.yaml:6: scenario "s": rate: want a positive rate such as 2/s, got "fast"`},
		{"bad tolerance", base + "regression:\n  tolerance: lots\n", "latgate.yaml:7: regression.tolerance: want a percentage"},
		{"alpha out of range", base + "regression:\n  alpha: 2\n", "latgate.yaml:7: regression.alpha: want a number between 0 and 0.5"},
		{"bad fail_on", base + "regression:\n  fail_on: [sad]\n", `unknown status "sad"`},
		{"missing prompt file", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt_file: nope.txt\n", "latgate.yaml:5: cannot read nope.txt: file does not exist"},
		{"no prompt", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n", `latgate.yaml:4: scenario "s": give exactly one of messages, prompt or prompt_file`},
		{"empty prompt", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: \"\"\n", `latgate.yaml:5: scenario "s": prompt is empty: give the text to send`},
		{"null prompt", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt:\n", `latgate.yaml:5: scenario "s": prompt is empty`},
		{"empty prompt_file", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt_file: ''}\n", `latgate.yaml:4: scenario "s": prompt_file is empty: give the file's path, relative to the suite`},
		{"empty messages", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    messages: []\n", `latgate.yaml:5: scenario "s": messages is an empty list`},
		{"empty content", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    messages:\n      - role: user\n        content: \"\"\n", `latgate.yaml:7: scenario "s": content is empty: give the text to send`},
		{"mis-indented key", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    max_tokens: 128\n   requests: 50\n    concurrency: 1\n", "latgate.yaml:7: YAML syntax: this line is indented unlike the lines around it (did not find expected '-' indicator)"},
		{"mis-indented key after a list", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    messages:\n      - {role: user, content: hi}\n      requests: 50\n", "latgate.yaml:7: YAML syntax: this line is indented unlike"},
		{"over-indented key", base + "    max_tokens: 1\n      requests: 5\n", "latgate.yaml:7: YAML syntax: mapping values are not allowed in this context"},
		{"unclosed flow mapping keeps its line", "endpoints:\n  - {name: a, base_url: http://x/v1,\n     model: m\nscenarios:\n  - {name: s, prompt: hi}\n", "latgate.yaml:"},
		{"bad budget metric", base + "budgets:\n  ttfx: {p95: 1}\n", `latgate.yaml:7: budgets: unknown metric "ttfx"`},
		{"bad url", "endpoints:\n  - name: a\n    base_url: localhost:8080\n    model: m\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:3: endpoint "a": base_url "localhost:8080" is not an http(s) URL`},
		{"duplicate scenario", base + "  - name: s\n    prompt: again\n", `latgate.yaml:6: scenario name "s" is used twice`},
		{"syntax error", "endpoints: [\n", "latgate.yaml:"},
		{"empty", "", "latgate.yaml: the file is empty"},
		{"wrong type", base + "reading_rate: [1]\n", "latgate.yaml:6: reading_rate: want a single value, got a list"},

		// Issue 15 item 1: a value whose unit could be misread is an error.
		{"tolerance bare 10", base + "regression:\n  tolerance: 10\n", `latgate.yaml:7: regression.tolerance: "10" is ambiguous (a bare number is a fraction, so 10 means 1000%): write 10% or 0.1`},
		{"tolerance bare 1", base + "regression:\n  tolerance: 1\n", `write 1% or 0.01`},
		{"tolerance 150%", base + "regression:\n  tolerance: 150%\n", `latgate.yaml:7: regression.tolerance: 150% is out of range: want at least 0% and below 100%`},
		{"min_delta bare", base + "regression:\n  min_delta: 25\n", `latgate.yaml:7: regression.min_delta: "25" has no unit: write 25ms or 25s`},
		{"timeout bare", base + "limits:\n  timeout: 60\n", `latgate.yaml:7: limits.timeout: "60" has no unit: write 60ms or 60s`},
		{"stall_timeout zero", base + "limits:\n  stall_timeout: 0s\n", `latgate.yaml:7: limits.stall_timeout: want a positive duration`},
		{"rate bare", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    rate: 120\n", `latgate.yaml:6: scenario "s": rate: "120" has no unit: write 120/s (per second) or 120/m (per minute)`},
		{"alpha bare 5", base + "regression:\n  alpha: 5\n", `latgate.yaml:7: regression.alpha: want a number between 0 and 0.5`},
		{"alpha zero", base + "regression:\n  alpha: 0\n", `regression.alpha: want a number between 0 and 0.5`},
		{"errors rate bare 2", base + "budgets:\n  errors: {rate: 2}\n", `latgate.yaml:7: budgets.errors.rate: "2" is ambiguous`},
		{"latency budget below 1ms", base + "budgets:\n  ttft: {p95: 0.8}\n", `latgate.yaml:7: budgets.ttft.p95: "0.8" is ambiguous (a bare number is milliseconds, and no answer comes within 0.8 ms): write 0.8s if you meant seconds, or 0.8ms`},
		{"a tab in the indentation", "endpoints:\n\t- {name: a, base_url: http://x/v1, model: m}\n", "latgate.yaml:2: a tab in the indentation: YAML indents with spaces only"},
		{"latency budget in seconds without unit", base + "budgets:\n  ttft: {p95: 1.5}\n", `latgate.yaml:7: budgets.ttft.p95: "1.5" is ambiguous (a bare number is milliseconds, and no answer comes within 1.5 ms): write 1.5s if you meant seconds, or 1.5ms`},
		{"temperature out of range", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    temperature: 7\n", `latgate.yaml:6: scenario "s": temperature: want a number from 0 to 2`},

		// Issue 15 item 12: type errors name the key; unknown keys get a suggestion.
		{"type error names key", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    requests: lots\n", `latgate.yaml:6: scenarios.requests: want a whole number or a range such as {min: 40, max: 200}, got "lots"`},
		{"type error in flow mapping", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, max_tokens: many, warmup: 1}\n", `latgate.yaml:4: scenarios.max_tokens: want a whole number, got "many"`},
		{"type error bool", base + "limits:\n  cold_connections: sometimes\n", `latgate.yaml:7: limits.cold_connections: want true or false, got "sometimes"`},
		{"YAML 1.1 yes is no boolean", base + "limits:\n  cold_connections: yes\n", `latgate.yaml:7: limits.cold_connections: want true or false, got "yes"`},
		{"quoted true is a string", base + "limits:\n  cold_connections: \"true\"\n", `latgate.yaml:7: limits.cold_connections: want true or false, got "true" (a quoted string: write it without quotes)`},
		{"type error mapping for list", "endpoints:\n  name: a\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:2: endpoints: want a list, got a mapping`},
		{"did you mean", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    request: 5\n", `latgate.yaml:6: unknown key "request" in scenarios (did you mean "requests"?)`},
		{"did you mean top", base + "budget:\n  ttft: {p95: 1}\n", `(did you mean "budgets"?)`},
		{"no close key lists valid", base + "regression:\n  zzzzzzzz: 1\n", `unknown key "zzzzzzzz" in regression (valid: tolerance, min_delta, alpha, fail_on, history, trend, max_baseline_age, confirm)`},
		{"budget stat typo", base + "budgets:\n  ttft: {p59: 1}\n", `latgate.yaml:7: budgets.ttft: unknown statistic "p59" (valid: p50, p95, p99); did you mean "p50"?`},
		{"budget metric typo", base + "budgets:\n  ttfx: {p95: 1}\n", `did you mean "ttft"?`},
		{"duplicate key", base + "reading_rate: 5\nreading_rate: 6\n", `latgate.yaml:7: mapping key "reading_rate" already defined at line 6`},

		// Issue 15 item 4: every ${VAR} is resolved before any request.
		{"unset header var", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    headers:\n      api-key: \"${AZURE_KEY}\"\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:6: endpoint "a": headers.api-key: environment variable AZURE_KEY is not set`},
		{"unset base_url var", "endpoints:\n  - name: a\n    base_url: http://${HOST}/v1\n    model: m\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:3: endpoint "a": base_url: environment variable HOST is not set`},
		{"malformed var", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    headers: {X-A: \"${A\"}\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:5: endpoint "a": headers.X-A: malformed variable reference`},

		// Issue 15 items 9 and 10.
		{"base_url with path", "endpoints:\n  - name: a\n    base_url: https://api.openai.com/v1/chat/completions\n    model: m\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:3: endpoint "a": base_url "https://api.openai.com/v1/chat/completions" already ends in the API path: latgate appends /chat/completions itself; write base_url: https://api.openai.com/v1`},
		{"responses base_url with path", "endpoints:\n  - {name: a, api: responses, base_url: http://x/v1/responses/, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n", `write base_url: http://x/v1`},
		{"anthropic base_url with messages", "endpoints:\n  - {name: a, api: anthropic, base_url: http://x/v1/messages, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n", `appends /v1/messages itself; write base_url: http://x`},
		{"anthropic base_url with v1", "endpoints:\n  - {name: a, api: anthropic, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n", `ends in /v1, but api anthropic appends /v1/messages itself`},
		{"ollama base_url with v1", "endpoints:\n  - {name: a, api: ollama, base_url: http://x:11434/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n", `ends in /v1, but api ollama appends /api/chat itself; write base_url: http://x:11434`},
		{"ollama base_url with api/chat", "endpoints:\n  - {name: a, api: ollama, base_url: http://x:11434/api/chat, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n", `already ends in the API path: latgate appends /api/chat itself; write base_url: http://x:11434`},
		{"ollama needs a model", "endpoints:\n  - {name: a, api: ollama, base_url: http://x:11434}\nscenarios:\n  - {name: s, prompt: hi}\n", `model`},
		{"metrics_url not a URL", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m, metrics_url: x/metrics}\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:2: endpoint "a": metrics_url "x/metrics" is not an http(s) URL`},
		{"metrics_names without metrics_url", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_names: {queue: [q]}\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:5: endpoint "a": metrics_names needs metrics_url`},
		{"metrics_names not a metric name", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url: http://x/metrics\n    metrics_names: {queue: [\"my queue\"]}\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:6: endpoint "a": metrics_names.queue: "my queue" is not a Prometheus metric name`},
		{"metrics_names unknown stage", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url: http://x/metrics\n    metrics_names: {queued: [q]}\nscenarios:\n  - {name: s, prompt: hi}\n", `unknown key "queued"`},
		{"metrics_url list not a URL", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url:\n      - http://x/metrics\n      - x:9400/metrics\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:7: endpoint "a": metrics_url[1] "x:9400/metrics" is not an http(s) URL`},
		{"metrics_url five pages", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url: [http://x/1, http://x/2, http://x/3, http://x/4, http://x/5]\nscenarios:\n  - {name: s, prompt: hi}\n", `latgate.yaml:5: endpoint "a": metrics_url lists 5 pages, at most 4`},
		{"metrics_url twice", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url: [http://x/1, http://x/1]\nscenarios:\n  - {name: s, prompt: hi}\n", `endpoint "a": metrics_url[1] "http://x/1" is listed twice`},
		{"metrics_url a map", "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    metrics_url: {u: http://x/1}\nscenarios:\n  - {name: s, prompt: hi}\n", `metrics_url`},
		{"metrics_url unset var", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m, metrics_url: \"${METRICS}/metrics\"}\nscenarios:\n  - {name: s, prompt: hi}\n", `metrics_url: environment variable METRICS is not set`},
		{"slow rate", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    rate: 2/hour\n", `latgate.yaml:6: scenario "s": rate 2/hour sends 50 requests in about 25h0m0s, longer than limits.max_duration (30m0s)`},
		{"suite too slow together", "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, rate: 3/m}\n  - {name: t, prompt: hi, rate: 3/m}\n", `latgate.yaml:3: the open-loop scenarios together take about 33m20s`},

		{"reading_rate per minute", base + "reading_rate: 250\n", `latgate.yaml:6: reading_rate: 250 tokens per second is faster than anyone reads (is it per minute?): write 250/m or 250/s`},
		{"reading_rate zero", base + "reading_rate: 0\n", `reading_rate: want a positive number`},

		// Issue 11: history.
		{"history below 2", base + "regression:\n  history: 1\n", `latgate.yaml:7: regression.history: want at least 2 runs`},
		{"trend below 10", base + "regression:\n  trend: 5\n", `latgate.yaml:7: regression.trend: want 10 to 1000 runs`},
		{"trend above 1000", base + "regression:\n  trend: 5000\n", `latgate.yaml:7: regression.trend: want 10 to 1000 runs`},
		{"baseline age bare", base + "regression:\n  max_baseline_age: 14\n", `regression.max_baseline_age: "14" has no unit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{ReadFile: files(nil), Getenv: env(nil)})
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *suite.Error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSkipKeysNeedsNoEnvironment(t *testing.T) {
	t.Parallel()
	_, err := Parse("l.yaml", []byte("endpoints:\n  - {name: a, base_url: http://x/v1, model: m, api_key_env: K}\nscenarios:\n  - {name: s, prompt: hi}\n"), Options{SkipKeys: true})
	if err != nil {
		t.Errorf("compare must not need API keys: %v", err)
	}
}

// FuzzParse checks that no input panics, hangs or yields an error without
// the file's name, and that an accepted config has endpoints and scenarios.
//
// The seeds are small, one per part of the file, and inputs above 512 bytes are
// skipped: the fuzzer minimizes every input that finds new coverage, one
// byte at a time, and reports no execs while it does; minimizing
// kilobyte-sized configs at a YAML parse per exec held it at 0 execs/s.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"endpoints:\n  - {name: a, base_url: http://x/v1, model: m, headers: {X: \"${V}\"}}\nscenarios:\n  - {name: s, prompt: hi, rate: 2/s}\n",
		"endpoints:\n  - {api: custom, url: http://x/a, stream: {format: ndjson, text: /t, done: /d}, body: {m: \"{{messages}}\"}}\nscenarios:\n  - {name: s, prompt: hi, requests: {min: 40, max: 80}}\n",
		"endpoints:\n  - {api: azure, base_url: https://r.openai.azure.com, deployment: d, api_version: v}\nscenarios:\n  - name: s\n    messages: [{role: user, content: x}]\n",
		"budgets:\n  ttft: {p95: 800}\n  errors: {rate: 2%}\n  goodput: {rate: 0.9}\ngoodput: {ttft: 1s}\n",
		"regression: {tolerance: 10%, min_delta: 25ms, alpha: 0.05, fail_on: [regression], history: 3, max_baseline_age: 14d}\n",
		"limits: {timeout: 60s, max_duration: 30m, max_cost: 2}\npricing:\n  m: {input: 1, output: 2}\nreading_rate: 10\n",
		"a: &x [*x, *x]\nendpoints: *x\n",
		"endpoints: [\n",
	} {
		f.Add(seed)
	}
	opt := Options{ReadFile: files(nil), Getenv: env(map[string]string{"V": "v"})}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 512 {
			t.Skip()
		}
		cfg, err := Parse("f.yaml", []byte(s), opt)
		if err == nil && (len(cfg.Endpoints) == 0 || len(cfg.Scenarios) == 0) {
			t.Fatalf("accepted a config without endpoints or scenarios")
		}
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error is not a *suite.Error naming the file: %v", err)
			}
		}
	})
}

func TestCacheMode(t *testing.T) {
	t.Parallel()
	base := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n"
	cfg, err := Parse("l.yaml", []byte(base), Options{})
	if err != nil || cfg.Scenarios[0].Cache != "warm" {
		t.Fatalf("default cache: %v %v", cfg, err)
	}
	cold, err := Parse("l.yaml", []byte(base+"    cache: cold\n"), Options{})
	if err != nil || cold.Scenarios[0].Cache != "cold" {
		t.Fatalf("cold: %v", err)
	}
	f1, _ := Fingerprint(cfg.Scenarios[0], cfg.Endpoints[0])
	f2, _ := Fingerprint(cold.Scenarios[0], cold.Endpoints[0])
	if f1 == f2 {
		t.Error("the cache mode does not change the fingerprint")
	}
	if _, err := Parse("l.yaml", []byte(base+"    cache: lukewarm\n"), Options{}); err == nil || !strings.Contains(err.Error(), "l.yaml:6: scenario \"s\": cache: want warm or cold") {
		t.Errorf("bad cache mode: %v", err)
	}
}

// TestEveryMistakeAtOnce: a file's mistakes are reported together, in the
// order of their lines, one per line of the file, so fixing a config takes
// one run rather than one per mistake.
func TestEveryMistakeAtOnce(t *testing.T) {
	t.Parallel()
	cfg := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    latncy: 5ms\n    max_step: 3\n" +
		"limits:\n  cold_connections: \"true\"\n"
	_, err := Parse("l.yaml", []byte(cfg), Options{})
	want := []string{`l.yaml:6: unknown key "latncy" in scenarios (valid: `, `l.yaml:7: unknown key "max_step" in scenarios (did you mean "max_steps"?)`,
		`l.yaml:9: limits.cold_connections: want true or false, got "true" (a quoted string: write it without quotes)`}
	lines := strings.Split(fmt.Sprint(err), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got\n%v\nwant %d lines", err, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
	var one *Error
	if !errors.As(err, &one) || one.Line != 6 {
		t.Errorf("errors.As gives %v, want the first mistake", one)
	}
}

// TestMetricsURL: an endpoint's metrics page and another engine's names;
// a page from the environment is as secret as a header.
func TestMetricsURL(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("l.yaml", []byte("endpoints:\n  - name: a\n    base_url: http://x:8000/v1\n    model: m\n    metrics_url: \"http://x:9000/metrics?token=${TOKEN}\"\n    metrics_names: {queue: [\"my:queue_seconds\"], kv_cache: [kv, kv_old]}\nscenarios:\n  - {name: s, prompt: hi}\n"),
		Options{Getenv: func(k string) string { return map[string]string{"TOKEN": "s3cret-token"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Endpoints[0]
	if !slices.Equal(e.MetricsURLs, []string{"http://x:9000/metrics?token=s3cret-token"}) || e.MetricsNames == nil ||
		!slices.Equal(e.MetricsNames.Queue, []string{"my:queue_seconds"}) || !slices.Equal(e.MetricsNames.KVCache, []string{"kv", "kv_old"}) || e.MetricsNames.TTFT != nil {
		t.Errorf("endpoint %+v, names %+v", e, e.MetricsNames)
	}
	if !slices.Contains(cfg.Secrets(), "s3cret-token") {
		t.Errorf("secrets %v lack the page's token", cfg.Secrets())
	}
	cfg, err = Parse("l.yaml", []byte("endpoints:\n  - name: a\n    base_url: http://x:8000/v1\n    model: m\n    metrics_url: [http://x:8000/metrics, \"http://gpu:9400/metrics?k=${DCGM}\"]\nscenarios:\n  - {name: s, prompt: hi}\n"),
		Options{Getenv: func(k string) string { return map[string]string{"DCGM": "dcgm-secret-1"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Endpoints[0]; !slices.Equal(e.MetricsURLs, []string{"http://x:8000/metrics", "http://gpu:9400/metrics?k=dcgm-secret-1"}) || !slices.Contains(cfg.Secrets(), "dcgm-secret-1") {
		t.Errorf("a list of pages: %v, secrets %v", e.MetricsURLs, cfg.Secrets())
	}
}

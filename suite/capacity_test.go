package suite

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

const capEndpoint = "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n"

func TestCapacityParses(t *testing.T) {
	t.Parallel()
	text := capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity:\n      vary: concurrency\n      from: 1\n      to: 64\n" +
		"      requests_per_level: 60\n      slo: {ttft: {p95: 800}, errors: {rate: 5%}}\n" +
		"  - name: r\n    prompt: hi\n    capacity: {vary: rate, from: 0.5/s, to: 16/s}\n" +
		"budgets:\n  ttft: {p50: 300ms}\n"
	cfg, err := Parse("latgate.yaml", []byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Scenarios[0].Capacity
	if c == nil || c.Vary != vocab.VaryConcurrency || c.From != 1 || c.To != 64 || c.Step != 1 || c.RequestsPerLevel != 60 ||
		len(c.SLO) != 2 || c.SLO[0].Metric != vocab.TTFT || c.SLO[0].Value != 0.8 || c.SLO[1].Metric != vocab.Errors || c.SLO[1].Value != 0.05 ||
		c.MaxDuration != DefaultMaxDuration || cfg.Scenarios[0].Requests != 60 {
		t.Fatalf("capacity %+v", c)
	}
	// The rate search: a step of from, the suite's budgets as its SLO.
	r := cfg.Scenarios[1].Capacity
	if r.Vary != vocab.VaryRate || r.From != 0.5 || r.To != 16 || r.Step != 0.5 || r.RequestsPerLevel != DefaultRequestsPerLevel ||
		len(r.SLO) != 1 || r.SLO[0].Stat != vocab.P50 {
		t.Fatalf("rate capacity %+v", r)
	}
}

// Bad input is refused at its line, before any request.
func TestCapacityErrors(t *testing.T) {
	t.Parallel()
	sc := func(capacity string) string {
		return capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity: " + capacity + "\n"
	}
	for _, tt := range []struct{ name, yaml, want string }{
		{"from above to", sc("{vary: concurrency, from: 16, to: 8, slo: {ttft: {p95: 800}}}"), `latgate.yaml:6: scenario "s": capacity.from (16) is above capacity.to (8)`},
		{"too few per level", sc("{vary: concurrency, from: 1, to: 8, requests_per_level: 30, slo: {ttft: {p50: 800}}}"), `capacity.requests_per_level is 30: a level needs at least 40`},
		{"p99 at 60", sc("{vary: concurrency, from: 1, to: 8, slo: {ttft: {p99: 800}}}"),
			`ttft p99 can be shown to hold at alpha 0.05 only with 299 requests at a level, and a level measures at most 240 (4 × requests_per_level 60, measured again while undecided): raise requests_per_level to 75`},
		{"errors at zero", sc("{vary: concurrency, from: 1, to: 8, slo: {errors: {rate: 0%}}}"), `errors rate can be shown to hold at alpha 0.05 only with no number of requests at a level`},
		{"a session metric without a session", sc("{vary: concurrency, from: 1, to: 8, slo: {answer: {p95: 2s}}}"), `latgate.yaml:6: scenario "s": capacity.slo: endpoint "a" does not report answer on this scenario`},
		{"no slo", sc("{vary: concurrency, from: 1, to: 8}"), `scenario "s": capacity needs an SLO`},
		{"cache rate", sc("{vary: concurrency, from: 1, to: 8, slo: {cache_hit_rate: {min: 80%}}}"), `cache_hit_rate is not an objective of a level`},
		{"unknown metric", sc("{vary: concurrency, from: 1, to: 8, slo: {ttfx: {p95: 1}}}"), `scenario "s": capacity.slo: unknown metric "ttfx"`},
		{"no vary", sc("{from: 1, to: 8, slo: {ttft: {p95: 800}}}"), `capacity.vary is required`},
		{"bad vary", sc("{vary: users, from: 1, to: 8, slo: {ttft: {p95: 800}}}"), `capacity.vary: want concurrency or rate, got "users"`},
		{"rate without unit", sc("{vary: rate, from: 1, to: 8, slo: {ttft: {p95: 800}}}"), `capacity.from: "1" has no unit`},
		{"fractional users", sc("{vary: concurrency, from: 1.5, to: 8, slo: {ttft: {p95: 800}}}"), `capacity.from: want a whole number of users`},
		{"no to", sc("{vary: concurrency, from: 1, slo: {ttft: {p95: 800}}}"), `capacity.to is required`},
		{"a cap below one level", sc("{vary: concurrency, from: 1, to: 8, max_requests: 30, slo: {ttft: {p95: 800}}}"), `capacity.max_requests 30 is less than one level`},
		{"unknown key", sc("{vary: concurrency, from: 1, to: 8, slo: {ttft: {p95: 800}}, stepp: 2}"), `unknown key "stepp"`},
		{"a rate search with a concurrency", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    concurrency: 4\n    capacity: {vary: rate, from: 1/s, to: 8/s, slo: {ttft: {p95: 800}}}\n",
			`latgate.yaml:6: scenario "s": concurrency: a capacity search sets each level's load and requests itself`},
		{"a search with a rate", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    rate: 2/s\n    capacity: {vary: rate, from: 1/s, to: 8/s, slo: {ttft: {p95: 800}}}\n",
			`scenario "s": rate: a capacity search sets each level's load`},
		{"a search with requests", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    requests: 100\n    capacity: {vary: concurrency, from: 1, to: 8, slo: {ttft: {p95: 800}}}\n",
			`scenario "s": requests: a capacity search sets`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// requests_per_level: 40 with a p95 objective is a search: a level cannot
// show it at its first 40 requests (0.95⁴⁰ = 13 %), but measured again to
// 80 it can, and until then is decided on its estimates. So is 75 with a
// p99 (299 of its most 300).
func TestCapacityFortyPerLevel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"requests_per_level: 40, slo: {ttft: {p95: 800}}", "requests_per_level: 75, slo: {ttft: {p99: 800}}"} {
		text := capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity: {vary: concurrency, from: 1, to: 8, " + c + "}\n"
		if _, err := Parse("latgate.yaml", []byte(text), Options{}); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
}

// A session's metrics are objectives of a search on a scenario with tools,
// and on an endpoint that streams an agent's steps.
func TestCapacitySessionMetrics(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    tools: [{name: lookup, result: ok}]\n    capacity: {vary: concurrency, from: 1, to: 8, slo: {first_tool_call: {p95: 2s}, answer: {p95: 5s}}}\n",
		"endpoints:\n  - {name: a, api: ai-sdk, url: http://x/api/chat}\nscenarios:\n  - name: s\n    prompt: hi\n    capacity: {vary: concurrency, from: 1, to: 8, slo: {answer: {p95: 5s}}}\n",
	} {
		if _, err := Parse("latgate.yaml", []byte(text), Options{}); err != nil {
			t.Errorf("%v\n%s", err, text)
		}
	}
}

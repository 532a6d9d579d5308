package suite

import (
	"strings"
	"testing"
)

// An endpoint's cost: {per_hour: 3.50} is read in USD an hour; a missing,
// zero, negative, huge or mistyped price and an unknown key are refused at
// their line, before any request; a price no capacity search uses is a
// warning, not an error.
func TestEndpointCost(t *testing.T) {
	t.Parallel()
	search := "scenarios:\n  - name: s\n    prompt: hi\n    capacity: {vary: concurrency, from: 1, to: 8, slo: {ttft: {p95: 800}}}\n"
	ep := func(cost string) string {
		return "endpoints:\n  - name: a\n    base_url: http://x/v1\n    model: m\n    cost: " + cost + "\n"
	}
	cfg, err := Parse("latgate.yaml", []byte(ep("{per_hour: 3.50}")+search), Options{})
	if err != nil || cfg.Endpoints[0].PerHour != 3.5 || len(cfg.Warnings) != 0 {
		t.Fatalf("cost: %v, warnings %v, err %v", cfg.Endpoints[0].PerHour, cfg.Warnings, err)
	}
	for _, tt := range []struct{ name, yaml, want string }{
		{"no per_hour", ep("{}") + search, `latgate.yaml:5: endpoint "a": cost: give per_hour`},
		{"zero", ep("{per_hour: 0}") + search, `latgate.yaml:5: endpoint "a": cost.per_hour: want a price from 0.001 to 1e+06 USD an hour, got 0`},
		{"negative", ep("{per_hour: -3.5}") + search, `cost.per_hour: want a price from 0.001 to 1e+06 USD an hour, got -3.5`},
		{"a price no cost survives", ep("{per_hour: 1e-320}") + search, `got 1e-320`},
		{"huge", ep("{per_hour: 2e6}") + search, `got 2e+06`},
		{"infinite", ep("{per_hour: .inf}") + search, `got +Inf`},
		{"not a number", ep("{per_hour: .nan}") + search, `got NaN`},
		{"dollars as text", ep("{per_hour: $3.50}") + search, `latgate.yaml:5`},
		{"an unknown key", ep("{per_hour: 3.5, currency: EUR}") + search, `latgate.yaml:5: unknown key "currency"`},
		{"a bare number", ep("3.50") + search, `latgate.yaml:5`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	noSearch := ep("{per_hour: 3.50}") + "scenarios:\n  - {name: s, prompt: hi}\n"
	cfg, err = Parse("latgate.yaml", []byte(noSearch), Options{})
	if err != nil || len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].Error(), `latgate.yaml:2: endpoint "a": cost.per_hour is used only by a capacity search, and no scenario with capacity: runs against it`) {
		t.Fatalf("a price no search uses: %v, %v", cfg.Warnings, err)
	}
}

package suite

import (
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

func TestColdParsed(t *testing.T) {
	t.Parallel()
	yml := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n  - {name: b, base_url: http://y/v1, model: m}\n" +
		"scenarios:\n  - name: s\n    prompt: hi\n    cold: {idle: 90s, samples: 5}\n  - {name: w, prompt: hi}\n" +
		"budgets:\n  cold_ttft: {p50: 3s}\n  cold_total: {p95: 9000}\n  failover: {p95: 3000}\n"
	cfg, err := Parse("latgate.yaml", []byte(yml), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Scenarios[0].Cold; c == nil || c.Idle != 90*time.Second || c.Samples != 5 || c.Line != 7 || c.Time() != 450*time.Second {
		t.Errorf("cold = %+v, want 90s × 5 at line 7", c)
	}
	if cfg.Scenarios[1].Cold != nil {
		t.Errorf("a scenario without cold: has %+v", cfg.Scenarios[1].Cold)
	}
	want := []Budget{{vocab.ColdTTFT, vocab.P50, 3, 10}, {vocab.ColdTotal, vocab.P95, 9, 11}, {vocab.Failover, vocab.P95, 3, 12}}
	if len(cfg.Budgets) != len(want) {
		t.Fatalf("budgets %+v, want %+v", cfg.Budgets, want)
	}
	for i, b := range want {
		if cfg.Budgets[i] != b {
			t.Errorf("budget %d: %+v, want %+v", i, cfg.Budgets[i], b)
		}
	}
}

func TestColdErrors(t *testing.T) {
	t.Parallel()
	head := "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\n  - {name: b, base_url: http://y/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n"
	for _, tt := range []struct{ name, yaml, want string }{
		{"no idle", head + "    cold: {samples: 3}\n", `l.yaml:7: scenario "s": cold.idle is required`},
		{"no samples", head + "    cold: {idle: 60s}\n", `l.yaml:7: scenario "s": cold.samples is required`},
		{"idle without unit", head + "    cold:\n      idle: 60\n      samples: 3\n", `l.yaml:8: scenario "s": cold.idle: "60" has no unit`},
		{"idle too short", head + "    cold:\n      idle: 500ms\n      samples: 3\n", `l.yaml:8: scenario "s": cold.idle: want a duration from 1s to 1h0m0s, got "500ms"`},
		{"idle too long", head + "    cold: {idle: 2h, samples: 3}\n", `cold.idle: want a duration from 1s to 1h0m0s, got "2h"`},
		{"samples 0", head + "    cold:\n      idle: 10s\n      samples: 0\n", `l.yaml:9: scenario "s": cold.samples: want from 1 to 100 cold samples, got 0`},
		{"samples 101", head + "    cold: {idle: 10s, samples: 101}\n", `cold.samples: want from 1 to 100 cold samples, got 101`},
		{"unknown key", head + "    cold: {idle: 10s, samples: 1, after: 3}\n", `unknown key "after"`},
		{"adaptive", head + "    requests: {min: 40, max: 200}\n    cold: {idle: 10s, samples: 1}\n", `l.yaml:8: scenario "s": cold samples follow a fixed run of the scenario's own requests: give no requests: {min, max} beside cold`},
		{"over max_duration", head + "    cold: {idle: 1h, samples: 20}\n", `l.yaml:7: scenario "s": cold: 20 idle periods of 1h0m0s on 2 endpoint(s) take 40h0m0s, longer than limits.max_duration (30m0s)`},
		{"suite over max_duration", head + "    cold: {idle: 11m, samples: 1}\n  - name: t\n    prompt: hi\n    cold: {idle: 5m, samples: 1}\n",
			`l.yaml:4: the cold samples' idle periods take 32m0s and the open-loop scenarios about 0s, together longer than limits.max_duration (30m0s)`},
		{"with the open loop", head + "    rate: 1/s\n    requests: 600\n    cold: {idle: 2m, samples: 2}\nlimits: {max_duration: 25m}\n",
			`the cold samples' idle periods take 8m0s and the open-loop scenarios about 20m0s, together longer than limits.max_duration (25m0s)`},
		{"unknown budget metric", head + "budgets:\n  cold_ttfb: {p50: 3s}\n", `budgets: unknown metric "cold_ttfb"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := parseErr(t, tt.yaml, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

package suite

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// A ladder: its levels in order, from and to its first and last, a step
// of one user (or a thousandth of a request per second), and its window
// given or max_duration ÷ the levels.
func TestLadderParses(t *testing.T) {
	t.Parallel()
	text := capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity: {vary: concurrency, levels: [8, 16, 32, 64], window: 90s, slo: {ttft: {p95: 800}}}\n" +
		"  - name: r\n    prompt: hi\n    capacity: {vary: rate, levels: [2/s, 4/s], max_duration: 10m, slo: {ttft: {p95: 800}}}\n"
	cfg, err := Parse("latgate.yaml", []byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Scenarios[0].Capacity
	if !slices.Equal(c.Levels, []float64{8, 16, 32, 64}) || c.From != 8 || c.To != 64 || c.Step != 1 || c.Window != 90*time.Second {
		t.Fatalf("ladder %+v", c)
	}
	r := cfg.Scenarios[1].Capacity
	if r.Vary != vocab.VaryRate || !slices.Equal(r.Levels, []float64{2, 4}) || r.Step != 0.001 || r.Window != 5*time.Minute {
		t.Fatalf("rate ladder %+v", r)
	}
}

// Bad ladders are refused at their line, before any request.
func TestLadderErrors(t *testing.T) {
	t.Parallel()
	sc := func(capacity string) string {
		return capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity: " + capacity + "\n"
	}
	many := strings.Repeat("1, ", 33) + "1"
	for _, tt := range []struct{ name, yaml, want string }{
		{"with from", sc("{vary: concurrency, from: 1, levels: [8, 16], slo: {ttft: {p95: 800}}}"), `latgate.yaml:6: scenario "s": capacity.from: a ladder (capacity.levels) gives every level itself: drop from`},
		{"with step", sc("{vary: concurrency, step: 2, levels: [8, 16], slo: {ttft: {p95: 800}}}"), `capacity.step: a ladder (capacity.levels) gives every level itself`},
		{"empty", sc("{vary: concurrency, levels: [], slo: {ttft: {p95: 800}}}"), `capacity.levels is empty`},
		{"too many", sc("{vary: concurrency, levels: [" + many + "], slo: {ttft: {p95: 800}}}"), `capacity.levels has 34 levels: a ladder holds at most 32`},
		{"down", sc("{vary: concurrency, levels: [16, 8], slo: {ttft: {p95: 800}}}"), `capacity.levels[1] (8) is not above the level before it`},
		{"twice", sc("{vary: concurrency, levels: [8, 8], slo: {ttft: {p95: 800}}}"), `capacity.levels[1] (8) is not above the level before it`},
		{"fractional users", sc("{vary: concurrency, levels: [1.5, 8], slo: {ttft: {p95: 800}}}"), `capacity.levels[0]: want a whole number of users of at least 1, got "1.5"`},
		{"zero users", sc("{vary: concurrency, levels: [0, 8], slo: {ttft: {p95: 800}}}"), `capacity.levels[0]: want a whole number of users`},
		{"rate without unit", sc("{vary: rate, levels: [1, 2/s], slo: {ttft: {p95: 800}}}"), `capacity.levels[0]: "1" has no unit`},
		{"window of a search", sc("{vary: concurrency, from: 1, to: 8, window: 60s, slo: {ttft: {p95: 800}}}"), `capacity.window is a ladder's`},
		{"window too long", sc("{vary: concurrency, levels: [8, 16], window: 20m, slo: {ttft: {p95: 800}}}"), `capacity.window 20m0s × 2 levels is 40m0s, more than capacity.max_duration (30m0s)`},
		// 2562047h × 4 wraps past int64's nanoseconds to below 0: it must
		// not pass as shorter than max_duration (a wait of 292 years
		// between the windows).
		{"window overflowing", sc("{vary: concurrency, levels: [8, 16, 32, 64], window: 2562047h, slo: {ttft: {p95: 800}}}"), `capacity.window 2562047h0m0s × 4 levels is more than capacity.max_duration (30m0s)`},
		{"window of days overflowing", sc("{vary: concurrency, levels: [8, 16], window: 100000d, slo: {ttft: {p95: 800}}}"), `× 2 levels is more than capacity.max_duration`},
		{"window too short", sc("{vary: concurrency, levels: [8, 16], window: 10ms, slo: {ttft: {p95: 800}}}"), `capacity.window: want a duration of at least 1s`},
		{"p99 once", sc("{vary: concurrency, levels: [8, 16], requests_per_level: 75, slo: {ttft: {p99: 800}}}"),
			`ttft p99 can be shown to hold at alpha 0.05 only with 299 requests at a level, and a ladder measures each level once, requests_per_level (75): raise requests_per_level to 299`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

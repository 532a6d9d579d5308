package gate

import (
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/suite"
)

// TestURLOverrideOfAnAISDKRoute: --head-url on an AI SDK route replaces
// the url it is called at (it was set as a base_url no request used, and
// the head measured the config's route).
func TestURLOverrideOfAnAISDKRoute(t *testing.T) {
	t.Parallel()
	cfg, err := suite.Parse("l.yaml", []byte("endpoints:\n  - {name: app, api: ai-sdk, url: http://127.0.0.1:3000/api/chat}\nscenarios:\n  - {name: s, prompt: hi}\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := urlOverride(cfg, "--head-url", []string{"app=http://127.0.0.1:3001/api/chat"}); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Endpoints[0].URL; got != "http://127.0.0.1:3001/api/chat" {
		t.Errorf("url %q, want the override", got)
	}
}

// TestURLOverrideOfARealtimeEndpoint: a realtime endpoint's base_url may be
// overridden with the ws or wss URL latgate sim prints; other endpoints
// refuse one.
func TestURLOverrideOfARealtimeEndpoint(t *testing.T) {
	t.Parallel()
	parse := func() *suite.Config {
		cfg, err := suite.Parse("l.yaml", []byte("endpoints:\n  - {name: voice, api: realtime, base_url: ws://127.0.0.1:3000/v1, model: m}\n"+
			"  - {name: chat, base_url: http://127.0.0.1:3000/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\n"), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	cfg := parse()
	if _, err := urlOverride(cfg, "--head-url", []string{"voice=ws://127.0.0.1:3001/v1"}); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Endpoints[0].BaseURL; got != "ws://127.0.0.1:3001/v1" {
		t.Errorf("base_url %q, want the override", got)
	}
	_, err := urlOverride(parse(), "--head-url", []string{"chat=ws://127.0.0.1:3001/v1"})
	if err == nil || !strings.Contains(err.Error(), `endpoint "chat" (api chat) is called over http or https`) {
		t.Errorf("a ws URL for a chat endpoint: %v", err)
	}
}

// TestURLOverrideMovesTheEnginePage: --head-url moves the endpoint's
// metrics_url pages on its origin with it (the head's engine serves its
// own /metrics and /dcgm/metrics), so the head's GPU and queue figures are
// its own server's, not the base's; a page on another origin (a GPU
// exporter's port) stays and is warned of, naming it by its place.
// Without the move, an ab of two simulators said the head's GPU was at 0%
// at every level ("GPU 0% at capacity: the limit is elsewhere"): it read
// the base's idle server while the head's levels ran.
func TestURLOverrideMovesTheEnginePage(t *testing.T) {
	t.Parallel()
	cfg, err := suite.Parse("l.yaml", []byte("endpoints:\n  - name: local\n    base_url: http://127.0.0.1:8080/v1\n    model: m\n"+
		"    metrics_url: [http://127.0.0.1:8080/metrics, \"http://127.0.0.1:8080/dcgm/metrics?x=1\", http://gpu-host:9400/metrics]\n"+
		"scenarios:\n  - {name: s, prompt: hi}\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	warnings, err := urlOverride(cfg, "head-url", []string{"local=http://127.0.0.1:8081/v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://127.0.0.1:8081/metrics", "http://127.0.0.1:8081/dcgm/metrics?x=1", "http://gpu-host:9400/metrics"}
	if got := cfg.Endpoints[0].MetricsURLs; !slices.Equal(got, want) {
		t.Errorf("metrics_url %q, want %q", got, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `endpoint "local": head-url moves it to another server, but its metrics_url[2] is not on its address's origin and is read for the head as written`) {
		t.Errorf("warnings %q, want one of metrics_url[2]", warnings)
	}
	if strings.Contains(strings.Join(warnings, " "), "gpu-host") {
		t.Errorf("a warning names the page's URL, which may hold a secret: %q", warnings)
	}
}

// TestURLOverrideMovesARealtimePage: a realtime endpoint's ws:// address
// moves its http:// page on the same host and port.
func TestURLOverrideMovesARealtimePage(t *testing.T) {
	t.Parallel()
	cfg, err := suite.Parse("l.yaml", []byte("endpoints:\n  - {name: voice, api: realtime, base_url: ws://127.0.0.1:3000/v1, model: m, metrics_url: http://127.0.0.1:3000/metrics}\n"+
		"scenarios:\n  - {name: s, prompt: hi}\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	warnings, err := urlOverride(cfg, "base-url", []string{"voice=wss://10.0.0.2:3443/v1"})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%v %q", err, warnings)
	}
	if got := cfg.Endpoints[0].MetricsURLs[0]; got != "https://10.0.0.2:3443/metrics" {
		t.Errorf("metrics_url %q, want https://10.0.0.2:3443/metrics", got)
	}
}

package gate

import (
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
	if err := urlOverride(cfg, "--head-url", []string{"app=http://127.0.0.1:3001/api/chat"}); err != nil {
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
	if err := urlOverride(cfg, "--head-url", []string{"voice=ws://127.0.0.1:3001/v1"}); err != nil {
		t.Fatal(err)
	}
	if got := cfg.Endpoints[0].BaseURL; got != "ws://127.0.0.1:3001/v1" {
		t.Errorf("base_url %q, want the override", got)
	}
	err := urlOverride(parse(), "--head-url", []string{"chat=ws://127.0.0.1:3001/v1"})
	if err == nil || !strings.Contains(err.Error(), `endpoint "chat" (api chat) is called over http or https`) {
		t.Errorf("a ws URL for a chat endpoint: %v", err)
	}
}

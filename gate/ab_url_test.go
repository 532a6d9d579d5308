package gate

import (
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

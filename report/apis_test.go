package report

import (
	"testing"

	// The OpenTelemetry names of each API come from the registry, filled
	// by package probe's files (the program links probe through gate).
	_ "github.com/latgate/latgate/probe"
)

// TestOTelNamesFromTheRegistry: an API's gen_ai names are its spec's, the
// host's provider where the API names none, the default API's operation
// for an API not registered (an imported run).
func TestOTelNamesFromTheRegistry(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ api, host, op, provider string }{
		{"", "api.openai.com", "chat", "openai"},
		{"", "127.0.0.1:8080", "chat", ""},
		{"responses", "api.openai.com:443", "chat", "openai"},
		{"gemini", "127.0.0.1:8080", "generate_content", "gcp.gemini"},
		{"anthropic", "proxy.internal", "chat", "anthropic"},
		{"azure", "r.openai.azure.com", "chat", "azure.ai.openai"},
		{"custom", "api.groq.com", "chat", "groq"},
		{"not-an-api", "x.example", "chat", ""},
	} {
		if op, p := otelOperation(tt.api), otelProvider(tt.api, tt.host); op != tt.op || p != tt.provider {
			t.Errorf("api %q at %s: operation %q, provider %q; want %q, %q", tt.api, tt.host, op, p, tt.op, tt.provider)
		}
	}
}

package suite

import (
	"strings"
	"testing"
)

func TestURLFromTheEnvironment(t *testing.T) {
	t.Parallel()
	cfg := "endpoints:\n  - {name: e, base_url: \"${BASE}/v1\", model: m}\n  - {name: c, api: custom, url: \"${APP}/api\", stream: {format: text}}\nscenarios:\n  - {name: s, prompt: hi}\n"
	tests := []struct {
		name    string
		env     map[string]string
		skip    bool
		wantErr string
	}{
		{"set", map[string]string{"BASE": "http://h:1", "APP": "https://a"}, false, ""},
		{"not a URL", map[string]string{"BASE": "h:1", "APP": "https://a"}, false, `base_url "${BASE}/v1" is not an http(s) URL`},
		{"compare needs no environment", nil, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("l.yaml", []byte(cfg), Options{Getenv: func(k string) string { return tt.env[k] }, SkipKeys: tt.skip})
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

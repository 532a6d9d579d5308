package suite

import (
	"strings"
	"testing"
)

func TestRealtimeEndpoint(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("l.yaml", []byte(everyAPI), Options{Getenv: env(map[string]string{"K": "sk"})})
	if err != nil {
		t.Fatal(err)
	}
	rt := cfg.Endpoints[len(cfg.Endpoints)-1]
	if rt.API != "realtime" || rt.BaseURL != "wss://api.openai.com/v1" || !rt.Audio {
		t.Errorf("realtime endpoint %+v", rt)
	}
	_, audio := Fingerprint(cfg.Scenarios[0], rt)
	rt.Audio = false
	_, text := Fingerprint(cfg.Scenarios[0], rt)
	if audio["audio"] != "true" || text["audio"] != "" || audio["api"] != "realtime" {
		t.Errorf("fingerprint parts: audio %v, text %v", audio, text)
	}
	for _, base := range []string{"ws://127.0.0.1:8080/v1", "https://api.openai.com/v1"} {
		src := "endpoints:\n  - {api: realtime, base_url: \"" + base + "\", model: m}\n" + scen
		if _, err := Parse("l.yaml", []byte(src), Options{}); err != nil {
			t.Errorf("base_url %s: %v", base, err)
		}
	}
}

func TestRealtimeErrors(t *testing.T) {
	t.Parallel()
	ep := "endpoints:\n  - {name: rt, api: realtime, base_url: wss://api.openai.com/v1, model: m}\n  - {name: chat, base_url: http://x/v1, model: m}\n"
	tests := []struct{ name, src, want string }{
		{"no base_url", "endpoints:\n  - {name: rt, api: realtime, model: m}\n" + scen, `endpoint "rt": base_url is required (for example wss://api.openai.com/v1)`},
		{"not a websocket url", "endpoints:\n  - {name: rt, api: realtime, base_url: ftp://x/v1, model: m}\n" + scen, `base_url "ftp://x/v1" is not a ws(s) or http(s) URL`},
		{"the path appended", "endpoints:\n  - {name: rt, api: realtime, base_url: wss://x/v1/realtime, model: m}\n" + scen, `latgate appends /realtime?model={model} itself; write base_url: wss://x/v1`},
		{"no model", "endpoints:\n  - {name: rt, api: realtime, base_url: wss://x/v1}\n" + scen, `endpoint "rt": model is required`},
		{"audio on chat", "endpoints:\n  - {name: c, base_url: http://x/v1, model: m, audio: true}\n" + scen, `endpoint "c": audio is not a key of api chat`},
		{"unset key", "endpoints:\n  - {name: rt, api: realtime, base_url: wss://x/v1, model: m, api_key_env: OPENAI_API_KEY}\n" + scen, `environment variable OPENAI_API_KEY (api_key_env) is not set`},
		{"tools", ep + "scenarios:\n  - {name: s, prompt: hi, tools: [{name: t, result: ok}]}\n", `scenario "s": tools on endpoint "rt" (api realtime): sessions over the Realtime API are not supported`},
		{"turns", ep + "scenarios:\n  - {name: s, prompt: hi, turns: [more]}\n", `scenario "s": turns on endpoint "rt" (api realtime)`},
		{"temperature", ep + "scenarios:\n  - {name: s, prompt: hi, temperature: 0.7}\n", `scenario "s": temperature on endpoint "rt" (api realtime): the Realtime API takes no temperature`},
		{"max_tokens", ep + "scenarios:\n  - {name: s, prompt: hi, max_tokens: 5000}\n", `scenario "s": max_tokens 5000 on endpoint "rt" (api realtime): the Realtime API takes at most 4096 output tokens`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := parseErr(t, tt.src, Options{Getenv: env(nil)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
			if err != nil && strings.Count(err.Error(), "realtime)") > 1 {
				t.Errorf("one mistake, several errors: %v", err)
			}
		})
	}
	// The same scenario on the chat endpoint alone is fine.
	src := ep + "scenarios:\n  - {name: s, prompt: hi, temperature: 0.7, endpoints: [chat]}\n"
	if _, err := Parse("l.yaml", []byte(src), Options{}); err != nil {
		t.Errorf("a scenario not on the realtime endpoint: %v", err)
	}
}

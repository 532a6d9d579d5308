package suite

import (
	"strings"
	"testing"
	"time"
)

const agentSuite = `endpoints:
  - {name: chat, base_url: http://x/v1, model: m}
scenarios:
  - name: order-agent
    messages: [{role: user, content: "Where is order 42?"}]
    tools:
      - name: lookup_order
        description: Look an order up
        parameters: {type: object, properties: {id: {type: string}}, required: [id]}
        result: '{"status": "shipped", "eta": "2 days"}'
        latency: 150ms
      - name: eta
        parameters: {type: object, properties: {}}
        result: {days: 2}
    turns: ["And when will it arrive?"]
`

func TestSessionScenario(t *testing.T) {
	t.Parallel()
	cfg, err := Parse("l.yaml", []byte(agentSuite), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Scenarios[0]
	if !s.IsSession() || len(s.Tools) != 2 || s.MaxSteps != 10 || len(s.Turns) != 1 {
		t.Fatalf("session %v: %d tools, max_steps %d, %d turns; want 2 tools, 5 per turn, 1 turn", s.IsSession(), len(s.Tools), s.MaxSteps, len(s.Turns))
	}
	lookup, eta := s.Tools[0], s.Tools[1]
	if lookup.Latency != 150*time.Millisecond || lookup.Result != `{"status": "shipped", "eta": "2 days"}` ||
		string(lookup.Parameters) != `{"properties":{"id":{"type":"string"}},"required":["id"],"type":"object"}` {
		t.Errorf("lookup_order: %+v", lookup)
	}
	if eta.Result != `{"days":2}` || eta.Latency != 0 {
		t.Errorf("a result given as YAML is its JSON: %q", eta.Result)
	}
	if single, _ := Parse("l.yaml", []byte("endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\n"+scen), Options{}); single.Scenarios[0].IsSession() || single.Scenarios[0].MaxSteps != 1 {
		t.Errorf("a single call: %+v", single.Scenarios[0])
	}
	fp1, parts := Fingerprint(s, cfg.Endpoints[0])
	s.Tools[0].Latency = 300 * time.Millisecond
	if fp2, _ := Fingerprint(s, cfg.Endpoints[0]); fp1 == fp2 || parts["tools"] == "" || parts["turns"] != "1" {
		t.Errorf("a tool's latency changes latency: fingerprints %s and %s, parts %v", fp1, fp2, parts)
	}
}

// TestSessionBadInput: every mistake of a session scenario is an error
// naming its line before any request.
func TestSessionBadInput(t *testing.T) {
	t.Parallel()
	tool := func(extra string) string {
		return "endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    tools:\n      - " + extra + "\n"
	}
	for name, c := range map[string]struct{ yml, want string }{
		"a tool without result":  {tool("{name: f}"), `l.yaml:7: scenario "s": tool "f" needs result`},
		"result and result_file": {tool("{name: f, result: x, result_file: r.json}"), "give result or result_file, not both"},
		"a bad tool name":        {tool("{name: 'look up', result: x}"), `tool name "look up": want 1 to 64 letters, digits, _ or -`},
		"parameters not object":  {tool("{name: f, result: x, parameters: {type: string}}"), "parameters: want a JSON Schema of an object"},
		"latency without unit":   {tool("{name: f, result: x, latency: 150}"), "latency:"},
		"a tool twice":           {"endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\nscenarios:\n  - name: s\n    prompt: hi\n    tools: [{name: f, result: x}, {name: f, result: y}]\n", `tool "f" is defined twice`},
		"max_steps 0": {"endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, tools: [{name: f, result: x}], max_steps: 0}\n",
			"max_steps 0 cannot hold an answer to each of 1 turns: at least 1"},
		"max_steps without a session": {"endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, max_steps: 3}\n",
			"max_steps bounds a session's model calls: give tools or turns"},
		"an empty turn": {"endpoints:\n  - {name: c, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, turns: ['  ']}\n", "turns[0] is empty"},
		"tools on a server-driven agent": {"endpoints:\n  - {name: app, api: ai-sdk, url: http://x/api/chat}\nscenarios:\n  - {name: s, prompt: hi, tools: [{name: f, result: x}]}\n",
			`endpoint "app" (api ai-sdk) runs its tools on the server`},
		"turns on a custom body without messages": {"endpoints:\n  - {name: own, api: custom, url: http://x/gen, body: {prompt: '{{prompt}}'}, stream: {format: ndjson, text: /t}}\nscenarios:\n  - {name: s, prompt: hi, turns: [more]}\n",
			`endpoint "own"'s body has no "{{messages}}" to hold it`},
		"stream types without type": {"endpoints:\n  - {name: own, api: custom, url: http://x/gen, stream: {text: /delta, types: {text: [text-delta]}}}\n" + scen,
			"stream.types needs stream.type"},
		"stream types without text": {"endpoints:\n  - {name: own, api: custom, url: http://x/gen, stream: {text: /delta, type: /type, types: {step: [start-step]}}}\n" + scen,
			"stream.types.text: which event types carry the visible text is required"},
	} {
		err := parseErr(t, c.yml, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// Turns on a custom endpoint that sends {{messages}}, and on an AI SDK
	// route with its default body, are fine.
	for _, yml := range []string{
		"endpoints:\n  - {name: own, api: custom, url: http://x/gen, body: {messages: '{{messages}}'}, stream: {format: ndjson, text: /t}}\nscenarios:\n  - {name: s, prompt: hi, turns: [more]}\n",
		"endpoints:\n  - {name: app, api: ai-sdk, url: http://x/api/chat}\nscenarios:\n  - {name: s, prompt: hi, turns: [more]}\n",
	} {
		if err := parseErr(t, yml, Options{}); err != nil {
			t.Errorf("%v", err)
		}
	}
}

package suite

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

const outageScenario = "scenarios:\n  - name: outage\n    prompt: hi\n    requests: 20\n" +
	"    upstreams:\n      primary: {listen: 127.0.0.1:9101, to: http://127.0.0.1:8001}\n      secondary: {listen: 127.0.0.1:9102, to: http://127.0.0.1:8002}\n"

// TestPhasesParse: upstreams in name order, phases in order with their
// requests (the scenario's by default) and faults with their defaults.
func TestPhasesParse(t *testing.T) {
	t.Parallel()
	text := capEndpoint + outageScenario + "    phases:\n      - {name: healthy}\n" +
		"      - {name: primary-down, requests: 30, faults: [{upstream: primary, kind: stall_first_token}, {upstream: secondary, kind: slow_first_token, delay: 2s, share: 0.5}]}\n" +
		"      - {name: flaky, faults: [{upstream: primary, kind: http, status: 503, retry_after: \"1\"}, {upstream: secondary, kind: stall_mid_stream}]}\n"
	cfg, err := Parse("latgate.yaml", []byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Scenarios[0]
	if len(s.Upstreams) != 2 || s.Upstreams[0].Name != "primary" || s.Upstreams[1].To != "http://127.0.0.1:8002" || len(s.Phases) != 3 {
		t.Fatalf("upstreams %+v, phases %+v", s.Upstreams, s.Phases)
	}
	down, flaky := s.Phases[1], s.Phases[2]
	if s.Phases[0].Requests != 20 || down.Requests != 30 || len(down.Faults) != 2 ||
		down.Faults[0] != (Fault{Upstream: "primary", Kind: vocab.StallFirstToken, Share: 1, Line: down.Faults[0].Line}) ||
		down.Faults[1].Delay != 2*time.Second || down.Faults[1].Share != 0.5 {
		t.Fatalf("primary-down %+v", down)
	}
	if f := flaky.Faults[0]; f.Status != 503 || f.RetryAfter != "1" || flaky.Faults[1].After != 1 {
		t.Fatalf("flaky %+v", flaky)
	}
}

// TestPhasesErrors: what a fault proxy or a phase cannot run is refused
// at its line, before any request.
func TestPhasesErrors(t *testing.T) {
	t.Parallel()
	phases := func(p string) string { return capEndpoint + outageScenario + "    phases:\n" + p }
	for _, tt := range []struct{ name, yaml, want string }{
		{"no upstream", phases("      - {name: down, faults: [{upstream: tertiary, kind: reset}]}\n"), `phase "down": fault: upstream "tertiary" is not one of the scenario's upstreams (primary, secondary)`},
		{"share", phases("      - {name: down, faults: [{upstream: primary, kind: reset, share: 1.5}]}\n"), `share 1.5: want the fraction of the upstream's requests it hits, from 0 to 1`},
		{"kind", phases("      - {name: down, faults: [{upstream: primary, kind: explode}]}\n"), `kind "explode": want one of stall_first_token, slow_first_token, stall_mid_stream, http, reset, refuse`},
		{"no delay", phases("      - {name: down, faults: [{upstream: primary, kind: slow_first_token}]}\n"), `slow_first_token needs delay, such as delay: 2s`},
		{"no status", phases("      - {name: down, faults: [{upstream: primary, kind: http}]}\n"), `http needs status, such as status: 503`},
		{"a status on reset", phases("      - {name: down, faults: [{upstream: primary, kind: reset, status: 500}]}\n"), `status is a parameter of http, not of reset`},
		{"a success status", phases("      - {name: down, faults: [{upstream: primary, kind: http, status: 200}]}\n"), `status 200: want an error status, 400 to 599`},
		{"no requests", phases("      - {name: down, requests: 0}\n"), `phase "down": requests must be at least 1, got 0: a phase without requests measures nothing`},
		{"twice", phases("      - {name: a}\n      - {name: a}\n"), `phase "a" is named twice`},
		{"a slash", phases("      - {name: a/b}\n"), `a phase's name is letters, digits, - and _ (up to 64), got "a/b"`},
		{"with capacity", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    capacity: {vary: concurrency, from: 1, to: 4, slo: {ttft: {p95: 1s}}}\n    phases:\n      - {name: a}\n", `phases run the scenario in turn at its load: give no capacity beside them`},
		{"listen", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 9101, to: http://127.0.0.1:8001}\n", `upstreams.p.listen: want host:port, such as 127.0.0.1:9101, got "9101"`},
		{"open to the network", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 0.0.0.0:9101, to: http://localhost:8001}\n", `upstreams.p.listen 0.0.0.0:9101 is not on the loopback, but its upstream is local`},
		{"open to the network, unspecified", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 0.0.0.0:9101, to: http://0.0.0.0:8001}\n", `upstreams.p.listen 0.0.0.0:9101 is not on the loopback, but its upstream is local`},
		{"open to the network, LOCALHOST.", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: \"[::]:9101\", to: \"http://LOCALHOST.:8001\"}\n", `upstreams.p.listen [::]:9101 is not on the loopback, but its upstream is local`},
		{"open to the network, [::]", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: \":9101\", to: \"http://[::]:8001\"}\n", `upstreams.p.listen :9101 is not on the loopback, but its upstream is local`},
		{"open to the network, vllm.localhost", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: \"10.0.0.1:9101\", to: \"http://vllm.localhost:8001\"}\n", `upstreams.p.listen 10.0.0.1:9101 is not on the loopback, but its upstream is local`},
		{"to", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 127.0.0.1:9101, to: ftp://x}\n", `upstreams.p.to: want the upstream's URL`},
		{"one address twice", capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 127.0.0.1:9101, to: http://127.0.0.1:1}\n      q: {listen: 127.0.0.1:9101, to: http://127.0.0.1:2}\n", `upstreams "p" and "q" both listen on 127.0.0.1:9101`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("latgate.yaml", []byte(tt.yaml), Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestUpstreamFromTheEnvironment: an upstream's to takes ${VAR}s, whose
// values are secrets of the suite (hidden wherever it hides keys), and
// an unset one is an error naming the scenario.
func TestUpstreamFromTheEnvironment(t *testing.T) {
	t.Parallel()
	text := capEndpoint + "scenarios:\n  - name: s\n    prompt: hi\n    upstreams:\n      p: {listen: 127.0.0.1:9101, to: \"${UP_URL}\"}\n"
	cfg, err := Parse("latgate.yaml", []byte(text), Options{Getenv: func(k string) string {
		if k == "UP_URL" {
			return "http://127.0.0.1:8001/?key=sk-upstream-0123456789"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if u := cfg.Scenarios[0].Upstreams[0]; u.To != "http://127.0.0.1:8001/?key=sk-upstream-0123456789" {
		t.Errorf("to %q", u.To)
	}
	if !slices.Contains(cfg.Secrets(), "http://127.0.0.1:8001/?key=sk-upstream-0123456789") {
		t.Errorf("secrets %q: the upstream's value from the environment is not one", cfg.Secrets())
	}
	_, err = Parse("latgate.yaml", []byte(text), Options{Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), `scenario "s": upstreams.p.to: environment variable UP_URL is not set or is empty`) {
		t.Errorf("unset: %v", err)
	}
}

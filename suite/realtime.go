package suite

import "strings"

// realtimeMaxTokens is the most max_output_tokens the Realtime API takes.
const realtimeMaxTokens = 4096

// realtimeScenarios checks each scenario that runs against a realtime
// endpoint for what the Realtime API cannot do: sessions (tools, turns:
// latgate does not drive them over a WebSocket), a temperature (the GA
// interface has none) and more than 4096 output tokens.
func (p *parser) realtimeScenarios(cfg *Config) {
	for _, s := range cfg.Scenarios {
		for _, e := range cfg.EndpointsFor(s) {
			if e.API != "realtime" {
				continue
			}
			var what []string
			if len(s.Tools) > 0 {
				what = append(what, "tools")
			}
			if len(s.Turns) > 0 {
				what = append(what, "turns")
			}
			switch {
			case len(what) > 0:
				p.errf(s.Line, "scenario %q: %s on endpoint %q (api realtime): sessions over the Realtime API are not supported: drop %s, or give the scenario other endpoints",
					s.Name, strings.Join(what, " and "), e.Name, strings.Join(what, " and "))
			case s.Temperature != nil:
				p.errf(s.Line, "scenario %q: temperature on endpoint %q (api realtime): the Realtime API takes no temperature: drop it, or give the scenario other endpoints", s.Name, e.Name)
			case s.MaxTokens > realtimeMaxTokens:
				p.errf(s.Line, "scenario %q: max_tokens %d on endpoint %q (api realtime): the Realtime API takes at most %d output tokens", s.Name, s.MaxTokens, e.Name, realtimeMaxTokens)
			}
		}
	}
}

package suite

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
)

// Tool is a tool offered to the model in a session scenario, with what it
// answers: the client-driven loop (chat, responses, anthropic, gemini,
// azure) waits Latency and sends Result back.
type Tool struct {
	Name, Description string
	// Parameters is the JSON Schema of its arguments (an object schema).
	Parameters json.RawMessage
	Result     string
	Latency    time.Duration
	Line       int
}

// DefaultMaxSteps is the most model calls of a session with tools per
// turn: five, as an agent that has not answered after five calls is
// looping.
const DefaultMaxSteps = 5

// MaxToolLatency bounds a scripted tool's latency.
const MaxToolLatency = 10 * time.Minute

// IsSession reports whether the scenario is a session of several model
// calls (it offers tools, or has further turns).
func (s Scenario) IsSession() bool { return len(s.Tools) > 0 || len(s.Turns) > 0 }

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// scenarioSession reads a scenario's tools, turns and max_steps. The most
// model calls default to 5 per turn with tools, one per turn without.
func (p *parser) scenarioSession(ip string, rs rawScenario, s *Scenario) {
	seen := map[string]bool{}
	for i, rt := range rs.Tools {
		t := p.tool(fmt.Sprintf("%s.tools[%d]", ip, i), s.Name, rt)
		if seen[t.Name] {
			p.errf(t.Line, "scenario %q: tool %q is defined twice", s.Name, t.Name)
		}
		seen[t.Name] = true
		s.Tools = append(s.Tools, t)
	}
	for i, turn := range rs.Turns {
		if strings.TrimSpace(turn) == "" {
			p.errf(p.line(fmt.Sprintf("%s.turns[%d]", ip, i)), "scenario %q: turns[%d] is empty: each turn is what the user says next", s.Name, i)
		}
	}
	s.Turns = rs.Turns
	answers := 1 + len(s.Turns)
	switch {
	case rs.MaxSteps == nil && len(s.Tools) > 0:
		s.MaxSteps = DefaultMaxSteps * answers
	case rs.MaxSteps == nil:
		s.MaxSteps = answers
	case !s.IsSession():
		p.errf(p.line(ip+".max_steps"), "scenario %q: max_steps bounds a session's model calls: give tools or turns (a single call has one)", s.Name)
	case *rs.MaxSteps < answers:
		p.errf(p.line(ip+".max_steps"), "scenario %q: max_steps %d cannot hold an answer to each of %d turns: at least %d", s.Name, *rs.MaxSteps, answers, answers)
	default:
		s.MaxSteps = *rs.MaxSteps
	}
}

// tool reads one tool: its name, schema, scripted result and latency.
func (p *parser) tool(ip, scenario string, rt rawTool) Tool {
	t := Tool{Name: rt.Name, Description: rt.Description, Line: p.line(ip)}
	if !toolNameRE.MatchString(t.Name) {
		p.errf(t.Line, "scenario %q: tool name %q: want 1 to 64 letters, digits, _ or - (what every API accepts)", scenario, t.Name)
	}
	t.Parameters = json.RawMessage(`{"type":"object","properties":{}}`)
	if rt.Parameters != nil {
		var v any
		err := rt.Parameters.Node.Decode(&v)
		m, isMap := v.(map[string]any)
		if err == nil && (!isMap || m["type"] != "object") {
			err = fmt.Errorf("want a JSON Schema of an object, such as {type: object, properties: {id: {type: string}}}")
		}
		if b, jerr := json.Marshal(v); err == nil && jerr == nil {
			t.Parameters = b
		} else if err == nil {
			err = jerr
		}
		if err != nil {
			p.errf(p.line(ip+".parameters"), "scenario %q: tool %q: parameters: %v", scenario, t.Name, err)
		}
	}
	t.Result = p.toolResult(ip, scenario, rt)
	if rt.Latency != nil {
		d, err := ParseDuration(rt.Latency.Value)
		if err == nil && (d < 0 || d > MaxToolLatency) {
			err = fmt.Errorf("want a duration from 0 to %s, such as 150ms, got %q", MaxToolLatency, rt.Latency.Value)
		}
		if err != nil {
			p.errf(p.line(ip+".latency"), "scenario %q: tool %q: latency: %v", scenario, t.Name, err)
		}
		t.Latency = d
	}
	return t
}

// toolResult is what a tool answers: result (a string as it is, any other
// value as JSON) or the content of result_file; exactly one of them.
func (p *parser) toolResult(ip, scenario string, rt rawTool) string {
	switch {
	case rt.Result == nil && rt.ResultFile == "":
		p.errf(p.line(ip), "scenario %q: tool %q needs result (what the tool answers, such as '{\"status\": \"shipped\"}') or result_file", scenario, rt.Name)
		return ""
	case rt.Result != nil && rt.ResultFile != "":
		p.errf(p.line(ip), "scenario %q: tool %q: give result or result_file, not both", scenario, rt.Name)
		return ""
	case rt.ResultFile != "":
		return p.readRel(p.line(ip+".result_file"), rt.ResultFile)
	}
	var v any
	if err := rt.Result.Node.Decode(&v); err != nil {
		p.errf(p.line(ip+".result"), "scenario %q: tool %q: result: %v", scenario, rt.Name, err)
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		p.errf(p.line(ip+".result"), "scenario %q: tool %q: result: %v", scenario, rt.Name, err)
	}
	return string(b)
}

// sessionEndpoints checks each session scenario against the APIs of its
// endpoints: tools need a client-driven API (an AI SDK route or a custom
// endpoint runs its tools on the server), and turns need an API latgate
// can send the conversation to. An API that takes no sessions at all says
// so in apiLimits.
func (p *parser) sessionEndpoints(cfg *Config) {
	var clientTools []string
	for _, s := range apis.All() {
		if s.Tools == apis.ClientTools {
			clientTools = append(clientTools, s.Name)
		}
	}
	for _, s := range cfg.Scenarios {
		for _, e := range cfg.EndpointsFor(s) {
			spec, _ := apis.Lookup(e.API)
			template := spec.Body == apis.BodyTemplate || spec.Body == apis.BodyOverride && e.Body != nil
			switch {
			case len(s.Tools) > 0 && spec.Tools == apis.ServerTools:
				p.errf(s.Line, "scenario %q: tools are run by latgate's client-driven loop, on api %s; endpoint %q (api %s) runs its tools on the server: drop tools (its steps and tool time are read from its stream) or give the scenario other endpoints",
					s.Name, strings.Join(clientTools, ", "), e.Name, spec.Name)
			case len(s.Turns) > 0 && spec.Turns && template && !holdsMessages(e.Body):
				p.errf(s.Line, "scenario %q: turns send the conversation so far, and endpoint %q's body has no \"{{messages}}\" to hold it: add messages: \"{{messages}}\" to its body, or drop turns", s.Name, e.Name)
			}
		}
	}
}

// apiLimits checks each scenario against what the APIs of its endpoints
// cannot do (the Realtime API's: sessions, which latgate does not drive
// over a WebSocket; a temperature; more than 4096 output tokens).
func (p *parser) apiLimits(cfg *Config) {
	for _, s := range cfg.Scenarios {
		for _, e := range cfg.EndpointsFor(s) {
			spec, ok := apis.Lookup(e.API)
			if !ok {
				continue
			}
			title := spec.Title
			if title == "" {
				title = "api " + spec.Name
			}
			var what []string
			if len(s.Tools) > 0 && spec.Tools == apis.NoTools {
				what = append(what, "tools")
			}
			if len(s.Turns) > 0 && !spec.Turns {
				what = append(what, "turns")
			}
			switch {
			case len(what) > 0:
				p.errf(s.Line, "scenario %q: %s on endpoint %q (api %s): sessions over %s are not supported: drop %s, or give the scenario other endpoints",
					s.Name, strings.Join(what, " and "), e.Name, spec.Name, title, strings.Join(what, " and "))
			case s.Temperature != nil && spec.NoTemperature:
				p.errf(s.Line, "scenario %q: temperature on endpoint %q (api %s): %s takes no temperature: drop it, or give the scenario other endpoints", s.Name, e.Name, spec.Name, title)
			case spec.MaxTokens > 0 && s.MaxTokens > spec.MaxTokens:
				p.errf(s.Line, "scenario %q: max_tokens %d on endpoint %q (api %s): %s takes at most %d output tokens", s.Name, s.MaxTokens, e.Name, spec.Name, title, spec.MaxTokens)
			}
		}
	}
}

// holdsMessages reports whether a body template has a "{{messages}}".
func holdsMessages(body any) bool {
	switch t := body.(type) {
	case string:
		return t == "{{messages}}"
	case map[string]any:
		for _, v := range t {
			if holdsMessages(v) {
				return true
			}
		}
	case []any:
		for _, v := range t {
			if holdsMessages(v) {
				return true
			}
		}
	}
	return false
}

package suite

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/latgate/latgate/vocab"
)

// A scenario's keys: its prompt, its load (requests, concurrency or
// rate, warmup) and the suite's open-loop time; its session keys are in
// session.go.

func (p *parser) scenario(i int, rs rawScenario, seen map[string]bool, cfg *Config) Scenario {
	ip := fmt.Sprintf("scenarios[%d]", i)
	line := p.line(ip)
	s := Scenario{Name: rs.Name, Line: line, Temperature: rs.Temperature, Endpoints: rs.Endpoints, Cache: rs.Cache}
	switch s.Cache {
	case "":
		s.Cache = "warm"
	case "warm", "cold":
	default:
		p.errf(p.line(ip+".cache"), "scenario %q: cache: want warm or cold, got %q", s.Name, s.Cache)
	}
	if s.Name == "" {
		p.errf(line, "scenario %d: name is required", i+1)
	}
	if seen[s.Name] {
		p.errf(line, "scenario name %q is used twice", s.Name)
	}
	seen[s.Name] = true
	if rs.Workload == nil {
		s.Messages = p.scenarioMessages(ip, s.Name, rs)
	}
	p.scenarioLoad(ip, rs, &s, cfg)
	p.scenarioWorkload(ip, rs, &s)
	p.scenarioUpstreams(ip, rs, &s)
	p.scenarioRate(ip, rs, &s, cfg)
	p.scenarioSession(ip, rs, &s)
	p.scenarioCapacity(ip, rs, &s, cfg)
	p.scenarioCold(ip, rs, &s, cfg)
	return s
}

// scenarioMessages reads a scenario's prompt: exactly one of messages,
// prompt or prompt_file, each message with one of content or content_file.
func (p *parser) scenarioMessages(ip, name string, rs rawScenario) []Message {
	sources := 0
	if len(rs.Messages) > 0 {
		sources++
	}
	if rs.Prompt != "" {
		sources++
	}
	if rs.PromptFile != "" {
		sources++
	}
	if sources == 0 && p.emptyKey(ip, name, "messages", "prompt", "prompt_file") {
		return nil
	}
	if sources != 1 {
		p.errf(p.line(ip), "scenario %q: give exactly one of messages, prompt or prompt_file", name)
	}
	var out []Message
	switch {
	case rs.Prompt != "":
		out = []Message{{Role: "user", Content: rs.Prompt}}
	case rs.PromptFile != "":
		out = []Message{{Role: "user", Content: p.readRel(p.line(ip+".prompt_file"), rs.PromptFile)}}
	}
	for j, m := range rs.Messages {
		ml := p.line(fmt.Sprintf("%s.messages[%d]", ip, j))
		msg := Message{Role: m.Role, Content: m.Content}
		switch m.Role {
		case "system", "user", "assistant", "developer":
		default:
			p.errf(ml, "scenario %q: message role %q is not system, user, assistant or developer", name, m.Role)
		}
		if m.Content == "" && m.ContentFile == "" && p.emptyKey(fmt.Sprintf("%s.messages[%d]", ip, j), name, "content", "content_file") {
			continue
		}
		if (m.Content == "") == (m.ContentFile == "") {
			p.errf(ml, "scenario %q: each message needs exactly one of content or content_file", name)
		}
		if m.ContentFile != "" {
			msg.Content = p.readRel(ml, m.ContentFile)
		}
		out = append(out, msg)
	}
	return out
}

// emptyKey says, at its line, that the first of keys written under ipath
// is empty (prompt: "", messages: []): a prompt given as nothing, which
// is not a missing one. It reports whether one was.
func (p *parser) emptyKey(ipath, name string, keys ...string) bool {
	for _, k := range keys {
		if line, ok := p.x.lines[ipath+"."+k]; ok {
			what := "is empty: give the text to send"
			switch k {
			case "messages":
				what = "is an empty list: give at least one message, {role: user, content: ...}"
			case "prompt_file", "content_file":
				what = "is empty: give the file's path, relative to the suite"
			}
			p.errf(line, "scenario %q: %s %s", name, k, what)
			return true
		}
	}
	return false
}

// scenarioLoad sets what a scenario sends: max tokens (and checks the
// temperature), requests (a count or {min, max}), concurrency, warmup, the
// open-loop pool.
func (p *parser) scenarioLoad(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	kl := func(key string) int { return p.line(ip + "." + key) }
	intOr := func(v *int, def int, key string, minV int) int {
		if v == nil {
			return def
		}
		if *v < minV {
			p.errf(kl(key), "scenario %q: %s must be at least %d, got %d", s.Name, key, minV, *v)
		}
		return *v
	}
	s.MaxTokens = intOr(rs.MaxTokens, DefaultMaxTokens, "max_tokens", 1)
	s.Requests = DefaultRequests
	if r := rs.Requests; r != nil {
		switch {
		case r.Fixed != nil:
			s.Requests = intOr(r.Fixed, DefaultRequests, "requests", 1)
		case r.Range != nil:
			s.Requests, s.RequestsMin = p.requestRange(kl("requests"), s.Name, *r.Range)
		}
	}
	if w := requestsWarning(s.Requests); w != "" && s.RequestsMin == 0 {
		cfg.Warnings = append(cfg.Warnings, &Error{File: p.path, Line: kl("requests"), Msg: fmt.Sprintf("scenario %q: requests: %s", s.Name, w), key: "requests"})
	}
	s.Concurrency = intOr(rs.Concurrency, DefaultConcurrency, "concurrency", 1)
	// By default warm one connection per request in flight, so the
	// measured requests find a warm pool.
	s.Warmup = intOr(rs.Warmup, max(DefaultWarmup, s.Concurrency), "warmup", 0)
	s.MaxInFlight = intOr(rs.MaxInFlight, 64, "max_in_flight", 1)
	if t := rs.Temperature; t != nil && !(*t >= 0 && *t <= 2) {
		p.errf(kl("temperature"), "scenario %q: temperature: want a number from 0 to 2, got %v", s.Name, *t)
	}
}

// scenarioRate sets a scenario's rate (open loop, not with a concurrency)
// and checks its endpoints, and that the rate sends the requests to them
// within limits.max_duration.
func (p *parser) scenarioRate(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	kl := func(key string) int { return p.line(ip + "." + key) }
	if rs.Rate != nil {
		r, err := ParseRate(rs.Rate.Value)
		if err != nil {
			p.errf(kl("rate"), "scenario %q: rate: %v", s.Name, err)
		}
		s.Rate = r
		if rs.Concurrency != nil {
			p.errf(kl("rate"), "scenario %q: give concurrency (closed loop) or rate (open loop), not both", s.Name)
		}
	}
	for _, n := range s.Endpoints {
		if !slices.ContainsFunc(cfg.Endpoints, func(e Endpoint) bool { return e.Name == n }) {
			p.errf(kl("endpoints"), "scenario %q: unknown endpoint %q", s.Name, n)
		}
	}
	if s.Rate > 0 {
		eps := len(cfg.EndpointsFor(*s))
		if d := openLoopTime(s.Requests*eps, s.Rate); d > cfg.Limits.MaxDuration {
			p.errf(kl("rate"), "scenario %q: rate %s sends %d requests in about %s, longer than limits.max_duration (%s): raise the rate, lower requests or raise limits.max_duration",
				s.Name, rs.Rate.Value, s.Requests*eps, roundDuration(d), cfg.Limits.MaxDuration)
		}
	}
}

// requestRange validates requests: {min, max}.
func (p *parser) requestRange(line int, name string, r rawRequestRange) (maxN, minN int) {
	need := vocab.P95.MinN()
	if r.Min == nil || r.Max == nil {
		p.errf(line, "scenario %q: requests: give both min and max, such as {min: %d, max: 200}", name, need)
		return DefaultRequests, 0
	}
	minN, maxN = *r.Min, *r.Max
	switch {
	case minN < need:
		p.errf(line, "scenario %q: requests.min is %d, but p95 checks need at least %d successful requests per side: raise min to %d or more", name, minN, need, need)
	case minN > maxN:
		p.errf(line, "scenario %q: requests: min (%d) is above max (%d)", name, minN, maxN)
	}
	return maxN, minN
}

// openLoopTime is the expected time to send n requests at rate per second.
func openLoopTime(n int, rate float64) time.Duration {
	s := float64(n) / rate
	if s > float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * float64(time.Second))
}

func roundDuration(d time.Duration) time.Duration {
	if d > time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// duration checks the whole suite's open-loop time against
// limits.max_duration (the scenarios run one after another).
func (p *parser) duration(cfg *Config) {
	var total time.Duration
	for _, s := range cfg.Scenarios {
		if s.Rate > 0 {
			total += openLoopTime(s.Requests*len(cfg.EndpointsFor(s)), s.Rate)
			if total < 0 {
				total = time.Duration(math.MaxInt64)
			}
		}
	}
	if total > cfg.Limits.MaxDuration && len(p.errs) == 0 {
		p.errf(p.line("scenarios"), "the open-loop scenarios together take about %s at their rates, longer than limits.max_duration (%s): raise the rates, lower requests or raise limits.max_duration",
			roundDuration(total), cfg.Limits.MaxDuration)
	}
}

package suite

import (
	"fmt"
	"math"
	"time"
)

// Cold is a scenario's cold samples (cold: in latgate.yaml): after its
// measured requests, latgate waits Idle with nothing sent to the endpoint,
// then sends one request (a cold sample: its TTFT and total are the
// metrics cold_ttft and cold_total, not ttft and total), Samples times,
// each after its own idle period.
type Cold struct {
	Idle    time.Duration
	Samples int
	Line    int
}

// Bounds of cold:.
const (
	MinColdIdle    = time.Second
	MaxColdIdle    = time.Hour
	MaxColdSamples = 100
)

// Time is the idle time the cold samples add to a run of one endpoint.
func (c *Cold) Time() time.Duration {
	if c == nil {
		return 0
	}
	return time.Duration(c.Samples) * c.Idle
}

type rawCold struct {
	Idle    *scalar `yaml:"idle"`
	Samples *int    `yaml:"samples"`
}

// scenarioCold reads a scenario's cold: and refuses what cold samples
// cannot follow: a capacity search (no one load), a trace (its requests are
// its entries) and adaptive requests (a look counts the run's requests).
func (p *parser) scenarioCold(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	rc := rs.Cold
	if rc == nil {
		return
	}
	ip += ".cold"
	kl := func(key string) int { return p.line(ip + "." + key) }
	c := &Cold{Line: p.line(ip)}
	s.Cold = c
	for key, given := range map[string]bool{"capacity": rs.Capacity != nil, "workload": rs.Workload != nil, "requests: {min, max}": s.RequestsMin > 0} {
		if given {
			p.errf(c.Line, "scenario %q: cold samples follow a fixed run of the scenario's own requests: give no %s beside cold", s.Name, key)
		}
	}
	switch rc.Idle {
	case nil:
		p.errf(c.Line, "scenario %q: cold.idle is required: how long nothing is sent before each cold sample, such as 60s", s.Name)
	default:
		d, err := ParseDuration(rc.Idle.Value)
		if err == nil && (d < MinColdIdle || d > MaxColdIdle) {
			err = fmt.Errorf("want a duration from %s to %s, got %q", MinColdIdle, MaxColdIdle, rc.Idle.Value)
		}
		if err != nil {
			p.errf(kl("idle"), "scenario %q: cold.idle: %v", s.Name, err)
		}
		c.Idle = d
	}
	switch {
	case rc.Samples == nil:
		p.errf(c.Line, "scenario %q: cold.samples is required: how many cold samples to take, from 1 to %d", s.Name, MaxColdSamples)
	case *rc.Samples < 1 || *rc.Samples > MaxColdSamples:
		p.errf(kl("samples"), "scenario %q: cold.samples: want from 1 to %d cold samples, got %d", s.Name, MaxColdSamples, *rc.Samples)
	default:
		c.Samples = *rc.Samples
	}
	if d := c.Time() * time.Duration(len(cfg.EndpointsFor(*s))); d > cfg.Limits.MaxDuration {
		p.errf(c.Line, "scenario %q: cold: %d idle periods of %s on %d endpoint(s) take %s, longer than limits.max_duration (%s): lower cold.samples or cold.idle, or raise limits.max_duration",
			s.Name, c.Samples, c.Idle, len(cfg.EndpointsFor(*s)), roundDuration(d), cfg.Limits.MaxDuration)
	}
}

// coldDuration checks the whole suite's planned waiting, the cold
// samples' idle periods and the open-loop scenarios' time (the scenarios
// run one after another, their endpoints too), against
// limits.max_duration.
func (p *parser) coldDuration(cfg *Config) {
	var idle, open time.Duration
	for _, s := range cfg.Scenarios {
		eps := len(cfg.EndpointsFor(s))
		idle = addCapped(idle, s.Cold.Time()*time.Duration(eps))
		if s.Rate > 0 {
			open = addCapped(open, openLoopTime(s.Requests*eps, s.Rate))
		}
	}
	if idle > 0 && addCapped(idle, open) > cfg.Limits.MaxDuration && len(p.errs) == 0 {
		p.errf(p.line("scenarios"), "the cold samples' idle periods take %s and the open-loop scenarios about %s, together longer than limits.max_duration (%s): lower cold.samples or cold.idle, or raise limits.max_duration",
			roundDuration(idle), roundDuration(open), cfg.Limits.MaxDuration)
	}
}

// addCapped adds two durations, at most the largest one.
func addCapped(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return time.Duration(math.MaxInt64)
	}
	return a + b
}

package suite

import (
	"fmt"
	"math"
	"slices"

	"github.com/latgate/latgate/vocab"
)

// rawCost is an endpoint's cost: the price of its hardware.
type rawCost struct {
	PerHour *float64 `yaml:"per_hour"`
}

// endpointCost reads an endpoint's cost: {per_hour: 3.50}, USD an hour of
// its hardware, above 0 and at most vocab.MaxPerHour.
func (p *parser) endpointCost(ip string, e *Endpoint, re rawEndpoint) {
	if re.Cost == nil {
		return
	}
	if re.Cost.PerHour == nil {
		p.errf(p.line(ip+".cost"), "endpoint %q: cost: give per_hour, the price of the endpoint's hardware in USD an hour (cost: {per_hour: 3.50})", e.Name)
		return
	}
	v := *re.Cost.PerHour
	if !(v >= vocab.MinPerHour && v <= vocab.MaxPerHour) || math.IsInf(v, 0) {
		p.errf(p.line(ip+".cost.per_hour"), "endpoint %q: cost.per_hour: want a price from %g to %g USD an hour, got %v", e.Name, vocab.MinPerHour, float64(vocab.MaxPerHour), v)
		return
	}
	e.PerHour = v
}

// costUnused warns of an endpoint's cost that no capacity search runs
// against: only a capacity search reports what a million tokens cost.
func (p *parser) costUnused(cfg *Config) {
	for _, e := range cfg.Endpoints {
		if e.PerHour == 0 {
			continue
		}
		used := slices.ContainsFunc(cfg.Scenarios, func(s Scenario) bool {
			return s.Capacity != nil && slices.ContainsFunc(cfg.EndpointsFor(s), func(o Endpoint) bool { return o.Name == e.Name })
		})
		if !used {
			cfg.Warnings = append(cfg.Warnings, &Error{File: p.path, Line: e.Line, Msg: fmt.Sprintf(
				"endpoint %q: cost.per_hour is used only by a capacity search, and no scenario with capacity: runs against it: nothing reports its cost", e.Name)})
		}
	}
}

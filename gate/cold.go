package gate

import (
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
)

// planCold gives group g the scenario's cold samples (cold: {idle,
// samples}): after its measured requests, each after its idle period, one
// request (one of each variant in an A/B group), recorded in the same run
// as a cold sample (results.Request.Cold; requestOf). They count as
// planned requests for limits.max_requests and the progress.
func (m *measurement) planCold(s suite.Scenario, g *probe.Group) {
	c := s.Cold
	if c == nil || c.Samples <= 0 {
		return
	}
	g.Cold = probe.Cold{Idle: c.Idle, Samples: c.Samples}
	n := c.Samples
	if g.Head != nil {
		n *= 2
	}
	m.total += n
	m.measuredPlanned += n
}

package suite

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/vocab"
)

// Capacity is a scenario's capacity search (capacity: in latgate.yaml):
// the load it varies from From to To, the requests of each level, and
// the SLO every level is held to.
type Capacity struct {
	Vary vocab.Vary
	// From, To and Step are users (vary concurrency, whole numbers) or
	// requests per second (vary rate). Bisection stops when the highest
	// passing level and the lowest other one are Step apart.
	From, To, Step   float64
	RequestsPerLevel int
	// SLO are the objectives of a level: latency statistics (Value in
	// seconds, as budgets), errors.rate and goodput.rate (fractions). The
	// suite's budgets when capacity.slo is not given.
	SLO []Budget
	// MaxRequests caps the whole search's requests, warmup included (0:
	// what the search may need at most); MaxDuration its time.
	MaxRequests int
	MaxDuration time.Duration
	// Levels, when given (capacity.levels), are a ladder: each measured
	// once, in ascending order, instead of a search (From and To are its
	// first and last; Step what its capacity's interval lies below a
	// failing level: capacity.LadderStep). Window is each level's window
	// in a run started at a shared time (--start-at): capacity.window, or
	// MaxDuration ÷ the levels.
	Levels []float64
	Window time.Duration
	Line   int
}

// DefaultRequestsPerLevel is a level's requests when not given: enough for
// a p95 objective to hold with confidence at alpha 0.05 at a level's first
// measurement (59).
const DefaultRequestsPerLevel = 60

// MinRequestsPerLevel is the fewest requests per level: p95's MinN.
var MinRequestsPerLevel = vocab.P95.MinN()

// maxLevels bounds the levels of a search's range: (to − from) ÷ step.
const maxLevels = 1_000_000

type rawCapacity struct {
	Vary             string       `yaml:"vary"`
	From             *scalar      `yaml:"from"`
	To               *scalar      `yaml:"to"`
	Step             *scalar      `yaml:"step"`
	RequestsPerLevel *int         `yaml:"requests_per_level"`
	SLO              rawLimitsMap `yaml:"slo"`
	MaxRequests      *int         `yaml:"max_requests"`
	MaxDuration      *scalar      `yaml:"max_duration"`
	Levels           *[]scalar    `yaml:"levels"`
	Window           *scalar      `yaml:"window"`
}

// serverDriven reports whether an endpoint streams a server-driven
// agent's steps (its API runs the tools on the server; a configured
// stream needs step types to mark them): every scenario on it is a
// session, read from the stream, though it offers no tools and has no
// turns.
func serverDriven(e Endpoint) bool {
	spec, _ := apis.Lookup(e.API)
	return spec.Tools == apis.ServerTools && (e.Stream == nil || len(e.Stream.Types.Step) > 0)
}

// scenarioCapacity reads a scenario's capacity: and refuses what it
// cannot search: the load it sets itself (concurrency, rate, requests),
// a range upside down or too fine, too few requests per level.
func (p *parser) scenarioCapacity(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	rc := rs.Capacity
	if rc == nil {
		return
	}
	ip += ".capacity"
	kl := func(key string) int { return p.line(ip + "." + key) }
	c := &Capacity{Vary: vocab.Vary(rc.Vary), Line: p.line(ip), MaxDuration: cfg.Limits.MaxDuration}
	s.Capacity = c
	for key, given := range map[string]bool{"concurrency": rs.Concurrency != nil, "rate": rs.Rate != nil, "requests": rs.Requests != nil} {
		if given {
			p.errf(p.line(strings.TrimSuffix(ip, ".capacity")+"."+key), "scenario %q: %s: a capacity search sets each level's load and requests itself (capacity.vary, capacity.requests_per_level): drop %s", s.Name, key, key)
		}
	}
	switch c.Vary {
	case vocab.VaryConcurrency, vocab.VaryRate:
	case "":
		p.errf(c.Line, "scenario %q: capacity.vary is required: concurrency (users at once) or rate (requests per second)", s.Name)
		return
	default:
		p.errf(kl("vary"), "scenario %q: capacity.vary: want concurrency or rate, got %q", s.Name, rc.Vary)
		return
	}
	if rc.Levels != nil {
		p.capacityLadder(s.Name, ip, rc, c, kl)
	} else {
		c.From = p.load(s.Name, c.Vary, "from", rc.From, kl("from"), c.Line)
		c.To = p.load(s.Name, c.Vary, "to", rc.To, kl("to"), c.Line)
		p.capacityRange(s.Name, rc, c, kl)
	}
	c.RequestsPerLevel = DefaultRequestsPerLevel
	if n := rc.RequestsPerLevel; n != nil {
		c.RequestsPerLevel = *n
		if *n < MinRequestsPerLevel {
			p.errf(kl("requests_per_level"), "scenario %q: capacity.requests_per_level is %d: a level needs at least %d requests (p95 needs %d successful ones to be tested at all)", s.Name, *n, MinRequestsPerLevel, MinRequestsPerLevel)
		}
	}
	s.Requests = c.RequestsPerLevel
	if m := rc.MaxRequests; m != nil {
		c.MaxRequests = *m
		if *m < c.RequestsPerLevel+s.Warmup {
			p.errf(kl("max_requests"), "scenario %q: capacity.max_requests %d is less than one level (%d requests and %d warmup)", s.Name, *m, c.RequestsPerLevel, s.Warmup)
		}
	}
	if d := rc.MaxDuration; d != nil {
		v, err := ParseDuration(d.Value)
		if err == nil && v <= 0 {
			err = fmt.Errorf("want a positive duration such as 20m, got %q", d.Value)
		}
		if err != nil {
			p.errf(kl("max_duration"), "scenario %q: capacity.max_duration: %v", s.Name, err)
		}
		c.MaxDuration = v
	}
	p.ladderWindow(s.Name, rc, c, kl)
	if rc.SLO.Kind != 0 {
		budgets, floors := p.budgetsAt(fmt.Sprintf("scenario %q: capacity.slo", s.Name), &rc.SLO.Node, cfg)
		c.SLO = append(budgets, floors...)
	}
}

// load reads from or to: whole users at once, or a rate with its unit.
func (p *parser) load(name string, vary vocab.Vary, key string, v *scalar, line, capLine int) float64 {
	if v == nil {
		p.errf(capLine, "scenario %q: capacity.%s is required", name, key)
		return math.NaN()
	}
	if vary == vocab.VaryRate {
		r, err := ParseRate(v.Value)
		if err != nil {
			p.errf(line, "scenario %q: capacity.%s: %v", name, key, err)
			return math.NaN()
		}
		return r
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.Value))
	if err != nil || n < 1 {
		p.errf(line, "scenario %q: capacity.%s: want a whole number of users of at least 1, got %q", name, key, v.Value)
		return math.NaN()
	}
	return float64(n)
}

// capacityRange checks from ≤ to and reads step (1 user, or from's rate).
func (p *parser) capacityRange(name string, rc *rawCapacity, c *Capacity, kl func(string) int) {
	if math.IsNaN(c.From) || math.IsNaN(c.To) {
		return
	}
	if c.From > c.To {
		p.errf(kl("from"), "scenario %q: capacity.from (%s) is above capacity.to (%s): the search goes up from from to to", name, rc.From.Value, rc.To.Value)
		return
	}
	c.Step = 1
	if c.Vary == vocab.VaryRate {
		c.Step = c.From
	}
	if rc.Step != nil {
		c.Step = p.load(name, c.Vary, "step", rc.Step, kl("step"), c.Line)
	}
	if c.Step > 0 && (c.To-c.From)/c.Step > maxLevels {
		p.errf(kl("step"), "scenario %q: capacity.step: more than %d levels from from to to: take a larger step", name, maxLevels)
	}
}

// capacitySLOs gives every capacity search its SLO (the suite's budgets
// when capacity.slo is not given) and refuses one that cannot be decided:
// none at all, a statistic no search tests, a metric the scenario's
// endpoints do not report, too few requests per level to show it holds.
func (p *parser) capacitySLOs(cfg *Config) {
	for _, s := range cfg.Scenarios {
		c := s.Capacity
		if c == nil {
			continue
		}
		if c.SLO == nil {
			for _, b := range append(slices.Clone(cfg.Budgets), cfg.Floors...) {
				if b.Metric != vocab.CacheHitRate {
					c.SLO = append(c.SLO, b)
				}
			}
		}
		if len(c.SLO) == 0 {
			p.errf(c.Line, "scenario %q: capacity needs an SLO: give capacity.slo (such as {ttft: {p95: 800}}) or budgets", s.Name)
		}
		for _, b := range c.SLO {
			p.checkObjective(s, b, cfg)
		}
	}
}

// checkObjective refuses an objective a search cannot decide.
func (p *parser) checkObjective(s Scenario, b Budget, cfg *Config) {
	c := s.Capacity
	if b.Metric == vocab.CacheHitRate {
		p.errf(b.Line, "scenario %q: capacity.slo: cache_hit_rate is not an objective of a level (it is a share of tokens, not of requests)", s.Name)
		return
	}
	for _, e := range cfg.EndpointsFor(s) {
		if !reported(b.Metric, s, e) {
			p.errf(b.Line, "scenario %q: capacity.slo: endpoint %q does not report %s on this scenario (it is a session metric: the scenario has no tools or turns, and the endpoint streams no agent's steps)", s.Name, e.Name, b.Metric)
			return
		}
	}
	// The share of requests the objective allows to miss it.
	share := b.Value // errors.rate
	if q, ok := b.Stat.Quantile(); ok {
		share = 1 - q
	} else if b.Metric == vocab.Goodput {
		share = 1 - b.Value
	}
	// A level measured again reaches its most requests: an objective must
	// be able to hold there (and is then decided on its estimates until
	// it does).
	alpha := cfg.Regression.Alpha
	if c.Levels != nil {
		p.ladderObjective(s.Name, b, share, alpha, c)
		return
	}
	if need, most := vocab.MinHold(share, alpha), vocab.MostPerLevel(c.RequestsPerLevel); most < need {
		p.errf(b.Line, "scenario %q: capacity.slo: %s %s can be shown to hold at alpha %g only with %s requests at a level, and a level measures at most %d (%d × requests_per_level %d, measured again while undecided): raise requests_per_level to %s",
			s.Name, b.Metric, b.Stat, alpha, holdNeed(need), most, most/c.RequestsPerLevel, c.RequestsPerLevel, holdNeed(perLevelFor(need)))
	}
}

// perLevelFor is the fewest requests per level whose most reaches n.
func perLevelFor(n int) int {
	if n >= math.MaxInt32 {
		return n
	}
	k := n / vocab.MostPerLevel(1)
	for vocab.MostPerLevel(k) < n {
		k++
	}
	return k
}

func holdNeed(n int) string {
	if n >= math.MaxInt32 {
		return "no number of"
	}
	return strconv.Itoa(n)
}

// reported says whether endpoint e reports metric m on scenario s: the
// session metrics need a session (tools or turns) or a server-driven
// agent; every stream reports the others.
func reported(m vocab.Metric, s Scenario, e Endpoint) bool {
	switch m {
	case vocab.FirstToolCall:
		return len(s.Tools) > 0 || serverDriven(e)
	case vocab.Answer, vocab.Session, vocab.StepCount:
		return s.IsSession() || serverDriven(e)
	}
	return true
}

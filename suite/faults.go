package suite

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Upstream is one of a scenario's upstreams (upstreams: in latgate.yaml):
// latgate's fault proxy listens at Listen, which the team's gateway is
// configured to call, and forwards to To.
type Upstream struct {
	Name, Listen, To string
	Line             int
}

// Phase is one phase of a scenario with phases: a run of the scenario,
// in order, with the faults its upstreams' proxies inject.
type Phase struct {
	Name     string
	Requests int
	Faults   []Fault
	Line     int
}

// Fault is a fault a phase injects in front of an upstream: Kind on a
// Share of the upstream's requests, with its parameters (Delay:
// slow_first_token; After: stall_mid_stream's events; Status and
// RetryAfter: http).
type Fault struct {
	Upstream   string
	Kind       vocab.FaultKind
	Share      float64
	Delay      time.Duration
	After      int
	Status     int
	RetryAfter string
	Line       int
}

// MaxFaultDelay bounds a slow_first_token's delay.
const MaxFaultDelay = 10 * time.Minute

type rawUpstream struct {
	Listen string `yaml:"listen"`
	To     string `yaml:"to"`
}

type rawPhase struct {
	Name     string     `yaml:"name"`
	Requests *int       `yaml:"requests"`
	Faults   []rawFault `yaml:"faults"`
}

type rawFault struct {
	Upstream   string   `yaml:"upstream"`
	Kind       string   `yaml:"kind"`
	Share      *float64 `yaml:"share"`
	Delay      *scalar  `yaml:"delay"`
	After      *int     `yaml:"after"`
	Status     *int     `yaml:"status"`
	RetryAfter string   `yaml:"retry_after"`
}

// scenarioUpstreams reads a scenario's upstreams (in name order) and its
// phases, and refuses what cannot run: an address not host:port, one on
// another host than the loopback in front of a local upstream, an
// upstream that is no URL, a phase without requests, a fault naming no
// upstream, a share outside [0, 1], a fault's missing parameter.
func (p *parser) scenarioUpstreams(ip string, rs rawScenario, s *Scenario) {
	names := make([]string, 0, len(rs.Upstreams))
	for n := range rs.Upstreams {
		names = append(names, n)
	}
	sort.Strings(names)
	listens := map[string]string{}
	for _, n := range names {
		u := p.upstream(ip+".upstreams."+n, s.Name, n, rs.Upstreams[n])
		if other, ok := listens[u.Listen]; ok && u.Listen != "" {
			p.errf(u.Line, "scenario %q: upstreams %q and %q both listen on %s: one proxy an address", s.Name, other, n, u.Listen)
		}
		listens[u.Listen] = n
		s.Upstreams = append(s.Upstreams, u)
	}
	if len(rs.Phases) == 0 {
		return
	}
	for key, given := range map[string]bool{"capacity": rs.Capacity != nil, "workload": rs.Workload != nil, "requests: {min, max}": rs.Requests != nil && rs.Requests.Range != nil} {
		if given {
			p.errf(p.line(ip+".phases"), "scenario %q: phases run the scenario in turn at its load: give no %s beside them", s.Name, key)
		}
	}
	seen := map[string]bool{}
	for i, rp := range rs.Phases {
		ph := p.phase(fmt.Sprintf("%s.phases[%d]", ip, i), *s, rp)
		if seen[ph.Name] {
			p.errf(ph.Line, "scenario %q: phase %q is named twice", s.Name, ph.Name)
		}
		seen[ph.Name] = true
		s.Phases = append(s.Phases, ph)
	}
}

// upstream reads one upstream.
func (p *parser) upstream(path, scenario, name string, ru rawUpstream) Upstream {
	to, secrets := p.expandIn(path+".to", fmt.Sprintf("scenario %q", scenario), "upstreams."+name+".to", ru.To)
	p.upstreamSecrets = append(p.upstreamSecrets, secrets...)
	u := Upstream{Name: name, Listen: ru.Listen, To: to, Line: p.line(path)}
	if !phaseNameRE(name) {
		p.errf(u.Line, "scenario %q: upstream %q: a name is letters, digits, - and _ (up to 64)", scenario, name)
	}
	host, port, err := net.SplitHostPort(ru.Listen)
	if err != nil || port == "" {
		p.errf(p.line(path+".listen"), "scenario %q: upstreams.%s.listen: want host:port, such as 127.0.0.1:9101, got %q", scenario, name, ru.Listen)
		return u
	}
	if p.opt.SkipKeys && strings.Contains(ru.To, "${") {
		return u // checked with the environment
	}
	tu, err := url.Parse(to)
	if err != nil || (tu.Scheme != "http" && tu.Scheme != "https") || tu.Host == "" {
		// The value as written: one from the environment is not echoed.
		p.errf(p.line(path+".to"), "scenario %q: upstreams.%s.to: want the upstream's URL, such as http://127.0.0.1:8000, got %q", scenario, name, ru.To)
		return u
	}
	if local(tu.Hostname()) && !loopback(host) {
		p.errf(p.line(path+".listen"), "scenario %q: upstreams.%s.listen %s is not on the loopback, but its upstream is local: the proxy would open it to the network; listen on 127.0.0.1", scenario, name, ru.Listen)
	}
	return u
}

// loopback reports whether host is the loopback by its address or name
// (localhost, in any case, with or without the root's dot).
func loopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// local reports whether an upstream at host is on this machine: the
// loopback, a name under localhost. (RFC 6761), or the unspecified
// address (0.0.0.0, ::), which a connection reaches this machine by.
func local(host string) bool {
	if loopback(host) || strings.HasSuffix(strings.ToLower(strings.TrimSuffix(host, ".")), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsUnspecified()
}

// phase reads one phase and its faults.
func (p *parser) phase(path string, s Scenario, rp rawPhase) Phase {
	ph := Phase{Name: rp.Name, Requests: s.Requests, Line: p.line(path)}
	if !phaseNameRE(rp.Name) {
		p.errf(ph.Line, "scenario %q: a phase's name is letters, digits, - and _ (up to 64), got %q", s.Name, rp.Name)
	}
	if rp.Requests != nil {
		ph.Requests = *rp.Requests
		if ph.Requests < 1 {
			p.errf(p.line(path+".requests"), "scenario %q: phase %q: requests must be at least 1, got %d: a phase without requests measures nothing", s.Name, rp.Name, ph.Requests)
		}
	}
	for i, rf := range rp.Faults {
		ph.Faults = append(ph.Faults, p.fault(fmt.Sprintf("%s.faults[%d]", path, i), s, rp.Name, rf))
	}
	return ph
}

// fault reads one fault of a phase.
func (p *parser) fault(path string, s Scenario, phase string, rf rawFault) Fault {
	f := Fault{Upstream: rf.Upstream, Kind: vocab.FaultKind(rf.Kind), Share: 1, RetryAfter: rf.RetryAfter, Line: p.line(path)}
	where := fmt.Sprintf("scenario %q: phase %q: fault", s.Name, phase)
	if !slices.ContainsFunc(s.Upstreams, func(u Upstream) bool { return u.Name == rf.Upstream }) {
		p.errf(f.Line, "%s: upstream %q is not one of the scenario's upstreams (%s)", where, rf.Upstream, upstreamNames(s))
	}
	if !slices.Contains(vocab.FaultKinds, f.Kind) {
		p.errf(f.Line, "%s: kind %q: want one of %s", where, rf.Kind, faultKindNames())
	}
	if rf.Share != nil {
		f.Share = *rf.Share
		if !(f.Share >= 0 && f.Share <= 1) {
			p.errf(p.line(path+".share"), "%s: share %v: want the fraction of the upstream's requests it hits, from 0 to 1", where, f.Share)
		}
	}
	p.faultParams(path, where, rf, &f)
	return f
}

// faultParams reads a fault's parameters: each where its kind needs it,
// and only there.
func (p *parser) faultParams(path, where string, rf rawFault, f *Fault) {
	needs := func(key string, given bool, kind vocab.FaultKind, required bool, example string) {
		switch {
		case required && f.Kind == kind && !given:
			p.errf(f.Line, "%s: %s needs %s, such as %s", where, f.Kind, key, example)
		case given && f.Kind != kind:
			p.errf(p.line(path+"."+key), "%s: %s is a parameter of %s, not of %s", where, key, kind, f.Kind)
		}
	}
	needs("delay", rf.Delay != nil, vocab.SlowFirstToken, true, "delay: 2s")
	needs("status", rf.Status != nil, vocab.HTTPError, true, "status: 503")
	needs("retry_after", rf.RetryAfter != "", vocab.HTTPError, false, "")
	needs("after", rf.After != nil, vocab.StallMidStream, false, "")
	if f.Kind == vocab.StallMidStream {
		f.After = 1 // by default the stream stops after its first event
	}
	if rf.Delay != nil {
		d, err := ParseDuration(rf.Delay.Value)
		if err != nil || d <= 0 || d > MaxFaultDelay {
			p.errf(p.line(path+".delay"), "%s: delay: want a duration above 0 and at most %s, got %q", where, MaxFaultDelay, rf.Delay.Value)
		}
		f.Delay = d
	}
	if rf.Status != nil {
		f.Status = *rf.Status
		if f.Status < 400 || f.Status > 599 {
			p.errf(p.line(path+".status"), "%s: status %d: want an error status, 400 to 599", where, f.Status)
		}
	}
	if rf.After != nil {
		f.After = *rf.After
		if f.After < 0 || f.After > 1_000_000 {
			p.errf(p.line(path+".after"), "%s: after %d: want the events forwarded before the stall, 0 to 1000000", where, f.After)
		}
	}
	if len(rf.RetryAfter) > 64 || strings.ContainsAny(rf.RetryAfter, "\r\n") {
		p.errf(p.line(path+".retry_after"), "%s: retry_after: want seconds or an HTTP date on one line", where)
	}
}

func upstreamNames(s Scenario) string {
	var out []string
	for _, u := range s.Upstreams {
		out = append(out, u.Name)
	}
	if len(out) == 0 {
		return "it has none: give upstreams"
	}
	return strings.Join(out, ", ")
}

func faultKindNames() string {
	var out []string
	for _, k := range vocab.FaultKinds {
		out = append(out, string(k))
	}
	return strings.Join(out, ", ")
}

// phaseNameRE: a phase's or an upstream's name is a key of the results
// (a run's scenario is the scenario's name, "/" and the phase's).
func phaseNameRE(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

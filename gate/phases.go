package gate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/proxy"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// phasesOf is what a scenario runs as: each of its phases, in order, as
// a scenario of its own (its name the scenario's, "/" and the phase's,
// its requests the phase's, the warmup the first phase's only); the
// scenario itself when it has none.
func phasesOf(s suite.Scenario) []suite.Scenario {
	if len(s.Phases) == 0 {
		return []suite.Scenario{s}
	}
	out := make([]suite.Scenario, len(s.Phases))
	for i := range s.Phases {
		ps := s
		ps.Name, ps.Requests, ps.Phase, ps.Phases = s.Name+"/"+s.Phases[i].Name, s.Phases[i].Requests, &s.Phases[i], nil
		if i > 0 {
			ps.Warmup = 0 // the phase before warmed the connections; a fault phase's requests are its own
		}
		if i < len(s.Phases)-1 {
			ps.Cold = nil // the cold samples follow the last phase, in its run
		}
		out[i] = ps
	}
	return out
}

// faultPlan is how a group of a scenario with upstreams names its
// requests (vocab.RequestHeader, which the proxies log) and which
// faults its phase injects.
type faultPlan struct {
	upstreams []suite.Upstream
	phase     *suite.Phase
	nonce     string
	group     int
	// events are, once the group's measurement is done, what every proxy
	// saw of it.
	events map[string][]proxy.Event // by upstream name
}

// id is the request id of item k of side v.
func (fp *faultPlan) id(v vocab.Side, k int) string {
	return fmt.Sprintf("%s-%d-%s-%d", fp.nonce, fp.group, v, k)
}

// item makes request k of side v carry its id.
func (fp *faultPlan) item(v vocab.Side) func(int, *probe.Request) {
	return func(k int, r *probe.Request) {
		h := maps.Clone(r.Headers)
		if h == nil {
			h = map[string]string{}
		}
		h[vocab.RequestHeader] = fp.id(v, k)
		r.Headers = h
	}
}

// proxies are the run's fault proxies, one per listen address.
type proxies struct {
	mu     sync.Mutex
	byName map[string]*proxy.Proxy
}

// startProxies starts a proxy for every upstream of the plan, before any
// request: an address in use is bad input, as is one upstream name or
// address given two ways by two scenarios.
func startProxies(ctx context.Context, m *measurement, secrets []string) (*proxies, error) {
	ps := &proxies{byName: map[string]*proxy.Proxy{}}
	seen := map[string]suite.Upstream{}
	for _, pl := range m.plan {
		if pl.faults == nil {
			continue
		}
		for _, u := range pl.faults.upstreams {
			if prev, ok := seen[u.Name]; ok {
				if prev.Listen != u.Listen || prev.To != u.To {
					ps.close()
					return nil, BadInputf("upstream %q is given twice, differently (listen %s to %s, and listen %s to %s): give one upstream a name", u.Name, prev.Listen, prev.To, u.Listen, u.To)
				}
				continue
			}
			seen[u.Name] = u
			p, err := proxy.Start(ctx, proxy.Config{Name: u.Name, Listen: u.Listen, To: u.To, Secrets: secrets})
			if err != nil {
				ps.close()
				return nil, BadInputf("upstream %q: %v", u.Name, err)
			}
			ps.byName[u.Name] = p
		}
	}
	return ps, nil
}

func (ps *proxies) close() {
	if ps == nil {
		return
	}
	for _, p := range ps.byName {
		_ = p.Close()
	}
}

// measuring sets group g's faults on its proxies before its measured
// requests, and returns what takes their logs when they are done.
func (ps *proxies) measuring(m *measurement, g int) func() {
	if g >= len(m.plan) || m.plan[g].faults == nil {
		return func() {}
	}
	fp := m.plan[g].faults
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for name, p := range ps.byName {
		p.Reset()
		var fs []proxy.Fault
		if fp.phase != nil {
			for _, f := range fp.phase.Faults {
				if f.Upstream == name {
					fs = append(fs, proxy.Fault{Kind: f.Kind, Share: f.Share, Delay: f.Delay, After: f.After, Status: f.Status, RetryAfter: f.RetryAfter})
				}
			}
		}
		_ = p.SetFaults(fs) // the suite checked every fault
	}
	return func() {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		fp.events = map[string][]proxy.Event{}
		for name, p := range ps.byName {
			fp.events[name] = p.Events()
			_ = p.SetFaults(nil)
			p.Reset()
		}
	}
}

// join fills each request of the group from the proxies' logs: which
// upstream served it (its Latgate-Upstream header, else the last proxy
// that saw it) and, when a proxy faulted it before another served it,
// the time from the first to the other (FailoverMs).
func (fp *faultPlan) join(v vocab.Side, reqs []results.Request, items []int) {
	type seen struct {
		at       time.Time
		upstream string
		fault    vocab.FaultKind
	}
	byID := map[string][]seen{}
	for name, evs := range fp.events {
		for _, e := range evs {
			if e.ID != "" {
				byID[e.ID] = append(byID[e.ID], seen{at: e.Arrived, upstream: name, fault: e.Fault})
			}
		}
	}
	for i := range reqs {
		if i >= len(items) || items[i] < 1 {
			continue
		}
		ss := byID[fp.id(v, items[i]-1)]
		slices.SortFunc(ss, func(a, b seen) int { return a.at.Compare(b.at) })
		q := &reqs[i]
		if q.Upstream == "" && len(ss) > 0 {
			q.Upstream = ss[len(ss)-1].upstream
		}
		for _, s := range ss {
			if s.fault == "" || s.upstream == q.Upstream {
				continue
			}
			for _, t := range ss {
				if t.upstream == q.Upstream && t.at.After(s.at) {
					q.FailoverMs = optMs(t.at.Sub(s.at))
					break
				}
			}
			break
		}
	}
}

// faultsOf is what group g's phase injected, with the requests each hit.
func (fp *faultPlan) faultsOf() []results.Fault {
	if fp == nil || fp.phase == nil {
		return nil
	}
	var out []results.Fault
	for _, f := range fp.phase.Faults {
		hit := 0
		for _, e := range fp.events[f.Upstream] {
			if e.Fault == f.Kind {
				hit++
			}
		}
		out = append(out, results.Fault{Upstream: f.Upstream, Kind: f.Kind, Share: f.Share, DelayMs: ms(f.Delay), AfterEvents: f.After,
			Status: f.Status, RetryAfter: f.RetryAfter, Hit: hit})
	}
	return out
}

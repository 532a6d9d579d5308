package gate

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

func TestProgressCountsMeasuredRequestsWithETA(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	m := &measurement{
		plan:   []planned{{scenario: suite.Scenario{Name: "chat"}, endpoint: suite.Endpoint{Name: "e"}}},
		groups: []probe.Group{{Requests: 10, Warmup: 3, Concurrency: 1}}, measuredPlanned: 10,
	}
	p := newProgress(&out, false, m, nil, now)
	for i := 0; i < 3; i++ { // warmup: timed, not counted
		clock = clock.Add(3 * time.Second)
		p.record(0, probe.Record{OK: false}, true)
	}
	for i := 1; i <= 10; i++ {
		clock = clock.Add(3 * time.Second)
		p.record(0, probe.Record{OK: i != 4}, false)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, want := range []string{
		"latgate: plan: 1 scenario, 10 requests, 1 lane of 1 request in flight; at 3s a request (the first wave): about 30s",
		"latgate: 1/10 requests (10%), 0 failed, 12s elapsed, about 27s left, now chat @ e",
		"latgate: 2/10 requests (20%), 0 failed, 15s elapsed, about 24s left, now chat @ e",
	} {
		if lines[i] != want {
			t.Errorf("line %d\n got %q\nwant %q", i, lines[i], want)
		}
	}
	if got, want := lines[len(lines)-1], "latgate: 10/10 requests (100%), 1 failed, 39s elapsed, about 0s left, now chat @ e"; got != want {
		t.Errorf("last line\n got %q\nwant %q", got, want)
	}
}

// TestProgressCountsTheLooks: an adaptive A/B scenario on 4 lanes says its
// plan (a range of requests, the looks, the duration from a stop at the
// first look to max) after its first wave of 4 requests, and its time left
// to the next look as well as to max; once a look stopped it, the next
// scenario's requests are all that is left.
func TestProgressCountsTheLooks(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	head := probe.Request{}
	g := probe.Group{Requests: 40, Concurrency: 1, Lanes: 4, Head: &head, MinRequests: 10, Batch: 10}
	m := &measurement{
		plan:   []planned{{scenario: suite.Scenario{Name: "a"}, endpoint: suite.Endpoint{Name: "e"}}, {scenario: suite.Scenario{Name: "b"}, endpoint: suite.Endpoint{Name: "e"}}},
		groups: []probe.Group{g, g}, measuredPlanned: 160,
	}
	next, stopped := 10, false
	looks := func(gi int) (int, bool) {
		if gi == 0 {
			return next, stopped
		}
		return 10, false
	}
	p := newProgress(&out, false, m, looks, now)
	clock = clock.Add(2 * time.Second)
	for range 4 { // the first wave: 4 requests of 2 s at once
		p.record(0, probe.Record{OK: true}, false)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if want := "latgate: plan: 2 scenarios, 10 to 40 requests per side, base and head interleaved in blocks of 4 + 4, 4 lanes of 1 request in flight, adaptive (a look every 10 per side, stopping early for a pass or a regression); at 2s a request (the first scenario's first wave; each scenario has its own pace): 24s (a stop at the first look) to 1m20s (to max)"; lines[0] != want {
		t.Errorf("plan line\n got %q\nwant %q", lines[0], want)
	}
	// After the first wave: 4 in flight take 2 s, 0.5 s a request; 16 to
	// the look at 10 per side, 156 to max.
	if want := "latgate: 4/160 requests (2%), 0 failed, 2s elapsed, about 8s to the look at 10 per side, at most 1m18s left, now a @ e"; lines[1] != want {
		t.Errorf("progress line\n got %q\nwant %q", lines[1], want)
	}
	next, stopped = 0, true
	for range 5 { // 9 requests in 4.5 s: 0.5 s each
		clock = clock.Add(500 * time.Millisecond)
		p.record(0, probe.Record{OK: true}, false)
	}
	if got := p.left(0, clock.Sub(p.measured)); got != "about 40s left" {
		t.Errorf("after the stop: %q, want the second scenario's 80 requests at 0.5 s", got)
	}
}

// TestProgressSaysTheSearches: a scenario at one load, then a capacity
// search (1 to 8 users, 40 requests a level: at most 200). The plan line
// says the search after the scenario's own plan, and the time left is at
// most the search's requests more, at the pace so far: a search ends where
// its SLO fails, so nothing tells how many it sends.
func TestProgressSaysTheSearches(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	ep := suite.Endpoint{Name: "e"}
	capSc := suite.Scenario{Name: "cap", Capacity: &suite.Capacity{Vary: vocab.VaryConcurrency, From: 1, To: 8, Step: 1, RequestsPerLevel: 40}}
	m := &measurement{
		plan:   []planned{{scenario: suite.Scenario{Name: "chat"}, endpoint: ep}},
		groups: []probe.Group{{Requests: 10, Concurrency: 1}}, measuredPlanned: 210,
		searches: []searchPlan{{head: planned{scenario: capSc, endpoint: ep}}},
	}
	p := newProgress(&out, false, m, nil, now)
	clock = clock.Add(3 * time.Second)
	p.record(0, probe.Record{OK: true}, false)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, want := range []string{
		"latgate: plan: 1 scenario, 10 requests, 1 lane of 1 request in flight; at 3s a request (the first wave): about 30s; " +
			"then 1 capacity search (cap @ e: 1 to 8 users, 40 requests a level), at most 200 requests",
		"latgate: 1/210 requests (0%), 0 failed, 3s elapsed, at most 10m27s left, now chat @ e", // 9 + 200 at 3 s
	} {
		if i >= len(lines) || lines[i] != want {
			t.Fatalf("line %d\n got %q\nwant %q", i, lines, want)
		}
	}
	// The search's first level begun: its own 40, and 160 more at most.
	m.plan = append(m.plan, planned{scenario: capSc, endpoint: ep, level: &levelPlan{}})
	m.groups = append(m.groups, probe.Group{Requests: 40, Concurrency: 1})
	for range 9 { // the scenario's other 9, 3 s each
		clock = clock.Add(3 * time.Second)
		p.record(0, probe.Record{OK: true}, false)
	}
	p.record(1, probe.Record{OK: true}, false) // 11 in 30 s
	if got := p.left(1, clock.Sub(p.measured)); got != "at most "+roundDur(time.Duration(199)*30*time.Second/11)+" left" {
		t.Errorf("in the search: %q", got)
	}
}

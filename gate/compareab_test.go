package gate

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// TestCompareABBaseDown: when no base request succeeded the variants
// cannot be compared; that is an outage (could not run, with an example of
// the failure), not bad input.
func TestCompareABBaseDown(t *testing.T) {
	v := 100.0
	ok := results.Request{OK: true, Status: 200, TTFTMs: &v, TotalMs: &v, Block: 1}
	down := results.Request{Error: "dial tcp 127.0.0.1:1: connect: connection refused", Block: 1}
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		{Endpoint: "e", Scenario: "s", Variant: vocab.Base, Requests: []results.Request{down, down}},
		{Endpoint: "e", Scenario: "s", Variant: vocab.Head, Requests: []results.Request{ok, ok}},
	}}
	th, err := Thresholds(nil, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = CompareAB(f, "ab.json", th)
	if got, want := KindOf(err), CannotRun; got != want {
		t.Errorf("kind %v, want %v (%v)", got, want, err)
	}
	if err == nil || !strings.Contains(err.Error(), "no base request succeeded (for example: dial tcp 127.0.0.1:1: connect: connection refused)") {
		t.Errorf("error %v: want the cause", err)
	}
}

// TestABAcrossTwoHostsReusesConnections: base and head on two servers
// (two builds of the team's service) keep their connections between
// requests; an idle pool sized for one suite's endpoints dropped the other
// host's connection at every switch, adding a connect to most requests.
func TestABAcrossTwoHostsReusesConnections(t *testing.T) {
	var urls []string
	for range 2 {
		srv := httptest.NewServer(sim.New(sim.Profile{TTFT: sim.Fixed(time.Millisecond), ITL: sim.Fixed(0), Tokens: 4}, 1))
		t.Cleanup(srv.Close)
		urls = append(urls, srv.URL)
	}
	parse := func(url string) *suite.Config {
		cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: app, base_url: "+url+"/v1, model: m}\n"+
			"scenarios:\n  - {name: s, prompt: hi, max_tokens: 4, requests: 20, warmup: 1, concurrency: 1}\n"), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	f, err := MeasureAB(context.Background(), parse(urls[0]), parse(urls[1]), MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range f.Runs {
		cold := 0
		for _, q := range run.Requests {
			if !q.Reused {
				cold++
			}
		}
		if cold > 0 {
			t.Errorf("%s: %d of %d measured requests opened a new connection, want 0 (warmup opened it)", run.Variant, cold, len(run.Requests))
		}
	}
}

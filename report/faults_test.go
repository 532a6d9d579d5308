package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// phaseRun is a phase's run of 12 requests, each served by serve(i).
func phaseRun(phase string, faults []results.Fault, serve func(i int) string) results.Run {
	r := results.Run{Endpoint: "gw", Scenario: "outage/" + phase, Phase: phase, Faults: faults}
	for i := range 12 {
		v := 100.0 + float64(i)
		r.Requests = append(r.Requests, results.Request{OK: true, TTFTMs: &v, TotalMs: &v, Upstream: serve(i)})
	}
	if phase == "down" { // a 503 of the primary's proxy: served by none
		r.Requests = append(r.Requests, results.Request{Status: 503, Error: "HTTP 503", Failure: vocab.HTTPStatus, Upstream: "primary"})
	}
	return r
}

// TestFaultLine: a phase's run says what its proxies injected and which
// upstream served its requests on each side, in every format; a name
// from the file is escaped where it is shown.
func TestFaultLine(t *testing.T) {
	down := []results.Fault{{Upstream: "primary", Kind: vocab.StallFirstToken, Share: 1, Hit: 12}, {Upstream: "<b>secondary</b>", Kind: vocab.SlowFirstToken, Share: 0.25, DelayMs: 2000, Hit: 3}}
	base := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		phaseRun("down", down, func(i int) string { return "<b>secondary</b>" })}}
	cur := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		phaseRun("down", down, func(i int) string {
			if i < 9 {
				return "<b>secondary</b>"
			}
			return "primary"
		})}}
	th := compare.Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, FailOn: []vocab.Status{vocab.Regression}}
	pairs := results.Match(base, cur)
	rep := Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
	want := "Phase down: stall_first_token on primary (every request; 12 hit), slow_first_token by 2000 ms on <b>secondary</b> (25% of requests; 3 hit); served: <b>secondary</b> 9 of 12, primary 3 of 12 (base: <b>secondary</b> 12 of 12)"
	if got := rep.Scenarios[0].FaultLine(); got != want {
		t.Fatalf("fault line\n got %s\nwant %s", got, want)
	}
	var text, html bytes.Buffer
	Text(&text, rep, false)
	if err := HTML(&html, rep); err != nil {
		t.Fatal(err)
	}
	md := Markdown(rep, MarkdownOptions{})
	for name, out := range map[string]string{"text": text.String(), "markdown": md, "html": html.String()} {
		if !strings.Contains(out, "on primary (every request; 12 hit)") || !strings.Contains(out, "primary 3 of 12") {
			t.Errorf("%s: no fault line:\n%s", name, out)
		}
		if name != "text" && strings.Contains(out, "<b>secondary</b>") {
			t.Errorf("%s: an upstream's name from the file is not escaped", name)
		}
	}
	plain := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{phaseRun("x", nil, func(int) string { return "" })}}
	plain.Runs[0].Phase = ""
	p2 := results.Match(plain, plain)
	if l := Build(p2, compare.Compare(compare.Pairs(p2), th), th).Scenarios[0].FaultLine(); l != "" {
		t.Errorf("a run without upstreams: %q", l)
	}
}

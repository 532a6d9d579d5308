package gate

import (
	"github.com/latgate/latgate/vocab"

	"strings"
	"testing"

	"github.com/latgate/latgate/results"
)

// TestCompareABBaseDown: when no base request succeeded the variants
// cannot be compared; that is an outage (could not run, with an example of
// the failure), not bad input.
func TestCompareABBaseDown(t *testing.T) {
	t.Parallel()
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

package results

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestValidateTraceAndPhase: a results file's workload, trace entries,
// phase and faults are hostile input like the rest of it: what no run
// gives is refused, naming the run and the key.
func TestValidateTraceAndPhase(t *testing.T) {
	v, big := 100.0, 2e9
	req := func(edit func(q *Request)) Request {
		q := Request{OK: true, TTFTMs: &v, TotalMs: &v}
		edit(&q)
		return q
	}
	w := func() *Workload {
		return &Workload{Trace: "t.jsonl", Format: "mooncake", Lines: 10, Sample: 4, Seed: "ab", Timing: "replay", Strata: []int{10, 20}, Tokens: TokenModel{PerWord: 1, Source: "prompt_tokens"}}
	}
	traced := req(func(q *Request) { q.Trace = &TraceRef{Line: 3, Input: 12, Stratum: 2} })
	for _, tt := range []struct {
		name string
		run  Run
		want string // "" valid
	}{
		{"a replay", Run{Workload: w(), Requests: []Request{traced}}, ""},
		{"a stratum the workload has not", Run{Workload: w(), Requests: []Request{req(func(q *Request) { q.Trace = &TraceRef{Line: 3, Input: 12, Stratum: 3} })}}, "a request is in stratum 3 but the workload has 2 strata"},
		{"a trace entry without a workload", Run{Requests: []Request{traced}}, "requests replay a trace (trace) but the run has no workload"},
		{"strata out of order", Run{Workload: func() *Workload { x := w(); x.Strata = []int{20, 10}; return x }(), Requests: []Request{traced}}, "workload.strata: 2 bounds, want 1 to 64 in increasing order"},
		{"a line 0", Run{Workload: w(), Requests: []Request{req(func(q *Request) { q.Trace = &TraceRef{Stratum: 1} })}}, "trace: a line, a length or a turn out of range"},
		{"a control character", Run{Workload: func() *Workload { x := w(); x.Trace = "t\x1b[2J"; return x }(), Requests: []Request{traced}}, "workload: over 300 bytes or not printable text"},
		{"a phase", Run{Phase: "down", Faults: []Fault{{Upstream: "primary", Kind: vocab.StallFirstToken, Share: 1, Hit: 3}}, Requests: []Request{req(func(q *Request) { q.Upstream = "secondary"; q.FailoverMs = &v })}}, ""},
		{"a fault kind", Run{Faults: []Fault{{Upstream: "p", Kind: "explode", Share: 1}}, Requests: []Request{req(func(*Request) {})}}, `faults[0].kind is "explode": not a kind of fault`},
		{"a share", Run{Faults: []Fault{{Upstream: "p", Kind: vocab.Reset, Share: 2}}, Requests: []Request{req(func(*Request) {})}}, "faults[0].share is 2: a share is from 0 to 1"},
		{"a failover", Run{Requests: []Request{req(func(q *Request) { q.FailoverMs = &big })}}, "failover_ms is 2e+09"},
		{"an upstream", Run{Requests: []Request{req(func(q *Request) { q.Upstream = strings.Repeat("x", 65) })}}, "upstream: over 64 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.run.Endpoint, tt.run.Scenario = "e", "s"
			f := &File{Schema: Schema, MetricsVersion: MetricsVersion, ID: strings.Repeat("ab", idBytes), Runs: []Run{tt.run}}
			err := f.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

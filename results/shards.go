package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/latgate/latgate/vocab"
)

// MergeShards combines the legs of an Actions matrix that each measured a
// share of the same suite at the same moment: the runs of one (endpoint,
// scenario, variant, level) become one run holding every leg's requests,
// its Shards the legs that measured it (each at the run's load: the server
// saw Shards times it). Legs whose suites differ are refused: another set
// of runs, another fingerprint or configuration, another capacity search,
// another metrics version. An A/B file's blocks are numbered anew per leg
// (they were sent at the same moments only within a leg). The outcomes of
// capacity searches are the first leg's (a leg's cut cuts the merged
// search): decide them again from the merged levels (package capacity).
func MergeShards(files []*File, names []string) (*File, error) {
	if len(files) < 2 {
		return nil, errors.New("--shards needs the files of at least two legs")
	}
	first := files[0]
	for i, f := range files[1:] {
		if err := sameSuite(first, f, names[0], names[i+1]); err != nil {
			return nil, err
		}
	}
	out := *first
	out.Runs = make([]Run, len(first.Runs))
	out.Notes = []string{fmt.Sprintf("merged from %d shards (latgate merge --shards): each run holds every leg's requests", len(files))}
	out.Capacity = slices.Clone(first.Capacity)
	var runners, incomplete []string
	for i, f := range files {
		runners = appendUnique(runners, f.Source.Runner)
		if f.Incomplete != "" {
			incomplete = append(incomplete, names[i]+": "+f.Incomplete)
		}
		if f.CreatedAt.After(out.CreatedAt) {
			out.CreatedAt = f.CreatedAt
		}
	}
	for j := range first.Runs {
		out.Runs[j] = mergeRun(files, j)
	}
	for k := range out.Capacity {
		out.Capacity[k].Requests, out.Capacity[k].DurationMs = 0, 0
		for _, f := range files {
			leg := f.Capacity[k]
			out.Capacity[k].Requests += leg.Requests
			out.Capacity[k].DurationMs = max(out.Capacity[k].DurationMs, leg.DurationMs)
			if leg.Stop == vocab.Capped || leg.Stop == vocab.Interrupted || leg.Stop == vocab.FailedFast {
				out.Capacity[k].Stop, out.Capacity[k].StopReason = leg.Stop, leg.StopReason // a leg's cut cuts the whole
			}
		}
	}
	out.Source.Runner = strings.Join(runners, ",")
	out.Incomplete = strings.Join(incomplete, "; ")
	out.CostUSD = sumCost(files, func(f *File) *float64 { return f.CostUSD })
	return &out, nil
}

// mergeRun is run j of every leg (sameSuite put them in the same order)
// as one run.
func mergeRun(files []*File, j int) Run {
	r := files[0].Runs[j]
	r.Requests, r.Shards = nil, 0
	r.CostUSD = sumCost(files, func(f *File) *float64 { return f.Runs[j].CostUSD })
	blocks := 0
	for _, f := range files {
		leg := f.Runs[j]
		r.Shards += max(leg.Shards, 1)
		most := 0
		for _, q := range leg.Requests {
			if q.Block > 0 {
				most = max(most, q.Block)
				q.Block += blocks
			}
			r.Requests = append(r.Requests, q)
		}
		blocks += most
	}
	if r.Requests == nil {
		r.Requests = []Request{}
	}
	return r
}

// sumCost adds up a cost over the legs; nil when none has one.
func sumCost(files []*File, of func(*File) *float64) *float64 {
	var sum *float64
	for _, f := range files {
		if v := of(f); v != nil {
			s := *v
			if sum != nil {
				s += *sum
			}
			sum = &s
		}
	}
	return sum
}

// sameSuite refuses two legs that did not measure the same suite: their
// runs (in the same order, with the same fingerprint and configuration),
// their capacity searches (the same settings and levels) and metrics.
func sameSuite(a, b *File, an, bn string) error {
	differ := func(what string) error {
		return fmt.Errorf("%s and %s measured different suites (%s): the legs of a sharded matrix run the same suite", an, bn, what)
	}
	switch {
	case a.MetricsVersion != b.MetricsVersion:
		return differ(fmt.Sprintf("metrics_version %d and %d", a.MetricsVersion, b.MetricsVersion))
	case len(a.Runs) != len(b.Runs):
		return differ(fmt.Sprintf("%d and %d runs", len(a.Runs), len(b.Runs)))
	case len(a.Capacity) != len(b.Capacity):
		return differ(fmt.Sprintf("%d and %d capacity searches", len(a.Capacity), len(b.Capacity)))
	}
	for i := range a.Runs {
		ra, rb := &a.Runs[i], &b.Runs[i]
		switch {
		case ra.Key() != rb.Key():
			return differ(fmt.Sprintf("runs[%d] is endpoint %q, scenario %q%s in one and endpoint %q, scenario %q%s in the other (a leg's --region labels its endpoints)",
				i, ra.Endpoint, ra.Scenario, levelLabel(ra), rb.Endpoint, rb.Scenario, levelLabel(rb)))
		case ra.Fingerprint != rb.Fingerprint || ra.Config != rb.Config || ra.Model != rb.Model:
			return differ(fmt.Sprintf("endpoint %q, scenario %q%s is configured otherwise", ra.Endpoint, ra.Scenario, levelLabel(ra)))
		case ra.RequestsMin > 0:
			return fmt.Errorf("%s: endpoint %q, scenario %q is adaptive (requests: {min, max}): its sequential design is a leg's own, so it cannot be sharded; give it a fixed count", an, ra.Endpoint, ra.Scenario)
		case ra.Level != nil && !sameLevel(*ra.Level, *rb.Level):
			return differ(fmt.Sprintf("endpoint %q, scenario %q searched level %g at step %d in one and %g in the other: drive one level per leg (capacity from = to)",
				ra.Endpoint, ra.Scenario, ra.Level.Value, ra.Level.Step, rb.Level.Value))
		}
	}
	for i := range a.Capacity {
		if !sameSettings(a.Capacity[i], b.Capacity[i]) {
			return differ(fmt.Sprintf("the capacity search of endpoint %q, scenario %q", a.Capacity[i].Endpoint, a.Capacity[i].Scenario))
		}
	}
	return nil
}

// sameSettings reports whether two searches have the same settings (their
// outcomes may differ).
func sameSettings(a, b Search) bool {
	clear := func(s Search) []byte {
		s.Stop, s.StopReason, s.Capacity, s.Lower, s.Upper, s.GoodputRPS, s.GoodputTPS, s.Requests, s.DurationMs = "", "", nil, nil, nil, nil, nil, 0, 0
		out, _ := json.Marshal(s)
		return out
	}
	return bytes.Equal(clear(a), clear(b))
}

// sameLevel reports whether two legs measured the same level at the same
// step (its status may differ: each leg decided it on its own requests).
func sameLevel(a, b Level) bool {
	a.Status, b.Status = "", ""
	return a == b
}

func levelLabel(r *Run) string {
	if r.Level == nil {
		return ""
	}
	return fmt.Sprintf(" at %s %g", r.Level.Vary, r.Level.Value)
}

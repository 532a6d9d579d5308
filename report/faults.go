package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/latgate/latgate/results"
)

// maxUpstreams bounds the upstreams a run's digest counts (a results file
// is hostile input: one name a request would grow it without end).
const maxUpstreams = 16

// FaultLine says, of a run of a scenario with upstreams, what its phase's
// proxies injected and which upstream served its requests, each side:
// "Phase primary-down: stall_first_token on primary (every request; 60
// hit); served: secondary 60 of 60 (base: secondary 60 of 60)"; "" for a
// run without upstreams. Names from the file are the caller's to escape.
func (s Scenario) FaultLine() string {
	var cur, base map[string]int
	if s.CurrentDigest != nil {
		cur = s.CurrentDigest.Upstreams
	}
	if s.BaseDigest != nil {
		base = s.BaseDigest.Upstreams
	}
	run := s.CurrentRun
	if run == nil || (len(cur) == 0 && len(base) == 0 && len(run.Faults) == 0) {
		return ""
	}
	var b strings.Builder
	if run.Phase != "" {
		fmt.Fprintf(&b, "Phase %s: ", run.Phase)
	}
	if len(run.Faults) == 0 {
		b.WriteString("no fault")
	}
	for i, f := range run.Faults {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(faultWords(f))
	}
	if len(cur) > 0 {
		fmt.Fprintf(&b, "; served: %s", servedWords(cur))
	}
	if len(base) > 0 {
		fmt.Fprintf(&b, " (base: %s)", servedWords(base))
	}
	return b.String()
}

// faultWords is one fault: "stall_first_token on primary (every
// request; 60 hit)", "slow_first_token by 2000 ms on primary (25% of
// requests; 15 hit)".
func faultWords(f results.Fault) string {
	what := string(f.Kind)
	switch {
	case f.DelayMs > 0:
		what += " by " + Millis(f.DelayMs) + " ms"
	case f.Status > 0:
		what += fmt.Sprintf(" %d", f.Status)
	case f.AfterEvents > 0:
		what += fmt.Sprintf(" after %d %s", f.AfterEvents, pluralWord(f.AfterEvents, "event", "events"))
	}
	share := "every request"
	if f.Share < 1 {
		share = pct(f.Share) + " of requests"
	}
	return fmt.Sprintf("%s on %s (%s; %s hit)", what, f.Upstream, share, grouped(f.Hit))
}

// servedWords is "secondary 45 of 60, primary 15 of 60": each upstream's
// successful requests, most first, of all those an upstream served.
func servedWords(n map[string]int) string {
	total := 0
	for _, c := range n {
		total += c
	}
	names := slices.Sorted(maps.Keys(n))
	slices.SortStableFunc(names, func(a, b string) int { return n[b] - n[a] })
	parts := make([]string, len(names))
	for i, u := range names {
		parts[i] = fmt.Sprintf("%s %s of %s", u, grouped(n[u]), grouped(total))
	}
	return strings.Join(parts, ", ")
}

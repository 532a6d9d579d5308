package gate

import (
	"fmt"
	"math"
	"slices"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// capacityChange is the comparison of one (endpoint, scenario)'s capacity
// searches: hasBase false when only the head searched it.
type capacityChange struct {
	endpoint, scenario string
	hasBase            bool
	sameSLO            bool
	change             capacity.Change
}

// replayed decides every search of f again from its levels, by key.
func replayed(f *results.File, name string) (map[string]capacity.Result, error) {
	out := map[string]capacity.Result{}
	if f == nil {
		return out, nil
	}
	for _, rec := range f.Capacity {
		r, err := capacity.Replay(f, rec)
		if err != nil {
			return nil, BadInputf("%s: %v", name, err)
		}
		out[rec.Key()] = r
	}
	return out, nil
}

// capacityChanges compares the capacity searches of head with base's (a
// stored baseline; nil for none), or, when base is head, an A/B file's
// head variant with its base variant, at tolerance.
func capacityChanges(base, head *results.File, baseName, headName string, tolerance float64) ([]capacityChange, error) {
	heads, err := replayed(head, headName)
	if err != nil {
		return nil, err
	}
	bases := heads
	if base != head {
		if bases, err = replayed(base, baseName); err != nil {
			return nil, err
		}
	}
	var out []capacityChange
	for _, rec := range head.Capacity {
		if base == head && rec.Variant != vocab.Head {
			continue
		}
		bk := results.Search{Endpoint: rec.Endpoint, Scenario: rec.Scenario}
		if base == head {
			bk.Variant = vocab.Base
		}
		c := capacityChange{endpoint: rec.Endpoint, scenario: rec.Scenario}
		h := heads[rec.Key()]
		b, ok := bases[bk.Key()]
		if c.hasBase = ok; !ok {
			c.change = capacity.Change{Head: h, Status: vocab.NoBaseline, DeltaPct: math.NaN()}
		} else {
			c.sameSLO = slices.Equal(b.Spec.SLO, h.Spec.SLO) && b.Spec.Vary == h.Spec.Vary
			c.change = capacity.Compare(b, h, tolerance)
			if !c.sameSLO {
				c.change.Status = vocab.Inconclusive
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// applyCapacity adds each capacity comparison to the report, one line
// each, and fails its verdict on a capacity regression when regressions
// fail the gate.
func applyCapacity(rep *report.Report, changes []capacityChange, th compare.Config) {
	var regressed []string
	for _, c := range changes {
		name := report.EscapeName(c.scenario) + " @ " + report.EscapeName(c.endpoint)
		rep.Warnings = append(rep.Warnings, "capacity of "+name+": "+changeText(c, th.Tolerance))
		if c.change.Status == vocab.Regression {
			regressed = append(regressed, fmt.Sprintf("%s holds %s, base %s", name,
				loadText(c.change.Head, c.change.Head.Capacity), loadText(c.change.Base, c.change.Base.Capacity)))
		}
	}
	if len(regressed) == 0 || !slices.Contains(th.FailOn, vocab.Regression) {
		return
	}
	rep.Verdict = vocab.Fail
	head := "capacity regression: " + regressed[0]
	if len(regressed) > 1 {
		head += fmt.Sprintf(" (and %d more)", len(regressed)-1)
	}
	if rep.Headline != "" {
		head += "; " + rep.Headline
	}
	rep.Headline = head
}

// loadText is a load of r's search, "8 users" or "2.5 requests/s", or
// "none" for NaN.
func loadText(r capacity.Result, v float64) string {
	if math.IsNaN(v) {
		return "none"
	}
	v *= float64(max(r.Shards, 1))
	if r.Spec.Vary == vocab.VaryRate {
		return fmt.Sprintf("%g requests/s", v)
	}
	return fmt.Sprintf("%g users", v)
}

// changeText says one capacity comparison: the head's capacity, the
// base's, the change and its status.
func changeText(c capacityChange, tolerance float64) string {
	h, b := c.change.Head, c.change.Base
	if !c.hasBase {
		return CapacityText(h, "") + "; no base to compare with"
	}
	s := fmt.Sprintf("%s at %s (%s); base %s (%s)", loadText(h, h.Capacity), sloText(h.Spec.SLO), span(h), loadText(b, b.Capacity), span(b))
	if !math.IsNaN(c.change.DeltaPct) {
		s += fmt.Sprintf(": %+.0f %%", c.change.DeltaPct)
	}
	tol := fmt.Sprintf("%g %%", 100*tolerance)
	switch c.change.Status {
	case vocab.Regression:
		return s + ", a capacity regression: lower beyond " + tol + " with confidence"
	case vocab.Improvement:
		return s + ", an improvement beyond " + tol + " with confidence"
	case vocab.Inconclusive:
		switch {
		case !c.sameSLO:
			return s + ", inconclusive: base and head are searched at different SLOs"
		case !h.Complete() || !b.Complete():
			return s + ", inconclusive: a search was cut"
		}
		return s + ", inconclusive: a change beyond " + tol + " without confidence"
	}
	return s + ", no change beyond " + tol
}

// commonSearches counts the searches of head that base searched too (an
// A/B file's head searches with a base variant when base is head).
func commonSearches(base, head *results.File) int {
	if base == nil {
		return 0
	}
	keys := map[string]bool{}
	for _, rec := range base.Capacity {
		if base != head || rec.Variant == vocab.Base {
			keys[rec.Endpoint+"\x00"+rec.Scenario] = true
		}
	}
	n := 0
	for _, rec := range head.Capacity {
		if (base != head || rec.Variant == vocab.Head) && keys[rec.Endpoint+"\x00"+rec.Scenario] {
			n++
		}
	}
	return n
}

// span is a search's interval, "6 to 7", or "none to 7".
func span(r capacity.Result) string {
	n := func(v float64) string {
		if math.IsNaN(v) {
			return "none"
		}
		return fmt.Sprintf("%g", v*float64(max(r.Shards, 1)))
	}
	return n(r.Capacity) + " to " + n(r.Upper)
}

// mergeShards combines the legs of a sharded matrix (results.MergeShards)
// and decides each capacity search again from its merged levels: more
// requests a level, at the legs' load together.
func mergeShards(files []*results.File, names []string) (*results.File, error) {
	m, err := results.MergeShards(files, names)
	if err != nil {
		return nil, err
	}
	for i, rec := range m.Capacity {
		r, err := capacity.Decide(m, rec)
		if err != nil {
			return nil, fmt.Errorf("%v: the legs' levels do not make one search; drive one level per leg (capacity from = to)", err)
		}
		m.Capacity[i] = r.Record(rec.Endpoint, rec.Scenario, rec.Variant, rec.StopReason)
		m.Capacity[i].MaxRequests, m.Capacity[i].MaxDurationMs = rec.MaxRequests, rec.MaxDurationMs
	}
	return m, nil
}

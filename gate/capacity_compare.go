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

// replayed decides every search of f again from its levels, by key: each
// search's side as the report shows it.
func replayed(f *results.File, name string) (map[string]report.CapacitySide, error) {
	out := map[string]report.CapacitySide{}
	if f == nil {
		return out, nil
	}
	for _, rec := range f.Capacity {
		r, err := capacity.Replay(f, rec)
		if err != nil {
			return nil, BadInputf("%s: %v", name, err)
		}
		out[rec.Key()] = report.CapacitySideOf(f, rec, r)
	}
	return out, nil
}

// capacityChanges compares the capacity searches of head with base's (a
// stored baseline; nil for none), or, when base is head, an A/B file's
// head variant with its base variant, at tolerance.
func capacityChanges(base, head *results.File, baseName, headName string, tolerance float64) ([]report.Capacity, error) {
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
	var out []report.Capacity
	for _, rec := range head.Capacity {
		if base == head && rec.Variant != vocab.Head {
			continue
		}
		bk := results.Search{Endpoint: rec.Endpoint, Scenario: rec.Scenario}
		if base == head {
			bk.Variant = vocab.Base
		}
		c := report.Capacity{Endpoint: rec.Endpoint, Scenario: rec.Scenario, Head: heads[rec.Key()], Tolerance: tolerance,
			Status: vocab.NoBaseline, DeltaPct: math.NaN(), SameSLO: true}
		if b, ok := bases[bk.Key()]; ok {
			h := c.Head.Result
			ch := capacity.Compare(b.Result, h, tolerance)
			c.Base, c.Status, c.DeltaPct = &b, ch.Status, ch.DeltaPct
			if c.SameSLO = slices.Equal(b.Result.Spec.SLO, h.Spec.SLO) && b.Result.Spec.Vary == h.Spec.Vary; !c.SameSLO {
				c.Status = vocab.Inconclusive
			}
		}
		c.Cost = report.CostOf(c.Base, c.Head, tolerance, c.SameSLO)
		out = append(out, c)
	}
	return out, nil
}

// applyCapacity adds the capacity comparisons to the report and fails its
// verdict on a capacity or cost regression when regressions fail the gate, and on
// a head search that was cut (never a pass); the headline says them.
func applyCapacity(rep *report.Report, changes []report.Capacity, th compare.Config) {
	rep.Capacity = changes
	for _, c := range changes {
		regressed := c.Status == vocab.Regression || c.CostRegressed()
		if regressed && slices.Contains(th.FailOn, vocab.Regression) || !c.Head.Result.Complete() {
			rep.Verdict = vocab.Fail
		}
	}
	rep.Headline = report.Headline(rep)
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

package results

import (
	"fmt"
	"maps"
	"sort"
	"strconv"

	"github.com/latgate/latgate/vocab"
)

// Pair is a run matched between the baseline (or the base variant) and the
// current run (the head); Base or Head is nil when the scenario is new or
// was removed.
type Pair = vocab.Pair[*Run]

// Changed lists what differs between a pair's runs in what changes their
// latency: the parts of their fingerprints ("max_tokens 128 → 256", or
// "configuration" when the parts are not known) and the load they were
// measured at, which the fingerprint does not hold whole (loadChanges:
// "lanes 1 → 48"); nil when nothing differs or one side is missing.
func Changed(p Pair) []string {
	if p.Base == nil || p.Head == nil {
		return nil
	}
	out := append(fingerprintChanges(p), loadChanges(p.Base, p.Head)...)
	sort.Strings(out)
	return out
}

// fingerprintChanges lists what differs between the fingerprints of a
// pair's runs; nil when they are the same.
func fingerprintChanges(p Pair) []string {
	if p.Base.Fingerprint == p.Head.Fingerprint {
		return nil
	}
	a, b := p.Base.FingerprintParts, p.Head.FingerprintParts
	if p.Base.Variant == vocab.Base && p.Head.Variant == vocab.Head && a["host"] != b["host"] {
		// An A/B run measures two deployments by design: their hosts
		// differ, and that is no change of the scenario.
		a, b = maps.Clone(a), maps.Clone(b)
		delete(a, "host")
		delete(b, "host")
		if maps.Equal(a, b) {
			return nil
		}
	}
	return diffParts(a, b)
}

// loadChanges lists how the load two runs were measured at differs (their
// config): the lanes (copies of the scenario's load run at once) and the
// matrix legs merged as shards, each of which multiplies the load the
// endpoint met, and the concurrency or rate where the fingerprints' parts
// do not say it (an imported run, a file without parts): "lanes 1 → 48",
// "concurrency 4 → 8", "rate 2/s → 4/s".
func loadChanges(a, b *Run) []string {
	var out []string
	one := func(n int) int { return max(n, 1) } // 0: one lane, one leg
	if x, y := one(a.Config.Lanes), one(b.Config.Lanes); x != y {
		out = append(out, fmt.Sprintf("lanes %d → %d", x, y))
	}
	if x, y := one(a.Shards), one(b.Shards); x != y {
		out = append(out, fmt.Sprintf("shards %d → %d", x, y))
	}
	inParts := func(k string) bool { return a.FingerprintParts[k] != "" || b.FingerprintParts[k] != "" }
	if x, y := a.Config.Concurrency, b.Config.Concurrency; x != y && !inParts("concurrency") && !inParts("rate") {
		out = append(out, fmt.Sprintf("concurrency %d → %d", x, y))
	}
	if x, y := a.Config.Rate, b.Config.Rate; x != y && !inParts("rate") && !inParts("concurrency") {
		out = append(out, fmt.Sprintf("rate %s/s → %s/s", strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(y, 'g', -1, 64)))
	}
	return out
}

// Match pairs runs by (endpoint, scenario), in the current file's order,
// then removed runs. The levels of capacity searches are not paired: a
// search is compared as a whole (package capacity).
func Match(base, cur *File) []Pair {
	idx := map[string]*Run{}
	if base != nil {
		for i := range base.Runs {
			idx[base.Runs[i].Key()] = &base.Runs[i]
		}
	}
	var out []Pair
	used := map[string]bool{}
	for i := range cur.Runs {
		c := &cur.Runs[i]
		if c.Level != nil {
			continue
		}
		p := Pair{Endpoint: c.Endpoint, Scenario: c.Scenario, Head: c}
		if b, ok := idx[c.Key()]; ok {
			p.Base = b
			used[c.Key()] = true
		}
		out = append(out, p)
	}
	if base != nil {
		for i := range base.Runs {
			b := &base.Runs[i]
			if !used[b.Key()] && b.Level == nil {
				out = append(out, Pair{Endpoint: b.Endpoint, Scenario: b.Scenario, Base: b})
			}
		}
	}
	return out
}

func diffParts(a, b map[string]string) []string {
	if len(a) == 0 || len(b) == 0 {
		return []string{"configuration"}
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		if a[k] != b[k] {
			switch {
			case a[k] == "":
				out = append(out, fmt.Sprintf("%s set to %s", k, b[k]))
			case b[k] == "":
				out = append(out, fmt.Sprintf("%s removed (was %s)", k, a[k]))
			case k == "messages":
				out = append(out, "messages changed")
			default:
				out = append(out, fmt.Sprintf("%s %s → %s", k, a[k], b[k]))
			}
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		out = []string{"configuration"}
	}
	return out
}

// MatchVariants pairs the base and head runs of an interleaved A/B file by
// (endpoint, scenario), in the file's order of head runs, then base runs
// that have no head; the levels of capacity searches are not paired.
// Confirmation runs (Run.Confirm) are left out: MatchConfirmations pairs
// those.
func MatchVariants(f *File) []Pair { return matchVariants(f, false) }

// MatchConfirmations pairs the confirmation runs of an A/B file as
// MatchVariants pairs the others.
func MatchConfirmations(f *File) []Pair { return matchVariants(f, true) }

func matchVariants(f *File, confirm bool) []Pair {
	key := func(r *Run) string { return r.Endpoint + "\x00" + r.Scenario }
	base := map[string]*Run{}
	for i := range f.Runs {
		if f.Runs[i].Variant == vocab.Base && f.Runs[i].Level == nil && f.Runs[i].Confirm == confirm {
			base[key(&f.Runs[i])] = &f.Runs[i]
		}
	}
	var out []Pair
	used := map[string]bool{}
	for i := range f.Runs {
		h := &f.Runs[i]
		if h.Variant != vocab.Head || h.Level != nil || h.Confirm != confirm {
			continue
		}
		p := Pair{Endpoint: h.Endpoint, Scenario: h.Scenario, Head: h}
		if b, ok := base[key(h)]; ok {
			p.Base, used[key(h)] = b, true
		}
		out = append(out, p)
	}
	for i := range f.Runs {
		b := &f.Runs[i]
		if b.Variant == vocab.Base && b.Level == nil && b.Confirm == confirm && !used[key(b)] {
			out = append(out, Pair{Endpoint: b.Endpoint, Scenario: b.Scenario, Base: b})
		}
	}
	return out
}

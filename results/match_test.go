package results

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

func run(endpoint, scenario, fp string, parts map[string]string) Run {
	v := 100.0
	return Run{Endpoint: endpoint, Scenario: scenario, Fingerprint: fp, FingerprintParts: parts,
		Requests: []Request{{OK: true, TTFTMs: &v, TotalMs: &v, ITLMs: []float64{}}}}
}

func file(runs ...Run) *File {
	return &File{Schema: Schema, MetricsVersion: MetricsVersion, Runs: runs}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	base := file(run("e", "a", "fp1", map[string]string{"max_tokens": "128", "model": "m"}), run("e", "gone", "x", nil))
	cur := file(run("e", "a", "fp2", map[string]string{"max_tokens": "256", "model": "m"}), run("e", "new", "y", nil))
	pairs := Match(base, cur)
	if len(pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(pairs))
	}
	if p := pairs[0]; p.Base == nil || p.Head == nil || len(Changed(p)) != 1 || Changed(p)[0] != "max_tokens 128 → 256" {
		t.Errorf("pair a: %+v", p)
	}
	if p := pairs[1]; p.Base != nil || p.Scenario != "new" {
		t.Errorf("new scenario: %+v", p)
	}
	if p := pairs[2]; p.Head != nil || p.Scenario != "gone" {
		t.Errorf("removed scenario: %+v", p)
	}
}

func TestMatchVariants(t *testing.T) {
	t.Parallel()
	b1, h1, h2 := run("e", "a", "fp1", nil), run("e", "a", "fp2", nil), run("e", "new", "y", nil)
	b1.Variant, h1.Variant, h2.Variant = vocab.Base, vocab.Head, vocab.Head
	f := file(h1, b1, h2)
	pairs := MatchVariants(f)
	if len(pairs) != 2 {
		t.Fatalf("%d pairs, want 2", len(pairs))
	}
	if p := pairs[0]; p.Base != &f.Runs[1] || p.Head != &f.Runs[0] || p.Base.Variant != vocab.Base {
		t.Errorf("pair a: %+v, want the file's base and head runs", p)
	}
	if p := pairs[1]; p.Base != nil || p.Head != &f.Runs[2] {
		t.Errorf("head-only scenario: %+v", p)
	}
}

// TestChangedAB: the two deployments of an A/B run differ in host by
// design, which is no change; a host changed since a stored baseline, or
// another key changed between the variants, is.
func TestChangedAB(t *testing.T) {
	t.Parallel()
	parts := func(host, tokens string) map[string]string {
		return map[string]string{"host": host, "max_tokens": tokens, "model": "m"}
	}
	ab := func(b, h Run) Pair {
		b.Variant, h.Variant = vocab.Base, vocab.Head
		return Pair{Endpoint: "e", Scenario: "a", Base: &b, Head: &h}
	}
	b, h := run("e", "a", "fp1", parts("base.internal", "128")), run("e", "a", "fp2", parts("pr-42.internal", "128"))
	if got := Changed(ab(b, h)); got != nil {
		t.Errorf("A/B across two hosts: %q, want no change", got)
	}
	if got := Changed(Pair{Base: &b, Head: &h}); len(got) != 1 || got[0] != "host base.internal → pr-42.internal" {
		t.Errorf("a stored baseline on another host: %q", got)
	}
	h2 := run("e", "a", "fp3", parts("pr-42.internal", "256"))
	if got := Changed(ab(b, h2)); len(got) != 1 || got[0] != "max_tokens 128 → 256" {
		t.Errorf("A/B with max_tokens changed: %q, want it alone", got)
	}
}

// The load a run was measured at is its configuration too: lanes (0 is
// one) and shards, which its fingerprint does not hold, and the
// concurrency or rate where the fingerprint's parts do not name them.
func TestChangedNamesTheLoad(t *testing.T) {
	t.Parallel()
	parts := map[string]string{"concurrency": "1", "model": "m"}
	for _, tt := range []struct {
		name string
		edit func(base, head *Run)
		want string
	}{
		{"the same", func(*Run, *Run) {}, ""},
		{"one lane written as 0 and as 1", func(b, h *Run) { h.Config.Lanes = 1 }, ""},
		{"lanes", func(b, h *Run) { h.Config.Lanes = 48 }, "lanes 1 → 48"},
		{"shards", func(b, h *Run) { b.Shards = 4 }, "shards 4 → 1"},
		{"lanes and concurrency", func(b, h *Run) {
			h.Config.Lanes, h.Fingerprint, h.FingerprintParts = 48, "fp2", map[string]string{"concurrency": "4", "model": "m"}
		}, "concurrency 1 → 4, lanes 1 → 48"},
		{"concurrency without parts", func(b, h *Run) {
			b.FingerprintParts, h.FingerprintParts, b.Config.Concurrency, h.Config.Concurrency = nil, nil, 4, 8
		}, "concurrency 4 → 8"},
	} {
		base, head := run("e", "s", "fp", parts), run("e", "s", "fp", parts)
		base.Config.Concurrency, head.Config.Concurrency = 1, 1
		tt.edit(&base, &head)
		if got := strings.Join(Changed(Pair{Base: &base, Head: &head}), ", "); got != tt.want {
			t.Errorf("%s: changed %q, want %q", tt.name, got, tt.want)
		}
	}
}

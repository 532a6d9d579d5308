package results

import (
	"strings"
	"testing"
)

func TestMerge(t *testing.T) {
	t.Parallel()
	a := file(run("us", "s", "fp", nil))
	a.Source.Region = "us"
	b := file(run("eu", "s", "fp", nil), run("us", "s", "fp", nil))
	b.Source.Region = "eu"
	m, err := Merge([]*File{a, b}, []string{"a.json", "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 2 || m.Source.Region != "us,eu" {
		t.Errorf("merged %d runs, region %q; want the identical duplicate once", len(m.Runs), m.Source.Region)
	}
	c := file(run("us", "s", "other", nil))
	if _, err := Merge([]*File{a, c}, []string{"a.json", "c.json"}); err == nil || !strings.Contains(err.Error(), `endpoint "us", scenario "s" is in both a.json and c.json`) {
		t.Errorf("conflict: err = %v", err)
	}
}

// TestMergeKeepsWhatMatters: an incomplete part makes the merged file
// incomplete, costs add up over the kept runs, and an A/B file does not
// merge with a plain one.
func TestMergeKeepsWhatMatters(t *testing.T) {
	t.Parallel()
	cost := func(r Run, usd float64) Run { r.CostUSD = &usd; return r }
	a := file(cost(run("us", "s", "fp", nil), 0.25))
	b := file(cost(run("eu", "s", "fp", nil), 0.5))
	b.Incomplete = "interrupted by a signal"
	m, err := Merge([]*File{a, b}, []string{"a.json", "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Incomplete, "b.json: interrupted by a signal"; got != want {
		t.Errorf("incomplete %q, want %q", got, want)
	}
	if m.CostUSD == nil || *m.CostUSD != 0.75 {
		t.Errorf("cost %v, want 0.75", m.CostUSD)
	}
	if m, _ := Merge([]*File{a, a}, []string{"a.json", "again.json"}); m.CostUSD == nil || *m.CostUSD != 0.25 || m.Incomplete != "" {
		t.Errorf("the same run twice: cost %v (want 0.25, counted once), incomplete %q", m.CostUSD, m.Incomplete)
	}
	abRun := run("us", "s", "fp", nil)
	abRun.Variant = "base"
	ab := file(abRun)
	if _, err := Merge([]*File{a, ab}, []string{"plain.json", "ab.json"}); err == nil || !strings.Contains(err.Error(), "ab.json is an interleaved A/B file (latgate ab) and plain.json is not") {
		t.Errorf("A/B with plain: err = %v", err)
	}
}

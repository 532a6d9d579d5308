package results

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestBudgetsRecorded: a file's budgets are validated as a suite sets
// them; a merge keeps the budgets its files agree on and records none when
// they differ; sharded legs measured with other budgets are refused.
func TestBudgetsRecorded(t *testing.T) {
	t.Parallel()
	p95 := &Budgets{Limits: []Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}, {Metric: vocab.Goodput, Stat: vocab.Rate, Value: 0.95}},
		Goodput: []SLO{{Metric: vocab.TTFT, MaxMs: 800}}}
	f := file(run("e", "s", "fp", nil))
	f.Budgets = p95
	if err := f.Validate(); err != nil {
		t.Fatalf("a suite's budgets: %v", err)
	}
	for _, bad := range []struct {
		b    Budgets
		want string
	}{
		{Budgets{Limits: []Budget{{Metric: vocab.TTFT, Stat: vocab.Mean, Value: 800}}}, "ttft mean: no budget is set on it"},
		{Budgets{Limits: []Budget{{Metric: vocab.Errors, Stat: vocab.Rate, Value: 2}}}, "a rate is a fraction from 0 to 1"},
		{Budgets{Limits: []Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: -1}}}, "a time is from 0"},
		{Budgets{Goodput: []SLO{{Metric: vocab.Errors, MaxMs: 1}}}, `"errors" is no latency`},
	} {
		f.Budgets = &bad.b
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("budgets %+v: %v, want %q", bad.b, err, bad.want)
		}
	}
	a, b := file(run("us", "s", "fp", nil)), file(run("eu", "s", "fp", nil))
	a.Budgets, b.Budgets = p95, &Budgets{Limits: []Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}, {Metric: vocab.Goodput, Stat: vocab.Rate, Value: 0.95}}, Goodput: []SLO{{Metric: vocab.TTFT, MaxMs: 800}}}
	if m, err := Merge([]*File{a, b}, []string{"a", "b"}); err != nil || !m.Budgets.Equal(p95) {
		t.Errorf("merging files of the same budgets: %v, budgets %+v", err, m.Budgets)
	}
	b.Budgets = nil
	if m, err := Merge([]*File{a, b}, []string{"a", "b"}); err != nil || m.Budgets != nil {
		t.Errorf("merging files of other budgets: %v, budgets %+v, want none", err, m.Budgets)
	}
	leg := file(run("us", "s", "fp", nil))
	if _, err := MergeShards([]*File{a, leg}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "different suites (budgets)") {
		t.Errorf("shards of other budgets: %v", err)
	}
}

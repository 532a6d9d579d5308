package results

import (
	"math"
	"strings"
	"testing"
)

// A search's price and cost are checked like its other outcomes: a price
// above 0 and at most a million USD an hour, a cost only beside its price
// and within what that price can give, neither in a search of a design
// before version 3 (hostile values of a results file).
func TestSearchCostChecked(t *testing.T) {
	t.Parallel()
	v := func(x float64) *float64 { return &x }
	ok := file(level(run("e", "s", "fp", nil), 1, 1))
	ok.Capacity = []Search{search()}
	ok.Capacity[0].Version, ok.Capacity[0].CostPerHour, ok.Capacity[0].CostPerMTok = 3, v(3.5), v(0.41)
	if err := ok.Validate(); err != nil {
		t.Fatalf("a priced search: %v", err)
	}
	for _, c := range []struct {
		name    string
		version int
		perHour *float64
		cost    *float64
		want    string
	}{
		{"a cost without a price", 3, nil, v(0.41), "capacity[0]: cost_per_mtok without cost_per_hour"},
		{"a price of 0", 3, v(0), nil, "capacity[0]: cost_per_hour is 0: want a price from 0.001 to 1e+06 USD an hour"},
		{"a price below a tenth of a cent", 3, v(1e-320), nil, "cost_per_hour is 1e-320"},
		{"a negative price", 3, v(-3.5), nil, "cost_per_hour is -3.5"},
		{"a huge price", 3, v(1e7), nil, "cost_per_hour is 1e+07"},
		{"a NaN price", 3, v(math.NaN()), nil, "cost_per_hour is NaN"},
		{"an infinite cost", 3, v(3.5), v(math.Inf(1)), "cost_per_mtok is +Inf"},
		{"a negative cost", 3, v(3.5), v(-1), "cost_per_mtok is -1"},
		{"a cost of 0", 3, v(3.5), v(0), "cost_per_mtok is 0"},
		{"a cost beyond any price", 3, v(3.5), v(1e15), "cost_per_mtok is 1e+15"},
		{"a price in version 2", 2, v(3.5), nil, "capacity[0]: cost_per_hour or cost_per_mtok in a search of version 2, which has none"},
		{"a price in the first design", 0, v(3.5), nil, "in a search of version 0, which has none"},
	} {
		g := file(level(run("e", "s", "fp", nil), 1, 1))
		g.Capacity = []Search{search()}
		g.Capacity[0].Version, g.Capacity[0].CostPerHour, g.Capacity[0].CostPerMTok = c.version, c.perHour, c.cost
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Legs of a sharded matrix that searched at the same price merge whatever
// cost each found alone (an outcome, decided again from the merged
// levels); legs at different prices measured different suites.
func TestMergeShardsCost(t *testing.T) {
	t.Parallel()
	leg := func(ttft, perHour, cost float64) *File {
		r := run("e", "s", "fp", nil)
		r.Requests[0].TTFTMs = &ttft // each leg's requests its own
		f := file(level(r, 2, 1))
		f.Capacity = []Search{search()}
		f.Capacity[0].Version, f.Capacity[0].CostPerHour, f.Capacity[0].CostPerMTok = 3, &perHour, &cost
		return f
	}
	if _, err := MergeShards([]*File{leg(101, 3.5, 14.2), leg(102, 3.5, 14.4)}, []string{"a", "b"}); err != nil {
		t.Fatalf("legs at one price, each its own cost: %v", err)
	}
	if _, err := MergeShards([]*File{leg(101, 3.5, 14.2), leg(102, 4.2, 14.2)}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "measured different suites") {
		t.Errorf("legs at two prices: %v", err)
	}
}

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
		{"a price of 0", 3, v(0), nil, "capacity[0]: cost_per_hour is 0: want a price above 0 and at most 1e+06 USD an hour"},
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

package gate

import (
	"cmp"
	"maps"
	"slices"
	"strconv"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// priceOf returns the cost of a record at the model's price, or false
// when the model has no price. Cached prompt tokens are billed at the
// cached-input price; output tokens (reasoning included) at the output
// price. Prices are USD per million tokens.
func priceOf(cfg *suite.Config, model string) func(probe.Record) (float64, bool) {
	p, ok := cfg.Pricing[model]
	if !ok {
		return func(probe.Record) (float64, bool) { return 0, false }
	}
	return func(r probe.Record) (float64, bool) {
		cached := min(r.CachedTokens, r.PromptTokens)
		usd := (float64(r.PromptTokens-cached)*p.Input + float64(cached)*p.CachedInput + float64(r.OutputTokens)*p.Output) / 1e6
		return usd, true
	}
}

// roundUSD keeps costs readable in files: six significant digits, so a
// request at a cheap model's price ($0.000000375) keeps its value. Sums
// add the unrounded costs (costs), never the rounded ones.
func roundUSD(v float64) *float64 {
	x, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return &x
}

// costs adds up what each variant of each (endpoint, scenario) cost,
// warmup requests included (as limits.max_cost counts them), at full
// precision. Its methods are called from the runner's aggregator.
type costs struct {
	price func(g int, rec probe.Record) (float64, bool)
	spent map[costKey]float64 // present: the model has a price
}

type costKey struct {
	group   int
	variant vocab.Side
}

func newCosts(price func(g int, rec probe.Record) (float64, bool)) *costs {
	return &costs{price: price, spent: map[costKey]float64{}}
}

// add counts a received request, measured or warmup, and returns its
// cost for the file (nil when its model has no price).
func (c *costs) add(g int, rec probe.Record) *float64 {
	usd, ok := c.price(g, rec)
	if !ok {
		return nil
	}
	c.spent[costKey{g, rec.Variant}] += usd
	return roundUSD(usd)
}

// fill sets the cost of the run of group g's variant v: its requests',
// warmup included.
func (c *costs) fill(g int, v vocab.Side, run *results.Run) {
	if usd, ok := c.spent[costKey{g, v}]; ok {
		run.CostUSD = roundUSD(usd)
	}
}

// total is what every priced request received so far cost, in a fixed
// order (the same sum every time).
func (c *costs) total() float64 {
	keys := slices.SortedFunc(maps.Keys(c.spent), func(a, b costKey) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.variant, b.variant))
	})
	var sum float64
	for _, k := range keys {
		sum += c.spent[k]
	}
	return sum
}

// fillFile sets the file's cost: every priced request received, warmup
// included, also the warmup of a scenario stopped before its first
// measured request (which has no run).
func (c *costs) fillFile(f *results.File) {
	if len(c.spent) == 0 {
		return
	}
	f.CostUSD = roundUSD(c.total())
}

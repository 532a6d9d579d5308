package gate

import (
	"math"

	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
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

// roundUSD keeps costs readable in files: to a millionth of a dollar.
func roundUSD(v float64) *float64 {
	x := math.Round(v*1e6) / 1e6
	return &x
}

// sumCosts fills each run's and the file's cost from its requests.
func sumCosts(f *results.File) {
	var all float64
	anyPriced := false
	for i := range f.Runs {
		var sum float64
		priced := false
		for _, q := range f.Runs[i].Requests {
			if q.CostUSD != nil {
				sum += *q.CostUSD
				priced = true
			}
		}
		if priced {
			f.Runs[i].CostUSD = roundUSD(sum)
			all += sum
			anyPriced = true
		}
	}
	if anyPriced {
		f.CostUSD = roundUSD(all)
	}
}

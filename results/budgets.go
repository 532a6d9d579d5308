package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/latgate/latgate/vocab"
)

// Budgets are the budgets of the suite a file was measured with (its
// budgets: and goodput:, as the comparison applies them): what latgate
// compare judges the file by when it is given no suite. A file without
// them (its suite set none, or it was written before files recorded them,
// or imported) records none.
type Budgets struct {
	// Limits are the suite's budgets: an upper limit on a latency's p50,
	// p95 or p99 in milliseconds or on errors' rate (a fraction), and a
	// floor on goodput's rate or cache_hit_rate's min (a fraction): the
	// metrics whose drop is the regression (vocab.Metric.HigherIsBetter).
	Limits []Budget `json:"limits,omitempty"`
	// Goodput is the per-request SLO a goodput floor counts the requests
	// of: each objective's most milliseconds.
	Goodput []SLO `json:"goodput,omitempty"`
}

// Budget is one limit of a suite's budgets.
type Budget struct {
	Metric vocab.Metric `json:"metric"`
	Stat   vocab.Stat   `json:"stat"`
	Value  float64      `json:"value"`
}

// SLO is one objective of the goodput SLO.
type SLO struct {
	Metric vocab.Metric `json:"metric"`
	MaxMs  float64      `json:"max_ms"`
}

// Empty reports whether b records no budget.
func (b *Budgets) Empty() bool { return b == nil || len(b.Limits) == 0 && len(b.Goodput) == 0 }

// Equal reports whether a and b record the same budgets (none equals
// none).
func (b *Budgets) Equal(o *Budgets) bool {
	if b.Empty() || o.Empty() {
		return b.Empty() == o.Empty()
	}
	x, _ := json.Marshal(b)
	y, _ := json.Marshal(o)
	return bytes.Equal(x, y)
}

// check refuses budgets no suite sets: a metric or statistic that has
// none, a latency beyond MaxMs, a rate outside 0 to 1, an SLO on a metric
// that is no latency.
func (b *Budgets) check() error {
	if b == nil {
		return nil
	}
	for i, l := range b.Limits {
		ok := slices.Contains(vocab.Latencies, l.Metric) && slices.Contains([]vocab.Stat{vocab.P50, vocab.P95, vocab.P99}, l.Stat) ||
			l.Metric.IsRate() && slices.Contains(l.Metric.Stats(), l.Stat)
		switch {
		case !ok:
			return fmt.Errorf("budgets.limits[%d]: %s %s: no budget is set on it", i, l.Metric, l.Stat)
		case l.Metric.IsRate() && !(l.Value >= 0 && l.Value <= 1):
			return fmt.Errorf("budgets.limits[%d]: %s %s is %g: a rate is a fraction from 0 to 1", i, l.Metric, l.Stat, l.Value)
		case !l.Metric.IsRate() && !(l.Value >= 0 && l.Value <= MaxMs):
			return fmt.Errorf("budgets.limits[%d]: %s %s is %g: a time is from 0 to %g ms", i, l.Metric, l.Stat, l.Value, MaxMs)
		}
	}
	for i, o := range b.Goodput {
		switch {
		case !slices.Contains(vocab.Latencies, o.Metric):
			return fmt.Errorf("budgets.goodput[%d]: %q is no latency", i, o.Metric)
		case !(o.MaxMs >= 0 && o.MaxMs <= MaxMs):
			return fmt.Errorf("budgets.goodput[%d]: %s is %g: a time is from 0 to %g ms", i, o.Metric, o.MaxMs, MaxMs)
		}
	}
	return nil
}

package report

// What a million output tokens cost at the SLO, as the reports say it: a
// row beside each capacity search's ("cost per 1M tokens at TTFT p95 ≤
// 800 ms: $0.41 → $0.52, +27%: ❌"; alone, "$0.41 per 1M output tokens at
// the capacity (12 users, $3.50/h)"), a line of its interval under it, a
// column of the levels' tables and a cost–load curve beside the
// latency–load curves. Package capacity computes the cost and decides the
// comparison (capacity.CompareCost); these are its words.

import (
	"fmt"
	"math"
	"strings"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/vocab"
)

// CapacityCost is a capacity search's cost at the SLO compared: present
// when either side gives a price.
type CapacityCost struct {
	// Status is capacity.CompareCost's (vocab.Inconclusive as well when
	// the searches' SLOs differ); vocab.NoBaseline for a head alone.
	Status vocab.Status
	// DeltaPct is the change of the cost in percent (NaN when either
	// side has none).
	DeltaPct float64
}

// CostOf is the cost comparison of head against base (nil: a head alone)
// at tolerance, as the gate and the reports make it; nil when neither
// side gives a price. sameSLO false makes it inconclusive.
func CostOf(base *CapacitySide, head CapacitySide, tolerance float64, sameSLO bool) *CapacityCost {
	if head.Result.Spec.PerHour <= 0 && (base == nil || base.Result.Spec.PerHour <= 0) {
		return nil
	}
	if base == nil {
		return &CapacityCost{Status: vocab.NoBaseline, DeltaPct: math.NaN()}
	}
	ch := capacity.CompareCost(base.Result, head.Result, tolerance)
	c := &CapacityCost{Status: ch.Status, DeltaPct: ch.DeltaPct}
	if !sameSLO {
		c.Status = vocab.Inconclusive
	}
	return c
}

// CostRegressed reports whether the cost at the SLO regressed.
func (c Capacity) CostRegressed() bool { return c.Cost != nil && c.Cost.Status == vocab.Regression }

// costUSD is a side's cost at the capacity: "$0.41", or why it has none:
// "none (no price)", "none (cut)", "none (no capacity)", "none (no
// goodput)".
func (s CapacitySide) costUSD() string {
	r := s.Result
	switch {
	case r.Spec.PerHour <= 0:
		return "none (no price)"
	case !r.Complete():
		return "none (cut)"
	case math.IsNaN(r.Capacity):
		return "none (no capacity)"
	case math.IsNaN(r.Cost()):
		return "none (no goodput)"
	}
	return money.USD(r.Cost())
}

// costInterval is a side's cost interval: "$0.40 to $0.42", "$0.40 or
// more" (no level shown to hold); "" without a cost.
func (s CapacitySide) costInterval() string {
	if strings.HasPrefix(s.costUSD(), "none") {
		return ""
	}
	lo, hi := s.Result.CostRange()
	if math.IsInf(hi, 1) {
		return money.USD(lo) + " or more"
	}
	return money.USD(lo) + " to " + money.USD(hi)
}

// costMark is the cost comparison's mark: ❌ a regression, 🟢 an
// improvement, ❔ inconclusive, ✅ ok.
func costMark(st vocab.Status) string {
	switch st {
	case vocab.Regression:
		return "❌"
	case vocab.Improvement:
		return "🟢"
	case vocab.Inconclusive:
		return "❔"
	}
	return "✅"
}

// CostLine is the cost's row: "cost per 1M tokens at TTFT p95 ≤ 800 ms:
// $0.41 → $0.52, +27%: ❌"; a head alone: "$0.41 per 1M output tokens at
// the capacity (12 users, $3.50/h)"; "" without a price.
func (c Capacity) CostLine() string {
	if c.Cost == nil {
		return ""
	}
	h := c.Head
	if c.Base == nil {
		if strings.HasPrefix(h.costUSD(), "none") {
			return "cost per 1M output tokens at the capacity: " + h.costUSD() + fmt.Sprintf(" (%s/h)", money.USD(h.Result.Spec.PerHour))
		}
		return fmt.Sprintf("%s per 1M output tokens at the capacity (%s, %s/h)", h.costUSD(), h.load(h.Result.Capacity), money.USD(h.Result.Spec.PerHour))
	}
	out := fmt.Sprintf("cost per 1M tokens at %s: %s → %s", SLOText(h.Result.Spec.SLO), c.Base.costUSD(), h.costUSD())
	if !math.IsNaN(c.Cost.DeltaPct) && !c.Cut() {
		out += ", " + signedPct(c.Cost.DeltaPct)
	}
	return out + ": " + costMark(c.Cost.Status)
}

// CostVerdict says the cost comparison in words: "cost regression:
// higher beyond 10% with confidence"; "" without a price.
func (c Capacity) CostVerdict() string {
	if c.Cost == nil {
		return ""
	}
	tol := trimFloat(100*c.Tolerance) + "%"
	switch c.Cost.Status {
	case vocab.Regression:
		return "cost regression: higher beyond " + tol + " with confidence"
	case vocab.Improvement:
		return "cost improvement: lower beyond " + tol + " with confidence"
	case vocab.NoBaseline:
		return "no base to compare the cost with"
	case vocab.Inconclusive:
		b, h := c.Base.costUSD(), c.Head.costUSD()
		switch {
		case !c.SameSLO:
			return "cost inconclusive: base and head were searched at different SLOs"
		case c.Cut():
			return "cost inconclusive: a search was cut, never a pass"
		case strings.HasPrefix(b, "none"), strings.HasPrefix(h, "none"):
			return fmt.Sprintf("cost inconclusive: the base's is %s, the head's %s", b, h)
		}
		return "cost inconclusive: a change beyond " + tol + " without confidence"
	}
	if c.costShownWithin() {
		return "cost: no change beyond " + tol + " with confidence"
	}
	return "cost: no change shown, the estimates within " + tol + " of each other"
}

// costShownWithin reports whether the costs are shown within the
// tolerance of each other: the head's interval within (1 ± tolerance) of
// the base's ends.
func (c Capacity) costShownWithin() bool {
	if c.Base == nil {
		return false
	}
	bl, bh := c.Base.Result.CostRange()
	hl, hh := c.Head.Result.CostRange()
	return hh <= (1+c.Tolerance)*bl && hl >= (1-c.Tolerance)*bh
}

// costDetail is the cost's line under the capacity's row: its verdict and
// each side's interval and price ("cost regression: higher beyond 10%
// with confidence; head $0.50 to $0.55 at $3.50/h; base $0.40 to $0.42
// at $3.50/h"); nil without a price.
func (c Capacity) costDetail() []string {
	if c.Cost == nil {
		return nil
	}
	side := func(name string, s CapacitySide) string {
		if s.Result.Spec.PerHour <= 0 {
			return name + "no price"
		}
		iv := s.costInterval()
		if iv == "" {
			iv = s.costUSD()
		}
		return fmt.Sprintf("%s%s per 1M output tokens with confidence at %s/h", name, iv, money.USD(s.Result.Spec.PerHour))
	}
	if c.Base == nil {
		return []string{"cost: " + side("", c.Head)}
	}
	return []string{c.CostVerdict() + "; " + side("head ", c.Head) + "; " + side("base ", *c.Base)}
}

// costBadge is the cost comparison as a badge: "❌ cost regression".
func (c Capacity) costBadge() string {
	switch c.Cost.Status {
	case vocab.Regression:
		return "❌ cost regression"
	case vocab.Improvement:
		return "🟢 cost down"
	case vocab.Inconclusive:
		return "❔ inconclusive"
	case vocab.NoBaseline:
		return "🆕 no baseline"
	}
	return "✅ ok"
}

// costClass is the cost's badge color in HTML.
func (c Capacity) costClass() string {
	switch c.Cost.Status {
	case vocab.Regression:
		return "bad"
	case vocab.Inconclusive:
		return "warn"
	case vocab.NoBaseline:
		return ""
	}
	return "good"
}

// costReason is the cost verdict without its status.
func (c Capacity) costReason() string {
	v := c.CostVerdict()
	if _, after, ok := strings.Cut(v, ": "); ok {
		return after
	}
	return v
}

// costHeadline is the cost's part of the headline's row: ", a cost
// regression (+27% per 1M tokens)"; "" unless it regressed or improved.
func (c Capacity) costHeadline() string {
	if c.Cost == nil || c.Cut() {
		return ""
	}
	pct := ""
	if !math.IsNaN(c.Cost.DeltaPct) {
		pct = " (" + signedPct(c.Cost.DeltaPct) + " per 1M tokens)"
	}
	switch c.Cost.Status {
	case vocab.Regression:
		return ", a cost regression" + pct
	case vocab.Improvement:
		return ", a cost improvement" + pct
	}
	return ""
}

// priced reports whether either side gives a price (its levels' table
// then has a column of cost).
func (c Capacity) priced() bool { return c.Cost != nil }

// levelCost is a level's cost per 1M output tokens within the SLO at its
// goodput: "$0.41", "–" without a goodput or a price.
func levelCost(s CapacitySide, l LevelPoint) string {
	v := levelCostOf(s, l)
	if math.IsNaN(v) {
		return "–"
	}
	return money.USD(v)
}

// costHead is the levels' tables' heading of the cost's column.
const costHead = "$/1M tokens"

// levelHeadsOf are the headings of c's levels' tables: levelHeads, and
// the cost's column when a side gives a price.
func (c Capacity) levelHeadsOf() []string {
	if !c.priced() {
		return levelHeads
	}
	return append(levelHeads[:len(levelHeads):len(levelHeads)], costHead)
}

// withCost is a level's row with its cost's cell when c has the column.
func (c Capacity) withCost(row []string, s CapacitySide, l LevelPoint) []string {
	if !c.priced() {
		return row
	}
	return append(row, levelCost(s, l))
}

package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/vocab"
)

// costMarkdownRow is the cost's row of the capacity table (e escaped):
// "" without a price.
func costMarkdownRow(e Capacity) string {
	if e.Cost == nil {
		return ""
	}
	return fmt.Sprintf("| %s | %s | – | – | %s<br><sub>%s</sub> |\n", e.Name(), e.CostLine(), e.costBadge(), e.costReason())
}

// costHTMLRow is the cost's row of the HTML capacity table (nil without a
// price).
func costHTMLRow(i int, c Capacity) []string {
	if c.Cost == nil {
		return nil
	}
	return []string{td("capacity @ endpoint", "name", fmt.Sprintf("<a href=\"#c%d\">%s</a> @ %s", i, esc(c.Scenario), esc(c.Endpoint))),
		td("capacity at the SLO", "", esc(c.CostLine())), td("above it", "", "–"), td("goodput within the SLO", "", "–"),
		td("status", "st", fmt.Sprintf("<span class=\"%s\">%s</span><span class=\"ci\">%s</span>", c.costClass(), esc(c.costBadge()), esc(c.costReason())))}
}

// levelCostOf is a level's cost per 1M output tokens within the SLO (NaN
// without a goodput or a price).
func levelCostOf(s CapacitySide, l LevelPoint) float64 {
	return capacity.CostPerMTok(s.Result.Spec.PerHour, l.GoodTPS)
}

// costCurve draws the cost–load curve beside the latency–load curves: per
// side, what a million output tokens within the SLO cost at each level
// (the price ÷ its goodput), a point each (hollow when the level is not
// within the SLO, pale when only on its estimates), the capacities
// marked; the axis cut at 3 times the dearest level within the SLO (▲
// beyond: a level past saturation serves little within it). Nothing
// without a price.
func (p *page) costCurve(c Capacity, unit string) {
	if c.Cost == nil {
		return
	}
	sides := curveSides(c)
	xhi, in, hi := 0.0, 0.0, 0.0
	for _, s := range sides {
		for _, l := range s.levels {
			xhi = math.Max(xhi, l.Load)
			if v := levelCostOf(s.side, l); !math.IsNaN(v) {
				hi = math.Max(hi, v)
				if l.Meets {
					in = math.Max(in, v)
				}
			}
		}
	}
	title := "Cost per 1M output tokens within the SLO against the load, USD"
	if in > 0 && hi > 3*in {
		hi = 3 * in
		title += " (▲: beyond 3 × the dearest level within the SLO)"
	}
	if hi <= 0 {
		hi = 1
	}
	hi *= 1.05
	xhi = math.Max(xhi, 1) * 1.05
	if c.Head.Result.Spec.Vary == vocab.VaryConcurrency {
		xhi = wholeTicks(xhi)
	}
	x, y := p.frame(title, "ccurve", curveW, 0, xhi, 0, hi/0.8, false, false, unit)
	p.s("<g class=\"curve\" data-metric=\"cost\">")
	p.capacityMarks(x, y, sides)
	for _, s := range sides {
		p.costLine(x, y, s, hi)
	}
	p.s("</g></svg><div class=\"legend sub\">")
	for _, s := range sides {
		color := map[string]string{"base": "var(--base)", "cur": "var(--cur)"}[s.cls]
		p.f("<span><span class=\"sw\" style=\"background:%s\"></span>%s at %s/h</span>", color, s.name, esc(money.USD(s.side.Result.Spec.PerHour)))
	}
	p.s("<span>hollow: the level is not within the SLO; pale: within it on its estimates, not shown with confidence</span></div></div>\n")
}

// costLine draws one side's cost against the load, a point per level with
// a goodput, each titled with its cost.
func (p *page) costLine(x, y axis, s curveSide, hi float64) {
	var path, marks strings.Builder
	for _, l := range s.levels {
		v := levelCostOf(s.side, l)
		if math.IsNaN(v) {
			continue
		}
		tip := fmt.Sprintf("%s, %s: %s per 1M output tokens within the SLO (%s)", s.name, s.side.load(l.Value), money.USD(v), l.LevelWords())
		plotPoint(&path, &marks, x.at(l.Load), y, s.cls, l, "cost", v, hi, 3.2, tip)
	}
	p.f("<path class=\"%s\" d=\"%s\"/>%s\n", s.cls, path.String(), marks.String())
}

// jsonCapacityCost is the cost at the SLO compared, in latgate/verdict/v1.
type jsonCapacityCost struct {
	Status   vocab.Status `json:"status"`
	DeltaPct *float64     `json:"delta_pct"`
	Text     string       `json:"text"`
	Note     string       `json:"note"`
}

// jsonSideCost is a side's cost at the SLO: its price (USD an hour), its
// cost per 1M output tokens within the SLO at the capacity and that
// cost's interval with confidence (USD; null: none, an upper end null
// when no level was shown to hold).
type jsonSideCost struct {
	PerHour  float64  `json:"per_hour"`
	PerMTok  *float64 `json:"per_mtok"`
	Lower    *float64 `json:"lower"`
	Upper    *float64 `json:"upper"`
	Complete bool     `json:"complete"`
}

func costJSON(c Capacity) *jsonCapacityCost {
	if c.Cost == nil {
		return nil
	}
	j := &jsonCapacityCost{Status: c.Cost.Status, DeltaPct: num(c.Cost.DeltaPct, 1), Text: c.CostLine(), Note: c.CostVerdict()}
	if c.Cut() {
		j.DeltaPct = nil
	}
	return j
}

func sideCostJSON(s CapacitySide) *jsonSideCost {
	r := s.Result
	if r.Spec.PerHour <= 0 {
		return nil
	}
	j := &jsonSideCost{PerHour: r.Spec.PerHour, Complete: r.Complete()}
	if r.Complete() {
		lo, hi := r.CostRange()
		j.PerMTok, j.Lower, j.Upper = costNum(r.Cost()), costNum(lo), costNum(hi)
	}
	return j
}

// costNum is an amount of USD for JSON, to 6 significant digits (a cost
// of a million tokens may be a fraction of a cent); nil for none.
func costNum(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	x, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return &x
}

// costBMF adds a search's cost at the SLO to its benchmark's measures
// ("cost-per-mtok", with its interval; no upper end when no level was
// shown to hold); nothing without a cost.
func costBMF(ms map[string]bmfMetric, r capacity.Result) {
	v := costNum(r.Cost())
	if v == nil {
		return
	}
	lo, hi := r.CostRange()
	ms["cost-per-mtok"] = bmfMetric{Value: *v, LowerValue: costNum(lo), UpperValue: costNum(hi)}
}

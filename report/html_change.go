package report

import (
	"cmp"
	"math"
	"sort"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// changeCSS lays the change chart out as rows of a grid: per change its
// label (wrapped, never cut), its plot and its change in percent. The
// plots are SVGs as wide as their column, their marks placed in percent
// of it (the marks and the words keep their size at any width); a
// plot's band and grid lines fill its row, so that they run on down the
// chart. On a phone a row's label and change take a line above its plot,
// which is as wide as the chart.
const changeCSS = `.crows{font-size:12px;color:var(--muted)}.crow{display:grid;grid-template-columns:var(--lw) minmax(0,1fr) 4.2em;column-gap:10px;align-items:center}
.clabel{text-align:right;overflow-wrap:anywhere;line-height:1.3;padding:2px 0}.cplot{position:relative;align-self:stretch;min-height:22px}.cplot svg{position:absolute;top:0;left:0;width:100%;height:100%}
.caxis .cplot{min-height:18px}
@media (max-width:640px){.crow{grid-template-columns:minmax(0,1fr) auto}.clabel{text-align:left;padding-top:4px}.cplot{grid-column:1/-1;grid-row:2}}
@media (max-width:899px){.caxis text.alt{display:none}}
`

// changeItem is one row of the change chart: a budget-table row's label
// and the check that decided its status.
type changeItem struct {
	label string
	c     compare.Check
}

// decidingCheck is the check that decided a latency row's status: the one
// whose cell has the worst status (the p95 of an "inconclusive" row whose
// p50 fell, not the p50); among equals a quantile before the mean (people
// read quantiles, and the headline names one), then the largest change.
// ok is false when no check of the row was tested with a change to draw.
func decidingCheck(row Row) (compare.Check, bool) {
	quantile := func(c compare.Check) int {
		if c.Stat == vocab.Mean {
			return 0
		}
		return 1
	}
	order := func(a, b compare.Check) int {
		return cmp.Or(cmp.Compare(severity[rowStatus(a)], severity[rowStatus(b)]), cmp.Compare(quantile(a), quantile(b)),
			cmp.Compare(math.Abs(a.DeltaPct), math.Abs(b.DeltaPct)))
	}
	var best compare.Check
	found := false
	for _, c := range row.Checks {
		if !c.Untested() && !math.IsNaN(c.DeltaPct) && (!found || order(c, best) > 0) {
			best, found = c, true
		}
	}
	return best, found
}

// changeItems are the rows the change chart draws, worst first: per
// (endpoint, scenario) with a baseline, each latency row shown in its
// budget table whose deciding check changed beyond the tolerance, or
// whose status says it might have: a regression, over budget,
// inconclusive, faster, or no regression shown (its interval reaches
// beyond the tolerance). A row within tolerance is drawn only when its
// change lies beyond it (a change for the better, not significant); a
// row not tested has no change to draw.
func (p *page) changeItems(order []int) []changeItem {
	var items []changeItem
	for _, i := range order {
		s := p.r.Scenarios[i]
		if s.Base == nil {
			continue // nothing to compare with
		}
		for _, row := range s.Rows {
			if row.Metric == "" || row.Metric.IsRate() || row.SameAs != "" {
				continue
			}
			c, ok := decidingCheck(row)
			if !ok || quiet(rowStatus(c)) && math.Abs(c.DeltaPct) <= 100*p.r.Thresholds.Tolerance {
				continue // only what changed
			}
			items = append(items, changeItem{s.Scenario + " @ " + s.Endpoint + " · " + row.Stage + " " + string(c.Stat), c})
		}
	}
	sort.SliceStable(items, func(a, b int) bool {
		return severity[rowStatus(items[a].c)] > severity[rowStatus(items[b].c)]
	})
	return items
}

// quiet reports whether a status says the change is inside the
// tolerance (or that nothing was compared): a change chart leaves such a
// row out unless its change lies beyond the tolerance.
func quiet(st vocab.Status) bool { return st == vocab.WithinTolerance || st == vocab.OK }

// changeClass is a change chart mark's class by the status of its check:
// its badge's color; grey for what is not significant (within tolerance,
// no regression shown) and ok.
func changeClass(c compare.Check) string {
	if st := rowStatus(c); st != vocab.OK && badgeClass(st) != "" {
		return "s" + badgeClass(st)
	}
	return "sok"
}

// changeChart draws, per row of a budget table that changed, the change
// of the statistic that decided its status with its interval against the
// tolerance band.
func (p *page) changeChart(order []int) {
	r := p.r
	items := p.changeItems(order)
	p.s("<h3>Changes beyond the tolerance, and intervals reaching beyond it (per row, the statistic that decided its status, with its 95% interval)</h3>\n")
	if len(items) == 0 {
		p.s("<p class=\"sub\">No latency tested changed beyond the tolerance, nor has an interval reaching beyond it.</p>\n")
		return
	}
	if len(items) > 40 {
		p.f("<p class=\"sub\">The 40 most severe of %d changes.</p>\n", len(items))
		items = items[:40]
	}
	tol := 100 * r.Thresholds.Tolerance
	lo, hi := -tol*2, tol*2
	longest := 0
	for _, it := range items {
		for _, v := range []float64{it.c.DeltaPct, it.c.CIPct[0], it.c.CIPct[1]} {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		longest = max(longest, len([]rune(it.label)))
	}
	lo, hi = math.Max(lo, -100), math.Min(hi, 400)
	// In percent of a plot's width, a mark's radius inside it at the ends.
	x := axis{lo, hi, 2, 98}
	ts := ticks(lo, hi, 5)
	// The labels' column: as wide as the longest label (DejaVu Sans, 12
	// px: 7 px a character), at most 40% of the chart.
	p.f("<div class=\"chart\"><div class=\"crows\" role=\"img\" aria-label=\"change in percent per scenario\" style=\"--lw:min(40%%,%.0fpx)\">\n", 7*float64(longest)+4)
	for _, it := range items {
		p.changeRow(x, tol, ts, it)
	}
	p.changeAxis(x, ts)
	p.s("</div>\n<div class=\"legend sub\"><span><span class=\"bad\">■</span> fails (regression, over budget)</span><span><span class=\"warn\">●</span> inconclusive</span>" +
		"<span><span class=\"good\">●</span> faster</span><span><span style=\"color:var(--base)\">●</span> not significant</span><span><span class=\"sw\" style=\"background:var(--band);height:10px\"></span>± tolerance</span><span>bars: per-check 95% interval</span></div></div>\n")
}

// changeRow draws one row of the change chart: its label, its plot (the
// tolerance band, the grid, zero, its interval and its change, a square
// when it fails the gate) and its change in words.
func (p *page) changeRow(x axis, tol float64, ts []float64, it changeItem) {
	cls := changeClass(it.c)
	p.f("<div class=\"crow\"><span class=\"clabel\">%s</span><div class=\"cplot\"><svg aria-hidden=\"true\">", esc(it.label))
	if tol > 0 {
		p.f("<rect class=\"band\" x=\"%.2f%%\" y=\"0\" width=\"%.2f%%\" height=\"100%%\"/>", x.at(-tol), x.at(tol)-x.at(-tol))
	}
	for _, t := range ts {
		p.f("<line class=\"grid\" x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"0\" y2=\"100%%\"/>", x.at(t), x.at(t))
	}
	p.f("<line class=\"zero\" x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"0\" y2=\"100%%\"/>", x.at(0), x.at(0))
	if !math.IsNaN(it.c.CIPct[0]) {
		// Both ends on the axis: an interval wholly beyond it (a queue
		// 10 times longer) is drawn at its end.
		clamp := func(v float64) float64 { return math.Max(math.Min(v, x.hi), x.lo) }
		a, b := clamp(it.c.CIPct[0]), clamp(it.c.CIPct[1])
		p.f("<line class=\"%s\" x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"50%%\" y2=\"50%%\" stroke-width=\"2\"/>", cls, x.at(a), x.at(b))
	}
	d := x.at(math.Max(math.Min(it.c.DeltaPct, x.hi), x.lo))
	if cls == "sbad" {
		p.f("<rect class=\"%s\" x=\"%.2f%%\" y=\"50%%\" width=\"10\" height=\"10\" transform=\"translate(-5 -5)\"/>", cls, d)
	} else {
		p.f("<circle class=\"%s\" cx=\"%.2f%%\" cy=\"50%%\" r=\"5\"/>", cls, d)
	}
	p.f("</svg></div><span class=\"cval\">%s</span></div>\n", esc(signedPct(it.c.DeltaPct)))
}

// changeAxis is the change chart's axis: its ticks' values under the
// plots, the first and the last inside them. Below 900 px, where a plot
// can be as narrow as 270 px (at 641, beside its labels), every other
// value when they would crowd there (DejaVu Sans, 11 px: 7 px a
// character).
func (p *page) changeAxis(x axis, ts []float64) {
	width := 0.0
	for _, t := range ts {
		width += 7*float64(len(tickLabel(t, true))) + 8
	}
	p.s("<div class=\"crow caxis\"><span></span><div class=\"cplot\"><svg aria-hidden=\"true\">")
	for k, t := range ts {
		anchor := "middle"
		switch at := x.at(t); {
		case at < 8:
			anchor = "start"
		case at > 92:
			anchor = "end"
		}
		alt := ""
		if width > 240 && (len(ts)-1-k)%2 == 1 {
			alt = " class=\"alt\""
		}
		p.f("<text%s x=\"%.2f%%\" y=\"13\" text-anchor=\"%s\">%s</text>", alt, x.at(t), anchor, tickLabel(t, true))
	}
	p.s("</svg></div><span></span></div>\n")
}

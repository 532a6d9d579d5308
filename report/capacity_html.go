package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/latgate/latgate/vocab"
)

// capacityCSS adds the latency–load curves' marks to the report's styles:
// the SLO line, the capacity marks, a level that does not pass (hollow).
const capacityCSS = `svg .slo{stroke:var(--bad);stroke-dasharray:6 3;stroke-width:1.5}svg text.slo{fill:var(--bad);paint-order:stroke;stroke:var(--panel);stroke-width:3px;stroke-dasharray:none}
svg .capm{stroke-width:2}svg .capm.cur{stroke:var(--cur)}svg .capm.base{stroke:var(--base);stroke-dasharray:3 2}svg text.capl{fill:var(--fg)}
svg .p50{stroke-dasharray:5 3}svg .lpt.cur{fill:var(--cur);stroke:var(--cur)}svg .lpt.base{fill:var(--base);stroke:var(--base)}svg .lpt.miss{fill:var(--bg);stroke-width:1.5}svg .lpt.undecided{fill-opacity:.35;stroke-width:1.5}
svg .capband{fill:var(--band)}svg text.capl{paint-order:stroke;stroke:var(--panel);stroke-width:3px}
.ccurve{max-width:350px}.ccurve .legend>span{white-space:normal;display:inline-block}`

// throughput names the curve of a search's throughput against the load
// (no metric of a request).
const throughput vocab.Metric = "throughput"

// capacitySummary is the capacity searches' table under the summary: a
// row each, linked to its section.
func (p *page) capacitySummary() {
	cs := p.r.Capacity
	if len(cs) == 0 {
		return
	}
	p.s("<h3>" + capacityHeading + "</h3>\n")
	t := htmlTable{class: "capacity", heads: []string{"capacity @ endpoint", "capacity at the SLO", "above it", "goodput within the SLO", "status"}, loose: map[int]bool{0: true}}
	for i, c := range cs {
		d := c.details()
		t.rows = append(t.rows, []string{td("capacity @ endpoint", "name", fmt.Sprintf("<a href=\"#c%d\">%s</a> @ %s", i, esc(c.Scenario), esc(c.Endpoint))),
			td("capacity at the SLO", "", esc(c.Line())), td("above it", "", esc(strings.TrimPrefix(d[1], "above: "))),
			td("goodput within the SLO", "", esc(strings.TrimPrefix(d[2], "goodput within the SLO: "))),
			td("status", "st", fmt.Sprintf("<span class=\"%s\">%s</span><span class=\"ci\">%s</span>", capacityClass(c), esc(c.Badge()), esc(c.reason())))})
		if row := costHTMLRow(i, c); row != nil {
			t.rows = append(t.rows, row)
		}
	}
	p.cardTable(t)
}

// capacityClass is a capacity's badge color: red for a regression, amber
// for a cut or inconclusive search, green for ok or an improvement.
func capacityClass(c Capacity) string {
	switch {
	case c.Status == vocab.Regression:
		return "bad"
	case c.Cut() || c.Status == vocab.Inconclusive:
		return "warn"
	case c.Status == vocab.NoBaseline:
		return ""
	}
	return "good"
}

// capacitySection is one search's section: its row, its details, the
// latency–load curves of TTFT and inter-token with the SLO line and the
// capacity marked, the throughput against the load, and its levels.
func (p *page) capacitySection(i int, c Capacity) {
	p.f("<h2 id=\"c%d\">%s @ %s: capacity</h2>\n<p><span class=\"%s\">%s</span> %s</p>\n", i, esc(c.Scenario), esc(c.Endpoint),
		capacityClass(c), esc(c.Badge()), esc(c.Line()))
	if c.Cost != nil {
		p.f("<p><span class=\"%s\">%s</span> %s</p>\n", c.costClass(), esc(c.costBadge()), esc(c.CostLine()))
	}
	p.s("<ul class=\"sub\">")
	for _, d := range c.details() {
		p.f("<li>%s</li>", esc(d))
	}
	p.f("<li>%s</li></ul>\n<div class=\"charts\">\n", esc(c.legend()))
	unit := "users at once"
	if c.Head.Result.Spec.Vary == vocab.VaryRate {
		unit = "requests/s offered"
	}
	p.curve(c, vocab.TTFT, "TTFT against the load, ms", unit)
	p.curve(c, vocab.ITL, "Inter-token against the load, ms", unit)
	p.curve(c, throughput, "Throughput against the load, requests/s", unit)
	if c.hasGPU() {
		p.curve(c, gpuUtil, "GPU utilization against the load, % (the busiest GPU)", unit)
	}
	p.costCurve(c, unit)
	p.s("</div>\n")
	p.levelsTable(c)
}

// levelsTable is a search's levels, both sides by load.
func (p *page) levelsTable(c Capacity) {
	heads := c.heads()
	t := htmlTable{heads: heads}
	for _, row := range c.levelRows() {
		var cells []string
		for k, v := range row {
			class := "n"
			if k == 0 || k == 2 {
				class = ""
			}
			cells = append(cells, td(heads[k], class, esc(v)))
		}
		t.rows = append(t.rows, cells)
	}
	p.cardTable(t)
}

// curveSide is one side's levels of a curve, by load.
type curveSide struct {
	cls    string // "base" or "cur"
	name   string
	side   CapacitySide
	levels []LevelPoint
}

// curveSides are c's sides for its curves, the base's first.
func curveSides(c Capacity) []curveSide {
	var out []curveSide
	if c.Base != nil {
		out = append(out, curveSide{"base", "base", *c.Base, nil})
	}
	name := "head"
	if c.Base == nil {
		name = "measured"
	}
	out = append(out, curveSide{"cur", name, c.Head, nil})
	for i := range out {
		out[i].levels = slices.Clone(out[i].side.Levels)
		slices.SortStableFunc(out[i].levels, func(a, b LevelPoint) int { return int(math.Copysign(1, a.Load-b.Load)) })
	}
	return out
}

// curveValues are a level's values on the curve of metric m: p50 and p95
// of a latency; for throughput the successful requests per second
// and those within the SLO (goodput).
func curveValues(l LevelPoint, m vocab.Metric) [2]float64 {
	switch m {
	case vocab.TTFT:
		return [2]float64{l.TTFT.P50, l.TTFT.P95}
	case vocab.ITL:
		return [2]float64{l.ITL.P50, l.ITL.P95}
	case gpuUtil:
		m, hi := l.levelGPU()
		return [2]float64{m, hi}
	}
	return [2]float64{l.GoodRPS, l.Throughput}
}

// curveScale is the y range of metric m's curve: from 0 to its largest
// value or objective, cut at 3 times its largest objective (the levels
// above the SLO queue without bound: they would squeeze the rest).
func curveScale(c Capacity, sides []curveSide, m vocab.Metric) (hi float64, cut bool) {
	slo := 0.0
	for _, o := range c.Head.Result.Spec.SLO {
		if o.Metric == m {
			slo = math.Max(slo, o.Value)
		}
	}
	hi = slo
	for _, s := range sides {
		for _, l := range s.levels {
			for _, v := range curveValues(l, m) {
				if !math.IsNaN(v) {
					hi = math.Max(hi, v)
				}
			}
		}
	}
	if m == gpuUtil {
		return 100 * 1.05, false // a share of the time: 0 to 100 %
	}
	if slo > 0 && hi > 3*slo {
		return 3 * slo, true
	}
	if hi <= 0 {
		hi = 1
	}
	return hi * 1.05, false
}

// curveW is a latency–load chart's width: three to a row.
const curveW = 330.0

// curve draws one chart of c against the load: per side its p95 (solid)
// and p50 (dashed) of metric m, or its throughput (solid) and goodput
// (dashed); each level a point, hollow when it is not within the SLO, pale
// when it is undecided and within it on its estimates; the SLO's
// objectives on m as red dashed lines; the capacity of each side a
// vertical line, the head's interval shaded.
func (p *page) curve(c Capacity, m vocab.Metric, title, unit string) {
	sides := curveSides(c)
	xhi := 0.0
	for _, s := range sides {
		for _, l := range s.levels {
			xhi = math.Max(xhi, l.Load)
		}
	}
	hi, cut := curveScale(c, sides, m)
	if cut {
		title += " (▲: beyond 3 × the SLO)"
	}
	// The top fifth is the capacities' labels' (and ▲'s) band.
	xhi = math.Max(xhi, 1) * 1.05
	if c.Head.Result.Spec.Vary == vocab.VaryConcurrency {
		xhi = wholeTicks(xhi)
	}
	x, y := p.frame(title, "ccurve", curveW, 0, xhi, 0, hi/0.8, false, false, unit)
	p.s("<g class=\"curve\" data-metric=\"" + string(m) + "\">")
	p.capacityMarks(x, y, sides)
	slo := false
	for _, o := range c.Head.Result.Spec.SLO {
		if o.Metric == m && o.Value <= hi {
			slo = true
			p.f("<line class=\"slo\" data-ms=\"%g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text class=\"slo\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">SLO %s ≤ %s ms</text>\n",
				o.Value, x.p0, x.p1, y.at(o.Value), y.at(o.Value), x.p1-2, y.at(o.Value)-4, o.Stat, trimFloat(o.Value))
		}
	}
	for _, s := range sides {
		p.curveLines(x, y, s, m, hi)
	}
	p.s("</g></svg>")
	p.curveLegend(sides, m, slo)
	p.s("</div>\n")
}

// capacityMarks draws each side's capacity as a vertical line labelled
// with it, at the top of the chart a line each (the head's first): left of
// its line, or right where there is no room; the head's interval (from the
// highest level shown to hold, or the axis when none is, to upper) shaded.
func (p *page) capacityMarks(x, y axis, sides []curveSide) {
	for k := len(sides) - 1; k >= 0; k-- {
		s := sides[k]
		r := s.side.Result
		if math.IsNaN(r.Capacity) || !r.Complete() {
			continue // none found; a cut search found none either
		}
		sh := float64(max(r.Shards, 1))
		capX := x.at(r.Capacity * sh)
		label := "capacity " + s.side.num(r.Capacity)
		if s.cls == "base" {
			label = "base " + s.side.num(r.Capacity)
		} else if lo := x.p0; r.Upper > r.Capacity || !r.Shown() {
			if !math.IsNaN(r.Lower) {
				lo = x.at(r.Lower * sh)
			}
			p.f("<rect class=\"capband\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", lo, y.p1, x.at(r.Upper*sh)-lo, y.p0-y.p1)
		}
		tx, anchor := capX-3, "end"
		if capX-3-6.2*float64(len(label)) < x.p0 {
			tx, anchor = capX+3, "start"
		}
		line := float64(len(sides) - 1 - k) // the head's label first
		p.f("<line class=\"capm %s\" data-load=\"%g\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text class=\"capl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
			s.cls, r.Capacity*sh, capX, capX, y.p0, y.p1, tx, y.p1+11+13*line, anchor, label)
	}
}

// curveLines draws one side's two lines of metric m and a point per
// level (▲ at the top when beyond the axis), each titled with its values.
func (p *page) curveLines(x, y axis, s curveSide, m vocab.Metric, hi float64) {
	names := [2]string{"p50", "p95"}
	switch m {
	case throughput:
		names = [2]string{"goodput", "throughput"}
	case gpuUtil:
		names = [2]string{"median", "max"}
	}
	for k, name := range names {
		var path strings.Builder
		var marks strings.Builder
		for _, l := range s.levels {
			v := curveValues(l, m)[k]
			if math.IsNaN(v) {
				continue
			}
			tip := fmt.Sprintf("%s, %s: %s %s (%s)", s.name, s.side.load(l.Value), name, curveText(v, m), l.LevelWords())
			plotPoint(&path, &marks, x.at(l.Load), y, s.cls, l, name, v, hi, 3.2-float64(1-k)*0.9, tip)
		}
		cls := s.cls
		if k == 0 {
			cls += " p50"
		}
		p.f("<path class=\"%s\" d=\"%s\"/>%s\n", cls, path.String(), marks.String())
	}
}

// plotPoint adds level l's value v of a curve to its line's path, and its
// mark to marks: a circle of radius r at px, or ▲ at the top when beyond
// the axis (hi), titled tip and marked hollow when the level is not within
// the SLO, pale when within it on its estimates only.
func plotPoint(path, marks *strings.Builder, px float64, y axis, cls string, l LevelPoint, stat string, v, hi, r float64, tip string) {
	py := y.at(math.Min(v, hi))
	cmd := "L"
	if path.Len() == 0 {
		cmd = "M"
	}
	fmt.Fprintf(path, "%s%.1f %.1f", cmd, px, py)
	miss := ""
	switch {
	case !l.Meets:
		miss = " miss"
	case !l.Holds():
		miss = " undecided"
	}
	attrs := fmt.Sprintf("class=\"lpt %s%s\" data-side=\"%s\" data-stat=\"%s\" data-load=\"%g\" data-v=\"%g\"", cls, miss, cls, stat, l.Load, v)
	if v > hi {
		fmt.Fprintf(marks, "<path %s d=\"M%.1f %.1fl4 7h-8z\"><title>%s</title></path>", attrs, px, py-7, esc(tip))
	} else {
		fmt.Fprintf(marks, "<circle %s cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"><title>%s</title></circle>", attrs, px, py, r, esc(tip))
	}
}

// wholeTicks widens an axis from 0 to hi until its ticks fall on whole
// numbers (users: no "2.5 users" tick): ticks(0, 2.1, 5) step by 0.5 and
// ticks(0, 10.5, 5) by 2.5, so those axes reach to 2.5 (by 1) and 12.5 (by
// 5).
func wholeTicks(hi float64) float64 {
	for {
		t := ticks(0, hi, 5)
		if len(t) < 2 || t[1] == math.Trunc(t[1]) {
			return hi
		}
		hi = 5 * t[1] * (1 + 1e-9) // the next step up
	}
}

// curveText is a value of a curve with its unit.
func curveText(v float64, m vocab.Metric) string {
	switch m {
	case throughput:
		return rate(v) + " requests/s"
	case gpuUtil:
		return gaugeNum(v) + " %"
	}
	return Millis(v) + " ms"
}

// curveLegend says what a curve's lines and points are.
func (p *page) curveLegend(sides []curveSide, m vocab.Metric, slo bool) {
	solid, dashed := "p95", "p50"
	switch m {
	case throughput:
		solid, dashed = "throughput", "goodput (within the SLO)"
	case gpuUtil:
		solid, dashed = "max utilization", "median (DCGM_FI_DEV_GPU_UTIL: the share of time a kernel ran)"
	}
	p.s("<div class=\"legend sub\">")
	for _, s := range sides {
		color := map[string]string{"base": "var(--base)", "cur": "var(--cur)"}[s.cls]
		p.f("<span><span class=\"sw\" style=\"background:%s\"></span>%s %s, dashed %s</span>", color, s.name, solid, dashed)
	}
	p.s("<span>hollow: the level is not within the SLO; pale: within it on its estimates, not shown with confidence</span>")
	if slo {
		p.s("<span class=\"bad\">- - SLO</span>")
	}
	p.s("</div>")
}

package report

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// scatterW is the width of the scatter of TTFT against input length.
const scatterW = 460.0

// traceScatter draws, of a scenario drawn from a trace, each request's
// TTFT against the trace's input length (its digest's points, at most
// MaxTracePoints a side), base and head, and each side's TTFT median per
// stratum as a step over the stratum's range; the x axis is logarithmic
// when the lengths span 20× or more.
func (p *page) traceScatter(s Scenario) {
	w := s.workloadOf()
	base, cur := s.baseTrace(), s.currentTrace()
	if s.BaseRun == s.CurrentRun {
		base = nil
	}
	var ys []float64
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, t := range []*TraceDigest{base, cur} {
		if t == nil {
			continue
		}
		for _, pt := range t.Points {
			ys = append(ys, pt.TTFTMs)
			xlo, xhi = math.Min(xlo, float64(max(pt.Input, 1))), math.Max(xhi, float64(max(pt.Input, 1)))
		}
	}
	if w == nil || len(ys) == 0 {
		return
	}
	sort.Float64s(ys)
	yhi, note := ys[len(ys)-1], ""
	if p99 := ys[int(0.99*float64(len(ys)-1))]; len(ys) >= 100 && yhi > 2*p99 {
		yhi, note = p99, " (axis cut at the 99th percentile)"
	}
	yhi = math.Max(yhi*1.05, 1)
	logX := xhi/xlo >= 20
	tx := func(v float64) float64 {
		if logX {
			return math.Log10(math.Max(v, 1))
		}
		return v
	}
	if xhi == xlo {
		xlo, xhi = math.Max(xlo-1, 1), xhi+1
	}
	x, y := axis{tx(xlo), tx(xhi), 48, scatterW - 8}, axis{0, yhi, chartH - 28, 8}
	title := "TTFT (ms) against the trace's input length (tokens" + map[bool]string{true: ", log scale", false: ""}[logX] + ")" + note
	p.f("<div class=\"chart scatter\"><h3>%s</h3><svg width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"%s\">\n", esc(title), scatterW, chartH, esc(title))
	for _, t := range ticks(0, yhi, 4) {
		p.f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x.p0, x.p1, y.at(t), y.at(t), x.p0-4, y.at(t)+4, tickLabel(t, false))
	}
	for _, t := range inputTicks(xlo, xhi, logX) {
		at := x.at(tx(t))
		p.f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", at, at, y.p0, y.p1, at, y.p0+14, compactCount(t))
	}
	p.f("<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">input tokens</text>\n", x.p0, y.p1, y.p0, x.p1, x.p1, y.p0+26)
	for _, side := range []struct {
		t        *TraceDigest
		dot, cls string
	}{{base, "dbase", "base"}, {cur, "dcur", "cur"}} {
		if side.t == nil {
			continue
		}
		p.scatterDots(side.t, side.dot, func(in int, ms float64) (float64, float64) {
			return x.at(tx(float64(max(in, 1)))), y.at(math.Min(ms, yhi))
		})
		p.stratumSteps(side.t, w.Strata, side.cls, xlo, xhi, func(v float64) float64 { return x.at(tx(v)) }, y, yhi)
	}
	p.f("</svg>%s<p class=\"sub\">%s</p></div>\n", legend(base != nil), esc(scatterNote(base, cur)))
}

// scatterDots draws a side's points, one dot where none of its own is
// already within a pixel.
func (p *page) scatterDots(t *TraceDigest, cls string, at func(int, float64) (float64, float64)) {
	var b strings.Builder
	drawn := map[[2]int]bool{}
	for _, pt := range t.Points {
		cx, cy := at(pt.Input, pt.TTFTMs)
		k := [2]int{int(math.Round(cx)), int(math.Round(cy))}
		if drawn[k] {
			continue
		}
		drawn[k] = true
		fmt.Fprintf(&b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.6\" opacity=\".55\"/>", cls, cx, cy)
	}
	p.s(b.String() + "\n")
}

// stratumSteps draws a side's TTFT median of each stratum as a line over
// the stratum's range of input length (within the plot's).
func (p *page) stratumSteps(t *TraceDigest, bounds []int, cls string, xlo, xhi float64, xat func(float64) float64, y axis, yhi float64) {
	var b strings.Builder
	for k, m := range t.StratumTTFT {
		if math.IsNaN(m) || k >= len(bounds) {
			continue
		}
		lo := xlo
		if k > 0 {
			lo = math.Max(xlo, float64(bounds[k-1]+1))
		}
		hi := math.Min(xhi, float64(bounds[k]))
		if hi < lo {
			continue
		}
		fmt.Fprintf(&b, "M%.1f %.1fH%.1f", xat(lo), y.at(math.Min(m, yhi)), xat(hi))
	}
	if b.Len() > 0 {
		p.f("<path class=\"%s median\" d=\"%s\"/>\n", cls, b.String())
	}
}

// scatterNote says what the scatter draws, and of how many requests.
func scatterNote(base, cur *TraceDigest) string {
	var parts []string
	for _, side := range []struct {
		name string
		t    *TraceDigest
	}{{"baseline", base}, {"current", cur}} {
		if side.t == nil {
			continue
		}
		s := fmt.Sprintf("%s %s", side.name, grouped(len(side.t.Points)))
		if side.t.PointsEvery > 1 {
			s += fmt.Sprintf(" of %s (every %d-th)", grouped(side.t.PointsOf), side.t.PointsEvery)
		}
		parts = append(parts, s)
	}
	return "Each dot a successful request (" + strings.Join(parts, ", ") + "); the lines are each stratum's TTFT median over its range of input length."
}

// inputTicks are the x axis's values: powers of ten (and 2×, 5× when few)
// on a log scale, round values on a linear one.
func inputTicks(lo, hi float64, logX bool) []float64 {
	if !logX {
		return ticks(lo, hi, 4)
	}
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi && (m == 1 || math.Log10(hi/lo) < 2.5) {
				out = append(out, v)
			}
		}
	}
	return out
}

// compactCount says a count in few characters: 500, 2k, 1.5M.
func compactCount(v float64) string {
	switch {
	case v >= 1e6:
		return trimFloat(v/1e6) + "M"
	case v >= 1e3:
		return trimFloat(v/1e3) + "k"
	}
	return trimFloat(v)
}

package report

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/latgate/latgate/trend"
)

// trendCSS adds the trend chart's marks to the report's styles.
const trendCSS = `svg .lvl{stroke:var(--fg);stroke-opacity:.55;stroke-width:2}svg .cpslow{stroke:var(--bad);stroke-dasharray:4 3;stroke-width:1.5}svg .cpfast{stroke:var(--good);stroke-dasharray:4 3;stroke-width:1.5}
svg .push{fill:var(--cur)}svg .sched{fill:var(--bg);stroke:var(--cur);stroke-width:1.3}svg .tslow{fill:var(--bad);font-weight:600}svg .tfast{fill:var(--good);font-weight:600}
.new{color:var(--bad);font-weight:600}pre{background:var(--panel);border:1px solid var(--line);padding:8px;overflow-x:auto;font-size:12px}`

func init() {
	TrendFormats.Register(TrendFormat{Name: "html", Write: func(w io.Writer, t *Trend, _ RenderOptions) error { return TrendHTML(w, t) }})
}

// TrendHTML writes the trend as one self-contained page (latgate trend
// --format html, and the HTML report of a record run): the change points
// with their commits (linked when the repository is known), dates and
// steps, and per (endpoint, scenario) a chart of each series — every run a
// dot (filled: a push, hollow: a scheduled run), the level between change
// points a line, each change point a dashed line with its step. Inline CSS
// and SVG only, under the same Content-Security-Policy as the report.
func TrendHTML(w io.Writer, t *Trend) error {
	bw := bufio.NewWriter(w)
	p := &page{w: bw}
	p.s("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	p.s(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` + "\n")
	p.s(`<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` + "\n")
	p.f("<title>latgate: main's trend</title>\n<style>%s\n%s</style></head>\n<body><main>\n", htmlCSS, trendCSS)
	p.f("<h1>📈 latgate: main's trend</h1>\n<p class=\"headline\">%s</p>\n", esc(t.headline()))
	if u := safeURL(t.Repository); u != "" {
		p.f("<p class=\"sub\">repository <a href=\"%s\">%s</a></p>\n", esc(u), esc(u))
	}
	if t.Recorded != "" {
		p.f("<h3>Recorded now (latencies in ms)</h3>\n<pre>%s</pre>\n", esc(t.Recorded))
	}
	trendChangeTable(p, t)
	p.s("<ul class=\"sub\">")
	for _, n := range t.trendNotes() {
		p.f("<li>%s</li>", esc(escapeControls(n)))
	}
	p.f("<li>%s</li><li>Reading the charts: every dot is one recorded run (hollow: a scheduled run, which sees the provider's drift without a commit); "+
		"the solid lines are the levels between change points; a dashed line marks the first run of a new level, with its step (red: slower, green: faster). "+
		"Hover a dot or a change for its commit, date and value.</li></ul>\n", esc(t.method()))
	for gi, g := range t.groups() {
		p.f("<h2 id=\"t%d\">%s @ %s</h2>\n<div class=\"charts\">\n", gi, esc(escapeControls(g.Scenario)), esc(escapeControls(g.Endpoint)))
		for _, i := range g.Series {
			trendChart(p, t, t.Analysis.Series[i])
		}
		p.s("</div>\n")
	}
	p.s("</main></body></html>\n")
	return bw.Flush()
}

// trendChangeTable lists every change point with its commit and step.
func trendChangeTable(p *page, t *Trend) {
	cps := t.Analysis.ChangePoints()
	if len(cps) == 0 {
		return
	}
	p.s("<h3>Change points (from: the first run of the new level)</h3>\n<table><tr><th>scenario</th><th>endpoint</th><th>series</th><th>from</th><th>step (95% CI)</th><th>level, ms</th></tr>\n")
	for _, kc := range cps {
		fresh := ""
		if kc.New {
			fresh = " <span class=\"new\">new</span>"
		}
		cls := "good"
		if kc.StepPct > 0 {
			cls = "bad"
		}
		p.f("<tr><td class=\"name\">%s</td><td class=\"name\">%s</td><td>%s</td><td>%s %s%s</td><td class=\"n %s\">%s</td><td class=\"n\">%s → %s</td></tr>\n",
			esc(escapeControls(kc.Scenario)), esc(escapeControls(kc.Endpoint)), esc(t.seriesLabel(t.series(kc.Key))), t.commitHTML(kc.GitSHA), day(kc.CreatedAt), fresh,
			cls, esc(stepText(kc.StepPct, kc.CIPct)), Millis(kc.Before), Millis(kc.After))
	}
	p.s("</table>\n")
}

// commitHTML is a commit shortened, linked when the repository is known.
func (t *Trend) commitHTML(sha string) string {
	code := "<code>" + esc(shortSHA(sha)) + "</code>"
	if u := t.commitURL(sha); u != "" {
		return "<a href=\"" + esc(u) + "\">" + code + "</a>"
	}
	return code
}

const trendW, trendH = 330.0, 210.0 // three charts to a row

// trendChart draws one series against the runs of the analysis: x is the
// run (dates on the axis), y the value in ms.
func trendChart(p *page, t *Trend, s trend.Series) {
	runs := t.Analysis.Runs
	title := t.seriesLabel(s) + ", ms"
	if len(s.Points) == 0 {
		p.f("<div class=\"chart\"><h3>%s</h3><p class=\"sub\">No run had enough successful requests.</p></div>\n", esc(title))
		return
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range s.Points {
		lo, hi = math.Min(lo, pt.Value), math.Max(hi, pt.Value)
	}
	pad := math.Max((hi-lo)*0.08, hi*0.02)
	x := axis{-0.5, float64(len(runs)) - 0.5, 52, trendW - 10}
	y := axis{math.Max(0, lo-pad), hi + pad, trendH - 30, 22}
	p.f("<div class=\"chart\"><h3>%s</h3><svg width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"%s\">\n", esc(title), trendW, trendH, esc(title))
	for _, v := range ticks(y.lo, y.hi, 4) {
		p.f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			x.p0, x.p1, y.at(v), y.at(v), x.p0-4, y.at(v)+4, tickLabel(v, false))
	}
	for _, r := range dateTicks(len(runs), 4) {
		p.f("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>", x.at(float64(r)), y.p0+15, runs[r].CreatedAt.UTC().Format("Jan 2"))
	}
	p.f("<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/>\n", x.p0, y.p1, y.p0, x.p1)
	trendLevels(p, s, x, y)
	trendChanges(p, t, s, x, y)
	for _, pt := range s.Points {
		r := runs[pt.Run]
		cls, what := "push", ""
		if r.Event == "schedule" {
			cls, what = "sched", " · scheduled run"
		}
		p.f("<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\"><title>%s %s · %s ms (%d requests)%s</title></circle>", cls, x.at(float64(pt.Run)), y.at(pt.Value),
			day(r.CreatedAt), esc(shortSHA(r.GitSHA)), Millis(pt.Value), pt.N, what)
	}
	p.s("\n</svg></div>\n")
}

// dateTicks are about n run indices spread over the runs.
func dateTicks(runs, n int) []int {
	if runs <= 1 {
		return make([]int, runs) // [] or [0]
	}
	var out []int
	for k := range n {
		r := k * (runs - 1) / (n - 1)
		if len(out) == 0 || out[len(out)-1] != r {
			out = append(out, r)
		}
	}
	return out
}

// trendLevels draws the level (median) of each segment between change
// points as a line over its runs.
func trendLevels(p *page, s trend.Series, x, y axis) {
	cuts := []int{0}
	levels := []float64{s.Level.First}
	for _, cp := range s.ChangePoints {
		cuts = append(cuts, cp.Index)
		levels = append(levels, cp.After)
	}
	cuts = append(cuts, len(s.Points))
	for i := range levels {
		a, b := s.Points[cuts[i]].Run, s.Points[cuts[i+1]-1].Run
		p.f("<line class=\"lvl\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x.at(float64(a)-0.4), x.at(float64(b)+0.4), y.at(levels[i]), y.at(levels[i]))
	}
}

// trendChanges marks each change point before its first run, with its step
// (linked to the commit when the repository is known).
func trendChanges(p *page, t *Trend, s trend.Series, x, y axis) {
	for _, cp := range s.ChangePoints {
		cls, text := "cpfast", "tfast"
		if cp.StepPct > 0 {
			cls, text = "cpslow", "tslow"
		}
		at := x.at(float64(cp.Run) - 0.5)
		label := signedPct(cp.StepPct)
		if cp.New {
			label += " new"
		}
		tip := fmt.Sprintf("from %s (%s): %s, %s → %s ms", shortSHA(cp.GitSHA), day(cp.CreatedAt), stepText(cp.StepPct, cp.CIPct), Millis(cp.Before), Millis(cp.After))
		mark := fmt.Sprintf("<line class=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text class=\"%s\" x=\"%.1f\" y=\"14\" text-anchor=\"middle\">%s</text><title>%s</title>",
			cls, at, at, y.p1-6, y.p0, text, at, esc(label), esc(tip))
		if u := t.commitURL(cp.GitSHA); u != "" {
			mark = "<a href=\"" + esc(u) + "\">" + mark + "</a>"
		} else {
			mark = "<g>" + mark + "</g>"
		}
		p.s(mark + "\n")
	}
}

package report

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

func init() {
	ReportFormats.Register(ReportFormat{Name: "html", Write: func(w io.Writer, r *Report, _ RenderOptions) error { return HTML(w, r) }})
}

// HTML writes the report as one self-contained page (latgate-report.html):
// the summary with every status, a chart of the changes with the
// tolerance band, and per (endpoint, scenario) the budget table, the
// distributions (ECDF) of TTFT and total latency for baseline and current,
// and a timeline of every request in the order it was sent, so drift,
// stalls and warm-up show; for a chat page in a browser, what its median
// and p95 request painted beside what its stream received, with their
// screenshots (and the screenshots of its first failures). Inline CSS,
// SVG and data: JPEGs only: no script, no font, no request, and a
// Content-Security-Policy that forbids any. Readable in light and dark
// (prefers-color-scheme).
func HTML(w io.Writer, r *Report) error {
	// The body first: its tables' breakpoints are rules of the head.
	var body bytes.Buffer
	p := &page{w: bufio.NewWriter(&body), r: r, bps: map[int]bool{}}
	p.body()
	if err := p.w.Flush(); err != nil {
		return err
	}
	p.w = bufio.NewWriter(w)
	p.head()
	p.w.Write(body.Bytes())
	p.s("</main></body></html>\n")
	return p.w.Flush()
}

type page struct {
	w   *bufio.Writer
	r   *Report
	bps map[int]bool // the breakpoints of the page's tables (cardsAt)
}

func (p *page) f(format string, a ...any) { fmt.Fprintf(p.w, format, a...) }
func (p *page) s(s string)                { p.w.WriteString(s) }

func esc(s string) string { return html.EscapeString(bidiReplacer.Replace(s)) }

// htmlCSS is the report's styles (and main's trend page's); layoutCSS
// adds the tables' layout, cards where they do not fit. The summary's
// and the budget tables' values wrap when they must (a budget table of
// p50, p95, p99 and mean is wider than a laptop's 900 px on one line).
const htmlCSS = `:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--base:#6e7781;--cur:#0969da;--bad:#cf222e;--warn:#9a6700;--good:#1a7f37;--band:rgba(9,105,218,.10)}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;--base:#9198a1;--cur:#4493f8;--bad:#f85149;--warn:#d29922;--good:#3fb950;--band:rgba(68,147,248,.16)}}
*{box-sizing:border-box}body{margin:0;padding:24px;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 8px;padding-top:12px;border-top:1px solid var(--line);overflow-wrap:anywhere}h3{font-size:14px;margin:16px 0 4px;color:var(--muted)}
p,li{overflow-wrap:break-word}.sub{color:var(--muted);font-size:12px}.headline{font-weight:600;margin:8px 0}
table{border-collapse:collapse;margin:8px 0;max-width:100%;display:block;overflow-x:auto}th,td{border:1px solid var(--line);padding:4px 8px;vertical-align:top}th{background:var(--panel);text-align:left}td.n{text-align:right;white-space:nowrap}
td.name{max-width:320px;overflow-wrap:anywhere}.bad{color:var(--bad)}.warn{color:var(--warn)}.good{color:var(--good)}.ci{color:var(--muted);font-size:11px;display:block}
.charts{display:flex;flex-wrap:wrap;gap:16px}.chart{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px}
svg{display:block;overflow:visible}svg text{fill:var(--muted);font-size:11px;font-family:inherit}svg .axis{stroke:var(--line);fill:none}svg .grid{stroke:var(--line);stroke-dasharray:2 3;fill:none}
svg .base{stroke:var(--base);fill:none;stroke-width:1.5}svg .cur{stroke:var(--cur);fill:none;stroke-width:1.8}svg .dbase{fill:var(--base)}svg .dcur{fill:var(--cur)}svg .fail{stroke:var(--bad);stroke-width:1.5}svg .median{stroke-width:2.5}
svg .band{fill:var(--band)}svg .tol{stroke:var(--cur);stroke-dasharray:4 3}svg .zero{stroke:var(--fg);stroke-opacity:.5}svg .sbad{fill:var(--bad);stroke:var(--bad)}svg .swarn{fill:var(--warn);stroke:var(--warn)}svg .sgood{fill:var(--good);stroke:var(--good)}svg .sok{fill:var(--base);stroke:var(--base)}
svg .wwait{fill:var(--band);stroke:var(--cur)}svg text.wlabel{fill:var(--fg);paint-order:stroke;stroke:var(--panel);stroke-width:3px}svg .wgen{fill:var(--cur)}svg .wtool{fill:var(--warn)}svg .wbase{fill:var(--base)}
.legend{display:flex;flex-wrap:wrap;column-gap:14px}.legend>span{white-space:nowrap}.sw{display:inline-block;width:18px;height:3px;vertical-align:middle;margin-right:4px}
ul{margin:4px 0;padding-left:20px}.summary td.n,.budget td.n{white-space:normal}.more{font-size:12px}details.sub{margin:4px 0}details.sub summary{cursor:pointer}.chart{max-width:100%;overflow-x:auto}
@media (max-width:640px){body{padding:12px}}`

// head is the page's head and the start of its body: its styles, those
// of its tables' breakpoints among them.
func (p *page) head() {
	r := p.r
	title := "latgate report"
	p.s("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	p.s(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` + "\n")
	p.s(`<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">` + "\n")
	css := htmlCSS + "\n" + layoutCSS(p.bps) + changeCSS + wideCSS + waterfallCSS + "\n" + pageCSS
	if len(r.Capacity) > 0 {
		css += "\n" + capacityCSS
	}
	p.f("<title>%s</title>\n<style>%s</style></head>\n<body><main>\n", esc(title), css)
}

// body is the page's content.
func (p *page) body() {
	r := p.r
	icon, verdict := "✅", "latency pass"
	if r.Verdict == vocab.Fail {
		icon, verdict = "❌", "latency fail"
	}
	p.f("<h1>%s latgate: %s</h1>\n<p class=\"headline\">%s</p>\n", icon, verdict, esc(r.Headline))
	if hasProvenance(r) {
		p.f("<p class=\"sub\">%s</p>\n", p.provenance())
	}
	order := rank(r)
	if len(r.Scenarios) > 0 || len(r.Capacity) == 0 {
		p.summary(order)
		p.notes() // their legend is the summary's
		p.changeChart(order)
	}
	p.capacitySummary()
	if len(r.Scenarios) == 0 && len(r.Capacity) > 0 {
		p.notes()
	}
	p.s("<ul class=\"sub\">")
	if c := r.costLine(func(s string) string { return s }); c != "" {
		p.f("<li>%s</li>", esc(c))
	}
	p.f("<li>%s</li></ul>\n", esc(footnote(r, inline)))
	for i, c := range r.Capacity {
		p.capacitySection(i, c)
	}
	for _, i := range order {
		p.scenario(i, r.Scenarios[i])
	}
}

// provenance is the Markdown provenance line without Markdown.
func (p *page) provenance() string {
	pv := p.r.Provenance
	var parts []string
	if pv.Mode != "" {
		parts = append(parts, "mode "+esc(pv.Mode))
	}
	side := func(label, sha, ref string, created string) string {
		s := label
		if sha != "" {
			s += " <code>" + esc(shortSHA(sha)) + "</code>"
		} else if ref != "" {
			s += " " + esc(ref)
		}
		return s + created
	}
	when := func(t interface{ IsZero() bool }, s string) string {
		if t.IsZero() {
			return ""
		}
		return " (" + s + ")"
	}
	if pv.BaseSHA != "" || pv.HeadSHA != "" || !pv.BaselineCreated.IsZero() {
		s := side("base", pv.BaseSHA, pv.BaseRef, when(pv.BaselineCreated, pv.BaselineCreated.UTC().Format("2006-01-02 15:04 UTC"))) + " → " +
			side("head", pv.HeadSHA, pv.HeadRef, when(pv.HeadCreated, pv.HeadCreated.UTC().Format("2006-01-02 15:04 UTC")))
		if !pv.BaselineCreated.IsZero() && !pv.HeadCreated.IsZero() {
			s += ", baseline " + age(pv.HeadCreated.Sub(pv.BaselineCreated)) + " old"
		}
		parts = append(parts, s)
	}
	if n := perSide(p.r); n != "" {
		parts = append(parts, n)
	}
	if w := strings.Join(nonEmpty(pv.Runner, pv.Region), ", "); w != "" {
		parts = append(parts, "on "+esc(w))
	}
	if u := safeURL(pv.RunURL); u != "" {
		parts = append(parts, "<a href=\""+esc(u)+"\">workflow run</a>")
	}
	if u := safeURL(pv.TrendURL); u != "" {
		parts = append(parts, "<a href=\""+esc(u)+"\">main's trend</a>")
	}
	return strings.Join(parts, " · ")
}

func badgeClass(st vocab.Status) string {
	switch st {
	case vocab.Regression, vocab.OverBudget:
		return "bad"
	case vocab.Inconclusive:
		return "warn"
	case vocab.Improvement, vocab.OK:
		return "good"
	}
	return ""
}

// rowStatusHTML is a budget-table row's status cell: its badges as the
// comment's details show them, without the metric the row names ("❌
// regression", "⛔ p95 over budget"), or what the server does not report.
func rowStatusHTML(row Row) string {
	switch {
	case row.Unreported:
		return esc(NotReported)
	case row.Metric != "":
		var fs []Badge
		for _, f := range badgesOf(row.Checks, nil, nil) {
			fs = append(fs, f.rowBadge())
		}
		return badgesHTML(fs)
	}
	return ""
}

func badgesHTML(fs []Badge) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprintf("<span class=\"%s\">%s</span>", badgeClass(f.Status), esc(f.String()))
	}
	return strings.Join(parts, "<br>")
}

// cellHTML is one statistic's value in a cell, label ("p95") before it
// when the cell holds several (the summary's extra statistics, in a
// smaller font), marked as in the comment (changeCell) and colored by its
// own status: a failing one red and bold, an inconclusive one amber, a
// faster one green; its status in words is the tooltip. Each value is one
// element (class v), so a cell of several shows each in its own color.
func cellHTML(row *Row, stat vocab.Stat, label string, withCI bool) string {
	text := esc(changeCell(row, stat, func(s string) string { return s }))
	tag, cls := "span", "v"
	if label != "" {
		text, cls = esc(label)+"\u00a0"+text, "v more" // never alone on a line
	}
	var c compare.Check
	ok := false
	if row != nil {
		c, ok = findCheck(row.Checks, stat)
	}
	if !ok {
		return "<span class=\"" + cls + "\">" + text + "</span>"
	}
	switch st := rowStatus(c); {
	case st == vocab.Regression || st == vocab.OverBudget || c.Regressed:
		tag, cls = "b", cls+" bad"
	case st != vocab.OK && badgeClass(st) != "":
		cls += " " + badgeClass(st)
	}
	out := "<" + tag + " class=\"" + cls + "\""
	if w := cellWords(c); w != "" {
		out += " title=\"" + esc(w) + "\""
	}
	out += ">" + text + "</" + tag + ">"
	if withCI && !math.IsNaN(c.CIPct[0]) && !c.Untested() {
		out += fmt.Sprintf("<span class=\"ci\">95%% CI [%s, %s]</span>", signedPct(c.CIPct[0]), signedPct(c.CIPct[1]))
	}
	return out
}

// cellWords is a value's status in words, for its tooltip.
func cellWords(c compare.Check) string {
	switch {
	case c.Status == vocab.OverBudget && c.Regressed:
		return "over budget, and a regression"
	case c.Status == vocab.Inconclusive && c.Reason == vocab.Unconfirmed:
		return "inconclusive: a regression that a fresh interleaved run did not find again"
	case c.Status == vocab.NotTested && c.BudgetUntested():
		return "not tested: its budget needs more requests (" + budgetShort(c) + ")"
	}
	return map[vocab.Status]string{vocab.Regression: "regression", vocab.OverBudget: "over budget",
		vocab.Inconclusive:      "inconclusive: worse beyond the tolerance, significant alone, not after the suite's correction",
		vocab.Improvement:       "faster: a significant improvement",
		vocab.WithinTolerance:   "within tolerance: its 95% interval inside the tolerance",
		vocab.NoRegressionShown: "no regression shown: not significant, its 95% interval reaching beyond the tolerance",
		vocab.NotTested:         "not tested", vocab.NoBaseline: "no baseline"}[c.Status]
}

func (p *page) summary(order []int) {
	r := p.r
	cols := summaryCols(r)
	t := htmlTable{class: "summary", heads: []string{"scenario @ endpoint"}, loose: map[int]bool{0: true}}
	for _, c := range cols {
		t.heads = append(t.heads, c.head)
	}
	t.heads = append(t.heads, "status")
	t.wish = map[int]float64{len(t.heads) - 1: summaryStatusEm * 14}
	for _, i := range order {
		s := r.Scenarios[i]
		name := esc(s.Scenario)
		if len(s.Changed) > 0 {
			name += " ⚙️"
		}
		// One column for both, as in the comment: a column of its own
		// for the endpoint left the values too little of a laptop's
		// width.
		row := []string{td("scenario @ endpoint", "name", fmt.Sprintf("<a href=\"#s%d\">%s</a> @ %s", i, name, esc(s.Endpoint)))}
		for _, c := range cols {
			sr := s.row(c.stage)
			cell := cellHTML(sr, c.stat, "", false)
			for _, x := range extraStats(sr, c.stat) {
				cell += "<br>" + cellHTML(sr, x, string(x), false)
			}
			row = append(row, td(c.head, "n", cell))
		}
		status := badgesHTML(s.Badges())
		if shift := s.StageShift(); shift != "" {
			status += "<br><span class=\"sub\">" + esc(shift) + "</span>"
		}
		t.rows = append(t.rows, append(row, td("status", "st", status)))
	}
	p.s("<h3>Summary (latencies in ms, baseline → current)</h3>\n")
	p.cardTable(t)
}

// notes are the suite's notes as the comment has them: those a reader
// reads first (at most maxShownNotes, splitNotes), then the rest, the
// plan among them, collapsed. Each is said once: the warnings are notes.
func (p *page) notes() {
	shown, rest := splitNotes(suiteNotes(p.r, inline))
	list := func(ns []suiteNote) {
		if len(ns) == 0 {
			return
		}
		p.s("<ul class=\"sub\">")
		for _, n := range ns {
			p.f("<li>%s</li>", esc(n.String()))
		}
		p.s("</ul>\n")
	}
	list(shown)
	if len(rest) > 0 {
		p.s("<details class=\"sub\"><summary>Notes: how this was measured and decided</summary>\n")
		list(rest)
		p.s("</details>\n")
	}
}

// td is a table cell that carries its column's heading (data-label): on a
// phone the tables are laid out as cards, a line per cell with its heading
// beside the value, since a table of six columns does not fit there.
func td(label, class, content string) string {
	if class != "" {
		class = " class=\"" + class + "\""
	}
	return "<td data-label=\"" + esc(label) + "\"" + class + ">" + content + "</td>"
}

// axis is a linear scale from a data range to pixels.
type axis struct{ lo, hi, p0, p1 float64 }

func (a axis) at(v float64) float64 {
	if a.hi == a.lo {
		return (a.p0 + a.p1) / 2
	}
	return a.p0 + (v-a.lo)/(a.hi-a.lo)*(a.p1-a.p0)
}

// ticks are about n round values covering [lo, hi].
func ticks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

func tickLabel(v float64, pct bool) string {
	if pct {
		if v == 0 {
			return "0%"
		}
		return fmt.Sprintf("%+.0f%%", v)
	}
	if v >= 10000 {
		return fmt.Sprintf("%gs", v/1000)
	}
	return fmt.Sprintf("%g", v)
}

// values are one metric's per-request values of a run (its digest), in
// request order (NaN for failed requests); nil without the run.
func values(d *Digest, metric vocab.Metric) []float64 {
	if d == nil {
		return nil
	}
	return d.Sample.Values[metric]
}

func okSorted(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	sort.Float64s(out)
	return out
}

func (p *page) scenario(i int, s Scenario) {
	model := ""
	if s.Model != "" {
		model = " <span class=\"sub\">(" + esc(s.Model) + ")</span>"
	}
	p.f("<h2 id=\"s%d\">%s @ %s%s</h2>\n<p>%s</p>\n", i, esc(s.Scenario), esc(s.Endpoint), model, badgesHTML(s.Badges()))
	if len(s.Changed) > 0 {
		p.f("<p class=\"warn\">⚙️ Configuration %s: %s.</p>\n", s.changed(), esc(strings.Join(s.Changed, ", ")))
	}
	if l := s.WorkloadLine(); l != "" {
		p.f("<p class=\"sub workload\">%s.</p>\n", esc(l))
	}
	if l := s.FaultLine(); l != "" {
		p.f("<p class=\"sub faults\">%s.</p>\n", esc(l))
	}
	p.budgetTable(s)
	for _, l := range s.TokenLines() {
		cls := "sub"
		if strings.HasPrefix(l, "⚠️") {
			cls = "warn"
		}
		p.f("<p class=\"%s\">%s</p>\n", cls, esc(l))
	}
	if s.Current != nil && len(s.Current.ErrorKinds) > 0 {
		p.f("<p class=\"sub\">Failed now: %d of %d (%s).</p>\n", s.Current.N-s.Current.OK, s.Current.N, esc(KindList(s.Current.ErrorKinds)))
		p.failureShots(s.CurrentDigest)
	}
	if lo := leftOut(s, inline); lo != "" {
		p.f("<p class=\"sub\">%s</p>\n", esc(lo))
	}
	for _, l := range gpuNotes(s) {
		p.f("<p class=\"sub\">%s</p>\n", esc(l))
	}
	if s.Current.IsSession() {
		p.stepsTable(s)
	}
	p.s("<div class=\"charts\">\n")
	charts := []struct {
		metric vocab.Metric
		name   string
	}{{vocab.TTFT, "TTFT"}, {vocab.Total, "Total"}}
	if s.Current.IsSession() {
		charts = []struct {
			metric vocab.Metric
			name   string
		}{{vocab.Answer, "Answer"}, {vocab.Session, "Session"}}
	}
	for _, m := range charts {
		p.ecdf(m.name, okSorted(values(s.BaseDigest, m.metric)), okSorted(values(s.CurrentDigest, m.metric)))
	}
	p.traceScatter(s)
	p.waterfall(s)
	p.pageRuns(s)
	p.timeline(s)
	p.s("</div>\n")
}

// budgetTable is a scenario's budget table: a cell per statistic, each
// marked by its status, the budget and the row's statuses.
func (p *page) budgetTable(s Scenario) {
	stats := detailStats(s)
	t := htmlTable{class: "budget", heads: []string{"stage"}}
	for _, st := range stats {
		t.heads = append(t.heads, string(st))
	}
	t.heads = append(t.heads, "budget", "status")
	t.wish = map[int]float64{0: budgetStageEm * 14, len(t.heads) - 1: budgetStatusEm * 14}
	for _, row := range s.Rows {
		if row.Silent() {
			continue // said under the table (leftOut)
		}
		stage := row.Stage
		if row.Unit != "ms" && row.Unit != "%" {
			stage += " (" + row.Unit + ")"
		}
		cells := []string{td("stage", "", esc(stage))}
		for _, st := range stats {
			label := string(st)
			if row.Unit == "%" {
				label = "rate" // the p50 column holds a rate's one value
			}
			cells = append(cells, td(label, "n", budgetCell(&row, st)))
		}
		t.rows = append(t.rows, append(cells, td("budget", "", esc(row.Budget)), td("status", "st", rowStatusHTML(row))))
	}
	p.cardTable(t)
}

// budgetCell is a budget table's cell of statistic st of a row: its value
// and interval, a rate's one value (in the p50 column), a row without
// checks its p50 and p95 as measured.
func budgetCell(row *Row, st vocab.Stat) string {
	switch {
	case row.Metric.IsRate():
		if st == vocab.P50 {
			return cellHTML(row, row.Checks[0].Stat, "", false)
		}
	case row.Metric == "":
		if st == vocab.P50 {
			return esc(arrow(row.BaseP50, row.CurP50, row.Unit))
		} else if st == vocab.P95 && !oneValue(row.Unit) {
			return esc(arrow(row.BaseP95, row.CurP95, row.Unit))
		}
	default:
		if _, ok := findCheck(row.Checks, st); ok {
			return cellHTML(row, st, "", true)
		}
		return "–"
	}
	return ""
}

// stepsTable is the steps of a session scenario, as the comment's details
// show them.
func (p *page) stepsTable(s Scenario) {
	heads := []string{"sessions", "TTFT", "tool call", "total", "tool time", "cached prompt"}
	t := htmlTable{heads: append([]string{"step"}, heads...)}
	cell := func(base *Stage, cur Stage) string {
		c := esc(arrow(stageP(base, false), cur.P50, "ms"))
		if p95 := arrow(stageP(base, true), cur.P95, "ms"); p95 != "–" {
			c += "<br><span class=\"sub\">p95 " + esc(p95) + "</span>"
		}
		return c
	}
	for _, cur := range s.Current.Steps {
		b := s.Base.step(cur.Label)
		at := func(f func(*StepBreakdown) Stage) *Stage {
			if b == nil {
				return nil
			}
			st := f(b)
			return &st
		}
		cells := []string{fmt.Sprint(cur.N), cell(at(func(x *StepBreakdown) Stage { return x.TTFT }), cur.TTFT), cell(at(func(x *StepBreakdown) Stage { return x.ToolCall }), cur.ToolCall),
			cell(at(func(x *StepBreakdown) Stage { return x.Total }), cur.Total), cell(at(func(x *StepBreakdown) Stage { return x.ToolTime }), cur.ToolTime),
			esc(arrow(b.cache(), cur.Cache, "%"))}
		row := []string{td("step", "lbl", esc(cur.Label))}
		for k, c := range cells {
			row = append(row, td(heads[k], "n", c))
		}
		t.rows = append(t.rows, row)
	}
	p.cardTable(t)
	p.f("<p class=\"sub\">%s</p>\n", esc(stepsNote))
}

const chartW, chartH = 340.0, 200.0

func legend(base bool) string {
	l := "<div class=\"legend sub\">"
	if base {
		l += "<span><span class=\"sw\" style=\"background:var(--base)\"></span>baseline</span>"
	}
	return l + "<span><span class=\"sw\" style=\"background:var(--cur)\"></span>current</span></div>"
}

// frame draws axes and grid and returns the scales; class is the chart's
// own besides "chart" ("" for none).
func (p *page) frame(title, class string, width, xlo, xhi, ylo, yhi float64, xPct, yPct bool, xName string) (axis, axis) {
	x := axis{xlo, xhi, 48, width - 8}
	y := axis{ylo, yhi, chartH - 28, 8}
	p.f("<div class=\"%s\"><h3>%s</h3><svg width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"%s\">\n", strings.TrimSpace("chart "+class), esc(title), width, chartH, esc(title))
	for _, t := range ticks(ylo, yhi, 4) {
		lbl := tickLabel(t, false)
		if yPct {
			lbl = fmt.Sprintf("%.0f%%", 100*t)
		}
		p.f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x.p0, x.p1, y.at(t), y.at(t), x.p0-4, y.at(t)+4, lbl)
	}
	for _, t := range ticks(xlo, xhi, 5) {
		p.f("<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x.at(t), x.at(t), y.p0, y.p1, x.at(t), y.p0+14, tickLabel(t, xPct))
	}
	p.f("<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/>", x.p0, y.p1, y.p0, x.p1)
	p.f("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x.p1, y.p0+26, esc(xName))
	return x, y
}

// ecdf draws the empirical distribution functions of base and current.
func (p *page) ecdf(name string, base, cur []float64) {
	if len(cur) == 0 && len(base) == 0 {
		return
	}
	all := append(append([]float64{}, base...), cur...)
	sort.Float64s(all)
	lo, hi := all[0], all[len(all)-1]
	// A far outlier would squeeze the rest: cut the axis at the 99th
	// percentile and say so.
	note := ""
	if p99 := compare.Quantile(all, 0.99); len(all) >= 100 && hi > 2*p99 {
		hi = p99
		note = " (axis cut at the 99th percentile)"
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	x, y := p.frame(name+": share of requests ≤ x ms"+note, "", chartW, lo, hi, 0, 1, false, true, "ms")
	for _, side := range []struct {
		xs  []float64
		cls string
	}{{base, "base"}, {cur, "cur"}} {
		if len(side.xs) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "M%.1f %.1f", x.at(lo), y.at(0))
		// One step per tenth of a pixel: the values that fall on one x
		// rise there together (a page of 10,000 requests per run drew
		// 10,000 steps a curve).
		var px, py string
		for i, v := range side.xs {
			nx := fmt.Sprintf("%.1f", x.at(math.Min(v, hi)))
			if nx != px && px != "" {
				fmt.Fprintf(&b, "H%sV%s", px, py)
			}
			px, py = nx, fmt.Sprintf("%.1f", y.at(float64(i+1)/float64(len(side.xs))))
		}
		fmt.Fprintf(&b, "H%sV%sH%.1f", px, py, x.at(hi))
		p.f("<path class=\"%s\" d=\"%s\"/>\n", side.cls, b.String())
	}
	p.f("</svg>%s</div>\n", legend(len(base) > 0))
}

// timeline draws each request's TTFT and total latency in the order the
// requests were sent; failed requests are red marks at the top.
func (p *page) timeline(s Scenario) {
	tb, tc := values(s.BaseDigest, vocab.Total), values(s.CurrentDigest, vocab.Total)
	fb, fc := values(s.BaseDigest, vocab.TTFT), values(s.CurrentDigest, vocab.TTFT)
	n := max(len(tb), len(tc))
	if n == 0 {
		return
	}
	all := okSorted(append(append(append(append([]float64{}, tb...), tc...), fb...), fc...))
	hi := 1.0
	if len(all) > 0 {
		hi = all[len(all)-1]
	}
	title := "Each request in order: total (dots) and TTFT (small dots), ms"
	x, y := axis{1, math.Max(float64(n), 2), 0, 100}, axis{0, hi * 1.05, chartH - 28, 8}
	p.f("<div class=\"chart wide\"><h3>%s</h3>", esc(title))
	p.wideSVG(48, 8, chartH, title)
	for _, t := range ticks(y.lo, y.hi, 4) {
		p.f("<line class=\"grid\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"0\" dx=\"-4\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", y.at(t), y.at(t), y.at(t)+4, tickLabel(t, false))
	}
	for _, t := range ticks(x.lo, x.hi, 5) {
		p.f("<line class=\"grid\" x1=\"%s\" x2=\"%s\" y1=\"%.1f\" y2=\"%.1f\"/>", xpc(x.at(t)), xpc(x.at(t)), y.p0, y.p1)
		p.xTick(x.at(t), y.p0+14, tickLabel(t, false))
	}
	p.f("<line class=\"axis\" x1=\"0\" x2=\"0\" y1=\"%.1f\" y2=\"%.1f\"/><line class=\"axis\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/>", y.p1, y.p0, y.p0, y.p0)
	p.f("<text x=\"100%%\" y=\"%.1f\" text-anchor=\"end\">request #</text>\n", y.p0+26)
	for _, side := range []struct {
		tot, ttft []float64
		cls       string
	}{{tb, fb, "dbase"}, {tc, fc, "dcur"}} {
		var b strings.Builder
		// A mark where the same mark already is adds nothing a reader
		// can see: with thousands of requests per run, most would.
		drawn := map[[3]int]bool{}
		once := func(kind int, cx, cy float64) bool {
			// On a grid of 2 pixels (of a desktop's 658 px plot), less
			// than the dots' 4.4 (total) and 2.4 (TTFT) pixels across.
			k := [3]int{kind, int(math.Round(cx * 6.58 / 2)), int(math.Round(cy / 2))}
			if drawn[k] {
				return false
			}
			drawn[k] = true
			return true
		}
		for i := range side.tot {
			xi := x.at(float64(i + 1))
			if math.IsNaN(side.tot[i]) && math.IsNaN(side.ttft[i]) {
				if once(0, xi, y.p1) {
					fmt.Fprintf(&b, "<svg x=\"%s\" y=\"%.1f\" class=\"stretch\"><path class=\"fail\" d=\"M-2 -2l4 4m0 -4l-4 4\"/></svg>", xpc(xi), y.p1)
				}
				continue
			}
			if !math.IsNaN(side.tot[i]) && once(1, xi, y.at(side.tot[i])) {
				fmt.Fprintf(&b, "<circle class=\"%s\" cx=\"%s\" cy=\"%.1f\" r=\"2.2\"/>", side.cls, xpc(xi), y.at(side.tot[i]))
			}
			if !math.IsNaN(side.ttft[i]) && once(2, xi, y.at(side.ttft[i])) {
				fmt.Fprintf(&b, "<circle class=\"%s\" cx=\"%s\" cy=\"%.1f\" r=\"1.2\" opacity=\".7\"/>", side.cls, xpc(xi), y.at(side.ttft[i]))
			}
		}
		p.s(b.String() + "\n")
	}
	p.f("</svg>%s</div>\n", strings.Replace(legend(len(tb) > 0), "</div>", "<span class=\"bad\">× failed</span></div>", 1))
}

// side is one side's digest of a scenario, named.
type side struct {
	d    *Digest
	name string
	base bool
}

// sides are the scenario's digests, the baseline's first (when it has
// one).
func sides(s Scenario) []side {
	var out []side
	for _, sd := range []side{{s.BaseDigest, "baseline", true}, {s.CurrentDigest, "current", false}} {
		if sd.d != nil {
			out = append(out, sd)
		}
	}
	return out
}

// waterfall draws, for a session scenario, the median and the p95 session
// of the current run (and of the baseline, when it has sessions) step by
// step: the wait for the first token, the generation, and the tool time
// where the tools ran (toolSpan), each step labelled with its turn, and
// with the tools it called or "answer".
func (p *page) waterfall(s Scenario) {
	type lane struct {
		label string
		q     *results.Request
		base  bool
	}
	var lanes []lane
	for _, side := range sides(s) {
		for i, pick := range []string{"median", "p95"} {
			if q := side.d.Waterfall[i]; q != nil {
				lanes = append(lanes, lane{side.name + " " + pick + " session", q, side.base})
			}
		}
	}
	if len(lanes) == 0 {
		return
	}
	hi := 1.0
	rows := 0
	for _, l := range lanes {
		hi = math.Max(hi, *l.q.SessionMs)
		rows += len(l.q.Steps) + 1
	}
	const rowH = 16.0
	height := float64(rows)*rowH + 40
	x := axis{0, hi * 1.02, 0, 100}
	p.s("<div class=\"chart wide\"><h3>Sessions step by step: wait for the first token (light), generation (dark), tool time (amber), ms</h3>")
	p.wideSVG(150, 8, height, "session waterfall")
	for _, t := range ticks(0, hi, 5) {
		p.f("<line class=\"grid\" x1=\"%s\" x2=\"%s\" y1=\"4\" y2=\"%.1f\"/>", xpc(x.at(t)), xpc(x.at(t)), height-24)
		p.xTick(x.at(t), height-10, tickLabel(t, false))
	}
	y := 8.0
	for k, l := range lanes {
		p.f("<text x=\"0\" dx=\"-146\" y=\"%.1f\">%s</text>\n", y+11, esc(l.label))
		y += rowH
		for i := range l.q.Steps {
			p.waterfallStep(x, y, k, l.q, i, l.base)
			y += rowH
		}
	}
	p.s("</svg></div>\n")
}

// waterfallStep draws step i of session q at height y in lane k: its
// label, its wait, generation and tool bars (each with its times as the
// tooltip), and what it did: the tools it called, or "answer" (a step
// that called none), or that it failed, where it fits (labelPlace): on
// a desktop's plot, and where that differs, on a phone's.
func (p *page) waterfallStep(x axis, y float64, k int, q *results.Request, i int, base bool) {
	st := q.Steps[i]
	n := 1 // the step's place in its turn
	for j := i - 1; j >= 0 && q.Steps[j].Turn == st.Turn; j-- {
		n++
	}
	label := fmt.Sprintf("step %d", n)
	if q.Steps[len(q.Steps)-1].Turn > 0 {
		label = fmt.Sprintf("turn %d · step %d", st.Turn+1, n)
	}
	start, ttft, total := st.StartMs, msOr(st.TTFTMs, 0), msOr(st.TotalMs, 0)
	gen := "wgen"
	if base {
		gen = "wbase"
	}
	bar := func(cls string, from, to float64, title string) {
		p.f("<rect class=\"%s\" x=\"%s\" y=\"%.1f\" width=\"%s\" height=\"10\"><title>%s %s–%s ms</title></rect>",
			cls, xpc(x.at(from)), y+2, xpc(math.Max(x.at(to)-x.at(from), 0.08)), esc(label+": "+title), Millis(from), Millis(to))
	}
	p.f("<g class=\"wrow\" data-lane=\"%d\"><text x=\"0\" dx=\"-134\" y=\"%.1f\">%s</text>", k, y+11, esc(label))
	bar("wwait", start, start+ttft, "wait for the first token")
	bar(gen, start+ttft, start+total, "generation")
	end := start + total
	what := "answer"
	if from, to, ok := toolSpan(q, i); ok {
		bar("wtool", from, to, strings.TrimSuffix("tool time ("+strings.Join(st.Tools, ", ")+")", " ()"))
		end = math.Max(end, to)
	}
	switch {
	case st.Error != "":
		what = "failed"
	case len(st.Tools) > 0:
		what = short(strings.Join(st.Tools, ", "), 40)
	case st.ToolCalls > 0:
		what = "tool call"
	}
	wide, narrow := labelPlace(x, start, end, what, wideWaterfallPlot), labelPlace(x, start, end, what, 180)
	text := func(class string, pl place) {
		p.f("<text class=\"%s\" x=\"%s\" dx=\"%d\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", class, xpc(pl.at), pl.dx, y+11, pl.anchor, esc(what))
	}
	if wide == narrow {
		text("wlabel", wide)
	} else {
		text("wlabel wwide", wide)
		text("wlabel wnarrow", narrow)
	}
	p.s("</g>\n")
}

// wideWaterfallPlot is a waterfall's plot on a desktop, in px: its
// chart's 714 less its padding, border and margins; below 762 px of
// window the chart is narrower, and labelPlace places the steps' words
// for a phone's plot of about 180 px (waterfallCSS).
const wideWaterfallPlot = 538.0

const waterfallCSS = `svg text.wnarrow{display:none}@media (max-width:761px){svg text.wwide{display:none}svg text.wnarrow{display:inline}}`

// place is where a text goes: at x (percent of its plot) and dx px,
// anchored at its start or end.
type place struct {
	at     float64
	dx     int
	anchor string
}

// labelPlace is where a waterfall step's words go on a plot plotPx wide
// (6.5 px a character): after its bars where they fit there, else
// before them where they fit there, else at the plot's end, over the
// bars.
func labelPlace(x axis, start, end float64, what string, plotPx float64) place {
	w := (6.5*float64(len([]rune(what))) + 4) / plotPx * 100
	switch at := x.at(end); {
	case at+w <= 100:
		return place{at, 4, "start"}
	case x.at(start) >= w:
		return place{x.at(start), -4, "end"}
	}
	return place{100, 0, "end"}
}

// toolSpan is when step i's tools ran, in ms from the session's start.
// After the step when the next step starts once they are done: a loop
// latgate drives sends the next step after its scripted tools. Within the
// step otherwise, from the tool call's arguments to the result: a
// server-driven agent's step ends after its tools ran (the AI SDK's
// finish-step follows tool-output-available), and its next step starts
// there. ok is false for a step without tool time.
func toolSpan(q *results.Request, i int) (from, to float64, ok bool) {
	st := q.Steps[i]
	if st.ToolMs <= 0 {
		return 0, 0, false
	}
	end := st.StartMs + msOr(st.TotalMs, 0)
	after := st.ToolCallMs == nil
	if i+1 < len(q.Steps) {
		after = after || q.Steps[i+1].StartMs >= end+st.ToolMs-0.5
	} else {
		after = after || *st.ToolCallMs+st.ToolMs > msOr(st.TotalMs, 0)+0.5
	}
	if after {
		return end, end + st.ToolMs, true
	}
	from = st.StartMs + *st.ToolCallMs
	return from, math.Min(from+st.ToolMs, end), true
}

func msOr(v *float64, or float64) float64 {
	if v == nil {
		return or
	}
	return *v
}

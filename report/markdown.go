package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
)

// MarkdownOptions shape the Markdown rendering.
type MarkdownOptions struct {
	// Marker is a hidden line (an HTML comment) that identifies the sticky
	// comment; it is written first.
	Marker string
	// MaxLen bounds the body (GitHub's comment limit is 65,536 characters);
	// details are dropped, least important first, to fit. 0 = no limit.
	MaxLen int
	// SummaryURL is where the full report lives when details are trimmed.
	SummaryURL string
	// Title is the heading (default "latgate").
	Title string
}

// md escapes text from configs and servers for a Markdown table cell: no
// table break, no HTML, no @mention, no newline.
func md(s string) string {
	r := strings.NewReplacer(
		"&", "&amp;", "<", "&lt;", ">", "&gt;", "|", "&#124;", "`", "&#96;",
		"@", "&#64;", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]", "#", "&#35;",
		"\r", " ", "\n", " ",
	)
	return r.Replace(s)
}

// mermaidLabel keeps a chart label safe inside double quotes.
func mermaidLabel(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '"', '\\', '\n', '\r', '`', '<', '>', '[', ']', ';', '@', '|', '#':
			return ' '
		}
		return r
	}, s)
	if len([]rune(s)) > 24 {
		s = string([]rune(s)[:23]) + "…"
	}
	return s
}

var statusIcon = map[compare.Status]string{
	compare.Regression:   "❌ regression",
	compare.OverBudget:   "⛔ over budget",
	compare.Inconclusive: "⚠️ inconclusive",
	compare.Improvement:  "🟢 improvement",
	compare.NoBaseline:   "🆕 no baseline",
	compare.OK:           "✅ ok",
}

func cell(v float64, unit string) string {
	if math.IsNaN(v) {
		return "–"
	}
	if unit == "%" {
		return trimFloat(100*v) + "%"
	}
	return Millis(v)
}

// Markdown renders the report for a PR comment or the job summary.
func Markdown(r *Report, opt MarkdownOptions) string {
	title := opt.Title
	if title == "" {
		title = "latgate"
	}
	var head strings.Builder
	if opt.Marker != "" {
		head.WriteString(opt.Marker + "\n")
	}
	icon := "✅"
	if r.Verdict == "fail" {
		icon = "❌"
	}
	fmt.Fprintf(&head, "### %s %s: latency %s\n\n", icon, md(title), r.Verdict)
	fmt.Fprintf(&head, "**%s**\n\n", headline(r, md))
	head.WriteString(overview(r))
	head.WriteString(chart(r))
	head.WriteString(ranking(r))
	for _, w := range r.Warnings {
		fmt.Fprintf(&head, "> ⚠️ %s\n", md(w))
	}
	if len(r.Warnings) > 0 {
		head.WriteString("\n")
	}

	// Details: the failing and changed scenarios first.
	order := make([]int, len(r.Scenarios))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return severity[r.Scenarios[order[a]].Status] > severity[r.Scenarios[order[b]].Status]
	})
	details := make([]string, len(r.Scenarios))
	for _, i := range order {
		details[i] = scenarioDetails(r.Scenarios[i])
	}
	foot := footer(r)
	body := head.String()
	budget := opt.MaxLen - len(body) - len(foot) - 400 // room for the trim note
	trimmed := 0
	var kept []string
	for _, i := range order {
		d := details[i]
		if opt.MaxLen > 0 && len(d) > budget {
			trimmed++
			continue
		}
		budget -= len(d)
		kept = append(kept, d)
	}
	body += strings.Join(kept, "")
	if trimmed > 0 {
		where := "the job summary"
		if opt.SummaryURL != "" {
			where = fmt.Sprintf("[the job summary](%s)", opt.SummaryURL)
		}
		body += fmt.Sprintf("\n> Details of %s left out to fit GitHub's comment size limit: see %s.\n\n", plural(trimmed, "scenario", "scenarios"), where)
	}
	body += foot
	if opt.MaxLen > 0 && len(body) > opt.MaxLen {
		// Still too long (a huge suite): cut at a line boundary.
		cut := strings.LastIndex(body[:opt.MaxLen-200], "\n")
		body = body[:max(cut, 0)] + "\n\n> Report cut to fit GitHub's comment size limit; see the job summary.\n"
	}
	return body
}

func overview(r *Report) string {
	var b strings.Builder
	b.WriteString("| scenario | endpoint | TTFT p95 | Perceived p95 | Total p50 | Errors | status |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---|\n")
	for _, s := range r.Scenarios {
		get := func(stage string) Row {
			for _, row := range s.Rows {
				if row.Stage == stage {
					return row
				}
			}
			return Row{BaseP50: math.NaN(), BaseP95: math.NaN(), CurP50: math.NaN(), CurP95: math.NaN()}
		}
		ttft, perc, total, errs := get("TTFT"), get("Perceived"), get("Total"), get("Errors")
		name := md(s.Scenario)
		if len(s.Changed) > 0 {
			name += " ⚙️"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", name, md(s.Endpoint),
			arrow(ttft.BaseP95, ttft.CurP95, "ms"), arrow(perc.BaseP95, perc.CurP95, "ms"),
			arrow(total.BaseP50, total.CurP50, "ms"), arrow(errs.BaseP50, errs.CurP50, "%"), statusIcon[s.Status])
	}
	b.WriteString("\n<sub>Latencies in ms, baseline → current. ⚙️ = the scenario's configuration changed since the baseline.</sub>\n\n")
	return b.String()
}

func arrow(base, cur float64, unit string) string {
	if math.IsNaN(base) {
		return cell(cur, unit)
	}
	return cell(base, unit) + " → " + cell(cur, unit)
}

// chart draws TTFT p95 per scenario as a Mermaid xychart (bars: baseline,
// line: current), limited to the 12 largest changes to stay readable.
func chart(r *Report) string {
	type pt struct {
		label      string
		base, cur  float64
		importance float64
	}
	var pts []pt
	multi := len(r.Endpoints) > 1
	for _, s := range r.Scenarios {
		if s.Current == nil || math.IsNaN(s.Current.TTFT.P95) {
			continue
		}
		p := pt{label: s.Scenario, cur: s.Current.TTFT.P95, base: math.NaN()}
		if multi {
			p.label += "/" + s.Endpoint
		}
		if s.Base != nil {
			p.base = s.Base.TTFT.P95
			p.importance = math.Abs(p.cur/p.base - 1)
		}
		pts = append(pts, p)
	}
	if len(pts) == 0 {
		return ""
	}
	shown := pts
	note := ""
	if len(pts) > 12 {
		sorted := append([]pt(nil), pts...)
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].importance > sorted[j].importance })
		shown = sorted[:12]
		note = fmt.Sprintf(" (the 12 largest changes of %d)", len(pts))
	}
	var labels, bases, curs []string
	top := 0.0
	for _, p := range shown {
		labels = append(labels, `"`+mermaidLabel(p.label)+`"`)
		b := p.base
		if math.IsNaN(b) {
			b = 0
		}
		bases = append(bases, fmt.Sprintf("%.0f", b))
		curs = append(curs, fmt.Sprintf("%.0f", p.cur))
		top = math.Max(top, math.Max(b, p.cur))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>Chart: TTFT p95 per scenario%s</summary>\n\n", note)
	b.WriteString("```mermaid\nxychart-beta\n")
	b.WriteString("  title \"TTFT p95 (ms): bars = baseline, line = current\"\n")
	fmt.Fprintf(&b, "  x-axis [%s]\n", strings.Join(labels, ", "))
	fmt.Fprintf(&b, "  y-axis \"ms\" 0 --> %.0f\n", math.Ceil(top*1.1))
	fmt.Fprintf(&b, "  bar [%s]\n", strings.Join(bases, ", "))
	fmt.Fprintf(&b, "  line [%s]\n", strings.Join(curs, ", "))
	b.WriteString("```\n\n</details>\n\n")
	return b.String()
}

func ranking(r *Report) string {
	rk := r.Rank()
	if rk == nil {
		return ""
	}
	names := r.ScenarioNames()
	var b strings.Builder
	b.WriteString("#### Endpoints ranked by TTFT p95 (current, ms)\n\n| rank | endpoint | median |")
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", md(n))
	}
	b.WriteString("\n|---:|---|---:|" + strings.Repeat("---:|", len(names)) + "\n")
	for i, e := range rk {
		fmt.Fprintf(&b, "| %d | %s | %s |", i+1, md(e.Endpoint), Millis(e.Median))
		for _, n := range names {
			v, ok := e.TTFTP95[n]
			if !ok {
				v = math.NaN()
			}
			fmt.Fprintf(&b, " %s |", Millis(v))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	return b.String()
}

func scenarioDetails(s Scenario) string {
	var b strings.Builder
	open := ""
	if s.Status == compare.Regression || s.Status == compare.OverBudget {
		open = " open"
	}
	fmt.Fprintf(&b, "<details%s><summary><b>%s</b> @ %s (%s): %s</summary>\n\n", open, md(s.Scenario), md(s.Endpoint), md(s.Model), statusIcon[s.Status])
	if len(s.Changed) > 0 {
		fmt.Fprintf(&b, "⚙️ Configuration changed since the baseline: %s. The comparison may reflect that change.\n\n", md(strings.Join(s.Changed, ", ")))
	}
	b.WriteString("| stage | budget | baseline p50 | baseline p95 | current p50 | current p95 | change [95% CI] | status |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---|---|\n")
	var notes []string
	for _, row := range s.Rows {
		stage := row.Stage
		if row.Unit != "ms" && row.Unit != "%" {
			stage += " (" + row.Unit + ")"
		}
		p95b, p95c := cell(row.BaseP95, row.Unit), cell(row.CurP95, row.Unit)
		if row.Unit == "%" {
			p95b, p95c = "", ""
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", stage, md(row.Budget),
			cell(row.BaseP50, row.Unit), p95b, cell(row.CurP50, row.Unit), p95c, md(row.Change), statusIcon[row.Status])
		for _, n := range row.Notes {
			notes = append(notes, row.Stage+": "+n)
		}
	}
	b.WriteString("\n")
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", md(n))
	}
	b.WriteString("\n</details>\n\n")
	return b.String()
}

func footer(r *Report) string {
	o := r.Thresholds
	return fmt.Sprintf("<sub>p50: Mann-Whitney U; p95/p99: tail exceedance of the baseline's quantile; errors: exact permutation test. "+
		"Family-wise α = %s over %d checks (Westfall–Young maxT). A regression must be confidently beyond %s%% and exceed %s ms. "+
		"Fails on: %s. Measured by latgate.</sub>\n",
		trimFloat(o.Alpha), r.Tested, trimFloat(100*o.Tolerance), trimFloat(r.minDeltaMs()), md(strings.Join(r.failOn(), ", ")))
}

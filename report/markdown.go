package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// MarkdownOptions shape the Markdown rendering.
type MarkdownOptions struct {
	// Marker is a hidden line (an HTML comment) that identifies the sticky
	// comment; it is written first.
	Marker string
	// MaxLen bounds the body (GitHub's comment limit is 65,536 characters);
	// details are dropped, least important first, to fit, and the comment
	// says what was dropped. 0 = no limit.
	MaxLen int
	// SummaryURL is where the full report lives when details are trimmed.
	SummaryURL string
	// Title is the heading (default "latgate").
	Title string
}

// md escapes text from configs and servers for a Markdown table cell: no
// table break, no HTML, no @mention, no link, no emphasis, no newline.
var mdReplacer = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", "|", "&#124;", "`", "&#96;",
	"@", "&#64;", "*", "&#42;", "_", "&#95;", "[", "&#91;", "]", "&#93;", "#", "&#35;",
	"~", "&#126;", "\\", "&#92;", ":", "&#58;", "!", "&#33;", "$", "&#36;",
	"www.", "www&#46;", "WWW.", "WWW&#46;",
	"\r", " ", "\n", " ", "\t", " ",
)

func md(s string) string { return mdReplacer.Replace(bidiReplacer.Replace(s)) }

// mdName is a config or server name for a table: escaped and at most 48
// characters (the details heading repeats it in full).
func mdName(s string) string { return md(short(s, 48)) }

func badgesMarkdown(fs []Badge) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, "<br>")
}

// bold is Markdown's strong emphasis.
func bold(s string) string { return "**" + s + "**" }

func init() {
	ReportFormats.Register(ReportFormat{Name: "markdown",
		Write: func(w io.Writer, r *Report, o RenderOptions) error {
			_, err := io.WriteString(w, Markdown(r, o.Markdown))
			return err
		},
		Noise: func(w io.Writer, checks []compare.NoiseCheck) { _, _ = io.WriteString(w, NoiseMarkdown(checks)) }})
}

// Markdown renders the report for a PR comment or the job summary.
func Markdown(r *Report, opt MarkdownOptions) string {
	title := opt.Title
	if title == "" {
		title = "latgate"
	}
	order := rank(r)
	foot := "<sub>" + footnote(r, md) + "</sub>\n"
	if c := r.costLine(md); c != "" {
		foot = "💲 " + c + "\n\n" + foot
	}
	var body string
	// The summary shrinks (fewer rows) until it leaves room for the footer.
	for rows := 60; ; rows /= 2 {
		body = head(r, opt, title, order, rows)
		if opt.MaxLen == 0 || len(body)+len(foot)+600 <= opt.MaxLen || rows < 4 {
			break
		}
	}

	// Details: at most two failing sections open.
	var details []string
	opened := 0
	for _, i := range order {
		s := r.Scenarios[i]
		open := false
		if fs := s.Badges(); (fs[0].Status == vocab.Regression || fs[0].Status == vocab.OverBudget) && opened < 2 {
			open = true
			opened++
		}
		details = append(details, scenarioDetails(s, open))
	}
	budget := opt.MaxLen - len(body) - len(foot) - 600 // room for the trim note
	var kept []string
	var dropped []string
	for k, d := range details {
		if opt.MaxLen > 0 && len(d) > budget {
			s := r.Scenarios[order[k]]
			dropped = append(dropped, s.Scenario+" @ "+s.Endpoint)
			continue
		}
		budget -= len(d)
		kept = append(kept, d)
	}
	body += strings.Join(kept, "")
	if len(dropped) > 0 {
		where := "the job summary"
		if opt.SummaryURL != "" {
			where = fmt.Sprintf("[the job summary](%s)", opt.SummaryURL)
		}
		names := dropped
		if len(names) > 3 {
			names = append(append([]string{}, names[:3]...), fmt.Sprintf("%d more", len(dropped)-3))
		}
		for i := range names {
			names[i] = md(short(names[i], 48))
		}
		body += fmt.Sprintf("\n> Details of %s (%s) left out to fit GitHub's comment size limit of 65,536 characters: see %s.\n\n",
			plural(len(dropped), "scenario", "scenarios"), strings.Join(names, ", "), where)
	}
	body += foot
	if opt.MaxLen > 0 && len(body) > opt.MaxLen {
		// Still too long: cut at a line boundary and say so.
		cut := strings.LastIndex(body[:max(opt.MaxLen-200, 0)], "\n")
		body = body[:max(cut, 0)] + "\n\n> Report cut to fit GitHub's comment size limit; see the job summary.\n"
	}
	return body
}

func head(r *Report, opt MarkdownOptions, title string, order []int, maxRows int) string {
	var b strings.Builder
	if opt.Marker != "" {
		b.WriteString(opt.Marker + "\n")
	}
	heading := "✅ " + md(title) + ": latency pass"
	if r.Verdict == vocab.Fail {
		heading = "❌ " + md(title) + ": latency fail"
	}
	fmt.Fprintf(&b, "### %s\n\n", heading)
	fmt.Fprintf(&b, "**%s**\n\n", headline(r, md))
	if p := provenance(r); p != "" {
		b.WriteString(p)
	}
	if len(r.Scenarios) > 0 || len(r.Capacity) == 0 {
		b.WriteString(summary(r, order, maxRows)) // a suite of capacity searches has their table alone
	}
	b.WriteString(capacityMarkdown(r.Capacity))
	b.WriteString(suiteNotesMarkdown(r))
	b.WriteString(ranking(r))
	return b.String()
}

// provenance is the line that says what was compared.
func provenance(r *Report) string {
	p := r.Provenance
	var parts []string
	if p.Mode != "" {
		parts = append(parts, "mode **"+md(p.Mode)+"**")
	}
	sha := func(s string) string { return "`" + shortSHA(s) + "`" }
	side := func(label, s, ref string, t time.Time) string {
		out := label
		switch {
		case s != "":
			out += " " + sha(s)
		case ref != "":
			out += " " + md(short(ref, 40))
		}
		if !t.IsZero() {
			out += " (" + t.UTC().Format("2006-01-02 15:04") + " UTC)"
		}
		return out
	}
	hasBase := p.BaseSHA != "" || p.BaseRef != "" || !p.BaselineCreated.IsZero()
	hasHead := p.HeadSHA != "" || p.HeadRef != "" || !p.HeadCreated.IsZero()
	if hasBase || hasHead {
		s := side("base", p.BaseSHA, p.BaseRef, p.BaselineCreated) + " → " + side("head", p.HeadSHA, p.HeadRef, p.HeadCreated)
		switch d := p.HeadCreated.Sub(p.BaselineCreated); {
		case p.BaselineCreated.IsZero() || p.HeadCreated.IsZero():
		case d < 0:
			s += ", ⚠️ the baseline was recorded after the current run"
		default:
			s += ", baseline " + age(d) + " old"
		}
		parts = append(parts, s)
	}
	if p.HistoryRuns > 0 {
		parts = append(parts, fmt.Sprintf("against %d stored runs", p.HistoryRuns))
	}
	if n := perSide(r); n != "" {
		parts = append(parts, n)
	}
	where := strings.TrimSpace(strings.Join(nonEmpty(md(short(p.Runner, 40)), md(short(p.Region, 40))), ", "))
	if where != "" {
		parts = append(parts, "on "+where)
	}
	if u := safeURL(p.RunURL); u != "" {
		parts = append(parts, "[workflow run]("+u+")")
	}
	if u := safeURL(p.ReportURL); u != "" {
		parts = append(parts, "[HTML report]("+u+")")
	}
	if u := safeURL(p.TrendURL); u != "" {
		parts = append(parts, "[main's trend]("+u+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return "<sub>" + strings.Join(parts, " · ") + "</sub>\n\n"
}

func summary(r *Report, order []int, maxRows int) string {
	if len(r.Scenarios) == 0 {
		return "No scenario was measured.\n\n"
	}
	cols := summaryCols(r)
	header := "| scenario @ endpoint |"
	sep := "|---|"
	for _, c := range cols {
		header += " " + c.head + " |"
		sep += "---:|"
	}
	header += " status |\n" + sep + "---|\n"
	// Every row when the suite is small. In a large suite, the rows that
	// fail or changed first; inconclusive ones in a collapsed table; a count
	// of those that passed.
	large := len(r.Scenarios) > 20
	var main, doubt []string
	passed, cut := 0, 0
	for _, i := range order {
		s := r.Scenarios[i]
		fs := s.Badges()
		if large && severity[fs[0].Status] <= severity[vocab.NoRegressionShown] {
			passed++
			continue
		}
		if len(main)+len(doubt) >= maxRows {
			cut++
			continue
		}
		line := summaryLine(s, fs, cols)
		if large && fs[0].Status == vocab.Inconclusive {
			doubt = append(doubt, line)
		} else {
			main = append(main, line)
		}
	}
	var b strings.Builder
	if len(main) > 0 {
		b.WriteString(header + strings.Join(main, "") + "\n")
	}
	if len(doubt) > 0 {
		fmt.Fprintf(&b, "<details><summary>⚠️ %s inconclusive, nothing failing</summary>\n\n%s%s\n</details>\n\n",
			plural(len(doubt), "pair", "pairs"), header, strings.Join(doubt, ""))
	}
	var more []string
	if passed > 0 {
		more = append(more, fmt.Sprintf("%s that passed (✅) not listed", plural(passed, "pair", "pairs")))
	}
	if cut > 0 {
		more = append(more, fmt.Sprintf("%d more %s in the details or the job summary", cut, map[bool]string{true: "pair", false: "pairs"}[cut == 1]))
	}
	if len(more) > 0 {
		b.WriteString("<sub>" + strings.Join(more, "; ") + ".</sub>\n\n")
	}
	return b.String()
}

// summaryLine is a scenario's line of the summary: a cell per column (its
// statistic, and below it, smaller, every other failing one of its row:
// at full size a cell of three statistics took a column too wide for
// GitHub's), and its badges with, when a TTFT check fails, how the
// server's stages moved.
func summaryLine(s Scenario, fs []Badge, cols []summaryCol) string {
	name := mdName(s.Scenario) + " @ " + mdName(s.Endpoint)
	if len(s.Changed) > 0 {
		name += " ⚙️"
	}
	line := "| " + name + " |"
	for _, c := range cols {
		row := s.row(c.stage)
		cell := changeCell(row, c.stat, bold)
		for _, x := range extraStats(row, c.stat) {
			cell += "<br><sub>" + string(x) + " " + changeCell(row, x, bold) + "</sub>"
		}
		line += " " + cell + " |"
	}
	status := badgesMarkdown(fs)
	if shift := s.StageShift(); shift != "" {
		status += "<br><sub>" + md(shift) + "</sub>"
	}
	return line + " " + status + " |\n"
}

// suiteNotesMarkdown is the notes as a Markdown list: those a reviewer
// reads first (at most maxShownNotes), then the rest collapsed.
func suiteNotesMarkdown(r *Report) string {
	var b strings.Builder
	shown, rest := splitNotes(suiteNotes(r, md))
	for _, n := range shown {
		b.WriteString("- " + n.String() + "\n")
	}
	b.WriteString("\n")
	if len(rest) > 0 {
		b.WriteString("<details><summary>Notes: how this was measured and decided</summary>\n\n")
		for _, n := range rest {
			b.WriteString("- " + n.String() + "\n")
		}
		b.WriteString("\n</details>\n\n")
	}
	return b.String()
}

// ranking compares endpoints in a table of bounded width: one row per
// endpoint (at most 10), whatever the number of scenarios.
func ranking(r *Report) string {
	rk := r.Rank()
	if rk == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("<details><summary>Endpoints ranked by current TTFT p95 (median over scenarios)</summary>\n\n")
	b.WriteString("| rank | endpoint | median TTFT p95 | fastest scenario | slowest scenario |\n|---:|---|---:|---|---|\n")
	for i, e := range rk {
		if i == 10 {
			fmt.Fprintf(&b, "\n<sub>%d more endpoints not listed.</sub>\n", len(rk)-10)
			break
		}
		lo, hi := "", ""
		loV, hiV := math.Inf(1), math.Inf(-1)
		for _, n := range r.ScenarioNames() {
			v, ok := e.TTFTP95[n]
			if !ok || math.IsNaN(v) {
				continue
			}
			if v < loV {
				loV, lo = v, n
			}
			if v > hiV {
				hiV, hi = v, n
			}
		}
		cellOf := func(name string, v float64) string {
			if name == "" {
				return "–"
			}
			return mdName(name) + " " + Millis(v)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s |\n", i+1, mdName(e.Endpoint), Millis(e.Median), cellOf(lo, loV), cellOf(hi, hiV))
	}
	b.WriteString("\n</details>\n\n")
	return b.String()
}

func ciText(c compare.Check) string {
	if math.IsNaN(c.CIPct[0]) || math.IsNaN(c.CIPct[1]) || c.Untested() {
		return ""
	}
	return fmt.Sprintf("<br><sub>[%s, %s]</sub>", signedPct(c.CIPct[0]), signedPct(c.CIPct[1]))
}

func scenarioDetails(s Scenario, open bool) string {
	var b strings.Builder
	attr := ""
	if open {
		attr = " open"
	}
	model := ""
	if s.Model != "" {
		model = " (" + md(short(s.Model, 80)) + ")"
	}
	fmt.Fprintf(&b, "<details%s><summary><b>%s</b> @ %s%s: %s</summary>\n\n", attr, md(s.Scenario), md(s.Endpoint), model,
		strings.ReplaceAll(badgesMarkdown(s.Badges()), "<br>", " · "))
	if len(s.Changed) > 0 {
		fmt.Fprintf(&b, "⚙️ Configuration %s: %s. The comparison may reflect that change.\n\n", s.changed(), md(short(strings.Join(s.Changed, ", "), 300)))
	}
	if l := s.WorkloadLine(); l != "" {
		fmt.Fprintf(&b, "%s.\n\n", md(l))
	}
	if l := s.FaultLine(); l != "" {
		fmt.Fprintf(&b, "%s.\n\n", md(l))
	}
	stats := detailStats(s)
	b.WriteString("| stage |")
	sep := "|---|"
	for _, st := range stats {
		fmt.Fprintf(&b, " %s |", st)
		sep += "---:|"
	}
	b.WriteString(" budget | status |\n" + sep + "---|---|\n")
	var notes []string
	for _, row := range s.Rows {
		if row.Silent() {
			continue
		}
		b.WriteString(detailsRow(row, stats))
		notes = append(notes, detailsRowNotes(s, row)...)
	}
	b.WriteString("\n")
	if net := s.row("Network"); net != nil && !net.Zero() && s.Current.ColdConns > 1 {
		notes = append(notes, fmt.Sprintf("%d of %d requests opened a new connection.", s.Current.ColdConns, s.Current.N))
	}
	if lo := leftOut(s, md); lo != "" {
		notes = append(notes, lo)
	}
	for _, l := range s.TokenLines() {
		notes = append(notes, md(l))
	}
	for _, l := range gpuNotes(s) {
		notes = append(notes, md(l))
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	b.WriteString(stepsTable(s))
	b.WriteString("\n</details>\n\n")
	return b.String()
}

// stepsTable shows a session scenario's steps, one row each (p50, with the
// p95 under it, baseline → current), and the tool time; "" for a single
// call.
func stepsTable(s Scenario) string {
	if !s.Current.IsSession() {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n| step | sessions | TTFT | tool call | total | tool time | cached prompt |\n|---|---:|---:|---:|---:|---:|---:|\n")
	cellOf := func(base, cur *Stage) string {
		c := arrow(stageP(base, false), cur.P50, "ms")
		if p95 := arrow(stageP(base, true), cur.P95, "ms"); p95 != "–" {
			c += "<br><sub>p95 " + p95 + "</sub>"
		}
		return c
	}
	for _, cur := range s.Current.Steps {
		base := s.Base.step(cur.Label)
		pick := func(f func(*StepBreakdown) *Stage) *Stage {
			if base == nil {
				return nil
			}
			return f(base)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", cur.Label, cur.N,
			cellOf(pick(func(x *StepBreakdown) *Stage { return &x.TTFT }), &cur.TTFT),
			cellOf(pick(func(x *StepBreakdown) *Stage { return &x.ToolCall }), &cur.ToolCall),
			cellOf(pick(func(x *StepBreakdown) *Stage { return &x.Total }), &cur.Total),
			cellOf(pick(func(x *StepBreakdown) *Stage { return &x.ToolTime }), &cur.ToolTime),
			arrow(base.cache(), cur.Cache, "%"))
	}
	var base *Stage
	if s.Base.IsSession() {
		base = &s.Base.ToolTime
	}
	fmt.Fprintf(&b, "\n- %s; tool time of the whole session: %s.\n", strings.TrimSuffix(stepsNote, "."), cellOf(base, &s.Current.ToolTime))
	return b.String()
}

// detailsRow is one line of a scenario's details table: a cell per
// statistic, the budget and the row's badges.
func detailsRow(row Row, stats []vocab.Stat) string {
	var b strings.Builder
	stage := row.Stage
	if row.Unit != "ms" && row.Unit != "%" {
		stage += " (" + row.Unit + ")"
	}
	fmt.Fprintf(&b, "| %s |", stage)
	for _, st := range stats {
		if v := detailsCell(row, st); v != "" {
			fmt.Fprintf(&b, " %s |", v)
		} else {
			b.WriteString(" |")
		}
	}
	fs := ""
	switch {
	case row.Unreported:
		fs = NotReported
	case row.Metric != "":
		var flags []Badge
		for _, f := range badgesOf(row.Checks, nil, nil) {
			flags = append(flags, f.rowBadge())
		}
		fs = badgesMarkdown(flags)
	}
	fmt.Fprintf(&b, " %s | %s |\n", md(row.Budget), fs)
	return b.String()
}

// detailsCell is a row's value of one statistic in the details table.
func detailsCell(row Row, st vocab.Stat) string {
	switch {
	case row.Metric.IsRate():
		if st == vocab.P50 {
			return changeCell(&row, row.Checks[0].Stat, bold)
		}
		return ""
	case row.Metric == "":
		switch {
		case st == vocab.P50:
			return arrow(row.BaseP50, row.CurP50, row.Unit)
		case st == vocab.P95 && !oneValue(row.Unit):
			return arrow(row.BaseP95, row.CurP95, row.Unit)
		}
		return ""
	}
	c, ok := findCheck(row.Checks, st)
	if !ok {
		return "–"
	}
	return changeCell(&row, st, bold) + ciText(c)
}

// detailsRowNotes are the notes under the details table a row adds: its
// budget breaches and budgets not tested, and the failures by kind for the error rate.
func detailsRowNotes(s Scenario, row Row) []string {
	var notes []string
	for _, c := range row.Checks {
		if c.Status == vocab.OverBudget && c.Metric.HigherIsBetter() {
			notes = append(notes, fmt.Sprintf("%s: %s is below its floor of %s.", row.Stage, cell(c.Current, row.Unit), cell(c.Budget, row.Unit)))
		} else if c.Status == vocab.OverBudget {
			notes = append(notes, fmt.Sprintf("%s %s: %s.", row.Stage, c.Stat, overBudgetWords(c, func(v float64) string { return cell(v, row.Unit) })))
		} else if c.BudgetUntested() {
			notes = append(notes, fmt.Sprintf("%s %s: its budget of %s is not tested: %s.", row.Stage, c.Stat, cell(c.Budget, row.Unit), budgetShort(c)))
		}
	}
	if row.Metric == vocab.Errors && s.Current != nil && len(s.Current.ErrorKinds) > 0 {
		notes = append(notes, fmt.Sprintf("Failed now: %d of %d (%s).", s.Current.N-s.Current.OK, s.Current.N, md(short(KindList(s.Current.ErrorKinds), 300))))
	}
	if row.Metric == vocab.Errors && s.Base != nil && len(s.Base.ErrorKinds) > 0 {
		notes = append(notes, fmt.Sprintf("Failed in the baseline: %d of %d (%s).", s.Base.N-s.Base.OK, s.Base.N, md(short(KindList(s.Base.ErrorKinds), 300))))
	}
	return notes
}

// capacityMarkdown is the capacity searches' table, a row each (at most
// 20), and per search its levels in a collapsed section.
func capacityMarkdown(cs []Capacity) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("| capacity @ endpoint | capacity at the SLO | above it | goodput within the SLO | status |\n|---|---|---|---|---|\n")
	for i, c := range cs {
		if i == 20 {
			fmt.Fprintf(&b, "\n<sub>%d more capacity searches in the job summary.</sub>\n", len(cs)-20)
			break
		}
		e := c.escaped(func(s string) string { return md(short(s, 48)) })
		d := e.details()
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s<br><sub>%s</sub> |\n", e.Name(), e.Line(),
			strings.TrimPrefix(d[1], "above: "), strings.TrimPrefix(d[2], "goodput within the SLO: "), c.Badge(), e.reason())
		b.WriteString(costMarkdownRow(e))
	}
	b.WriteString("\n")
	for i, c := range cs {
		if i == 20 {
			break
		}
		e := c.escaped(func(s string) string { return md(short(s, 80)) })
		fmt.Fprintf(&b, "<details><summary>Capacity levels of <b>%s</b> @ %s</summary>\n\n", e.Scenario, e.Endpoint)
		heads := c.heads()
		b.WriteString("| " + strings.Join(heads, " | ") + " |\n|---|---:|---|" + strings.Repeat("---:|", len(heads)-3) + "\n")
		for _, row := range c.levelRows() {
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		fmt.Fprintf(&b, "\n- %s.\n", e.details()[3])
		for _, d := range e.costDetail() { // the cost's interval, as text and HTML say it
			fmt.Fprintf(&b, "- %s.\n", d)
		}
		if g := e.gpuDetails(); g != "" {
			fmt.Fprintf(&b, "- %s.\n", g)
		}
		if sd := e.specDetails(); sd != "" {
			fmt.Fprintf(&b, "- %s.\n", sd)
		}
		fmt.Fprintf(&b, "- %s\n\n</details>\n\n", c.legend())
	}
	return b.String()
}

package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
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

// short cuts a name to n characters (an ellipsis marks the cut).
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// mdName is a config or server name for a table: escaped and at most 48
// characters (the details heading repeats it in full).
func mdName(s string) string { return md(short(s, 48)) }

func cell(v float64, unit string) string {
	if math.IsNaN(v) {
		return "–"
	}
	if unit == "%" {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*v), ".0") + "%"
	}
	return Millis(v)
}

var metricLabel = map[vocab.Metric]string{
	vocab.TTFT: "TTFT", vocab.TTFC: "TTFC", vocab.ITL: "inter-token", vocab.TPOT: "per token",
	vocab.Total: "total", vocab.Perceived: "perceived", vocab.Errors: "error rate",
	vocab.FirstToolCall: "first tool call", vocab.Answer: "answer", vocab.Session: "session", vocab.StepCount: "model calls",
}

// Flag is one status that applies to a scenario or row, with the metrics
// it concerns.
type Flag struct {
	Status  vocab.Status
	Metrics []string // "TTFT", "TTFT p95", "error rate"
	// stats are the statistic of each of Metrics that names one ("p95"
	// of "TTFT p95"), else "", for the flag of a row that names the
	// metric already (rowFlag); named says which of Metrics the flag names
	// even there (goodput and the cache hit rate, whose rows name no
	// metric; the error rate unless over budget).
	stats []string
	named []bool
}

// rowFlag is the flag as a metric's own row shows it: without the latency
// metric or error rate it concerns ("⛔ p95 over budget").
func (f Flag) rowFlag() Flag {
	if f.Status == vocab.Regression && len(f.Metrics) == 1 && f.Metrics[0] == "error rate" {
		return f // "error rate up"
	}
	out := Flag{Status: f.Status}
	for i, m := range f.Metrics {
		switch {
		case f.named[i]:
			out.Metrics = append(out.Metrics, m)
		case f.stats[i] != "":
			out.Metrics = append(out.Metrics, f.stats[i])
		}
	}
	return out
}

// String is the flag for people: "❌ TTFT regression".
func (f Flag) String() string {
	what := ""
	if len(f.Metrics) > 0 {
		m := f.Metrics
		if len(m) > 2 {
			m = append(append([]string{}, m[:2]...), fmt.Sprintf("+%d", len(f.Metrics)-2))
		}
		what = strings.Join(m, ", ") + " "
	}
	switch f.Status {
	case vocab.Regression:
		if len(f.Metrics) == 1 && f.Metrics[0] == "error rate" {
			return "❌ error rate up"
		}
		return "❌ " + what + "regression"
	case vocab.OverBudget:
		return "⛔ " + what + "over budget"
	case vocab.Inconclusive:
		return "⚠️ " + what + "inconclusive"
	case vocab.Improvement:
		return "🟢 " + what + "faster"
	case vocab.NoBaseline:
		return "🆕 no baseline"
	case notTested:
		return "— not tested"
	}
	return "✅ ok"
}

// Plain is the flag without its icon: "TTFT regression".
func (f Flag) Plain() string {
	_, rest, _ := strings.Cut(f.String(), " ")
	return rest
}

// flagsOf lists every status that applies to checks, worst first: a row can
// be a regression, over budget and have an error-rate rise at once.
// Untested checks and inconclusive changes for the better add none.
func flagsOf(checks []compare.Check, skip map[vocab.Metric]bool) []Flag {
	order := []vocab.Status{vocab.Regression, vocab.OverBudget, vocab.Inconclusive, vocab.Improvement, vocab.NoBaseline}
	var out []Flag
	regressed := map[vocab.Metric]bool{}
	for _, st := range order {
		// Latency metrics share a flag; the error rate has its own, so a
		// rise in failures never hides behind a latency regression.
		for _, errs := range []bool{false, true} {
			f := Flag{Status: st}
			seen := map[string]bool{}
			any := false
			for _, c := range checks {
				if c.Status != st || (c.Metric == vocab.Errors) != errs || skip[c.Metric] ||
					(st == vocab.Inconclusive && (!c.Doubtful() || regressed[c.Metric])) {
					continue
				}
				if st == vocab.Regression {
					regressed[c.Metric] = true
				}
				any = true
				name, stat := metricLabel[c.Metric], ""
				if name == "" {
					name = string(c.Metric)
				}
				if st == vocab.OverBudget && !errs {
					stat = string(c.Stat)
					name += " " + stat
				}
				if st != vocab.NoBaseline && !seen[name] {
					seen[name] = true
					f.Metrics = append(f.Metrics, name)
					f.stats = append(f.stats, stat)
					f.named = append(f.named, metricLabel[c.Metric] == "" || errs && st != vocab.OverBudget)
				}
			}
			if any && (st != vocab.NoBaseline || !errs) {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		// Not tested: no latency check could be (the error rate alone
		// says nothing about latency), or, for a rate's own row, not it.
		considered := func(c compare.Check) bool { return !skip[c.Metric] && !c.Metric.IsRate() }
		if !slices.ContainsFunc(checks, considered) {
			considered = func(c compare.Check) bool { return !skip[c.Metric] }
		}
		st := vocab.OK
		if slices.ContainsFunc(checks, considered) && !slices.ContainsFunc(checks, func(c compare.Check) bool { return considered(c) && !c.Untested() }) {
			st = notTested
		}
		out = append(out, Flag{Status: st})
	}
	return out
}

// notTested is the flag of a row or scenario none of whose checks could be
// tested (too few successful requests); it is no status of package compare.
const notTested vocab.Status = "not_tested"

// Flags lists every status that applies to a scenario, worst first. A
// metric whose row repeats another (Perceived = TTFT) adds no flag of its
// own, unless one of its checks is worse than its twin's (a budget on the
// hidden metric only): a failing check is never hidden.
func (s Scenario) Flags() []Flag {
	hidden := s.hiddenMetrics()
	if s.Current.BufferedMostly() && !s.Base.BufferedMostly() {
		// Events that arrived together have no pace: a "faster"
		// inter-token is the buffering the warnings name, not a speed-up.
		for _, m := range []vocab.Metric{vocab.ITL, vocab.TPOT} {
			if c, ok := findCheck(checksOf(s.Checks, m), "p50"); ok && c.Status != vocab.OverBudget {
				hidden[m] = true
			}
		}
	}
	return flagsOf(s.Checks, hidden)
}

// hiddenMetrics are the metrics whose rows repeat another row with no
// worse status: the scenario's flags and the headline name the row shown.
func (s Scenario) hiddenMetrics() map[vocab.Metric]bool {
	twins := s.sameMetrics()
	hidden := map[vocab.Metric]bool{}
	for m := range twins {
		hidden[m] = true
	}
	for _, c := range s.Checks {
		if !hidden[c.Metric] {
			continue
		}
		twin, ok := findCheck(checksOf(s.Checks, twins[c.Metric]), c.Stat)
		if !ok || hideRank(c.Status) > hideRank(twin.Status) {
			delete(hidden, c.Metric)
		}
	}
	return hidden
}

// hideRank orders statuses for hiding a repeated row: failing statuses
// (regression, over budget) rank alike, since a budget breach takes the
// place of a regression on the checked statistic.
func hideRank(st vocab.Status) int {
	if st == vocab.OverBudget {
		return severity[vocab.Regression]
	}
	return severity[st]
}

// twinMetric is the metric a metric without a row of its own repeats
// (TTFC equal to TTFT is not shown).
var twinMetric = map[vocab.Metric]vocab.Metric{vocab.Perceived: vocab.TTFT, vocab.TTFC: vocab.TTFT, vocab.TPOT: vocab.ITL}

func checksOf(checks []compare.Check, metric vocab.Metric) []compare.Check {
	var out []compare.Check
	for _, c := range checks {
		if c.Metric == metric {
			out = append(out, c)
		}
	}
	return out
}

// sameMetrics are the metrics whose rows repeat another row or are not
// shown (TTFC equal to TTFT), each with the metric it repeats.
func (s Scenario) sameMetrics() map[vocab.Metric]vocab.Metric {
	m := map[vocab.Metric]vocab.Metric{}
	for _, c := range s.Checks {
		m[c.Metric] = twinMetric[c.Metric]
	}
	stage := map[string]vocab.Metric{}
	for _, r := range s.Rows {
		stage[r.Stage] = r.Metric
	}
	for _, r := range s.Rows {
		switch {
		case r.Metric == "":
		case r.SameAs == "":
			delete(m, r.Metric)
		default:
			m[r.Metric] = stage[r.SameAs]
		}
	}
	return m
}

func flagText(fs []Flag) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.String()
	}
	return strings.Join(parts, "<br>")
}

// rank orders scenarios for the comment: worst status first, then by the
// size of the worst change.
func rank(r *Report) []int {
	order := make([]int, len(r.Scenarios))
	sev := make([]int, len(r.Scenarios))
	mag := make([]float64, len(r.Scenarios))
	for i, s := range r.Scenarios {
		order[i] = i
		fs := s.Flags()
		sev[i] = severity[fs[0].Status]
		for _, c := range s.Checks {
			if !math.IsNaN(c.DeltaPct) && c.Status == fs[0].Status {
				mag[i] = math.Max(mag[i], math.Abs(c.DeltaPct))
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if sev[i] != sev[j] {
			return sev[i] > sev[j]
		}
		return mag[i] > mag[j]
	})
	return order
}

func findCheck(checks []compare.Check, stat vocab.Stat) (compare.Check, bool) {
	for _, c := range checks {
		if c.Stat == stat {
			return c, true
		}
	}
	return compare.Check{}, false
}

func (s Scenario) row(stage string) *Row {
	for i := range s.Rows {
		if s.Rows[i].Stage == stage {
			return &s.Rows[i]
		}
	}
	return nil
}

// changeCell shows one statistic: "651 → 1110 (**+71%**)", "651 → 1110 —"
// when it could not be tested (the values are known, the test is not), the
// current value alone without a baseline; ⛔ marks a value over its budget.
func changeCell(row *Row, stat vocab.Stat) string {
	if row == nil {
		return "–"
	}
	c, ok := findCheck(row.Checks, stat)
	if !ok {
		return "–"
	}
	var s string
	if row.Unit == "%" {
		s = cell(c.Current, "%")
		if !math.IsNaN(c.Baseline) {
			s = cell(c.Baseline, "%") + "\u00a0→\u00a0" + s
			if d := 100 * (c.Current - c.Baseline); d != 0 {
				s += " (" + strongIf(fmt.Sprintf("%+.1f pts", d), c.Status == vocab.Regression) + ")"
			}
		}
	} else {
		s = Millis(c.Current)
		if !math.IsNaN(c.Baseline) {
			s = Millis(c.Baseline) + "\u00a0→\u00a0" + s
			if c.Untested() {
				return s + " —"
			}
			if !math.IsNaN(c.DeltaPct) {
				s += " (" + strongIf(signedPct(c.DeltaPct), c.Status == vocab.Regression) + ")"
			}
		}
	}
	if c.Status == vocab.OverBudget {
		s += " ⛔"
	}
	if c.Status == vocab.Improvement {
		s += " 🟢"
	}
	return s
}

func strongIf(s string, b bool) string {
	if b {
		return "**" + s + "**"
	}
	return s
}

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
	foot := footer(r)
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
		if fs := s.Flags(); (fs[0].Status == vocab.Regression || fs[0].Status == vocab.OverBudget) && opened < 2 {
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
	b.WriteString(summary(r, order, maxRows))
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

// shortSHA is the first 7 characters of a commit, only [0-9A-Za-z] kept.
func shortSHA(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return -1
	}, s)
	return s[:min(7, len(s))]
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// safeURL keeps http(s) URLs only, with characters that would end a
// Markdown link escaped.
func safeURL(u string) string {
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return ""
	}
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E", "\n", "", "\r", "", "\"", "%22", "`", "%60").Replace(u)
}

func age(d time.Duration) string {
	switch {
	case d < 0:
		return "0 min"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return plural(int(d.Hours()), "hour", "hours")
	}
	return plural(int(d.Hours()/24), "day", "days")
}

// perSide says how many requests each side had: "50 requests per side" or
// "20–50 requests per side".
func perSide(r *Report) string {
	lo, hi := math.MaxInt, 0
	for _, s := range r.Scenarios {
		for _, b := range []*Breakdown{s.Base, s.Current} {
			if b != nil {
				lo, hi = min(lo, b.N), max(hi, b.N)
			}
		}
	}
	switch {
	case hi == 0:
		return ""
	case lo == hi:
		return plural(hi, "request", "requests") + " per side"
	}
	return fmt.Sprintf("%d–%d requests per side", lo, hi)
}

// summaryColumns says which optional columns a summary table has (the
// Markdown and the HTML summary alike): Perceived p95 when it differs from
// TTFT in some scenario, Answer p95 (and the total named the session's)
// when a scenario is a session.
func summaryColumns(r *Report) (perceived, sessions bool) {
	for _, s := range r.Scenarios {
		if row := s.row("Perceived"); row != nil && row.SameAs == "" {
			perceived = true
		}
		sessions = sessions || s.Current.IsSession()
	}
	return perceived, sessions
}

func summary(r *Report, order []int, maxRows int) string {
	if len(r.Scenarios) == 0 {
		return "No scenario was measured.\n\n"
	}
	perceived, sessions := summaryColumns(r)
	header := "| scenario @ endpoint | TTFT p95 |"
	sep := "|---|---:|"
	if perceived {
		header += " Perceived p95 |"
		sep += "---:|"
	}
	if sessions {
		header += " Total (session) p50 |"
	} else {
		header += " Total p50 |"
	}
	sep += "---:|"
	if sessions {
		header += " Answer p95 |"
		sep += "---:|"
	}
	header += " Errors | status |\n" + sep + "---:|---|\n"
	// Every row when the suite is small. In a large suite, the rows that
	// fail or changed first; inconclusive ones in a collapsed table; a count
	// of the unchanged.
	large := len(r.Scenarios) > 20
	var main, doubt []string
	unchanged, cut := 0, 0
	for _, i := range order {
		s := r.Scenarios[i]
		fs := s.Flags()
		if large && fs[0].Status == vocab.OK {
			unchanged++
			continue
		}
		if len(main)+len(doubt) >= maxRows {
			cut++
			continue
		}
		name := mdName(s.Scenario) + " @ " + mdName(s.Endpoint)
		if len(s.Changed) > 0 {
			name += " ⚙️"
		}
		line := fmt.Sprintf("| %s | %s |", name, changeCell(s.row("TTFT"), "p95"))
		if perceived {
			line += fmt.Sprintf(" %s |", changeCell(s.row("Perceived"), "p95"))
		}
		line += fmt.Sprintf(" %s |", changeCell(s.row("Total"), "p50"))
		if sessions {
			line += fmt.Sprintf(" %s |", changeCell(s.row("Answer"), "p95"))
		}
		line += fmt.Sprintf(" %s | %s |\n", changeCell(s.row("Errors"), "rate"), flagText(fs))
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
	if unchanged > 0 {
		more = append(more, fmt.Sprintf("%s with no change beyond the tolerance (✅) not listed", plural(unchanged, "pair", "pairs")))
	}
	if cut > 0 {
		more = append(more, fmt.Sprintf("%d more %s in the details or the job summary", cut, map[bool]string{true: "pair", false: "pairs"}[cut == 1]))
	}
	if len(more) > 0 {
		b.WriteString("<sub>" + strings.Join(more, "; ") + ".</sub>\n\n")
	}
	return b.String()
}

// noteKind says what a suite note is about, so each renderer picks the
// notes it shows.
type noteKind int

const (
	noteUnits        noteKind = iota // units and what a row shows
	noteIntervals                    // intervals vs adjusted p-values
	noteUntested                     // statistics not tested for too few requests
	noteInconclusive                 // what would decide inconclusive checks
	noteFailures                     // failed requests by kind
	noteChanged                      // ⚙️: a configuration changed
	noteRemoved                      // scenarios removed since the baseline
	noteUnsettled                    // statuses within Monte Carlo error of alpha
	noteWarning                      // the report's warnings
)

// suiteNote is one note of the suite, in Markdown (names escaped); the
// comment and the HTML report put its legend (the mark it explains, for
// their tables) first.
type suiteNote struct {
	kind   noteKind
	text   string
	legend string
}

// String is the note with its legend.
func (n suiteNote) String() string { return n.legend + n.text }

// suiteNotes says once per suite what applies to many rows: units, what
// "—" means, what would decide inconclusive checks, failures by kind,
// changed and removed scenarios, warnings.
func suiteNotes(r *Report) []suiteNote {
	notes := []suiteNote{{kind: noteUnits, text: "Latencies in ms, baseline → current (change). Status: every one that applies."}}
	if r.Tested > 1 {
		notes = append(notes, suiteNote{kind: noteIntervals, text: fmt.Sprintf("Intervals [in brackets, in the details] are each check's own 95%% interval; "+
			"statuses are decided on p-values adjusted over the suite's %d checks, so an interval beyond the tolerance can still be inconclusive.", r.Tested)})
	}
	for _, n := range []struct {
		kind noteKind
		f    func(*Report) string
	}{{noteUntested, untestedNote}, {noteInconclusive, inconclusiveNote}, {noteUnsettled, unsettledNote}, {noteFailures, failuresNote}, {noteChanged, changedNote}, {noteRemoved, removedNote}} {
		if t := n.f(r); t != "" {
			notes = append(notes, suiteNote{kind: n.kind, text: t})
		}
	}
	for i := range notes {
		if notes[i].kind == noteUntested {
			notes[i].legend = "— after the values = "
		}
	}
	for _, w := range r.Warnings {
		notes = append(notes, suiteNote{kind: noteWarning, text: "⚠️ " + md(short(w, 300))})
	}
	return notes
}

// suiteNotesMarkdown is the notes as a Markdown list.
func suiteNotesMarkdown(r *Report) string {
	var b strings.Builder
	for _, n := range suiteNotes(r) {
		b.WriteString("- " + n.String() + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// untestedGap is what one statistic left untested over the suite.
type untestedGap struct {
	need, pairs, lo, hi int
	history             bool
}

// untestedGaps gathers, per statistic, the checks that could not be
// tested: the requests they need and have.
func untestedGaps(r *Report) (map[vocab.Stat]*untestedGap, []vocab.Stat) {
	gaps := map[vocab.Stat]*untestedGap{}
	var stats []vocab.Stat
	for _, s := range r.Scenarios {
		seen := map[vocab.Stat]bool{}
		for _, c := range s.Checks {
			if !c.Untested() || seen[c.Stat] {
				continue
			}
			seen[c.Stat] = true
			g := gaps[c.Stat]
			if g == nil {
				g = &untestedGap{lo: math.MaxInt}
				gaps[c.Stat] = g
				stats = append(stats, c.Stat)
			}
			g.need = max(g.need, c.NeedN)
			g.pairs++
			have := min(c.NBase, c.NCurrent)
			if c.NBase == 0 {
				have = c.NCurrent
			}
			g.lo, g.hi = min(g.lo, have), max(g.hi, have)
			g.history = g.history || c.Reason == vocab.HistoryTooShort
		}
	}
	sort.Slice(stats, func(i, j int) bool { return statRank[stats[i]] < statRank[stats[j]] })
	return gaps, stats
}

// untestedNote is one note for every untested statistic: "p50, mean need
// 10; p95 needs 40 successful requests per side".
func untestedNote(r *Report) string {
	gaps, stats := untestedGaps(r)
	if len(stats) == 0 {
		return ""
	}
	var needs []string
	byNeed := map[int][]vocab.Stat{}
	var order []int
	lo, hi, pairs, history := math.MaxInt, 0, 0, false
	for _, st := range stats {
		g := gaps[st]
		if byNeed[g.need] == nil {
			order = append(order, g.need)
		}
		byNeed[g.need] = append(byNeed[g.need], st)
		lo, hi, pairs = min(lo, g.lo), max(hi, g.hi), max(pairs, g.pairs)
		history = history || g.history
	}
	for _, n := range order {
		verb := "needs"
		if len(byNeed[n]) > 1 {
			verb = "need"
		}
		needs = append(needs, fmt.Sprintf("%s %s %d", joinNames(byNeed[n]), verb, n))
	}
	have := fmt.Sprint(lo)
	if hi != lo {
		have = fmt.Sprintf("%d–%d", lo, hi)
	}
	what := "successful requests per side"
	if history {
		what = "successful requests per side (and two stored baseline runs)"
	}
	return fmt.Sprintf("not tested: %s %s; %s %s.", strings.Join(needs, "; "), what, plural(pairs, "pair has", "pairs have"), have)
}

// inconclusiveNote gives one estimate of the requests that might decide
// the inconclusive checks.
func inconclusiveNote(r *Report) string {
	lo, hi, n := math.MaxInt, 0, 0
	for _, c := range r.Result.Checks {
		if c.Doubtful() {
			n++
			if c.NeedN > 0 {
				lo, hi = min(lo, c.NeedN), max(hi, c.NeedN)
			}
		}
	}
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("⚠️ inconclusive (%s) = a change for the worse beyond the tolerance, not significant once corrected for the suite's %d checks", plural(n, "check", "checks"), r.Tested)
	switch {
	case hi == 0:
	case lo == hi:
		s += fmt.Sprintf("; about %s requests per side might decide it", grouped(hi))
	case hi >= 100000:
		s += fmt.Sprintf("; %s requests per side might decide the closest, over 100,000 the farthest", grouped(lo))
	default:
		s += fmt.Sprintf("; %s to %s requests per side might decide them", grouped(lo), grouped(hi))
	}
	return s + "."
}

// grouped writes a count with thousands separators: 68,250.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// unsettledNote names the checks whose p-value stayed within Monte Carlo
// error of alpha after the most permutations: their status could come out
// the other way with another random stream (a renamed scenario).
func unsettledNote(r *Report) string {
	var names []string
	for _, s := range r.Scenarios {
		hidden := s.hiddenMetrics() // its twin, shown, is named
		for _, c := range s.Checks {
			if c.Unsettled && !hidden[c.Metric] {
				names = append(names, fmt.Sprintf("%s @ %s %s %s", mdName(c.Scenario), mdName(c.Endpoint), metricName(c.Metric), c.Stat))
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("%d more", len(names)-3))
	}
	return fmt.Sprintf("🎲 %s: the p-value stayed within Monte Carlo error of alpha after %d permutations, so its status could come out the other way with another random stream; more requests settle it.",
		strings.Join(names, ", "), r.Result.Permutations)
}

// failuresNote counts the failed requests over the suite by kind.
func failuresNote(r *Report) string {
	kinds := map[string]int{}
	failed, total := 0, 0
	for _, s := range r.Scenarios {
		if s.Current == nil {
			continue
		}
		total += s.Current.N
		for _, k := range s.Current.ErrorKinds {
			kinds[k.Kind] += k.N
			failed += k.N
		}
	}
	if failed == 0 {
		return ""
	}
	var kc []KindCount
	for k, v := range kinds {
		kc = append(kc, KindCount{k, v})
	}
	sortKinds(kc)
	if len(kc) > 5 {
		rest := 0
		for _, k := range kc[5:] {
			rest += k.N
		}
		kc = append(kc[:5], KindCount{"other", rest})
	}
	return fmt.Sprintf("Failed requests now: %d of %d (%s).", failed, total, md(short(KindList(kc), 300)))
}

// changedNote explains the ⚙️ mark when a scenario's configuration changed.
func changedNote(r *Report) string {
	for _, s := range r.Scenarios {
		if len(s.Changed) > 0 {
			return "⚙️ = the scenario's configuration " + r.changed() + "."
		}
	}
	return ""
}

// removedNote names the scenarios removed since the baseline.
func removedNote(r *Report) string {
	if len(r.Removed) == 0 {
		return ""
	}
	names := make([]string, 0, 3)
	for _, x := range r.Removed[:min(3, len(r.Removed))] {
		names = append(names, mdName(x))
	}
	if len(r.Removed) > 3 {
		names = append(names, fmt.Sprintf("%d more", len(r.Removed)-3))
	}
	return "Removed since the baseline: " + strings.Join(names, ", ") + "."
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

var statRank = map[vocab.Stat]int{vocab.P50: 0, vocab.P95: 1, vocab.P99: 2, vocab.Mean: 3}

// detailStats are the statistics a scenario's checks have, in order.
func detailStats(s Scenario) []vocab.Stat {
	var out []vocab.Stat
	for _, st := range vocab.LatencyStats {
		for _, c := range s.Checks {
			if c.Stat == st {
				out = append(out, st)
				break
			}
		}
	}
	return out
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
		strings.ReplaceAll(flagText(s.Flags()), "<br>", " · "))
	if len(s.Changed) > 0 {
		fmt.Fprintf(&b, "⚙️ Configuration %s: %s. The comparison may reflect that change.\n\n", s.changed(), md(short(strings.Join(s.Changed, ", "), 300)))
	}
	stats := detailStats(s)
	b.WriteString("| stage |")
	sep := "|---|"
	for _, st := range stats {
		fmt.Fprintf(&b, " %s |", st)
		sep += "---:|"
	}
	b.WriteString(" budget | status |\n" + sep + "---|---|\n")
	var notes, same []string
	netHidden := false
	for _, row := range s.Rows {
		if row.SameAs != "" {
			same = append(same, row.Stage+" = "+row.SameAs)
			continue
		}
		if row.Zero() {
			z := row.Stage + " is 0 on both sides"
			if row.Stage == "Network" && s.Current != nil {
				z += fmt.Sprintf(" (%d of %d requests opened a new connection)", s.Current.ColdConns, s.Current.N)
				netHidden = true
			}
			same = append(same, z)
			continue
		}
		b.WriteString(detailsRow(row, stats))
		notes = append(notes, detailsRowNotes(s, row)...)
	}
	b.WriteString("\n")
	if s.Current != nil && s.Current.ColdConns > 1 && !netHidden {
		notes = append(notes, fmt.Sprintf("%d of %d requests opened a new connection.", s.Current.ColdConns, s.Current.N))
	}
	if len(same) > 0 {
		notes = append(notes, "Not repeated: "+strings.Join(same, "; ")+".")
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
	b.WriteString("\n| step | sessions | TTFT | tool call | total | tool time after | cached prompt |\n|---|---:|---:|---:|---:|---:|---:|\n")
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
	fmt.Fprintf(&b, "\n- Steps in ms from each step's start: the tool-calling steps in order, then the answer (the step that called no tool); cached prompt: the share of the step's prompt tokens the server served from its cache; tool time of the whole session: %s.\n", cellOf(base, &s.Current.ToolTime))
	return b.String()
}

// stageP is a stage's p50 or p95, NaN for no stage.
func stageP(st *Stage, p95 bool) float64 {
	switch {
	case st == nil:
		return math.NaN()
	case p95:
		return st.P95
	}
	return st.P50
}

// detailsRow is one line of a scenario's details table: a cell per
// statistic, the budget and the row's flags.
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
	if row.Metric != "" {
		var flags []Flag
		for _, f := range flagsOf(row.Checks, nil) {
			flags = append(flags, f.rowFlag())
		}
		fs = flagText(flags)
	}
	fmt.Fprintf(&b, " %s | %s |\n", md(row.Budget), fs)
	return b.String()
}

// detailsCell is a row's value of one statistic in the details table.
func detailsCell(row Row, st vocab.Stat) string {
	switch {
	case row.Metric.IsRate():
		if st == vocab.P50 {
			return changeCell(&row, row.Checks[0].Stat)
		}
		return ""
	case row.Metric == "":
		switch {
		case st == vocab.P50:
			return arrow(row.BaseP50, row.CurP50, row.Unit)
		case st == vocab.P95 && row.Unit != "%":
			return arrow(row.BaseP95, row.CurP95, row.Unit)
		}
		return ""
	}
	c, ok := findCheck(row.Checks, st)
	if !ok {
		return "–"
	}
	return changeCell(&row, st) + ciText(c)
}

// detailsRowNotes are the notes under the details table a row adds: its
// budget breaches, and the failures by kind for the error rate.
func detailsRowNotes(s Scenario, row Row) []string {
	var notes []string
	for _, c := range row.Checks {
		if c.Status == vocab.OverBudget && c.Metric.HigherIsBetter() {
			notes = append(notes, fmt.Sprintf("%s: %s is below its floor of %s.", row.Stage, cell(c.Current, row.Unit), cell(c.Budget, row.Unit)))
		} else if c.Status == vocab.OverBudget {
			notes = append(notes, fmt.Sprintf("%s %s: %s is over its budget of %s.", row.Stage, c.Stat, cell(c.Current, row.Unit), cell(c.Budget, row.Unit)))
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

func arrow(base, cur float64, unit string) string {
	if math.IsNaN(base) {
		return cell(cur, unit)
	}
	return cell(base, unit) + " → " + cell(cur, unit)
}

func footer(r *Report) string {
	o := r.Thresholds
	return fmt.Sprintf("<sub>Change: point estimate; interval: per-check 95%% bootstrap, not adjusted for the suite. "+
		"Statuses: p-values adjusted over all %d checks (Westfall–Young maxT, family-wise α = %s); "+
		"p50 by Mann-Whitney U, p95/p99 by tail exceedance of the baseline's quantile, errors by an exact permutation test. "+
		"A regression must be confidently beyond %s%% and %s ms. "+
		"Fails on: %s. Measured by latgate.</sub>\n",
		r.Tested, trimFloat(o.Alpha), trimFloat(100*o.Tolerance), trimFloat(r.minDeltaMs()), md(strings.Join(r.failOn(), ", ")))
}

// joinNames lists vocabulary names: "p50, p95".
func joinNames[S ~string](list []S) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/latgate/latgate/vocab"
)

var ansi = map[vocab.Status]string{
	vocab.Regression: "\x1b[31m", vocab.OverBudget: "\x1b[31m", vocab.Inconclusive: "\x1b[33m",
	vocab.Improvement: "\x1b[32m", vocab.OK: "\x1b[32m", vocab.NoBaseline: "\x1b[36m",
	vocab.WithinTolerance: "\x1b[32m", vocab.NoRegressionShown: "\x1b[32m",
}

// clean keeps terminal output to one line per cell and free of escape codes
// coming from configs or servers.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// EscapeName escapes a name from a config, a results file or a server for
// a one-line message: its control characters as Go writes them (\n,
// \x1b), so that it never starts a line of its own (a workflow command in
// a CI log) or moves the terminal's cursor.
func EscapeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func init() {
	ReportFormats.Register(ReportFormat{Name: "text", Default: true, Noise: NoiseText,
		Write: func(w io.Writer, r *Report, o RenderOptions) error { Text(w, r, o.Color); return nil }})
}

// Text renders the report for a terminal; color adds ANSI colors to statuses.
func Text(w io.Writer, r *Report, color bool) {
	verdictLine(w, r, color)
	fmt.Fprintln(w)
	for _, s := range r.Scenarios {
		textScenario(w, s, color)
	}
	textCapacity(w, r.Capacity, color)
	if rk := r.Rank(); rk != nil {
		fmt.Fprintln(w, "Endpoints ranked by TTFT p95 (median over scenarios):")
		for i, e := range rk {
			fmt.Fprintf(w, "  %d. %s  %s ms\n", i+1, clean(e.Endpoint), Millis(e.Median))
		}
		fmt.Fprintln(w)
	}
	for _, x := range r.Removed {
		fmt.Fprintf(w, "removed since the baseline: %s\n", clean(x))
	}
	for _, x := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", clean(x))
	}
	// The suite's notes (untested statistics, inconclusive checks, failures
	// by kind), as in the comment.
	for _, n := range suiteNotes(r, inline) {
		switch n.kind {
		case noteUnits, noteWarning, noteRemoved, noteChanged:
			continue // no table legend here; warnings and removals are printed above
		}
		fmt.Fprintln(w, clean(bidiReplacer.Replace(n.text))) // no legend: the text table has no marks
	}
	o := r.Thresholds
	if c := r.costLine(clean); c != "" {
		fmt.Fprintln(w, c)
	}
	if len(r.Scenarios) == 0 && len(r.Capacity) > 0 {
		fmt.Fprintf(w, "capacity regression = a capacity confidently lower beyond %s%%; fails on %s.\n", trimFloat(100*o.Tolerance), strings.Join(r.failOn(), ", "))
		return
	}
	fmt.Fprintf(w, "%d checks, family-wise alpha %s; regression = the corrected test rejects \"worse by at most %s%%\" and the estimate is beyond it and %s ms; fails on %s.\n",
		r.Tested, trimFloat(o.Alpha), trimFloat(100*o.Tolerance), trimFloat(r.minDeltaMs()), strings.Join(r.failOn(), ", "))
}

// verdictLine is the report's first line: "latgate FAIL: " and its
// headline, the verdict colored when asked.
func verdictLine(w io.Writer, r *Report, color bool) {
	verdict := strings.ToUpper(string(r.Verdict))
	if color {
		c := "\x1b[1;32m"
		if r.Verdict == vocab.Fail {
			c = "\x1b[1;31m"
		}
		verdict = c + verdict + "\x1b[0m"
	}
	fmt.Fprintf(w, "latgate %s: %s\n", verdict, clean(strings.TrimPrefix(r.Headline, string(r.Verdict)+": ")))
}

// textStatus is a row's statuses for the terminal, each with the
// statistics it concerns when not all (statusParts), colored when asked.
func textStatus(row Row, color bool) string {
	var parts []string
	for _, sp := range statusParts(row) {
		s := strings.ReplaceAll(string(sp.Status), "_", " ")
		if len(sp.Stats) > 0 {
			s += " (" + joinNames(sp.Stats) + ")"
		}
		if color && ansi[sp.Status] != "" {
			s = ansi[sp.Status] + s + "\x1b[0m"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// textScenario is one scenario's badges, budget table and notes.
func textScenario(w io.Writer, s Scenario, color bool) {
	var fl []string
	for _, f := range s.Badges() {
		p := clean(f.Plain())
		if color {
			p = ansi[f.Status] + p + "\x1b[0m"
		}
		fl = append(fl, p)
	}
	model := ""
	if s.Model != "" {
		model = " (" + clean(s.Model) + ")"
	}
	shift := ""
	if sh := s.StageShift(); sh != "" {
		shift = " (" + sh + ")"
	}
	fmt.Fprintf(w, "%s @ %s%s: %s%s\n", clean(s.Scenario), clean(s.Endpoint), model, strings.Join(fl, "; "), shift)
	if len(s.Changed) > 0 {
		fmt.Fprintf(w, "  configuration %s: %s\n", s.changed(), clean(strings.Join(s.Changed, ", ")))
	}
	if l := s.WorkloadLine(); l != "" {
		fmt.Fprintf(w, "  %s\n", clean(l))
	}
	if l := s.FaultLine(); l != "" {
		fmt.Fprintf(w, "  %s\n", clean(l))
	}
	t := newTable("  stage", "budget", "base p50", "base p95", "cur p50", "cur p95", "change [95% CI]", "status")
	t.alignLeft = map[int]bool{0: true, 1: true, 6: true, 7: true}
	var notes []string
	for _, row := range s.Rows {
		if row.Silent() {
			continue // said once below (leftOut)
		}
		stage := "  " + row.Stage
		if row.Unit != "ms" && row.Unit != "%" {
			stage += " (" + row.Unit + ")"
		}
		p95b, p95c := cell(row.BaseP95, row.Unit), cell(row.CurP95, row.Unit)
		if oneValue(row.Unit) {
			p95b, p95c = "", ""
		}
		t.row(stage, row.Budget, cell(row.BaseP50, row.Unit), p95b, cell(row.CurP50, row.Unit), p95c, row.Change, textStatus(row, color))
		for _, n := range row.Notes {
			notes = append(notes, row.Stage+": "+n)
		}
	}
	if lo := leftOut(s, clean); lo != "" {
		notes = append(notes, lo)
	}
	notes = append(notes, s.TokenLines()...)
	t.write(w)
	textSteps(w, s)
	for _, n := range notes {
		fmt.Fprintf(w, "  - %s\n", clean(n))
	}
	fmt.Fprintln(w)
}

// textSteps is a session scenario's steps: p50 and p95 of each, ms from the
// step's start, baseline → current.
func textSteps(w io.Writer, s Scenario) {
	if !s.Current.IsSession() {
		return
	}
	t := newTable("  step", "sessions", "TTFT p50", "TTFT p95", "tool call p50", "total p50", "total p95", "tool time p50", "cached prompt")
	for _, cur := range s.Current.Steps {
		b := s.Base.step(cur.Label)
		v := func(f func(*StepBreakdown) Stage, p95 bool) string {
			var base *Stage
			if b != nil {
				st := f(b)
				base = &st
			}
			st := f(&cur)
			return arrow(stageP(base, p95), stageP(&st, p95), "ms")
		}
		ttft := func(x *StepBreakdown) Stage { return x.TTFT }
		total := func(x *StepBreakdown) Stage { return x.Total }
		t.row("  "+cur.Label, fmt.Sprint(cur.N), v(ttft, false), v(ttft, true), v(func(x *StepBreakdown) Stage { return x.ToolCall }, false),
			v(total, false), v(total, true), v(func(x *StepBreakdown) Stage { return x.ToolTime }, false), arrow(b.cache(), cur.Cache, "%"))
	}
	t.write(w)
}

// textCapacity is each capacity search's row, its details and its levels.
func textCapacity(w io.Writer, cs []Capacity, color bool) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, capacityHeading+":")
	for _, c := range cs {
		fmt.Fprintf(w, "%s: %s\n", clean(c.Name()), clean(c.Line()))
		if cl := c.CostLine(); cl != "" {
			fmt.Fprintf(w, "%s: %s\n", clean(c.Name()), clean(cl))
		}
		for i, d := range c.details() {
			if i == 0 && color && ansi[c.Status] != "" {
				d = ansi[c.Status] + d + "\x1b[0m"
			}
			fmt.Fprintf(w, "  %s\n", clean(d))
		}
		heads := c.heads()
		t := newTable(append([]string{"  " + heads[0]}, heads[1:]...)...)
		t.alignLeft = map[int]bool{0: true, 2: true}
		for _, row := range c.levelRows() {
			// A terminal never wraps a cell: its pairs keep plain spaces.
			cells := []string{"  " + row[0]}
			for _, v := range row[1:] {
				cells = append(cells, strings.ReplaceAll(v, "\u00a0", " "))
			}
			t.row(cells...)
		}
		t.write(w)
		fmt.Fprintln(w)
	}
}

package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/latgate/latgate/compare"
)

// TextSummary renders what a reviewer reads first, for a terminal: the
// verdict and its headline; per scenario its statuses and, on the line
// below, the numbers that decided them (its failing checks farthest beyond
// their tolerance or budget first, at most three, or the check of a pass
// nearest to failing, with its interval); the capacity searches' lines and
// the notes the comment shows outside its details. Narrow, plain text: no
// Markdown, no HTML entity.
func TextSummary(w io.Writer, r *Report, color bool) {
	verdictLine(w, r, color)
	if len(r.Scenarios) > 0 {
		fmt.Fprintln(w)
	}
	for _, i := range rank(r) {
		s := r.Scenarios[i]
		var fl []string
		for _, f := range s.Badges() {
			p := clean(f.Plain())
			if color && ansi[f.Status] != "" {
				p = ansi[f.Status] + p + "\x1b[0m"
			}
			fl = append(fl, p)
		}
		fmt.Fprintf(w, "%s @ %s: %s\n", clean(s.Scenario), clean(s.Endpoint), strings.Join(fl, "; "))
		if nums := decidingNumbers(r, s); nums != "" {
			fmt.Fprintf(w, "  %s\n", clean(nums))
		}
	}
	for _, c := range r.Capacity {
		fmt.Fprintf(w, "%s: %s\n", clean(c.Name()), clean(c.Line()))
		if cl := c.CostLine(); cl != "" {
			fmt.Fprintf(w, "%s: %s\n", clean(c.Name()), clean(cl))
		}
	}
	shown, _ := splitNotes(suiteNotes(r, inline))
	for _, n := range shown {
		if n.kind != noteUnits {
			fmt.Fprintln(w, clean(bidiReplacer.Replace(n.String())))
		}
	}
}

// decidingNumbers are a scenario's numbers that decided its status: its
// failing or inconclusive checks, farthest beyond first (at most three,
// and how many more), else the tested check nearest to failing.
func decidingNumbers(r *Report, s Scenario) string {
	hidden := s.hiddenMetrics()
	var flagged []compare.Check
	for _, c := range s.Checks {
		if !hiddenCheck(hidden, c) && flagsSummary(c) {
			flagged = append(flagged, c)
		}
	}
	if len(flagged) == 0 {
		one := &Report{Scenarios: []Scenario{s}, Thresholds: r.Thresholds}
		if c, _, ok := one.nearest(); ok {
			return r.where(c, inline, false) + " " + changeWords(c)
		}
		return ""
	}
	slices.SortStableFunc(flagged, func(a, b compare.Check) int {
		return cmp.Compare(beyond(b, r.Thresholds), beyond(a, r.Thresholds))
	})
	var parts []string
	for _, c := range flagged[:min(3, len(flagged))] {
		parts = append(parts, r.describeCheck(c, inline, false))
	}
	if len(flagged) > 3 {
		parts = append(parts, fmt.Sprintf("%d more", len(flagged)-3))
	}
	return strings.Join(parts, " · ")
}

package report

// How values are written in every format: cells, changes, durations,
// counts, names cut short.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// short cuts a name to n characters (an ellipsis marks the cut).
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func cell(v float64, unit string) string {
	if math.IsNaN(v) {
		return "–"
	}
	if unit == "%" {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*v), ".0") + "%"
	}
	if f, ok := unitCells[unit]; ok {
		return f(v) // a GPU's (gpu.go)
	}
	return Millis(v)
}

// changeCell shows one statistic: "651 → 1110 (**+71%**)", "651 → 1110 —"
// when it could not be tested (the values are known, the test is not), the
// current value alone without a baseline. Every cell is marked by its
// status (cellMark): ⛔ a value over its budget, ⚠️ an inconclusive change
// for the worse, 🟢 a significant improvement; a regression's change goes
// through strong (Markdown's bold).
func changeCell(row *Row, stat vocab.Stat, strong func(string) string) string {
	if row == nil {
		return "–"
	}
	c, ok := findCheck(row.Checks, stat)
	if !ok {
		return "–"
	}
	st := rowStatus(c)
	var s string
	if row.Unit == "%" {
		s = cell(c.Current, "%")
		if !math.IsNaN(c.Baseline) {
			s = cell(c.Baseline, "%") + "\u00a0→\u00a0" + s
			if d := 100 * (c.Current - c.Baseline); d != 0 {
				s += " (" + strongIf(strong, fmt.Sprintf("%+.1f pts", d), c.Regressed) + ")"
			}
		}
	} else {
		s = Millis(c.Current)
		if !math.IsNaN(c.Baseline) {
			s = Millis(c.Baseline) + "\u00a0→\u00a0" + s
			if !c.Untested() && !math.IsNaN(c.DeltaPct) {
				s += " (" + strongIf(strong, signedPct(c.DeltaPct), c.Regressed) + ")"
			}
		}
	}
	if m := cellMark(st); m != "" {
		s += "\u00a0" + m // with the value: never alone on a line
	}
	return s
}

// cellMark is the mark a cell of the given status ends with ("" for ok
// and a regression, whose change is bold): the legend of each is a suite
// note (suiteNotes) or the status column.
func cellMark(st vocab.Status) string {
	switch st {
	case vocab.OverBudget:
		return "⛔"
	case vocab.Inconclusive:
		return "⚠️"
	case vocab.Improvement:
		return "🟢"
	case vocab.NotTested:
		return "—"
	}
	return ""
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

// grouped writes a count with thousands separators: 68,250.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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

func arrow(base, cur float64, unit string) string {
	if math.IsNaN(base) {
		return cell(cur, unit)
	}
	return cell(base, unit) + " → " + cell(cur, unit)
}

// joinNames lists vocabulary names: "p50, p95".
func joinNames[S ~string](list []S) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

func strongIf(strong func(string) string, s string, b bool) string {
	if b {
		return strong(s)
	}
	return s
}

// bidiReplacer shows the bidirectional controls, which would reorder what a
// reader sees (a name that reads as something else), as replacement
// characters; md, esc and the terminal's notes apply it.
var bidiReplacer = strings.NewReplacer("\u202a", "\ufffd", "\u202b", "\ufffd", "\u202c", "\ufffd", "\u202d", "\ufffd", "\u202e", "\ufffd",
	"\u2066", "\ufffd", "\u2067", "\ufffd", "\u2068", "\ufffd", "\u2069", "\ufffd")

package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
)

// noiseRow summarises one metric and statistic of an A/A run over the
// suite: the largest noise and minimum detectable effect of its checks, and
// the most requests any scenario needs.
type noiseRow struct {
	name             string
	noise, mde, targ float64
	need, n          int
	unreachable      bool
}

func noiseRows(checks []compare.NoiseCheck) []noiseRow {
	idx := map[string]int{}
	var rows []noiseRow
	for _, c := range checks {
		k := metricName(c.Metric) + " " + string(c.Stat)
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, noiseRow{name: k})
		}
		r := &rows[i]
		r.noise = max(r.noise, c.NoisePct)
		r.mde = max(r.mde, c.MDEPct)
		r.targ = c.TargetPct
		r.n = max(r.n, c.NCurrent)
		if c.NeedN == 0 {
			r.unreachable = true
		}
		r.need = max(r.need, c.NeedN)
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].mde > rows[j].mde })
	return rows
}

func needText(r noiseRow) string {
	switch {
	case r.unreachable && r.need == 0:
		return "not reachable (min_delta)"
	case r.need <= r.n:
		return fmt.Sprintf("%d (have %d)", r.need, r.n)
	}
	return fmt.Sprintf("**%d** (have %d)", r.need, r.n)
}

// NoiseMarkdown is the A/A section of a comment: how noisy the suite is and
// what it can detect at its request count.
func NoiseMarkdown(checks []compare.NoiseCheck) string {
	if len(checks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n#### 🔬 A/A run: what this suite can detect\n\n")
	b.WriteString("Both variants ran the same configuration, so every difference below is noise. Per metric, the worst scenario:\n\n")
	b.WriteString("| metric | noise (± %, 95% interval) | smallest regression detected (80% power) | requests per side to catch +" + trimFloat(checks[0].TargetPct) + "% |\n|---|---:|---:|---:|\n")
	for _, r := range noiseRows(checks) {
		fmt.Fprintf(&b, "| %s | ±%.1f%% | +%.0f%% | %s |\n", md(r.name), r.noise, r.mde, needText(r))
	}
	b.WriteString("\n<sub>Size the suite's `requests` from the last column; docs/statistics.md explains the figures.</sub>\n")
	return b.String()
}

// NoiseText is the A/A section for the terminal.
func NoiseText(w io.Writer, checks []compare.NoiseCheck) {
	if len(checks) == 0 {
		return
	}
	fmt.Fprintf(w, "\nA/A run (both variants the same configuration): what this suite can detect\n")
	t := newTable("metric", "noise ±%", "detects (80% power)", fmt.Sprintf("requests for +%s%%", trimFloat(checks[0].TargetPct)))
	for _, r := range noiseRows(checks) {
		t.row(r.name, fmt.Sprintf("±%.1f%%", r.noise), fmt.Sprintf("+%.0f%%", r.mde), strings.ReplaceAll(needText(r), "**", ""))
	}
	t.write(w)
}

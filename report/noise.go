package report

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// noiseRow summarises one statistic of an A/A run over the suite, for one
// or more metrics whose figures read the same (TTFT, TTFC and perceived,
// one event per token): the largest noise and minimum detectable effect of
// their checks, and the most requests any scenario needs.
type noiseRow struct {
	metrics          []string
	stat             vocab.Stat
	noise, mde, targ float64
	need, n          int
	minDelta         bool // min_delta puts the target out of reach
}

func (r noiseRow) name() string { return andList(r.metrics) + " " + string(r.stat) }

func noiseRows(checks []compare.NoiseCheck) []noiseRow {
	idx, order := map[string]int{}, map[string]int{}
	var rows []noiseRow
	for _, c := range checks {
		k := metricName(c.Metric) + " " + string(c.Stat)
		i, ok := idx[k]
		if !ok {
			i = len(rows)
			idx[k] = i
			rows = append(rows, noiseRow{metrics: []string{metricName(c.Metric)}, stat: c.Stat})
		}
		r := &rows[i]
		r.noise = max(r.noise, c.NoisePct)
		r.mde = max(r.mde, c.MDEPct)
		r.targ = c.TargetPct
		r.n = max(r.n, c.NCurrent)
		r.minDelta = r.minDelta || c.MinDeltaBound
		r.need = max(r.need, c.NeedN)
		order[k] = slices.Index(vocab.PerRequest, c.Metric)
	}
	slices.SortStableFunc(rows, func(a, b noiseRow) int { return cmp.Compare(order[a.name()], order[b.name()]) })
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].mde > rows[j].mde })
	return mergeNoiseRows(rows)
}

// mergeNoiseRows makes one row of the rows of a statistic whose figures
// read the same: a metric that repeats another (perceived = TTFT) is named
// beside it, not given a row of its own.
func mergeNoiseRows(rows []noiseRow) []noiseRow {
	var out []noiseRow
	key := func(r noiseRow) string {
		return fmt.Sprintf("%s|%.1f|%.0f|%s", r.stat, r.noise, r.mde, needText(r))
	}
	at := map[string]int{}
	for _, r := range rows {
		if i, ok := at[key(r)]; ok {
			out[i].metrics = append(out[i].metrics, r.metrics...)
			continue
		}
		at[key(r)] = len(out)
		out = append(out, r)
	}
	return out
}

// needText is the requests a row's statistic needs to catch the target,
// an estimate from one run rounded to two significant figures.
func needText(r noiseRow) string {
	switch {
	case r.minDelta && r.need == 0:
		return "not reachable (min_delta)"
	case r.need == 0:
		return "–"
	}
	return fmt.Sprintf("%s (have %d)", approx(r.need), r.n)
}

// approx is an estimated count of requests for people: exact below 100,
// else to two significant figures, grouped ("3,100"): an estimate from
// one run's noise varies by more than its third digit from run to run.
func approx(n int) string {
	if n < 100 {
		return grouped(n)
	}
	p := math.Pow(10, math.Floor(math.Log10(float64(n)))-1)
	return grouped(int(math.Round(float64(n)/p) * p))
}

// noiseHeads are the A/A table's column heads, in words for the comment
// and short for the terminal's columns.
func noiseHeads(checks []compare.NoiseCheck, short bool) []string {
	target := trimFloat(checks[0].TargetPct)
	if short {
		return []string{"statistic", "noise ±%", "catches (80% power)", "requests for +" + target + "%"}
	}
	return []string{"statistic", "noise of the estimate (± %, 95% interval)", "slowdown of every request caught (80% power)",
		"requests per side to catch +" + target + "% (about)"}
}

// NoiseMarkdown is the A/A section of a comment: how noisy the suite is and
// what it can detect at its request count.
func NoiseMarkdown(checks []compare.NoiseCheck) string {
	if len(checks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n#### 🔬 A/A run: what this suite can detect\n\n")
	b.WriteString("Both variants ran the same configuration, so every difference below is noise. Per statistic, the worst scenario:\n\n")
	h := noiseHeads(checks, false)
	b.WriteString("| " + strings.Join(h, " | ") + " |\n|---|---:|---:|---:|\n")
	for _, r := range noiseRows(checks) {
		fmt.Fprintf(&b, "| %s | ±%.1f%% | +%.0f%% | %s |\n", md(r.name()), r.noise, r.mde, needText(r))
	}
	b.WriteString("\n<sub>" + noiseFoot + " Size the suite's `requests` from the last column; docs/statistics.md explains the figures.</sub>\n")
	return b.String()
}

// noiseFoot says how the table's two percentages differ.
const noiseFoot = "The noise is how far two runs of the same thing put the statistic apart; \"catches\" is the slowdown of every request its test catches with 80% power, which moves a P95's test more than the P95's own estimate (a few requests make that); the requests are estimates from this run."

// NoiseText is the A/A section for the terminal.
func NoiseText(w io.Writer, checks []compare.NoiseCheck) {
	if len(checks) == 0 {
		return
	}
	fmt.Fprintf(w, "\nA/A run (both variants the same configuration): what this suite can detect\n")
	t := newTable(noiseHeads(checks, true)...)
	for _, r := range noiseRows(checks) {
		t.row(r.name(), fmt.Sprintf("±%.1f%%", r.noise), fmt.Sprintf("+%.0f%%", r.mde), needText(r))
	}
	t.write(w)
	fmt.Fprintln(w, noiseFoot)
}

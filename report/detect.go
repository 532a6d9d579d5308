package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// Sensitivity is what a suite can detect and how long it runs for latency
// drawn from a model, before anything is measured (gate.SuiteSensitivity):
// what latgate init says of the suite it writes.
type Sensitivity struct {
	// Checks are compare's A/A noise model per endpoint, scenario, metric
	// and statistic, at the suite's request counts.
	Checks []compare.NoiseCheck
	// Run is about how long latgate run takes; MinRun when every adaptive
	// scenario stops at its min (Run without one).
	Run, MinRun time.Duration
	// Sessions counts the scenarios the model does not draw (tools,
	// turns, a capacity search).
	Sessions int
	Model    LatencyModel
}

// LatencyModel is the latency a Sensitivity assumes: a simulator profile's
// median TTFT, its share of queueing spikes and its median gap.
type LatencyModel struct {
	Name      string
	TTFT, ITL time.Duration
	Spikes    float64
}

// detected are the metrics and statistics the statement names: the first
// token, the pace and the whole answer (ttfc and perceived are the first
// token's in the model, tpot the pace's), at the median and the tail.
var (
	detected      = []vocab.Metric{vocab.TTFT, vocab.ITL, vocab.Total}
	detectedStats = []vocab.Stat{vocab.P50, vocab.P95}
)

// SensitivityLines are the statement, wrapped to width columns: the
// smallest slowdown of each statistic caught with 80% power (the worst
// scenario's), the requests that catch twice the tolerance everywhere, how
// long a run takes, and how to measure the endpoint's own noise; suite
// names the suite's file in the command it gives.
func SensitivityLines(s Sensitivity, suite string, width int) []string {
	var rows []noiseRow
	for _, r := range noiseRows(s.Checks) {
		if rowOrder(r) != "" {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b noiseRow) int { return strings.Compare(rowOrder(a), rowOrder(b)) })
	m := s.Model
	var out []string
	say := func(first, text string) {
		for _, l := range wrap(first, strings.Repeat(" ", len(first)), text, width) {
			out = append(out, strings.ReplaceAll(l, "\x00", " "))
		}
	}
	model := fmt.Sprintf("What this suite can detect, for latency as noisy as the simulator's %s profile (TTFT around %s ms with %s queueing spikes, %s ms a token)",
		m.Name, Millis(float64(m.TTFT.Microseconds())/1000), pct(m.Spikes), Millis(float64(m.ITL.Microseconds())/1000))
	if len(rows) == 0 {
		say("", model+": nothing; too few requests to test a percentile (p50 needs 10 successful requests per side, p95 40).")
	} else {
		var parts []string
		n, worst := 0, rows[0]
		for _, r := range rows {
			parts = append(parts, strings.ReplaceAll(fmt.Sprintf("%s %s +%.0f%%", rowMetric(r), r.stat, r.mde), " ", "\x00")) // kept on one line
			n = max(n, r.n)
			if r.need > worst.need {
				worst = r
			}
		}
		say("", fmt.Sprintf("%s, with 80%% power at %d requests per endpoint and variant:", model, n))
		say("  - ", "a slowdown of "+strings.Join(parts, ", ")+";")
		if worst.need > n {
			say("  - ", fmt.Sprintf("+%s%% in each at up to about %s requests (%s %s).", trimFloat(worst.targ), approx(worst.need), rowMetric(worst), worst.stat))
		}
	}
	dur := "about " + roughDuration(s.Run)
	if s.MinRun != s.Run {
		dur = "from about " + roughDuration(s.MinRun) + " (adaptive scenarios stopping at their min) to " + roughDuration(s.Run)
	}
	text := fmt.Sprintf("A run takes %s at that speed (latgate ab: both variants in one job, twice the requests).", dur)
	if s.Sessions > 0 {
		text += fmt.Sprintf(" %s with tools, turns or a capacity search not included: the model draws single calls at a fixed load.", plural(s.Sessions, "scenario", "scenarios"))
	}
	say("", text+" Your endpoint's own noise: an A/A run, latgate ab -c "+suite+" --base-config "+suite+", measures it.")
	return out
}

// wrap breaks text into lines of at most width columns (a longer word
// stands alone), the first starting with first, the others with cont.
func wrap(first, cont, text string, width int) []string {
	var out []string
	line, lead := first, first
	for _, w := range strings.Fields(text) {
		if line != lead && len([]rune(line))+1+len([]rune(w)) > width {
			out, line, lead = append(out, line), cont, cont
		}
		if line != lead {
			line += " "
		}
		line += w
	}
	return append(out, line)
}

// rowOrder is where a row of the A/A table stands in the statement (by
// metric as detected lists them, then statistic), "" for a row it leaves
// out.
func rowOrder(r noiseRow) string {
	for i, m := range detected {
		for j, st := range detectedStats {
			if r.stat == st && slices.Contains(r.metrics, metricName(m)) {
				return fmt.Sprintf("%d%d", i, j)
			}
		}
	}
	return ""
}

// rowMetric is the metric of detected a row of the statement stands for.
func rowMetric(r noiseRow) string {
	for _, m := range detected {
		if slices.Contains(r.metrics, metricName(m)) {
			return metricName(m)
		}
	}
	return r.metrics[0]
}

// pct is a share in percent, to a tenth when it has one: 5%, 2.5%.
func pct(f float64) string { return trimFloat(math.Round(1000*f)/10) + "%" }

// roughDuration is a duration as a person estimates it: 45s, 2m, 1h10m.
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
	}
	return strings.TrimSuffix(d.Round(10*time.Minute).String(), "0s")
}

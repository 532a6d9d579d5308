package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/latgate/latgate/trend"
)

// Trend is what the trend renderers show (latgate trend, and the report
// of a record run): the analysis of the default branch's runs, where
// commits link to, and what the pipeline says about its inputs.
type Trend struct {
	Analysis trend.Analysis
	// Repository is the repository's web address (https://host/owner/name)
	// from which commits are linked; "" leaves them unlinked.
	Repository string
	// Notes are the pipeline's plain-text remarks on its inputs (files
	// ignored, files sorted by time); renderers escape them.
	Notes []string
	// Recorded is the measurement table of the run a record run just
	// recorded (plain text), shown above the trend; "" otherwise.
	Recorded string
}

// trendGroup is one (endpoint, scenario) and its series (indices in
// Analysis.Series), in the order they first appear.
type trendGroup struct {
	Endpoint, Scenario string
	Series             []int
}

func (t *Trend) groups() []trendGroup {
	var out []trendGroup
	at := map[[2]string]int{}
	for i, s := range t.Analysis.Series {
		k := [2]string{s.Endpoint, s.Scenario}
		g, ok := at[k]
		if !ok {
			g = len(out)
			at[k] = g
			out = append(out, trendGroup{Endpoint: s.Endpoint, Scenario: s.Scenario})
		}
		out[g].Series = append(out[g].Series, i)
	}
	return out
}

// seriesLabel is "TTFT p95", with the configuration when the scenario had
// several ("TTFT p95, configuration 2 of 2").
func (t *Trend) seriesLabel(s trend.Series) string {
	label := metricName(s.Metric) + " " + string(s.Stat)
	for _, c := range t.Analysis.Configs {
		if c.Endpoint == s.Endpoint && c.Scenario == s.Scenario {
			for i, fp := range c.Fingerprints {
				if fp == s.Fingerprint {
					label += fmt.Sprintf(", configuration %d of %d", i+1, len(c.Fingerprints))
				}
			}
		}
	}
	return label
}

// counts are the change points and those that appeared with the newest
// run.
func (t *Trend) counts() (all, fresh int) {
	for _, s := range t.Analysis.Series {
		for _, cp := range s.ChangePoints {
			all++
			if cp.New {
				fresh++
			}
		}
	}
	return all, fresh
}

// trendHeadline is one plain-text line: how many runs over which dates,
// and how many change points.
func (t *Trend) headline() string {
	a := t.Analysis
	if len(a.Runs) == 0 {
		return "no runs"
	}
	first, last := a.Runs[0].CreatedAt, a.Runs[len(a.Runs)-1].CreatedAt
	s := fmt.Sprintf("%s from %s to %s", plural(len(a.Runs), "run", "runs"), day(first), day(last))
	all, fresh := t.counts()
	switch {
	case len(a.Runs) < a.Method.MinRuns():
		s += fmt.Sprintf(": too few to look for change points (the method needs %d runs: %d on each side of a change)", a.Method.MinRuns(), a.Method.MinSegment)
	case all == 0:
		s += ": no change point"
	default:
		s += ": " + plural(all, "change point", "change points")
		if fresh > 0 {
			s += fmt.Sprintf(", %d new with the newest run", fresh)
		}
	}
	return s
}

func day(t time.Time) string { return t.UTC().Format("2006-01-02") }

// trendNotes are what a reader must know besides the numbers, plain text:
// the pipeline's notes, then configurations, short and sparse series.
func (t *Trend) trendNotes() []string {
	a := t.Analysis
	notes := append([]string(nil), t.Notes...)
	for _, c := range a.Configs {
		var from []string
		for i, r := range c.From[1:] {
			run := a.Runs[r]
			from = append(from, fmt.Sprintf("configuration %d from %s (%s)", i+2, day(run.CreatedAt), shortSHA(run.GitSHA)))
		}
		notes = append(notes, fmt.Sprintf("%s @ %s was measured under %d configurations (the fingerprints differ: %s): each is a series of its own, never compared with the others",
			c.Scenario, c.Endpoint, len(c.Fingerprints), strings.Join(from, "; ")))
	}
	var short, sparse []string
	for _, s := range a.Series {
		name := s.Scenario + " @ " + s.Endpoint + " " + t.seriesLabel(s)
		if s.Need > 0 {
			short = append(short, fmt.Sprintf("%s (%d)", name, len(s.Points)))
		}
		if s.Sparse > 0 {
			sparse = append(sparse, fmt.Sprintf("%s (%d)", name, s.Sparse))
		}
	}
	if len(short) > 0 {
		notes = append(notes, fmt.Sprintf("too few runs to look for change points (%d needed): %s", a.Method.MinRuns(), listSome(short, 6)))
	}
	if len(sparse) > 0 {
		notes = append(notes, "runs left out for too few successful requests for the statistic (p50 needs 10, p95 40): "+listSome(sparse, 6))
	}
	return notes
}

// listSome joins the first n items and says how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

var hexSHA = regexp.MustCompile(`^[0-9a-fA-F]{7,64}$`)

// commitURL is the commit's page when the repository is known and the
// commit is a hex SHA; "" otherwise.
func (t *Trend) commitURL(sha string) string {
	repo := safeURL(strings.TrimRight(t.Repository, "/"))
	if repo == "" || !hexSHA.MatchString(sha) {
		return ""
	}
	return repo + "/commit/" + sha
}

// stepText is "+18% [+12%, +25%]".
func stepText(pct float64, ci [2]float64) string {
	s := signedPct(pct)
	if !math.IsNaN(ci[0]) {
		s += fmt.Sprintf(" [%s, %s]", signedPct(ci[0]), signedPct(ci[1]))
	}
	return s
}

// levelText is the current level against the first: "402 → 475 ms
// (+18% [+12%, +25%])", or "402 ms throughout" without a change point.
func levelText(s trend.Series) string {
	if len(s.Points) == 0 {
		return "–"
	}
	if len(s.ChangePoints) == 0 {
		return Millis(s.Level.Current) + " ms, no change point"
	}
	return fmt.Sprintf("%s → %s ms (%s)", Millis(s.Level.First), Millis(s.Level.Current), stepText(s.Level.ChangePct, s.Level.CIPct))
}

// escapeControls shows control and bidirectional-formatting characters of
// a name as escapes, so a name from a results file can neither move the
// terminal's cursor, start a CI log command nor reorder the text around it.
func escapeControls(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// series is the analysis' series of a key (the zero Series when absent).
func (t *Trend) series(k trend.Key) trend.Series {
	for _, s := range t.Analysis.Series {
		if s.Key == k {
			return s
		}
	}
	return trend.Series{Key: k}
}

// method is one plain-text line on how change points were found.
func (t *Trend) method() string {
	m := t.Analysis.Method
	return fmt.Sprintf("Change points: E-divisive means on each series' run values (log scale), a split kept when its permutation test (%d permutations) gives p ≤ %g, at least %d runs on each side; "+
		"steps and levels are medians of the runs between change points, with %.0f%% bootstrap intervals (docs/statistics.md, \"Main's trend\").",
		m.Permutations, m.Alpha, m.MinSegment, 100*m.Level)
}

package report

import (
	"fmt"
	"io"
	"strings"
)

// maxTrendRows bounds the change-point table of the Markdown trend (a job
// summary or a comment stays far below GitHub's limits).
const maxTrendRows = 50

func init() {
	TrendFormats.Register(TrendFormat{Name: "markdown", Write: func(w io.Writer, t *Trend, _ RenderOptions) error {
		_, err := io.WriteString(w, TrendMarkdown(t))
		return err
	}})
}

// TrendMarkdown renders the trend as GitHub-flavoured Markdown (the job
// summary of a record run, latgate trend --format markdown): the new change
// points first, every change point with its commit (linked when the
// repository is known), date, step and interval, then each series' current
// level against its first, folded, and the notes.
func TrendMarkdown(t *Trend) string {
	var b strings.Builder
	b.WriteString("### 📈 latgate: main's trend\n\n")
	fmt.Fprintf(&b, "**%s**\n\n", t.headline()) // numbers and dates only
	cps := t.Analysis.ChangePoints()
	var fresh []string
	for _, kc := range cps {
		if kc.New {
			fresh = append(fresh, fmt.Sprintf("- 🆕 **%s @ %s %s %s** from %s (%s)", mdName(escapeControls(kc.Scenario)), mdName(escapeControls(kc.Endpoint)),
				md(t.seriesLabel(t.series(kc.Key))), stepText(kc.StepPct, kc.CIPct), t.commitMD(kc.GitSHA), day(kc.CreatedAt)))
		}
	}
	if len(fresh) > 0 {
		b.WriteString("New change points, with the newest run:\n\n" + strings.Join(fresh, "\n") + "\n\n")
	}
	if len(cps) > 0 {
		b.WriteString("| scenario | endpoint | series | from | step (95% CI) | level, ms |\n|---|---|---|---|---:|---:|\n")
		for i, kc := range cps {
			if i == maxTrendRows {
				fmt.Fprintf(&b, "\n… and %d more change points (`latgate trend --format json` lists every one).\n", len(cps)-maxTrendRows)
				break
			}
			isNew := ""
			if kc.New {
				isNew = " 🆕"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s %s | %s | %s → %s |\n", mdName(escapeControls(kc.Scenario)), mdName(escapeControls(kc.Endpoint)), md(t.seriesLabel(t.series(kc.Key))),
				t.commitMD(kc.GitSHA), day(kc.CreatedAt)+isNew, stepText(kc.StepPct, kc.CIPct), Millis(kc.Before), Millis(kc.After))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "<details><summary>Every series: the current level against the first run's (%d)</summary>\n\n", len(t.Analysis.Series))
	b.WriteString("| scenario | endpoint | series | runs | now against the first |\n|---|---|---|---:|---|\n")
	for _, g := range t.groups() {
		for _, i := range g.Series {
			s := t.Analysis.Series[i]
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s |\n", mdName(escapeControls(s.Scenario)), mdName(escapeControls(s.Endpoint)), md(t.seriesLabel(s)), len(s.Points), levelText(s))
		}
	}
	b.WriteString("\n</details>\n\n")
	for _, n := range t.trendNotes() {
		b.WriteString("- " + md(escapeControls(n)) + "\n")
	}
	fmt.Fprintf(&b, "\n<sub>%s</sub>\n", t.method())
	return b.String()
}

// commitMD is a commit shortened, linked when the repository is known.
func (t *Trend) commitMD(sha string) string {
	if sha == "" {
		return "(no commit)"
	}
	code := "`" + shortSHA(sha) + "`"
	if u := t.commitURL(sha); u != "" {
		return "[" + code + "](" + u + ")"
	}
	return code
}

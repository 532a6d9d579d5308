package report

import (
	"fmt"
	"io"
)

func init() {
	TrendFormats.Register(TrendFormat{Name: "text", Default: true, Write: func(w io.Writer, t *Trend, o RenderOptions) error { TrendText(w, t, o.Color); return nil }})
}

// TrendText renders the trend for a terminal: the change points (where
// each happened, the step with its interval, the levels on either side),
// every series' current level against its first, and the notes. Names from
// the files are printed with control characters escaped; color marks new
// change points.
func TrendText(w io.Writer, t *Trend, color bool) {
	fmt.Fprintf(w, "latgate trend: %s\n", escapeControls(t.headline()))
	mark := func(s string) string {
		if color {
			return "\x1b[31m" + s + "\x1b[0m"
		}
		return s
	}
	if all, _ := t.counts(); all > 0 {
		fmt.Fprintln(w, "\nchange points (the first run of the new level; step with its 95% interval; levels in ms):")
		tw := newTable("scenario @ endpoint", "series", "from", "step", "level", "")
		tw.alignLeft = map[int]bool{0: true, 1: true, 2: true, 5: true}
		for _, kc := range t.Analysis.ChangePoints() {
			s := t.series(kc.Key)
			isNew := ""
			if kc.New {
				isNew = mark("NEW")
			}
			tw.row(textName(kc.Scenario, kc.Endpoint), t.seriesLabel(s), day(kc.CreatedAt)+" "+shortSHA(kc.GitSHA),
				stepText(kc.StepPct, kc.CIPct), Millis(kc.Before)+" → "+Millis(kc.After), isNew)
		}
		tw.write(w)
	}
	fmt.Fprintln(w, "\nseries (the current level against the first run's):")
	tw := newTable("scenario @ endpoint", "series", "runs", "now against the first")
	tw.alignLeft = map[int]bool{0: true, 1: true, 3: true}
	for _, g := range t.groups() {
		for _, i := range g.Series {
			s := t.Analysis.Series[i]
			tw.row(textName(s.Scenario, s.Endpoint), t.seriesLabel(s), fmt.Sprint(len(s.Points)), levelText(s))
		}
	}
	tw.write(w)
	for _, n := range t.trendNotes() {
		fmt.Fprintln(w, "note:", escapeControls(n))
	}
}

// textName is "scenario @ endpoint" for a terminal table: escaped, and
// cut to 60 characters (the notes and the other formats carry it whole).
func textName(scenario, endpoint string) string {
	return short(escapeControls(scenario+" @ "+endpoint), 60)
}

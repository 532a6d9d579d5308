package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// note is the words for a check's reason (why its status is what it is,
// when the status alone does not say it); "" when it has none.
func note(c compare.Check, th compare.Config) string {
	minN := c.Stat.MinN()
	switch c.Reason {
	case vocab.TooFew:
		s := fmt.Sprintf("need %d successful requests per side to test %s (have %d and %d)", minN, c.Stat, c.NBase, c.NCurrent)
		if math.IsNaN(c.Baseline) && c.BudgetUntested() {
			// No baseline: the budget is all it tests.
			s = fmt.Sprintf("need %d successful requests to test %s against its budget (have %d)", minN, c.Stat, c.NCurrent)
		}
		if c.NeedN > minN {
			s += fmt.Sprintf("; with the failures seen, set requests to at least %d", c.NeedN)
		}
		return s
	case vocab.TooFewCurrent:
		return fmt.Sprintf("need %d successful requests to test %s (have %d)", minN, c.Stat, c.NCurrent)
	case vocab.NoRequests:
		return "no requests on one side, so the rate cannot be compared"
	case vocab.NoPromptTokens:
		return "the server reported no prompt tokens, so the cache hit rate cannot be checked against its floor"
	case vocab.NotSignificant:
		if shownWorse(c) {
			return "worse than the baseline (its interval lies above no change), but not shown beyond the tolerance"
		}
		if c.NeedN > 0 {
			return fmt.Sprintf("no regression shown: not significant, and its interval reaches beyond the tolerance; about %s requests per side would bound it", approx(c.NeedN))
		}
		return "no regression shown: not significant, and its interval reaches beyond the tolerance"
	case vocab.Underpowered:
		if c.Metric.IsRate() {
			return fmt.Sprintf("not tested at this size: about %s requests per side would bound it within its margin", approx(c.NeedN))
		}
		if c.DetectN > 0 && c.DetectN < c.NeedN {
			return fmt.Sprintf("not tested at this size: about %s requests per side would catch a regression of twice the tolerance, %s would bound it within the tolerance", approx(c.DetectN), approx(c.NeedN))
		}
		return fmt.Sprintf("not tested at this size: about %s requests per side would catch a regression of twice the tolerance", approx(c.NeedN))
	case vocab.Uncorrected:
		s := "inconclusive: worse beyond the tolerance and significant alone, not after the suite's correction"
		if c.NeedN > 0 {
			s += fmt.Sprintf("; about %s requests per side would decide it", approx(c.NeedN))
		}
		return s
	case vocab.HistoryTooShort:
		return fmt.Sprintf("need two baseline runs with %d successful requests to estimate the run-to-run spread of %s (have %d of %d runs)", minN, c.Stat, c.RunsUsable, c.RunsTotal)
	case vocab.HistorySpread:
		return fmt.Sprintf("run-to-run spread of %s in the baseline history (±%.0f%%) exceeds the tolerance (%.0f%%): stored baselines cannot tell a change of this size from drift; compare both variants interleaved with `latgate ab`",
			c.Stat, c.Spread*100, th.Tolerance*100)
	case vocab.HistoryNotSignificant:
		return "no regression shown: not significant against the run-to-run spread of the baseline history, and its interval reaches beyond the tolerance"
	case vocab.NotPositive:
		return "current value is not positive"
	case vocab.NotReported:
		return "not reported by this server"
	case vocab.Unconfirmed:
		return "a regression in the first run that a fresh interleaved run of the scenario did not find again (regression.confirm)"
	}
	return ""
}

// summarized reports whether the suite's notes say a reason once for every
// check it applies to (statistics not tested for too few requests, changes
// not significant), so a row need not repeat it.
func summarized(r vocab.Reason) bool {
	switch r {
	case vocab.TooFew, vocab.TooFewCurrent, vocab.HistoryTooShort, vocab.NotSignificant, vocab.HistoryNotSignificant, vocab.Underpowered, vocab.Uncorrected:
		return true
	}
	return false
}

// warnings are the words for what the comparison could not do as asked.
func warnings(res compare.Result) []string {
	var out []string
	for _, w := range res.Warnings {
		switch w.Kind {
		case vocab.Unblocked:
			out = append(out, fmt.Sprintf("%s / %s: block numbers missing on one side or not one per request; compared as unpaired runs", w.Endpoint, w.Scenario))
		case vocab.ConfirmNotAsked:
			out = append(out, fmt.Sprintf("%s / %s: the results file's confirmation runs were ignored: the judging suite does not set regression.confirm, so the first run's statuses stand", w.Endpoint, w.Scenario))
		case vocab.ConfirmTooFew:
			out = append(out, fmt.Sprintf("%s / %s: the results file's confirmation runs were ignored: they do not have the requests per side of the run they confirm (%d, want %d), so the first run's statuses stand", w.Endpoint, w.Scenario, w.N, w.Need))
		}
	}
	return out
}

// designPlan are the plan facts of the comparison: the design an adaptive
// suite was compared under, and the requests of blocks measured on one
// side only (the requests in flight when a run stops end blocks short:
// how the run was measured, not a warning).
func designPlan(res compare.Result) []string {
	var out []string
	if d := res.Design; d != nil {
		out = append(out, fmt.Sprintf("adaptive sampling: each scenario was compared on its own at alpha %.4g (the suite's %.3g split over its scenarios and over %d planned looks), so the suite's false-alarm rate stays at %.3g", d.RunAlpha(), d.Alpha, d.Looks, d.Alpha))
	}
	for _, w := range res.Warnings {
		if w.Kind == vocab.OneSidedBlocks {
			out = append(out, fmt.Sprintf("%s @ %s: %s in blocks measured on one side only take no part in the tests, which exchange labels within blocks; the estimates include them", w.Scenario, w.Endpoint, plural(w.N, "request", "requests")))
		}
	}
	return out
}

// LookText is the words for an interim look of adaptive sampling: what
// stopped the scenario ("regression (ttft p95 +34.0%)", "every check
// was within 10% (or not testable at max)") or what is still open.
func LookText(d compare.Decision, th compare.Config) string {
	c := d.Check
	switch {
	case d.Stop && d.Outcome == vocab.Regression && c != nil:
		return fmt.Sprintf("regression (%s %s %+.1f%%)", c.Metric, c.Stat, c.DeltaPct)
	case d.Stop:
		return fmt.Sprintf("every check was within %g%% (or not testable at max)", math.Round(th.Tolerance*1000)/10)
	case c == nil:
		return "no baseline to compare with"
	case c.Reason == vocab.TooFew:
		return fmt.Sprintf("%s %s: %s", c.Metric, c.Stat, note(*c, th))
	}
	return fmt.Sprintf("%s %s %s not yet bounded", c.Metric, c.Stat, changeWords(*c))
}

// inline keeps a config's or a server's text on one line: the escaper of
// the notes the HTML and text renderers escape whole.
var inline = strings.NewReplacer("\r", " ", "\n", " ", "\t", " ").Replace

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
	notePlan                         // how the run was measured (lanes, where adaptive scenarios stopped)
)

// suiteNote is one note of the suite, its names escaped for one format
// (suiteNotes); the comment and the HTML report put its legend (the mark
// it explains, for their tables) first.
type suiteNote struct {
	kind   noteKind
	text   string
	legend string
}

// String is the note with its legend.
func (n suiteNote) String() string { return n.legend + n.text }

// maxShownNotes bounds the notes a comment and a report show outside
// their collapsed notes: a reviewer reads the verdict, the summary and
// these, and nothing else, in five seconds.
const maxShownNotes = 3

// shown reports whether a note is one of those a reader sees first: the
// legend of the tables' marks, the inconclusive checks (the one case a
// rerun would decide), the statistics not tested, the warnings; the others
// (how statuses are decided, failures by kind, changed and removed
// scenarios, unsettled p-values, the plan) are in the collapsed notes.
func (n suiteNote) shown() bool {
	switch n.kind {
	case noteUnits, noteInconclusive, noteUntested, noteWarning:
		return true
	}
	return false
}

// splitNotes parts the notes into those shown (at most maxShownNotes: the
// legend, then the inconclusive checks, the untested statistics and the
// warnings, as one line when there are several) and the rest.
func splitNotes(notes []suiteNote) (shown, rest []suiteNote) {
	var warns []suiteNote
	for _, n := range notes {
		switch {
		case n.kind == noteWarning:
			warns = append(warns, n)
		case n.shown() && len(shown) < maxShownNotes:
			shown = append(shown, n)
		default:
			rest = append(rest, n)
		}
	}
	switch {
	case len(warns) == 0:
	case len(shown) < maxShownNotes && len(warns) == 1:
		shown = append(shown, warns[0])
	case len(shown) < maxShownNotes:
		first := warns[0]
		first.text += fmt.Sprintf(" (and %s in the notes below)", plural(len(warns)-1, "more warning", "more warnings"))
		shown = append(shown, first)
		rest = append(rest, warns[1:]...)
	default:
		rest = append(rest, warns...)
	}
	return shown, rest
}

// suiteNotes says once per suite what applies to many rows: units and
// marks, what was not tested, what would decide inconclusive checks,
// failures by kind, changed and removed scenarios, warnings and the plan.
// The words are the report's own; what comes from a config or a server
// (names, warnings, errors) goes through esc: Markdown escapes those parts
// (md; its escape would change the words too), the HTML and text
// renderers give inline and escape each whole note.
func suiteNotes(r *Report, esc func(string) string) []suiteNote {
	var notes []suiteNote
	if len(r.Scenarios) > 0 || len(r.Capacity) == 0 {
		notes = append(notes, suiteNote{kind: noteUnits, text: "Latencies in ms, baseline → current (change): a regression's change in bold, ⛔ over budget, ⚠️ inconclusive, — not tested; the status column names every one that applies."})
	}
	if r.Tested > 1 {
		notes = append(notes, suiteNote{kind: noteIntervals, text: fmt.Sprintf("Intervals [in brackets, in the details] are each check's own 95%% interval: within tolerance when its worse end is inside %s%% (or %s ms), no regression shown when not significant and it reaches beyond; "+
			"regressions are decided on p-values adjusted over the suite's %d checks, so an interval beyond the tolerance can still be no regression.", trimFloat(100*r.Thresholds.Tolerance), trimFloat(r.minDeltaMs()), r.Tested)})
	}
	for _, n := range []struct {
		kind noteKind
		f    func(*Report, func(string) string) string
	}{{noteInconclusive, inconclusiveNote}, {noteUntested, untestedNote}, {noteUnsettled, unsettledNote}, {noteFailures, failuresNote}, {noteChanged, changedNote}, {noteRemoved, removedNote}} {
		if t := n.f(r, esc); t != "" {
			notes = append(notes, suiteNote{kind: n.kind, text: t})
		}
	}
	for i := range notes {
		switch notes[i].kind {
		case noteUntested:
			notes[i].legend = "— "
		case noteInconclusive:
			notes[i].legend = "⚠️ "
		}
	}
	for _, w := range r.Warnings {
		notes = append(notes, suiteNote{kind: noteWarning, text: "⚠️ " + esc(short(w, 300))})
	}
	for _, p := range r.Plan {
		notes = append(notes, suiteNote{kind: notePlan, text: esc(short(p, 300))})
	}
	return notes
}

// DocsURL is where latgate's documentation is read from a comment or a
// report: the repository's docs folder.
const DocsURL = "https://github.com/latgate/latgate/blob/main/docs/"

// untestedNote is one line for every statistic not tested: those a run of
// this size could not test (the requests that would catch twice the
// tolerance, the A/A table's figure, and those that would bound them within
// it when more) and those short of the successful requests they need; and
// where a slow creep of the P95 is caught instead.
func untestedNote(r *Report, _ func(string) string) string {
	var power, rates []string
	need, detect, rateNeed, have := 0, 0, 0, math.MaxInt
	var few []compare.Check
	seen := map[string]bool{}
	for _, c := range r.shownChecks() {
		if c.Status != vocab.NotTested {
			continue
		}
		name := metricName(c.Metric) + " " + string(c.Stat) + r.stratumWords(c)
		switch {
		case c.Reason == vocab.Underpowered && c.Metric.IsRate():
			if !seen[metricName(c.Metric)] {
				seen[metricName(c.Metric)] = true
				rates = append(rates, metricName(c.Metric))
			}
			rateNeed, have = max(rateNeed, c.NeedN), min(have, min(c.NBase, c.NCurrent))
		case c.Reason == vocab.Underpowered:
			if !seen[name] {
				seen[name] = true
				power = append(power, name)
			}
			need, detect, have = max(need, c.NeedN), max(detect, c.DetectN), min(have, min(c.NBase, c.NCurrent))
		case c.Reason == vocab.TooFew, c.Reason == vocab.TooFewCurrent, c.Reason == vocab.HistoryTooShort:
			few = append(few, c)
		}
	}
	var what []string
	if len(power) > 0 {
		names := power
		if len(names) > 4 {
			names = append(append([]string{}, names[:4]...), fmt.Sprintf("%d more", len(power)-4))
		}
		twice := trimFloat(200 * r.Thresholds.Tolerance)
		catch := fmt.Sprintf("up to about %s would catch +%s%%", approx(need), twice)
		if detect > 0 && detect < need { // the interval, not the test, is what falls short
			catch = fmt.Sprintf("up to about %s would catch +%s%%, %s would bound them within %s%%", approx(detect), twice, approx(need), trimFloat(100*r.Thresholds.Tolerance))
		}
		what = append(what, fmt.Sprintf("%s (%s)", andList(names), catch))
	}
	if len(rates) > 0 {
		what = append(what, fmt.Sprintf("the %s (about %s would bound it within its margin)", andList(rates), approx(rateNeed)))
	}
	if t := tooFewText(r, few); t != "" {
		what = append(what, t)
	}
	if len(what) == 0 {
		return ""
	}
	s := "not tested: " + strings.Join(what, "; ")
	if len(power)+len(rates) > 0 {
		s = fmt.Sprintf("not tested at %s per side: %s", plural(have, "request", "requests"), strings.Join(what, "; "))
	}
	if slices.ContainsFunc(power, func(n string) bool { return strings.HasSuffix(n, " p95") || strings.HasSuffix(n, " p99") }) {
		where := "main's trend (`latgate trend`)"
		if safeURL(r.Provenance.TrendURL) != "" {
			where = "main's trend (linked above)"
		}
		s += "; a slow P95 creep shows on " + where + " or in a nightly run with more requests (" + DocsURL + "workflows.md#mains-trend)"
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// tooFewText says which statistics lack the successful requests they
// need: "p95 needs 40, p99 500 successful requests per side; 1 pair has
// 20".
func tooFewText(r *Report, few []compare.Check) string {
	if len(few) == 0 {
		return ""
	}
	byNeed := map[int][]vocab.Stat{}
	var order []int
	lo, hi, history, alone := math.MaxInt, 0, false, true
	pairs := map[string]bool{}
	for _, c := range few {
		alone = alone && c.NBase == 0 && math.IsNaN(c.Baseline) // no baseline: a budget's count
		n := c.NeedN
		if !slices.Contains(byNeed[n], c.Stat) {
			if byNeed[n] == nil {
				order = append(order, n)
			}
			byNeed[n] = append(byNeed[n], c.Stat)
		}
		have := min(c.NBase, c.NCurrent)
		if c.NBase == 0 {
			have = c.NCurrent
		}
		lo, hi = min(lo, have), max(hi, have)
		history = history || c.Reason == vocab.HistoryTooShort
		pairs[c.Endpoint+"\x00"+c.Scenario] = true
	}
	sort.Ints(order)
	var needs []string
	for _, n := range order {
		sts := byNeed[n]
		sort.Slice(sts, func(i, j int) bool { return statRank[sts[i]] < statRank[sts[j]] })
		verb := "needs"
		if len(sts) > 1 {
			verb = "need"
		}
		needs = append(needs, fmt.Sprintf("%s %s %d", joinNames(sts), verb, n))
	}
	have := fmt.Sprint(lo)
	if hi != lo {
		have = fmt.Sprintf("%d–%d", lo, hi)
	}
	what, has := "successful requests per side", plural(len(pairs), "pair has", "pairs have")
	if alone {
		what, has = "successful requests to test a budget", plural(len(pairs), "run has", "runs have")
	}
	if history {
		what += " (and two stored baseline runs)"
	}
	return fmt.Sprintf("%s %s (%s %s)", strings.Join(needs, "; "), what, has, have)
}

// inconclusiveNote names the inconclusive checks (each marked ⚠️ in its
// cell): worse beyond the tolerance, significant alone, not after the
// suite's correction, with the requests that would decide them.
func inconclusiveNote(r *Report, esc func(string) string) string {
	lo, hi, n := math.MaxInt, 0, 0
	unconfirmed := 0
	for _, c := range r.Result.Checks {
		if c.Doubtful() {
			n++
			if c.Reason == vocab.Unconfirmed {
				unconfirmed++
			}
			if c.NeedN > 0 {
				lo, hi = min(lo, c.NeedN), max(hi, c.NeedN)
			}
		}
	}
	if n == 0 {
		return ""
	}
	what := fmt.Sprintf("worse beyond the tolerance and significant alone, not once corrected for the suite's %d checks", r.Tested)
	if unconfirmed == n {
		what = "a regression that a fresh interleaved run of its scenario did not find again (regression.confirm)"
	}
	s := fmt.Sprintf("Inconclusive: %s: %s.", what, doubtfulNames(r, esc))
	switch {
	case hi == 0:
	case lo == hi:
		s += fmt.Sprintf(" About %s requests per side would decide it.", approx(hi))
	case hi >= 100000:
		s += fmt.Sprintf(" About %s requests per side would decide the closest, over 100,000 the farthest.", approx(lo))
	default:
		s += fmt.Sprintf(" About %s to %s requests per side would decide them.", approx(lo), approx(hi))
	}
	return s
}

// doubtfulNames names the inconclusive checks scenario by scenario, as
// their rows show them ("chat @ us-east TTFT p95, total p50/mean"); the
// checks of a row left out for repeating another are named with the one
// it repeats ("TTFT p95 (repeated by TTFC and perceived)").
func doubtfulNames(r *Report, esc func(string) string) string {
	var parts []string
	more := 0
	for _, i := range rank(r) {
		s := r.Scenarios[i]
		twins, hidden := s.sameMetrics(), s.hiddenMetrics()
		var metrics []vocab.Metric
		stats := map[vocab.Metric][]string{}
		by := map[vocab.Metric][]string{}
		for _, c := range s.Checks {
			switch {
			case !c.Doubtful():
			case !hiddenCheck(hidden, c):
				if stats[c.Metric] == nil {
					metrics = append(metrics, c.Metric)
				}
				if !c.Metric.IsRate() {
					stats[c.Metric] = append(stats[c.Metric], string(c.Stat)+r.stratumWords(c))
				} else {
					stats[c.Metric] = []string{}
				}
			case !slices.Contains(by[twins[c.Metric]], noteLabel(c.Metric)):
				by[twins[c.Metric]] = append(by[twins[c.Metric]], noteLabel(c.Metric))
			}
		}
		var names []string
		for _, m := range metrics {
			name := strings.TrimSpace(noteLabel(m) + " " + strings.Join(stats[m], "/"))
			if len(by[m]) > 0 {
				name += " (repeated by " + andList(by[m]) + ")"
			}
			names = append(names, name)
		}
		switch {
		case len(names) == 0:
		case len(parts) == 3:
			more++
		default:
			parts = append(parts, esc(short(s.Scenario, 48))+" @ "+esc(short(s.Endpoint, 48))+" "+strings.Join(names, ", "))
		}
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("%s more", plural(more, "scenario", "scenarios")))
	}
	return strings.Join(parts, "; ")
}

// noteLabel is a metric's name in a note's list of checks: its row's label,
// or its name where the row names none (client, goodput, the cache hit
// rate: "chat-page @ web mean" named no metric).
func noteLabel(m vocab.Metric) string {
	if l := metricLabel[m]; l != "" {
		return l
	}
	return metricName(m)
}

// unsettledNote names the checks whose p-value stayed within Monte Carlo
// error of alpha after the most permutations: their status could come out
// the other way with another random stream (a renamed scenario).
func unsettledNote(r *Report, esc func(string) string) string {
	var names []string
	for _, s := range r.Scenarios {
		hidden := s.hiddenMetrics() // its twin, shown, is named
		for _, c := range s.Checks {
			if c.Unsettled && !hiddenCheck(hidden, c) {
				names = append(names, fmt.Sprintf("%s @ %s %s %s%s", esc(short(c.Scenario, 48)), esc(short(c.Endpoint, 48)), metricName(c.Metric), c.Stat, r.stratumWords(c)))
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
func failuresNote(r *Report, esc func(string) string) string {
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
	return fmt.Sprintf("Failed requests now: %d of %d (%s).", failed, total, esc(short(KindList(kc), 300)))
}

// changedNote explains the ⚙️ mark when a scenario's configuration changed.
func changedNote(r *Report, _ func(string) string) string {
	for _, s := range r.Scenarios {
		if len(s.Changed) > 0 {
			return "⚙️ = the scenario's configuration " + r.changed() + "."
		}
	}
	return ""
}

// removedNote names the scenarios removed since the baseline.
func removedNote(r *Report, esc func(string) string) string {
	if len(r.Removed) == 0 {
		return ""
	}
	names := make([]string, 0, 3)
	for _, x := range r.Removed[:min(3, len(r.Removed))] {
		names = append(names, esc(short(x, 48)))
	}
	if len(r.Removed) > 3 {
		names = append(names, fmt.Sprintf("%d more", len(r.Removed)-3))
	}
	return "Removed since the baseline: " + strings.Join(names, ", ") + "."
}

// footnote says how the statuses were decided, esc escaping the statuses
// that fail the gate.
func footnote(r *Report, esc func(string) string) string {
	o := r.Thresholds
	out := ""
	if len(r.Scenarios) > 0 || len(r.Capacity) == 0 {
		out = fmt.Sprintf("Change: point estimate; interval: per-check 95%% bootstrap (a rate's: Newcombe's), not adjusted for the suite; "+
			"within tolerance when it lies inside %s%% (or %s ms). "+
			"Regressions: p-values adjusted over all %d checks (Westfall–Young maxT, family-wise α = %s); "+
			"p50 by Mann-Whitney U, p95/p99 by the share of requests reaching into the pooled tail (a smoothed step at the pooled p90/p98), the mean by the share above the pooled mean, errors by an exact permutation test. "+
			"A regression is a change whose test, so corrected, rejects \"worse by at most %s%%\" and whose estimate is beyond %s%% and %s ms; its interval, a separate estimate, can still reach into the tolerance. ",
			trimFloat(100*o.Tolerance), trimFloat(r.minDeltaMs()), r.Tested, trimFloat(o.Alpha), trimFloat(100*o.Tolerance), trimFloat(100*o.Tolerance), trimFloat(r.minDeltaMs()))
	}
	if len(r.Capacity) > 0 {
		alpha := trimFloat(r.Capacity[0].Head.Result.Spec.Alpha)
		out += fmt.Sprintf("Capacity: the highest load within each objective of the SLO, shown to hold with confidence (the exact binomial test "+
			"on the requests that missed it, one-sided at α = %s over a level's measurements) or, where it is not, within it on its point estimates "+
			"and not shown to fail, with the throughput still rising; its interval runs from the highest load shown to hold to the highest not "+
			"shown to fail. A capacity regression is a head capacity lower than the base's beyond %s%% with confidence (the highest load the head "+
			"is not shown to fail, below the highest the base is shown to hold). ",
			alpha, trimFloat(100*o.Tolerance))
	}
	return out + fmt.Sprintf("Fails on: %s. Measured by latgate.", esc(strings.Join(r.failOn(), ", ")))
}

// sameBecause says why a row repeats another, where one reason does.
var sameBecause = map[[2]string]string{{"Per token", "Inter-token"}: "one token per event"}

// leftOut says which rows of a scenario's budget table are not shown, and
// why: the same values as another row (Per token as Inter-token), or 0 on
// both sides, or on the one without a baseline (Network on warm
// connections, with the row's notes, escaped by esc: a GPU row's name a
// server's page); "" when every row is shown. The stages are the report's
// own words.
func leftOut(s Scenario, esc func(string) string) string {
	var parts []string
	for _, row := range s.Rows {
		switch {
		case row.SameAs != "":
			p := row.Stage + ", the same as " + row.SameAs
			if why := sameBecause[[2]string{row.Stage, row.SameAs}]; why != "" {
				p += " (" + why + ")"
			}
			parts = append(parts, p)
		case row.Unreported:
			parts = append(parts, row.Stage+" ("+NotReported+")")
		case row.Zero():
			p := row.Stage + ", 0 on both sides"
			if s.Base == nil {
				p = row.Stage + ", 0" // one side only: no baseline
			}
			if len(row.Notes) > 0 {
				p += " (" + esc(strings.Join(row.Notes, "; ")) + ")"
			}
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Left out: " + strings.Join(parts, "; ") + "."
}

// stepsNote says what a steps table shows.
const stepsNote = "Steps in ms from each step's start: the tool-calling steps in order, then the answer (the step that called no tool); " +
	"tool time: the step's tools, run by latgate after the step's call or, on a server-driven agent (an AI SDK route), by the server within the step, whose total then includes it; " +
	"cached prompt: the share of the step's prompt tokens the server served from its cache."

package report

// A badge is one status that applies to a scenario or a row ("❌ TTFT
// regression"), as every format shows it; the metrics a repeated row
// hides; the order scenarios are reported in.

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

var metricLabel = map[vocab.Metric]string{
	vocab.TTFT: "TTFT", vocab.TTFC: "TTFC", vocab.ITL: "inter-token", vocab.TPOT: "per token",
	vocab.Total: "total", vocab.Perceived: "perceived", vocab.Errors: "error rate",
	vocab.FirstToolCall: "first tool call", vocab.Answer: "answer", vocab.Session: "session", vocab.StepCount: "model calls",
	vocab.Queue: "queue", vocab.Prefill: "prefill", vocab.Decode: "decode", vocab.Outside: "outside",
	vocab.ColdTTFT: "cold TTFT", vocab.ColdTotal: "cold total", vocab.Failover: "failover",
}

// Badge is one status that applies to a scenario or row, with the metrics
// it concerns.
type Badge struct {
	Status  vocab.Status
	Metrics []string // "TTFT", "TTFT p95", "error rate"
	// stats are the statistic of each of Metrics that names one ("p95"
	// of "TTFT p95"), else "", for the badge of a row that names the
	// metric already (rowBadge); named says which of Metrics the badge names
	// even there (goodput and the cache hit rate, whose rows name no
	// metric; the error rate unless over budget).
	stats []string
	named []bool
}

// rowBadge is the badge as a metric's own row shows it: without the latency
// metric or error rate it concerns ("⛔ p95 over budget").
func (f Badge) rowBadge() Badge {
	if f.Status == vocab.Regression && len(f.Metrics) == 1 && f.Metrics[0] == "error rate" {
		return f // "error rate up"
	}
	out := Badge{Status: f.Status}
	for i, m := range f.Metrics {
		switch {
		case f.named[i]:
			out.Metrics = append(out.Metrics, m)
		case f.stats[i] != "":
			out.Metrics = append(out.Metrics, f.stats[i])
		}
	}
	return out
}

// String is the badge for people: "❌ TTFT regression", "❌ TTFT,
// inter-token and total regression": every metric named.
func (f Badge) String() string {
	what := ""
	if len(f.Metrics) > 0 {
		what = andList(f.Metrics) + " "
	}
	switch f.Status {
	case vocab.Regression:
		if len(f.Metrics) == 1 && f.Metrics[0] == "error rate" {
			return "❌ error rate up"
		}
		return "❌ " + what + "regression"
	case vocab.OverBudget:
		return "⛔ " + what + "over budget"
	case vocab.Inconclusive:
		return "⚠️ " + what + "inconclusive"
	case vocab.Improvement:
		return "🟢 " + what + "faster"
	case vocab.NoBaseline:
		return "🆕 no baseline"
	case vocab.NotTested:
		return "— not tested"
	case vocab.WithinTolerance:
		return "✅ within tolerance"
	case vocab.NoRegressionShown:
		return "✅ no regression shown"
	}
	return "✅ ok"
}

// Plain is the badge without its icon: "TTFT regression".
func (f Badge) Plain() string {
	_, rest, _ := strings.Cut(f.String(), " ")
	return rest
}

// badgesOf lists every status that applies to checks, worst first: a row can
// be a regression, over budget and have an error-rate rise at once.
// Untested checks and inconclusive changes for the better add none.
func badgesOf(checks []compare.Check, skip map[vocab.Metric]bool, stratum func(int) string) []Badge {
	order := []vocab.Status{vocab.Regression, vocab.OverBudget, vocab.Inconclusive, vocab.Improvement, vocab.NoBaseline}
	var out []Badge
	regressed := map[vocab.Metric]bool{}
	for _, st := range order {
		// Latency metrics share a badge; the error rate has its own, so a
		// rise in failures never hides behind a latency regression.
		for _, errs := range []bool{false, true} {
			f := Badge{Status: st}
			seen := map[string]bool{}
			any := false
			for _, c := range checks {
				if c.Status != st || (c.Metric == vocab.Errors) != errs || hiddenCheck(skip, c) ||
					(st == vocab.Inconclusive && (!c.Doubtful() || regressed[c.Metric])) {
					continue
				}
				if st == vocab.Regression {
					regressed[c.Metric] = true
				}
				any = true
				name, stat := metricLabel[c.Metric], ""
				if name == "" {
					name = string(c.Metric)
				}
				if st == vocab.OverBudget && !errs {
					stat = string(c.Stat)
					name += " " + stat
				}
				if c.Stratum != 0 && stratum != nil {
					name += " · input " + stratum(c.Stratum) // a stratum's check is never merged with the run's
				}
				if st != vocab.NoBaseline && !seen[name] {
					seen[name] = true
					f.Metrics = append(f.Metrics, name)
					f.stats = append(f.stats, stat)
					f.named = append(f.named, metricLabel[c.Metric] == "" || errs && st != vocab.OverBudget)
				}
			}
			if any && (st != vocab.NoBaseline || !errs) {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		out = append(out, Badge{Status: passStatus(checks, skip)})
	}
	return out
}

// passStatus is what the checks of a row or scenario that flag nothing
// showed: no regression shown when a tested latency check (or, for a
// rate's own row, the rate) is not bounded within the tolerance, within
// tolerance when every tested one is, not tested when none could be
// tested (the error rate alone says nothing about latency), ok for checks
// with nothing to compare (a budget, a floor).
func passStatus(checks []compare.Check, skip map[vocab.Metric]bool) vocab.Status {
	considered := func(c compare.Check) bool { return !hiddenCheck(skip, c) && !c.Metric.IsRate() }
	if !slices.ContainsFunc(checks, considered) {
		considered = func(c compare.Check) bool { return !hiddenCheck(skip, c) }
	}
	has := func(st vocab.Status) bool {
		return slices.ContainsFunc(checks, func(c compare.Check) bool { return considered(c) && c.Status == st })
	}
	switch {
	case has(vocab.NoRegressionShown):
		return vocab.NoRegressionShown
	case has(vocab.WithinTolerance):
		return vocab.WithinTolerance
	case has(vocab.NotTested) && !has(vocab.OK):
		return vocab.NotTested
	}
	return vocab.OK
}

// Badges lists every status that applies to a scenario, worst first. A
// metric whose row repeats another (Perceived = TTFT) adds no badge of its
// own, unless one of its checks is worse than its twin's (a budget on the
// hidden metric only): a failing check is never hidden.
func (s Scenario) Badges() []Badge {
	hidden := s.hiddenMetrics()
	if s.Current.BufferedMostly() && !s.Base.BufferedMostly() {
		// Events that arrived together have no pace: a "faster"
		// inter-token is the buffering the warnings name, not a speed-up.
		for _, m := range []vocab.Metric{vocab.ITL, vocab.TPOT} {
			if c, ok := findCheck(checksOf(s.Checks, m), "p50"); ok && c.Status != vocab.OverBudget && c.DeltaPct < 0 {
				hidden[m] = true
			}
		}
	}
	return badgesOf(s.Checks, hidden, s.stratumRange)
}

// hiddenCheck reports whether a check is of a metric hidden for
// repeating another (hiddenMetrics); a stratum's check never is, since
// no row repeats it.
func hiddenCheck(hidden map[vocab.Metric]bool, c compare.Check) bool {
	return c.Stratum == 0 && hidden[c.Metric]
}

// hiddenMetrics are the metrics whose rows repeat another row with no
// worse status and no budget of their own (Perceived p95 ≤ 400 is shown
// even where Perceived equals Answer, whose budget is 1500): the
// scenario's badges and the headline name the row shown.
func (s Scenario) hiddenMetrics() map[vocab.Metric]bool {
	twins := s.sameMetrics()
	hidden := map[vocab.Metric]bool{}
	for m := range twins {
		hidden[m] = true
	}
	for _, c := range s.Checks {
		if !hiddenCheck(hidden, c) {
			continue
		}
		twin, ok := findCheck(checksOf(s.Checks, twins[c.Metric]), c.Stat)
		if !ok || hideRank(c) > hideRank(twin) || !math.IsNaN(c.Budget) && !sameValue(c.Budget, twin.Budget) {
			delete(hidden, c.Metric) // a budget of its own is never hidden
		}
	}
	return hidden
}

// hideRank orders checks for hiding a repeated row by their statuses:
// failing statuses (regression, over budget) rank alike, since a budget
// breach takes the place of a regression on the checked statistic; a
// check without a baseline that is not tested only for its budget (too
// few requests for it) ranks as its twin without the budget does, no
// baseline.
func hideRank(c compare.Check) int {
	switch {
	case c.Status == vocab.OverBudget:
		return severity[vocab.Regression]
	case c.Status == vocab.NotTested && c.BudgetUntested() && math.IsNaN(c.Baseline):
		return severity[vocab.NoBaseline]
	}
	return severity[c.Status]
}

// twinMetric is the metric a metric without a row of its own repeats
// (TTFC equal to TTFT is not shown).
var twinMetric = map[vocab.Metric]vocab.Metric{vocab.Perceived: vocab.TTFT, vocab.TTFC: vocab.TTFT, vocab.TPOT: vocab.ITL}

func checksOf(checks []compare.Check, metric vocab.Metric) []compare.Check {
	var out []compare.Check
	for _, c := range checks {
		if c.Metric == metric && c.Stratum == 0 {
			out = append(out, c)
		}
	}
	return out
}

// sameMetrics are the metrics whose rows repeat another row or are not
// shown (TTFC equal to TTFT), each with the metric it repeats.
func (s Scenario) sameMetrics() map[vocab.Metric]vocab.Metric {
	m := map[vocab.Metric]vocab.Metric{}
	for _, c := range s.Checks {
		m[c.Metric] = twinMetric[c.Metric]
	}
	stage := map[string]vocab.Metric{}
	for _, r := range s.Rows {
		stage[r.Stage] = r.Metric
	}
	for _, r := range s.Rows {
		switch {
		case r.Metric == "":
		case r.SameAs == "":
			delete(m, r.Metric)
		default:
			m[r.Metric] = stage[r.SameAs]
		}
	}
	return m
}

// rank orders scenarios for the comment: worst status first, then by the
// size of the worst change.
func rank(r *Report) []int {
	order := make([]int, len(r.Scenarios))
	sev := make([]int, len(r.Scenarios))
	mag := make([]float64, len(r.Scenarios))
	for i, s := range r.Scenarios {
		order[i] = i
		fs := s.Badges()
		sev[i] = severity[fs[0].Status]
		for _, c := range s.Checks {
			if !math.IsNaN(c.DeltaPct) && c.Status == fs[0].Status {
				mag[i] = math.Max(mag[i], math.Abs(c.DeltaPct))
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if sev[i] != sev[j] {
			return sev[i] > sev[j]
		}
		return mag[i] > mag[j]
	})
	return order
}

func findCheck(checks []compare.Check, stat vocab.Stat) (compare.Check, bool) {
	for _, c := range checks {
		if c.Stat == stat {
			return c, true
		}
	}
	return compare.Check{}, false
}

func (s Scenario) row(stage string) *Row {
	for i := range s.Rows {
		if s.Rows[i].Stage == stage {
			return &s.Rows[i]
		}
	}
	return nil
}

// statusPart is one status a row's cells are marked with (rowStatus) and
// the statistics it marks, when it marks only some of them.
type statusPart struct {
	Status vocab.Status
	Stats  []vocab.Stat
}

// statusParts are the statuses of a row's cells, worst first: the text
// report's status column, which has no cell marks ("regression (p50,
// mean), over budget (p95)", "within tolerance (p50, mean), not tested
// (p95, p99)"); ok and within tolerance are left unsaid beside a status
// that says more (no regression shown and worse), as the comment's row
// badge does.
func statusParts(row Row) []statusPart {
	by := map[vocab.Status][]vocab.Stat{}
	for _, c := range row.Checks {
		st := rowStatus(c)
		by[st] = append(by[st], c.Stat)
	}
	var out []statusPart
	flagged := false // a status that says more than "within": the row names it alone
	for st := range by {
		flagged = flagged || severity[st] >= severity[vocab.NoRegressionShown]
	}
	for _, st := range []vocab.Status{vocab.Regression, vocab.OverBudget, vocab.Inconclusive, vocab.Improvement, vocab.NoRegressionShown, vocab.WithinTolerance, vocab.NotTested, vocab.NoBaseline, vocab.OK} {
		stats := by[st]
		if len(stats) == 0 || (st == vocab.OK || st == vocab.WithinTolerance) && flagged {
			continue
		}
		if len(stats) == len(row.Checks) {
			stats = nil // every cell: the status alone says it
		}
		out = append(out, statusPart{st, stats})
	}
	return out
}

// andList joins names for people: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

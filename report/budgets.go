package report

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// Budgets are the budget checks of a report: every check with a budget
// (a limit, or a floor for goodput and the cache hit rate), in the
// report's order.
func (r *Report) Budgets() []compare.Check {
	var out []compare.Check
	for _, s := range r.Scenarios {
		for _, c := range s.Checks {
			if !math.IsNaN(c.Budget) {
				out = append(out, c)
			}
		}
	}
	return out
}

// BudgetText writes a run's budgets for the terminal (latgate run): each
// budget of each scenario, what was measured and whether it holds, is
// blown, or could not be tested (a statistic its run has too few requests
// for: "not tested (needs 40)", never blown), and a line counting them;
// "no budgets" when the suite sets none.
func BudgetText(w io.Writer, r *Report, suite string) {
	checks := r.Budgets()
	if len(checks) == 0 {
		fmt.Fprintf(w, "\nbudgets: none in %s (budgets: in the suite sets absolute limits, such as ttft: {p95: 800})\n", suite)
		return
	}
	fmt.Fprintf(w, "\nbudgets (%s)\n", suite)
	t := newTable("endpoint", "scenario", "budget", "measured", "status")
	t.alignLeft = map[int]bool{0: true, 1: true, 2: true, 4: true}
	blown, untested := 0, 0
	for _, c := range checks {
		verdict := "holds"
		switch {
		case c.Status == vocab.OverBudget:
			verdict, blown = "OVER BUDGET", blown+1
			if c.Metric.HigherIsBetter() {
				verdict = "BELOW ITS FLOOR"
			}
		case c.Reason == vocab.NotReported:
			verdict, untested = "not tested ("+NotReported+")", untested+1
		case c.BudgetUntested():
			verdict, untested = fmt.Sprintf("not tested (needs %d)", budgetNeed(c)), untested+1
		}
		t.row(clean(c.Endpoint), clean(c.Scenario), budgetLimit(c), budgetValue(c), verdict)
	}
	t.write(w)
	var parts []string
	if blown > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s blown", blown, plural(len(checks), "budget", "budgets")))
	}
	if untested > 0 {
		of := fmt.Sprintf("%d of %s", untested, plural(len(checks), "budget", "budgets"))
		if blown > 0 {
			of = fmt.Sprint(untested)
		}
		parts = append(parts, of+" not tested")
	}
	switch {
	case len(parts) > 0:
		fmt.Fprintln(w, strings.Join(parts, "; "))
	case len(checks) == 1:
		fmt.Fprintln(w, "the budget holds")
	default:
		fmt.Fprintf(w, "all %d budgets hold\n", len(checks))
	}
}

// budgetShort says why a budget was not tested (BudgetUntested): "5
// successful requests, p95 needs 40".
func budgetShort(c compare.Check) string {
	return fmt.Sprintf("%s, %s needs %d", plural(c.NCurrent, "successful request", "successful requests"), c.Stat, budgetNeed(c))
}

// untestedBudgets are the budget checks of the report's shown rows that
// their runs had too few requests to test (BudgetUntested).
func (r *Report) untestedBudgets() []compare.Check {
	var out []compare.Check
	for _, c := range r.shownChecks() {
		if c.BudgetUntested() {
			out = append(out, c)
		}
	}
	return out
}

// untestedBudgetWords is the headline's part for the budgets not tested
// ("TTFT p95's budget not tested (5 successful requests, p95 needs 40)");
// "" when every budget was tested.
func untestedBudgetWords(r *Report, esc func(string) string) string {
	bs := r.untestedBudgets()
	if len(bs) == 0 {
		return ""
	}
	c := bs[0]
	s := r.where(c, esc, len(r.Scenarios) > 1) + "'s budget not tested (" + budgetShort(c) + ")"
	if len(bs) > 1 {
		s = fmt.Sprintf("%d budgets not tested (%s: %s)", len(bs), r.where(c, esc, len(r.Scenarios) > 1), budgetShort(c))
	}
	return s
}

// budgetNeed is how many successful requests would test a budget: its
// statistic's minimum (vocab.Stat.MinN, the figure of the suite's warning
// on requests and of compare's too_few); the check's NeedN says how many
// requests give them with the failures seen.
func budgetNeed(c compare.Check) int { return c.Stat.MinN() }

// budgetLimit is a check's budget as the suite states it: "TTFT p95 ≤
// 800 ms", "goodput ≥ 95%".
func budgetLimit(c compare.Check) string {
	return BudgetWords(compare.Budget{Metric: c.Metric, Stat: c.Stat, Value: c.Budget})
}

// BudgetWords is a budget (or a floor) as the suite states it: "TTFT p95
// ≤ 800 ms", "errors ≤ 2%", "goodput ≥ 95%".
func BudgetWords(b compare.Budget) string {
	op := "≤"
	if b.Metric.HigherIsBetter() {
		op = "≥"
	}
	if b.Metric.IsRate() {
		return fmt.Sprintf("%s %s %s%%", metricName(b.Metric), op, trimFloat(100*b.Value))
	}
	return fmt.Sprintf("%s %s %s %s ms", metricName(b.Metric), b.Stat, op, Millis(b.Value))
}

// budgetValue is what a budget was held against: the run's statistic.
func budgetValue(c compare.Check) string {
	if math.IsNaN(c.Current) {
		return "–"
	}
	if c.Metric.IsRate() {
		return trimFloat(math.Round(1000*c.Current)/10) + "%"
	}
	return Millis(c.Current) + " ms"
}

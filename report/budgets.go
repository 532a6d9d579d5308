package report

import (
	"fmt"
	"io"
	"math"

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
// budget of each scenario, what was measured and whether it holds, and a
// line counting those blown; "no budgets" when the suite sets none.
func BudgetText(w io.Writer, r *Report, suite string) {
	checks := r.Budgets()
	if len(checks) == 0 {
		fmt.Fprintf(w, "\nbudgets: none in %s (budgets: in the suite sets absolute limits, such as ttft: {p95: 800})\n", suite)
		return
	}
	fmt.Fprintf(w, "\nbudgets (%s)\n", suite)
	t := newTable("endpoint", "scenario", "budget", "measured", "status")
	t.alignLeft = map[int]bool{0: true, 1: true, 2: true, 4: true}
	blown := 0
	for _, c := range checks {
		verdict := "holds"
		if c.Status == vocab.OverBudget {
			verdict, blown = "OVER BUDGET", blown+1
			if c.Metric.HigherIsBetter() {
				verdict = "BELOW ITS FLOOR"
			}
		}
		t.row(clean(c.Endpoint), clean(c.Scenario), budgetLimit(c), budgetValue(c), verdict)
	}
	t.write(w)
	switch {
	case blown > 0:
		fmt.Fprintf(w, "%d of %s blown\n", blown, plural(len(checks), "budget", "budgets"))
	case len(checks) == 1:
		fmt.Fprintln(w, "the budget holds")
	default:
		fmt.Fprintf(w, "all %d budgets hold\n", len(checks))
	}
}

// budgetLimit is a budget as the suite states it: "TTFT p95 ≤ 800 ms",
// "goodput ≥ 95%".
func budgetLimit(c compare.Check) string {
	op := "≤"
	if c.Metric.HigherIsBetter() {
		op = "≥"
	}
	if c.Metric.IsRate() {
		return fmt.Sprintf("%s %s %s%%", metricName(c.Metric), op, trimFloat(100*c.Budget))
	}
	return fmt.Sprintf("%s %s %s %s ms", metricName(c.Metric), c.Stat, op, Millis(c.Budget))
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

package gate

import (
	"fmt"
	"io"
	"strings"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// A results file records the budgets of the suite it was measured with
// (results.File.Budgets), so that latgate compare given no suite judges a
// file by them rather than by none.

// recordBudgets writes into f the budgets of cfg, the suite that measured
// it (the head's in an A/B run), as the comparison applies them; nothing
// when cfg sets none.
func recordBudgets(f *results.File, cfg *suite.Config) {
	if f == nil || cfg == nil {
		return
	}
	th, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		return // a suite that parsed has budgets CompareConfig takes
	}
	var b results.Budgets
	for _, x := range append(append([]compare.Budget{}, th.Budgets...), th.Floors...) {
		b.Limits = append(b.Limits, results.Budget{Metric: x.Metric, Stat: x.Stat, Value: x.Value})
	}
	for _, o := range th.Goodput {
		b.Goodput = append(b.Goodput, results.SLO{Metric: o.Metric, MaxMs: o.Max})
	}
	if !b.Empty() {
		f.Budgets = &b
	}
}

// RecordedBudgets is th with the budgets f records in place of its own:
// upper limits, floors (the rates whose drop is the regression) and the
// goodput SLO; none when f records none.
func RecordedBudgets(th compare.Config, f *results.File) compare.Config {
	th.Budgets, th.Floors, th.Goodput = nil, nil, nil
	if f.Budgets.Empty() {
		return th
	}
	for _, l := range f.Budgets.Limits {
		b := compare.Budget{Metric: l.Metric, Stat: l.Stat, Value: l.Value}
		if l.Metric.HigherIsBetter() {
			th.Floors = append(th.Floors, b)
		} else {
			th.Budgets = append(th.Budgets, b)
		}
	}
	for _, o := range f.Budgets.Goodput {
		th.Goodput = append(th.Goodput, compare.SLO{Metric: o.Metric, Max: o.MaxMs})
	}
	return th
}

// sayRecorded says on w which budgets a compare given no suite applies:
// those the current file records, or none.
func sayRecorded(w io.Writer, f *results.File, name string) {
	if f.Budgets.Empty() {
		fmt.Fprintf(w, "latgate: budgets: none (%s records none)\n", report.EscapeName(name))
		return
	}
	var words []string
	th := RecordedBudgets(compare.Config{}, f)
	for _, b := range append(th.Budgets, th.Floors...) {
		words = append(words, report.BudgetWords(b))
	}
	fmt.Fprintf(w, "latgate: budgets: as recorded in %s, by the suite it was measured with: %s\n", report.EscapeName(name), strings.Join(words, ", "))
}

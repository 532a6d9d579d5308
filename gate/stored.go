package gate

import (
	"errors"
	"fmt"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// CompareStored compares the current run with stored baselines: one file
// is the classic comparison (CompareFiles); two or more are a history of
// runs of the same suite, oldest first, compared at the run level so that
// drift of the size the history shows does not fail the gate.
func CompareStored(hist []*results.File, names []string, cur *results.File, curName string, th compare.Config) (*report.Report, error) {
	return compareStored(hist, names, cur, digestFiles(append([]*results.File{cur}, hist...)...), curName, th)
}

// compareStored is CompareStored from the runs' digests (ds holds every
// run of every file).
func compareStored(hist []*results.File, names []string, cur *results.File, ds report.Digests, curName string, th compare.Config) (*report.Report, error) {
	if len(hist) < 2 {
		var base *results.File
		name := ""
		if len(hist) == 1 {
			base, name = hist[0], names[0]
		}
		return compareFiles(base, cur, ds, name, curName, th)
	}
	if cur.Incomplete != "" {
		return nil, BadInputf("%s is incomplete (%s): an incomplete run cannot pass a gate; run the suite again", curName, cur.Incomplete)
	}
	if err := oneSuite(hist, names); err != nil {
		return nil, err
	}
	newest := hist[len(hist)-1]
	pairs := results.Match(newest, cur)
	var series []compare.Series
	common := 0
	for _, p := range pairs {
		s := compare.Series{Endpoint: p.Endpoint, Scenario: p.Scenario}
		key := ""
		if p.Head != nil {
			s.Current = ds.Sample(p.Head)
			key = p.Head.Key()
		} else {
			key = p.Base.Key()
		}
		for _, f := range hist {
			var sample *compare.Sample
			for i := range f.Runs {
				if d := ds.Of(&f.Runs[i]); f.Runs[i].Key() == key && d.Breakdown.OK > 0 {
					sample = d.Sample
				}
			}
			s.History = append(s.History, sample)
		}
		if p.Head != nil && p.Base != nil {
			common++
		}
		series = append(series, s)
	}
	if common+commonSearches(newest, cur) == 0 {
		return nil, &Error{Kind: BadInput, Err: fmt.Errorf("%w: %s has %s, %s has %s (runs match by endpoint and scenario)", ErrNoCommonRun, names[len(names)-1], runNames(newest), curName, runNames(cur))}
	}
	// A capacity search is compared with the newest baseline's: a search's
	// outcome is one value per run, which a history of a few runs does not
	// test.
	changes, err := capacityChanges(newest, cur, names[len(names)-1], curName, th.Tolerance)
	if err != nil {
		return nil, err
	}
	res := compare.Result{Verdict: "pass"} // a suite of capacity searches only
	if len(series) > 0 {
		res, err = compare.CompareHistory(series, th)
	}
	if errors.Is(err, compare.ErrShortHistory) {
		return nil, BadInputf("baseline history: %v", err)
	}
	if err != nil {
		return nil, AsBadInput(err)
	}
	rep := report.BuildDigested(pairs, ds, res, th)
	rep.Warnings = append(rep.Warnings, runWarnings(cur, ds)...)
	rep.Plan = append(rep.Plan, RunPlan(cur)...)
	applyCapacity(rep, changes, th)
	rep.Provenance = report.ProvenanceOf(newest, cur)
	rep.Provenance.Mode, rep.Provenance.HistoryRuns = "history", len(hist)
	return rep, nil
}

// provenanceWarnings say when a stored baseline was recorded elsewhere or
// long ago: then drift, not the change, may explain a difference.
func provenanceWarnings(base, cur *results.File, maxAge time.Duration) []string {
	if base == nil {
		return nil
	}
	var w []string
	if maxAge <= 0 {
		maxAge = suite.DefaultMaxBaselineAge
	}
	if age := cur.CreatedAt.Sub(base.CreatedAt); age > maxAge {
		w = append(w, fmt.Sprintf("the baseline is %s old (recorded %s; regression.max_baseline_age is %s): provider drift since then may explain differences — prefer mode ab", roundAge(age), base.CreatedAt.Format("2006-01-02"), roundAge(maxAge)))
	}
	if base.Source.Runner != "" && cur.Source.Runner != "" && base.Source.Runner != cur.Source.Runner {
		w = append(w, fmt.Sprintf("the baseline was recorded on runner %q, this run on %q: runners differ in network and CPU", base.Source.Runner, cur.Source.Runner))
	}
	if base.Source.Region != cur.Source.Region {
		w = append(w, fmt.Sprintf("the baseline was recorded in region %q, this run in %q", base.Source.Region, cur.Source.Region))
	}
	return w
}

func roundAge(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	}
	return d.Round(time.Minute).String()
}

// oneSuite refuses a baseline history that is not complete runs of the
// same suite.
func oneSuite(hist []*results.File, names []string) error {
	first := map[string]string{} // key → fingerprint
	from := map[string]string{}  // key → file that set it
	for i, f := range hist {
		if f.Incomplete != "" {
			return BadInputf("%s is incomplete (%s): it cannot serve as a baseline", names[i], f.Incomplete)
		}
		if f.Interleaved() {
			return BadInputf("%s is an A/B file: a baseline history holds results of latgate run or gate", names[i])
		}
		for _, r := range f.Runs {
			k := r.Key()
			if fp, ok := first[k]; ok && fp != r.Fingerprint {
				return BadInputf("%s and %s measured endpoint %q, scenario %q with different configurations: a baseline history must come from one suite (re-record it, or compare with the newest file only)", from[k], names[i], r.Endpoint, r.Scenario)
			}
			first[k], from[k] = r.Fingerprint, names[i]
		}
	}
	return nil
}

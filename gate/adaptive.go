package gate

import (
	"fmt"
	"io"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Adaptive sampling (requests: {min, max}). A scenario is measured in
// batches of min requests (per variant in ab) and looked at after min,
// 2·min, … requests: it stops as soon as its checks are decided (pass or
// regression, compare.Design.Look), and continues while they are open, up
// to max. What a look compares with:
//
//   - gate (MeasureOptions.Baseline set): the baseline file's run of the
//     same (endpoint, scenario);
//   - ab: the base variant measured so far in the same blocks;
//   - run and record (no baseline): nothing, so adaptive scenarios run to
//     max, and say so. A baseline recorded this way holds max requests,
//     which is what later adaptive gates compare with.
//
// The whole suite shares one sequential design (K the most looks of any
// scenario, S its (endpoint, scenario) pairs), and the final comparison of
// a file with adaptive runs must hold each run at the design's level:
// CompareRuns does that.

// adaptiveGroup reports whether a scenario samples adaptively.
func adaptiveGroup(s suite.Scenario) bool {
	return s.RequestsMin > 0 && s.RequestsMin < s.Requests
}

// scenarioLooks is a scenario's planned looks (1 for a fixed count).
func scenarioLooks(s suite.Scenario) int {
	if !adaptiveGroup(s) {
		return 1
	}
	return compare.PlannedLooks(s.RequestsMin, s.Requests, s.RequestsMin)
}

// DesignOf is the sequential design a results file was measured under:
// the most looks of any run and the number of (endpoint, scenario) pairs.
// ok is false when no run of the file sampled adaptively.
func DesignOf(f *results.File, alpha float64) (d compare.Design, ok bool) {
	looks := 1
	keys := map[string]bool{}
	for _, r := range f.Runs {
		looks = max(looks, r.Looks)
		keys[r.Endpoint+"\x00"+r.Scenario] = true
	}
	if looks <= 1 {
		return compare.Design{}, false
	}
	return compare.NewDesign(alpha, looks, len(keys)), true
}

// CompareRuns compares the runs of the current file cur: with the
// sequential design it was measured under when it has adaptive runs
// (compare.CompareSequential), else with compare.Compare.
func CompareRuns(cur *results.File, runs []compare.Pair, th compare.Config) compare.Result {
	if d, ok := DesignOf(cur, alphaOf(th)); ok {
		return compare.CompareSequential(runs, th, d)
	}
	return compare.Compare(runs, th)
}

func alphaOf(th compare.Config) float64 {
	if th.Alpha <= 0 {
		return suite.DefaultAlpha
	}
	return th.Alpha
}

// stopState is where one group stopped and why.
type stopState struct {
	looked bool // a decider was set: the design's looks were taken
	at     int  // requests (per variant) when a look stopped it; 0 if none did
	// unable says why the group cannot look, so it runs to max (said
	// before measuring); "" when it can.
	unable string
	last   compare.Decision // the last look's
}

// adaptiveRun sets up the deciders of a measurement's adaptive groups,
// says in the progress output what they did, and records it in the runs.
type adaptiveRun struct {
	plan     []planned
	design   compare.Design
	th       compare.Config
	baseline *results.File
	ab       bool
	region   string
	log      io.Writer
	stops    []stopState
}

func newAdaptiveRun(plan []planned, th compare.Config, baseline *results.File, ab bool, region string, log io.Writer) *adaptiveRun {
	looks := 1
	for _, pl := range plan {
		looks = max(looks, scenarioLooks(pl.scenario))
	}
	if log == nil {
		log = io.Discard
	}
	return &adaptiveRun{plan: plan, design: compare.NewDesign(alphaOf(th), looks, len(plan)), th: th,
		baseline: baseline, ab: ab, region: region, log: log, stops: make([]stopState, len(plan))}
}

// baseRun finds the baseline's run of a planned group.
func (a *adaptiveRun) baseRun(pl planned) *results.Run {
	if a.baseline == nil {
		return nil
	}
	label := pl.endpoint.Name
	if a.region != "" {
		label += "@" + a.region
	}
	for i := range a.baseline.Runs {
		r := &a.baseline.Runs[i]
		if r.Endpoint == label && r.Scenario == pl.scenario.Name && r.Variant == "" && r.OKCount() > 0 {
			return r
		}
	}
	return nil
}

// group sets up group gi's adaptive sampling; head and base are the
// records measured so far (read by the decider in the aggregator, the
// goroutine that appends to them).
func (a *adaptiveRun) group(gi int, g *probe.Group, head, base *[]results.Request) {
	pl := a.plan[gi]
	if !adaptiveGroup(pl.scenario) {
		return
	}
	name := pl.scenario.Name + " @ " + pl.endpoint.Name
	var baseSample *compare.Sample
	switch {
	case a.ab && pl.base != nil:
	case a.ab:
		a.stops[gi].unable = "no base variant to compare with"
	case a.baseline == nil:
		a.stops[gi].unable = "nothing to compare with while measuring (no baseline given), so adaptive scenarios run to max"
	default:
		br := a.baseRun(pl)
		if br == nil {
			a.stops[gi].unable = "the baseline has no run of this scenario"
			break
		}
		baseSample = compare.SampleOf(br)
	}
	if a.stops[gi].unable != "" {
		// Said before measuring: the plan, not an outcome.
		fmt.Fprintf(a.log, "latgate: %s: will run to max: %s\n", name, a.stops[gi].unable)
		return
	}
	a.stops[gi].looked = true
	g.MinRequests, g.Batch = pl.scenario.RequestsMin, pl.scenario.RequestsMin
	g.Decide = func(n int) bool {
		r := compare.Pair{Endpoint: pl.endpoint.Name, Scenario: pl.scenario.Name}
		cur := &results.Run{Requests: *head}
		if a.ab {
			cur.Variant = vocab.Head
			r.Base = compare.SampleOf(&results.Run{Variant: vocab.Base, Requests: *base})
		} else {
			r.Base = baseSample
		}
		r.Head = compare.SampleOf(cur)
		dec := a.design.Look(r, a.th)
		a.stops[gi].last = dec
		if dec.Stop {
			a.stops[gi].at = n
			fmt.Fprintf(a.log, "latgate: %s: stopped at %d of %d: %s\n", name, n, pl.scenario.Requests, report.LookText(dec, a.th))
		}
		return dec.Stop
	}
}

// record writes a group's adaptive keys into its run(s).
func (a *adaptiveRun) record(gi int, run *results.Run) {
	pl := a.plan[gi]
	if !adaptiveGroup(pl.scenario) {
		return
	}
	run.RequestsMin = pl.scenario.RequestsMin
	st := a.stops[gi]
	if st.looked {
		// Only looks that were taken spend alpha: a run that could not
		// look (nothing to compare with) is compared as a fixed one.
		run.Looks = scenarioLooks(pl.scenario)
	}
	run.StoppedAt, run.Stop = len(run.Requests), vocab.MaxReached
	switch {
	case st.at > 0:
		run.StoppedAt, run.Stop, run.StopReason = st.at, vocab.Decided, report.LookText(st.last, a.th)
	case st.unable != "":
		run.StopReason = "max reached: " + st.unable
	case st.last.Check != nil:
		run.StopReason = "max reached (" + report.LookText(st.last, a.th) + " at the last look)"
	default:
		run.StopReason = "max reached"
	}
}

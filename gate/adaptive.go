package gate

import (
	"fmt"
	"io"
	"strconv"

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

// NoiseRuns is what an A/A comparison of cur says a suite can detect:
// under the sequential design cur was measured under, as CompareRuns
// compares it (compare.NoiseSequential), else compare.Noise.
func NoiseRuns(cur *results.File, runs []compare.Pair, th compare.Config) []compare.NoiseCheck {
	if d, ok := DesignOf(cur, alphaOf(th)); ok {
		return compare.NoiseSequential(runs, th, d)
	}
	return compare.Noise(runs, th)
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
	last   compare.Decision // the last look's; after a stop, its check re-estimated on everything measured
	next   int              // the next look, in requests per variant; 0 when none is to come
	// pair is the group's comparison with what it has measured so far.
	pair func() compare.Pair
	// cut: the group's requests came in short of max, no look having
	// decided it: a stop of the whole run cut it (said by cut, which knows
	// why, never as "max reached").
	cut bool
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
	a.stops[gi].pair = func() compare.Pair {
		r := compare.Pair{Endpoint: pl.endpoint.Name, Scenario: pl.scenario.Name}
		cur := &results.Run{Requests: *head}
		if a.ab {
			cur.Variant = vocab.Head
			r.Base = compare.SampleOf(&results.Run{Variant: vocab.Base, Requests: *base})
		} else {
			r.Base = baseSample
		}
		r.Head = compare.SampleOf(cur)
		// A check the run could not test even at max holds no look open.
		r.Head.Max = pl.scenario.Requests
		if a.ab {
			r.Base.Max = pl.scenario.Requests
		}
		return r
	}
	g.MinRequests, g.Batch = pl.scenario.RequestsMin, pl.scenario.RequestsMin
	a.stops[gi].next = g.MinRequests
	g.Decide = func(n int) bool {
		st := &a.stops[gi]
		dec := a.design.Look(st.pair(), a.th)
		st.last, st.next = dec, n+g.Batch
		if st.next >= pl.scenario.Requests {
			st.next = 0 // the final comparison, at max, is no look
		}
		if dec.Stop {
			st.at, st.next = n, 0
		}
		return dec.Stop
	}
}

// next is group gi's next look (requests per variant; 0: none to come)
// and whether a look stopped it; the progress counts the time to it.
func (a *adaptiveRun) next(gi int) (int, bool) {
	if gi >= len(a.stops) {
		return 0, false // a capacity search's level: no looks of this design
	}
	return a.stops[gi].next, a.stops[gi].at > 0
}

// done says, once a group's requests are all in, where it stopped and why,
// with the counts and the figure of everything it measured (the requests
// in flight at the stop, and in ab those that balance the variants, come
// in after the look that decided it): the comparison's own. A group that
// no look decided and that came in short of max was cut by a stop of the
// whole run, whose cause the runner gives after: cut says it.
func (a *adaptiveRun) done(gi int) {
	if gi >= len(a.stops) || !a.stops[gi].looked {
		return
	}
	st := &a.stops[gi]
	r := st.pair()
	pl := a.plan[gi]
	perSide := a.perSide()
	if st.at == 0 && measuredOf(r) < pl.scenario.Requests {
		st.cut = true
		return
	}
	if st.at == 0 {
		fmt.Fprintf(a.log, "latgate: %s @ %s: max reached: %s of %d requests%s, no look decided it; the final comparison decides\n", pl.scenario.Name, pl.endpoint.Name,
			stopCount(r), pl.scenario.Requests, perSide)
		return
	}
	if c := st.last.Check; c != nil {
		re := compare.Reestimate(*c, r, a.th)
		st.last.Check = &re
	}
	fmt.Fprintf(a.log, "latgate: %s @ %s: stopped at %s of %d requests%s: %s\n", pl.scenario.Name, pl.endpoint.Name,
		stopCount(r), pl.scenario.Requests, perSide, a.lookStop(*st))
}

// cut says where the groups that a stop of the whole run cut short of max
// stopped (done left them unsaid), and why: the run's cause
// (vocab.Interrupted: "interrupted at 36–38 of 800 requests per side,
// before max"; a cap or fail-fast with its words, why), never "max
// reached", and no comparison to come.
func (a *adaptiveRun) cut(cause vocab.Stop, why string) {
	for gi := range a.stops {
		st := &a.stops[gi]
		if !st.cut {
			continue
		}
		pl := a.plan[gi]
		what := "stopped"
		if cause == vocab.Interrupted {
			what, why = string(vocab.Interrupted), ""
		}
		if why != "" {
			why = ": " + why
		}
		fmt.Fprintf(a.log, "latgate: %s @ %s: %s at %s of %d requests%s, before max and before a look decided it%s\n", pl.scenario.Name, pl.endpoint.Name,
			what, stopCount(st.pair()), pl.scenario.Requests, a.perSide(), why)
		st.cut = false
	}
}

func (a *adaptiveRun) perSide() string { return map[bool]string{true: " per side"}[a.ab] }

// measuredOf is the requests a group measured: per side in ab, the side
// with more.
func measuredOf(r compare.Pair) int {
	n := r.Head.N()
	if r.Base != nil {
		n = max(n, r.Base.N())
	}
	return n
}

// stopCount is the requests a stopped run measured: per side in ab ("44",
// or "43–44" when a request of one variant could not be sent).
func stopCount(r compare.Pair) string {
	n := r.Head.N()
	if r.Base == nil || r.Head.Block == nil {
		return strconv.Itoa(n)
	}
	lo, hi := min(n, r.Base.N()), max(n, r.Base.N())
	if lo == hi {
		return strconv.Itoa(n)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
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
	// Where it stopped: what it measured, the count the comparison uses.
	run.StoppedAt, run.Stop = len(run.Requests), vocab.MaxReached
	switch {
	case st.at > 0:
		run.Stop, run.StopReason = vocab.Decided, a.lookStop(st)
	case st.unable != "":
		run.StopReason = "max reached: " + st.unable
	case st.last.Check != nil:
		run.StopReason = "max reached (" + report.LookText(st.last, a.th) + " at the last look)"
	default:
		run.StopReason = "max reached"
	}
}

// lookStop is what decided a group at a look, and where: "at the look at
// 500 per side, every check was within 10% (or not testable at max)". The
// requests in flight at the stop come in after it, so the comparison of
// everything measured can differ a little from the look's.
func (a *adaptiveRun) lookStop(st stopState) string {
	return fmt.Sprintf("at the look at %d, %s", st.at, report.LookText(st.last, a.th))
}

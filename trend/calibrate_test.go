package trend

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

var (
	calibrate = flag.Bool("calibrate", false, "run the calibration study of the change-point detector (make calibrate)")
	calStudy  = flag.String("study", "trend", "calibration: runs when the comma-separated list holds trend")
	calSeries = flag.Int("series", 1000, "calibration: simulated series per case")
	calRuns   = flag.Int("runs", 50, "calibration: runs per series")
	calOut    = flag.String("calibrate-out", "", "calibration: also write the Markdown table here")
	calSuites = flag.Int("suites", 200, "calibration: simulated flat suites of 20 scenarios for the record-by-record study")
)

// calCase is a row of the study: a per-run spread and what happens to the
// level of the series at run i.
type calCase struct {
	name  string
	sigma float64
	shift func(i, n int, seed uint64) float64
	// at is where a change point should be (−1: none should be).
	at int
}

func constant(int, int, uint64) float64 { return 1 }

func calStep(at int, f float64) func(int, int, uint64) float64 {
	return func(i, _ int, _ uint64) float64 { return stepAt(at, f)(i) }
}

// creep is ten +3% steps spread evenly over the series (at n·k/11).
func creep(i, n int, _ uint64) float64 {
	k := 0
	for s := 1; s <= 10; s++ {
		if i >= n*s/11 {
			k++
		}
	}
	return math.Pow(1.03, float64(k))
}

// outlier is one run at +80%, at a place drawn from the seed.
func outlier(i, n int, seed uint64) float64 {
	if uint64(i) == (seed*2654435761)%uint64(n) {
		return 1.8
	}
	return 1
}

func calCases() []calCase {
	var out []calCase
	for _, sigma := range []float64{0.05, 0.10} {
		out = append(out,
			calCase{"flat", sigma, constant, -1},
			calCase{"one outlier run +80%", sigma, outlier, -1},
			calCase{"step +5% at run 30", sigma, calStep(30, 1.05), 30},
			calCase{"step +10% at run 30", sigma, calStep(30, 1.10), 30},
			calCase{"step +15% at run 30", sigma, calStep(30, 1.15), 30},
			calCase{"creep: ten +3% steps", sigma, creep, -2},
		)
	}
	return out
}

// calSeriesRuns is one simulated series as the runs of a scenario of its
// own name, so each series draws its own permutations as a real one does.
func calSeriesRuns(c calCase, seed uint64, n int) []Run {
	values := lognormal(seed, n, c.sigma, func(i int) float64 { return c.shift(i, n, seed) })
	runs := runsOf(values)
	for i := range runs {
		runs[i].Scenarios[0].Scenario = fmt.Sprintf("cal-%d", seed)
	}
	return runs
}

type calRow struct {
	flagged, located atomic.Int64
	mu               sync.Mutex
	steps            []float64 // the largest step found per flagged series
	firstSeen        []int     // creep: the first run count at which it was flagged
}

// TestCalibration runs the study of docs/statistics.md ("Main's trend"):
// Analyze — the shipped detector, defaults included — on simulated series.
func TestCalibration(t *testing.T) {
	if !*calibrate || !strings.Contains(","+*calStudy+",", ",trend,") {
		t.Skip("run with -calibrate (make calibrate)")
	}
	start := time.Now()
	var b strings.Builder
	fmt.Fprintf(&b, "| case | σ per run | series | flagged | located ±2 runs | largest step found (median) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range calCases() {
		var row calRow
		reps(*calSeries, func(seed uint64) { calOne(c, seed, &row) })
		loc := "–"
		if c.at >= 0 {
			loc = pctText(row.located.Load(), *calSeries)
		}
		med := "–"
		if len(row.steps) > 0 {
			slices.Sort(row.steps)
			med = fmt.Sprintf("%+.1f%%", row.steps[len(row.steps)/2])
		}
		fmt.Fprintf(&b, "| %s | %.2f | %d | %s | %s | %s |\n", c.name, c.sigma, *calSeries, pctText(row.flagged.Load(), *calSeries), loc, med)
		if len(row.firstSeen) > 0 {
			slices.Sort(row.firstSeen)
			fmt.Fprintf(&b, "|   creep first flagged, runs recorded (median, 90th percentile) | %.2f | %d | %d, %d | | |\n",
				c.sigma, len(row.firstSeen), row.firstSeen[len(row.firstSeen)/2], row.firstSeen[len(row.firstSeen)*9/10])
		}
	}
	suiteStudy(&b)
	fmt.Fprintf(&b, "\n(%d runs per series, %d series per case, %d suites; %s on %d cores.)\n", *calRuns, *calSeries, *calSuites, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	if *calOut != "" {
		if err := os.WriteFile(*calOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func calOne(c calCase, seed uint64, row *calRow) {
	runs := calSeriesRuns(c, seed, *calRuns)
	a := Analyze(runs, Method{})
	cps := a.Series[0].ChangePoints
	if len(cps) == 0 {
		return
	}
	row.flagged.Add(1)
	if slices.ContainsFunc(cps, func(cp ChangePoint) bool { return abs(cp.Index-c.at) <= 2 }) {
		row.located.Add(1)
	}
	largest := slices.MaxFunc(cps, func(x, y ChangePoint) int { return int(math.Copysign(1, math.Abs(x.StepPct)-math.Abs(y.StepPct))) })
	row.mu.Lock()
	row.steps = append(row.steps, largest.StepPct)
	row.mu.Unlock()
	if c.at == -2 && seed%5 == 0 { // creep: when would record mode first have said so?
		for n := 6; n <= len(runs); n++ {
			if s := Analyze(runs[:n], Method{}).Series[0]; len(s.ChangePoints) > 0 {
				row.mu.Lock()
				row.firstSeen = append(row.firstSeen, n)
				row.mu.Unlock()
				break
			}
		}
	}
}

func pctText(k int64, n int) string { return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n)) }

// reps runs f(seed) for seeds 0..n−1 on every core.
func reps(n int, f func(seed uint64)) { compare.InParallel(n, func(i int) { f(uint64(i)) }) }

// TestCalibrationCasesAreWhatTheySay guards the study's simulated series.
func TestCalibrationCasesAreWhatTheySay(t *testing.T) {
	if f := creep(49, 50, 0); math.Abs(f-math.Pow(1.03, 10)) > 1e-12 {
		t.Errorf("creep ends at %g", f)
	}
	if creep(3, 50, 0) != 1 || creep(4, 50, 0) != 1.03 || creep(44, 50, 0) >= creep(45, 50, 0) {
		t.Error("the creep's steps are not at runs 4, 9, …, 45 (50·k/11)")
	}
	n := 0
	for i := range 50 {
		if outlier(i, 50, 17) != 1 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d outlier runs", n)
	}
	if runs := calSeriesRuns(calCases()[0], 3, 50); len(runs) != 50 || runs[0].Scenarios[0].Values[0].Metric != vocab.TTFT {
		t.Error("series runs")
	}
}

// suiteStudy is record mode, record by record (the 10th run to the last),
// on suites of 20 scenarios × 3 series (independent, σ 0.05 per run: an
// upper bound for the correlated series of a real scenario): flat, or with
// scenario 0 stepping +15% at run 30, or creeping (ten +3% steps). It
// counts the records that announce a change point of a flat scenario
// (false), and when the changed scenario's is first announced.
func suiteStudy(b *strings.Builder) {
	fmt.Fprintf(b, "\nRecord mode, record by record from the 10th run to the %dth, on suites of 20 scenarios × 3 series (independent, σ 0.05; %d suites per row):\n\n", *calRuns, *calSuites)
	b.WriteString("| suite | records announcing a false change point | suites with one | changed scenario announced by the last run | at run (median, 90th percentile) |\n|---|---:|---:|---:|---:|\n")
	for _, c := range []struct {
		name  string
		shift func(i, n int, seed uint64) float64
	}{{"flat", constant}, {"scenario 0 steps +15% at run 30", calStep(30, 1.15)}, {"scenario 0 creeps: ten +3% steps", creep}} {
		var records, falseRecords, falseSuites, found atomic.Int64
		var mu sync.Mutex
		var at []int
		reps(*calSuites, func(seed uint64) {
			first, falseAny := recordByRecord(seed, c.shift, &records, &falseRecords)
			if falseAny {
				falseSuites.Add(1)
			}
			if first > 0 {
				found.Add(1)
				mu.Lock()
				at = append(at, first)
				mu.Unlock()
			}
		})
		when := "–"
		if len(at) > 0 {
			slices.Sort(at)
			when = fmt.Sprintf("%d, %d", at[len(at)/2], at[len(at)*9/10])
		}
		changed := "–"
		if c.name != "flat" {
			changed = pctText(found.Load(), *calSuites)
		}
		fmt.Fprintf(b, "| %s | %s of %d | %s | %s | %s |\n", c.name, pctText(falseRecords.Load(), int(records.Load())), records.Load(),
			pctText(falseSuites.Load(), *calSuites), changed, when)
	}
}

// recordByRecord records one simulated suite run by run with Announce, as
// record mode does; it returns the run count at which scenario 0 was
// first announced (0: never) and whether another scenario ever was.
func recordByRecord(seed uint64, shift func(i, n int, seed uint64) float64, records, falseRecords *atomic.Int64) (int, bool) {
	n := *calRuns
	series := make([][]float64, 60)
	for k := range series {
		sh := flat
		if k < 3 {
			sh = func(i int) float64 { return shift(i, n, seed) }
		}
		series[k] = lognormal(seed*1000+uint64(k), n, 0.05, sh)
	}
	runs := runsOf(series[0])
	for i := range runs {
		runs[i].Scenarios = nil
		for sc := range 20 {
			vals := make([]Value, 3)
			for j, sp := range Specs[:3] {
				v := series[3*sc+j][i]
				vals[j] = Value{Metric: sp.Metric, Stat: sp.Stat, Value: &v, N: 50}
			}
			runs[i].Scenarios = append(runs[i].Scenarios, Scenario{Endpoint: "e", Scenario: fmt.Sprint(sc), Fingerprint: "f", Requests: 50, Values: vals})
		}
	}
	prev := Analyze(runs[:9], Method{})
	anns := Announce(&prev, nil, true)
	first, falseAny := 0, false
	for k := 10; k <= n; k++ {
		a := Analyze(runs[:k], Method{})
		anns = Announce(&a, anns, false)
		records.Add(1)
		cps, _ := a.New()
		falseHere := false
		for _, cp := range cps {
			if cp.Scenario == "0" && first == 0 {
				first = k
			}
			falseHere = falseHere || cp.Scenario != "0"
		}
		if falseHere {
			falseRecords.Add(1)
			falseAny = true
		}
	}
	return first, falseAny
}

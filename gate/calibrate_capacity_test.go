package gate

import (
	"context"
	"flag"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

var (
	calibrate = flag.Bool("calibrate", false, "run the calibration study (make calibrate)")
	calStudy  = flag.String("study", "capacity", "calibration: parts to run (capacity is this package's, with its cost; cost alone: the cost at the SLO)")
	calReps   = flag.Int("reps", 200, "calibration: A/B runs per condition")
)

// noisyEngine is the calibration's server: slots slots, a first token
// after a log-normal 100 ms (σ 0.2) plus 10 ms per other request in the
// batch, then 15 log-normal gaps of 20 ms (σ 0.2).
func noisyEngine(slots int) sim.Profile {
	return sim.Profile{TTFT: sim.LogNormal(100*time.Millisecond, 0.2), ITL: sim.LogNormal(20*time.Millisecond, 0.2), Tokens: 16,
		Capacity: sim.Capacity{Slots: slots, PrefillPerRequest: 10 * time.Millisecond}}
}

// capOutcome is one A/B capacity run of the calibration.
type capOutcome struct {
	status               vocab.Status
	base, head           float64
	baseShown, headShown bool // the capacity a level shown to hold (not only on its estimates)
	requests             int
	virtual              time.Duration
}

// capRun is latgate ab's capacity search of a base and a head server on
// virtual time, at the default thresholds: 1–64 users, perLevel requests
// a level, the SLO slo (such as "{ttft: {p95: 300ms}}").
func capRun(t *testing.T, seed uint64, baseSlots, headSlots, perLevel int, slo string) capOutcome {
	var out capOutcome
	synctest.Test(t, func(t *testing.T) {
		base := clocktest.NewServer(t, sim.New(noisyEngine(baseSlots), 2*seed))
		head := clocktest.NewServer(t, sim.New(noisyEngine(headSlots), 2*seed+1))
		capYAML := fmt.Sprintf("{vary: concurrency, from: 1, to: 64, requests_per_level: %d, slo: %s}", perLevel, slo)
		bc, hc := capacitySuite(t, base, capYAML), capacitySuite(t, head, capYAML)
		start := time.Now()
		f, err := MeasureAB(context.Background(), bc, hc, MeasureOptions{Client: base.Client()})
		if err != nil {
			t.Fatal(err)
		}
		out.virtual = time.Since(start)
		th, _ := CompareConfig(hc, Overrides{})
		changes, err := capacityChanges(f, f, "ab.json", "ab.json", th.Tolerance)
		if err != nil || len(changes) != 1 {
			t.Fatal(err)
		}
		c := changes[0]
		out.status, out.base, out.head = c.Status, c.Base.Result.Capacity, c.Head.Result.Capacity
		out.baseShown, out.headShown = c.Base.Result.Shown(), c.Head.Result.Shown()
		out.requests = c.Base.Result.Requests + c.Head.Result.Requests
	})
	return out
}

type capCondition struct {
	name                 string
	baseSlots, headSlots int
}

var capConditions = []capCondition{
	{"unchanged (8 and 8 slots)", 8, 8},
	{"one slot less (8 → 7: −12.5 %)", 8, 7},
	{"a quarter less (8 → 6: −25 %)", 8, 6},
}

// capSLOs are the calibration's SLOs: one the full batch holds with room
// (8 users: ttft p95 about 210 ms; a ninth waits), one at the full batch's
// own p95, where level 8 is as likely to hold as not, and one a user who
// waits for one answer (about 420 ms) still keeps, where the throughput
// that stops rising is what tells the servers apart (the README's case).
var capSLOs = []struct{ name, slo string }{
	{"ttft p95 ≤ 300 ms", "{ttft: {p95: 300ms}}"},
	{"ttft p95 ≤ 210 ms (at the edge)", "{ttft: {p95: 210ms}}"},
	{"ttft p95 ≤ 1000 ms (saturation decides)", "{ttft: {p95: 1000ms}}"},
}

// TestCalibrationCapacity measures the capacity regression of latgate ab
// (docs/statistics.md, "Capacity at an SLO"): how often unchanged servers
// are flagged, and how often a capacity loss is.
func TestCalibrationCapacity(t *testing.T) {
	study := func(s string) bool { return strings.Contains(","+*calStudy+",", ","+s+",") }
	if !*calibrate || !study("capacity") && !study("cost") {
		t.Skip("run with -calibrate -study capacity (make calibrate)")
	}
	start := time.Now()
	var b strings.Builder
	if !study("capacity") {
		costCalibration(t, &b)
		fmt.Fprintf(&b, "\n(-reps %d; %s on %d cores.)\n", *calReps, time.Since(start).Round(time.Second), runtime.NumCPU())
		fmt.Println(b.String())
		return
	}
	b.WriteString("| SLO | condition | regression | inconclusive | ok | improvement | base capacity (share) | head capacity (share) | shown to hold (base, head) | requests per A/B run (median) | virtual time (median) |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, slo := range capSLOs {
		for _, c := range capConditions {
			outs := capRuns(*calReps, func(i int) capOutcome {
				return capRun(t, uint64(i+1)*7919, c.baseSlots, c.headSlots, 60, slo.slo)
			})
			b.WriteString("| " + slo.name + " " + capRow(c.name, outs) + "\n")
		}
	}
	costStudy(t, &b)
	costCalibration(t, &b)
	fmt.Fprintf(&b, "\n(-reps %d; %s on %d cores.)\n", *calReps, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
}

// capRuns runs n A/B runs on every core.
func capRuns(n int, run func(i int) capOutcome) []capOutcome {
	outs := make([]capOutcome, n)
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range jobs {
				outs[i] = run(i)
			}
		})
	}
	for i := range outs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return outs
}

// capRow is a condition's row: the shares of each status, the capacities
// found, the median cost.
func capRow(name string, outs []capOutcome) string {
	n := float64(len(outs))
	share := func(st vocab.Status) string {
		k := 0
		for _, o := range outs {
			if o.status == st {
				k++
			}
		}
		return fmt.Sprintf("%.1f %%", 100*float64(k)/n)
	}
	dist := func(v func(capOutcome) float64) string {
		count := map[float64]int{}
		for _, o := range outs {
			k := v(o)
			if math.IsNaN(k) {
				k = -1 // none passed (a NaN key would be a new one each time)
			}
			count[k]++
		}
		var keys []float64
		for k := range count {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			label := fmt.Sprint(k)
			if k < 0 {
				label = "none"
			}
			parts = append(parts, fmt.Sprintf("%s: %.1f %%", label, 100*float64(count[k])/n))
		}
		return strings.Join(parts, ", ")
	}
	reqs, virt := make([]float64, len(outs)), make([]float64, len(outs))
	bs, hs := 0, 0
	for i, o := range outs {
		reqs[i], virt[i] = float64(o.requests), o.virtual.Seconds()
		bs, hs = bs+b2i(o.baseShown), hs+b2i(o.headShown)
	}
	slices.Sort(reqs)
	slices.Sort(virt)
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %.1f %%, %.1f %% | %.0f | %.0f s |", name, share(vocab.Regression), share(vocab.Inconclusive), share(vocab.OK), share(vocab.Improvement),
		dist(func(o capOutcome) float64 { return o.base }), dist(func(o capOutcome) float64 { return o.head }), 100*float64(bs)/n, 100*float64(hs)/n,
		reqs[len(reqs)/2], virt[len(virt)/2])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// searchOutcome is one capacity search of the cost study.
type searchOutcome struct {
	capacity         float64
	shown            bool
	requests, levels int
	virtual          time.Duration
}

// searchRun is one search of the noisy 8-slot engine at perLevel requests
// a level, on virtual time.
func searchRun(t *testing.T, seed uint64, perLevel int, slo string) searchOutcome {
	var out searchOutcome
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(noisyEngine(8), seed))
		cfg := capacitySuite(t, srv, fmt.Sprintf("{vary: concurrency, from: 1, to: 64, requests_per_level: %d, slo: %s}", perLevel, slo))
		start := time.Now()
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		out.virtual = time.Since(start)
		rec := f.Capacity[0]
		out.capacity, out.requests, out.levels = math.NaN(), rec.Requests, len(levelsOf(f))
		if rec.Capacity != nil {
			out.capacity = *rec.Capacity
			out.shown = rec.Lower != nil && *rec.Lower == *rec.Capacity
		}
	})
	return out
}

// trueCapacity is the highest level at which the noisy 8-slot engine's
// ttft p95, from 2,000 requests, is within budget ms.
func trueCapacity(t *testing.T, budget float64) int {
	best := 0
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(noisyEngine(8), 99))
		for c := 1; c <= 12; c++ {
			f := measureSuite(t, srv, fmt.Sprintf("endpoints:\n  - {name: e, base_url: %s/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, max_tokens: 16, requests: 2000, concurrency: %d}\nlimits: {max_requests: 5000}\n", srv.URL, c))
			if p95 := compare.Quantile(compare.Sorted(compare.SampleOf(&f.Runs[0]).Values[vocab.TTFT]), 0.95); p95 <= budget {
				best = c
			}
		}
	})
	return best
}

// costStudy is the search's cost on the noisy 8-slot engine for a range
// of requests per level, and how often it lands within one level of the
// true capacity.
func costStudy(t *testing.T, b *strings.Builder) {
	b.WriteString("\n| SLO | true capacity | requests per level | within one level | exact | shown to hold | none found | requests (median) | measurements (median) | virtual time (median) | latgate's CPU per search |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, slo := range []struct {
		name, yaml string
		ms         float64
	}{{"ttft p95 ≤ 300 ms", "{ttft: {p95: 300ms}}", 300}, {"ttft p95 ≤ 210 ms", "{ttft: {p95: 210ms}}", 210}} {
		truth := float64(trueCapacity(t, slo.ms))
		for _, n := range []int{40, 60, 80, 120, 240} {
			start := time.Now()
			outs := make([]searchOutcome, *calReps)
			capRuns(*calReps, func(i int) capOutcome {
				outs[i] = searchRun(t, uint64(i+1)*104729, n, slo.yaml)
				return capOutcome{}
			})
			cpu := time.Since(start) * time.Duration(runtime.GOMAXPROCS(0)) / time.Duration(*calReps)
			within, exact, shown, none := 0, 0, 0, 0
			var reqs, levels, virt []float64
			for _, o := range outs {
				if math.Abs(o.capacity-truth) <= 1 {
					within++
				}
				if o.capacity == truth {
					exact++
				}
				shown, none = shown+b2i(o.shown), none+b2i(math.IsNaN(o.capacity))
				reqs, levels, virt = append(reqs, float64(o.requests)), append(levels, float64(o.levels)), append(virt, o.virtual.Seconds())
			}
			pct := func(k int) string { return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(len(outs))) }
			fmt.Fprintf(b, "| %s | %g | %d | %s | %s | %s | %s | %.0f | %.0f | %.0f s | %s |\n", slo.name, truth, n, pct(within), pct(exact), pct(shown), pct(none),
				median(reqs), median(levels), median(virt), cpu.Round(time.Millisecond))
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

package compare

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	calibrate    = flag.Bool("calibrate", false, "run the calibration study (make calibrate)")
	calReps      = flag.Int("reps", 1000, "calibration: pairs of runs per cell")
	calSizes     = flag.String("sizes", "20,50,100,200,300", "calibration: requests per side")
	calOut       = flag.String("calibrate-out", "", "calibration: also write the Markdown table here")
	calPerms     = flag.Int("perms", 1000, "calibration: permutations per comparison")
	calCondition = flag.String("conditions", "", "calibration: only these conditions (comma-separated)")
	calScen      = flag.Int("scenarios", 2, "calibration: scenarios in the suite (1 or 2; the change applies to one)")
)

type condition struct {
	name   string
	change func(m *model)
}

var conditions = []condition{
	{"unchanged", func(*model) {}},
	{"all latency +10%", func(m *model) { m.scale = 1.10 }},
	{"all latency +20%", func(m *model) { m.scale = 1.20 }},
	{"all latency +30%", func(m *model) { m.scale = 1.30 }},
	{"TTFT only +30%", func(m *model) { m.ttftScale = 1.30 }},
	{"tail: spikes 5% → 10%", func(m *model) { m.spikeP = 0.10 }},
	{"tail: spikes 5% → 15%", func(m *model) { m.spikeP = 0.15 }},
}

// TestCalibration measures, for each condition and n, how often the whole
// suite (two scenarios, the change applied to one) fails, next to the naive
// rule "fail if the changed scenario's TTFT p95 rose by more than 10%".
func TestCalibration(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate (make calibrate)")
	}
	var sizes []int
	for _, s := range strings.Split(*calSizes, ",") {
		var n int
		fmt.Sscan(s, &n)
		sizes = append(sizes, n)
	}
	c := Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: *calPerms, Bootstrap: -1}
	var b strings.Builder
	fmt.Fprintf(&b, "| condition | n per side | latgate fails | naive TTFT p95 +10%% fails |\n|---|---:|---:|---:|\n")
	start := time.Now()
	for _, cond := range conditions {
		if *calCondition != "" && !strings.Contains(","+*calCondition+",", ","+cond.name+",") {
			continue
		}
		for _, n := range sizes {
			cur := realistic()
			cond.change(&cur)
			fails, naive := runCell(realistic(), cur, n, *calReps, c)
			line := fmt.Sprintf("| %s | %d | %.1f%% | %.1f%% |", cond.name, n, 100*fails, 100*naive)
			fmt.Fprintln(&b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(&b, "\n%d scenario(s) per suite, %d pairs per cell, %d permutations, alpha %.2f, tolerance 10%%, min_delta 25ms; %s on %d cores.\n",
		*calScen, *calReps, *calPerms, c.Alpha, time.Since(start).Round(time.Second), runtime.NumCPU())
	fmt.Println(b.String())
	if *calOut != "" {
		if err := os.WriteFile(*calOut, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runCell(base, cur model, n, reps int, c Config) (fails, naive float64) {
	var mu sync.Mutex
	var nf, nn int
	var wg sync.WaitGroup
	jobs := make(chan uint64)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range jobs {
				runs := pair(base, cur, n, seed+1000003*uint64(n))[:*calScen]
				r := Compare(runs, c)
				bq := Quantile(okValues(runs[0].Base, "ttft"), 0.95)
				cq := Quantile(okValues(runs[0].Current, "ttft"), 0.95)
				mu.Lock()
				if r.Verdict == "fail" {
					nf++
				}
				if cq > 1.10*bq {
					nn++
				}
				mu.Unlock()
			}
		}()
	}
	for s := range uint64(reps) {
		jobs <- s
	}
	close(jobs)
	wg.Wait()
	return float64(nf) / float64(reps), float64(nn) / float64(reps)
}

package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// What a run's scrapes said of its GPUs (a GPU exporter's page, NVIDIA
// dcgm-exporter's) and of its speculative decoding: descriptive rows in
// every format, base → head in an A/B report, never tested (they are run
// totals and gauges over the run, with no per-request sample to compare);
// a capacity level's GPU utilization in the level table, and the capacity
// row's GPU line.

// GPUBound is the utilization at which a GPU is said to be the limit: its
// median over a level's samples at or above it (DCGM_FI_DEV_GPU_UTIL, the
// share of time a kernel ran: at 90 % the GPU idles a tenth of the time at
// most).
const GPUBound = 90.0

// Units of the GPU rows' cells.
const (
	unitMiB = "MiB"
	unitW   = "W"
)

// unitCells write a value of a unit other than ms and % (cell).
var unitCells = map[string]func(float64) string{
	unitMiB: func(v float64) string { return grouped(int(math.Round(v))) },
	unitW:   func(v float64) string { return trimFloat(math.Round(v)) },
}

// oneValue reports whether a row of unit holds one value a side, in its
// p50 column, and no p95: a rate, or a gauge's median (GPU memory, power).
func oneValue(unit string) bool { return unit == "%" || unitCells[unit] != nil }

// busiestGPU is a run's GPU of the highest median utilization; false when
// its pages gave no GPU's utilization.
func busiestGPU(m *results.ServerMetrics) (results.MetricGPU, bool) {
	var best results.MetricGPU
	found := false
	if m == nil {
		return best, false
	}
	for _, g := range m.GPUs {
		if g.Util != nil && (!found || g.Util.Median > best.Util.Median) {
			best, found = g, true
		}
	}
	return best, found
}

// The gauges of a server that keeps no speculative-decoding counters
// (SGLang's), as the results file names them.
const (
	specRateGauge   = "spec_accept_rate"
	specLengthGauge = "spec_accept_length"
)

// isSpecGauge reports whether a gauge is one of them: a run's line says
// them once, as its acceptance.
func isSpecGauge(name string) bool { return name == specRateGauge || name == specLengthGauge }

// specOf is a run's speculative-decoding acceptance: the rate and mean
// length from the server's counters (counted true), else the medians of
// its gauges; ok false when its page had neither.
func specOf(m *results.ServerMetrics) (rate, length float64, counted, ok bool) {
	if m == nil {
		return math.NaN(), math.NaN(), false, false
	}
	if s := m.Spec; s != nil && s.DraftTokens > 0 {
		return s.Rate(), s.Length(), true, true
	}
	rate, length = math.NaN(), math.NaN()
	for _, g := range m.Gauges {
		switch g.Gauge {
		case specRateGauge:
			rate, ok = g.Median, true
		case specLengthGauge:
			length, ok = g.Median, true
		}
	}
	return rate, length, false, ok
}

// gpuRows are a scenario's rows of its runs' GPUs (the busiest GPU's
// median utilization, memory and power) and speculative decoding; none
// when no run's pages gave them.
func gpuRows(s Scenario) []Row {
	sides := []struct {
		name string
		m    *results.ServerMetrics
	}{{"baseline", nil}, {"current", nil}}
	if s.BaseRun != s.CurrentRun && s.BaseRun != nil {
		sides[0].m = s.BaseRun.ServerMetrics
	}
	if s.CurrentRun != nil {
		sides[1].m = s.CurrentRun.ServerMetrics
	}
	var out []Row
	util, mem, power := emptyRow(gpuUtilStage, "%", ""), emptyRow("GPU memory", unitMiB, ""), emptyRow("GPU power", unitW, "")
	anyGPU := false
	for i, side := range sides {
		g, ok := busiestGPU(side.m)
		if !ok {
			continue
		}
		anyGPU = true
		set := func(r *Row, st *results.GaugeStats, scale float64) {
			if st == nil {
				return
			}
			if i == 0 {
				r.BaseP50 = st.Median / scale
			} else {
				r.CurP50 = st.Median / scale
			}
		}
		set(&util, g.Util, 100)
		set(&mem, g.MemoryMiB, 1)
		set(&power, g.PowerW, 1)
		util.Notes = append(util.Notes, side.name+": "+gpuNote(side.m, g)+sharedNote(side.m))
	}
	if anyGPU {
		util.Notes = append(util.Notes, "DCGM_FI_DEV_GPU_UTIL is the share of time a kernel ran, not SM occupancy; the rows are the busiest GPU's medians over each run's samples: shown, not tested")
		out = append(out, util)
		for _, r := range []Row{mem, power} {
			if !math.IsNaN(r.BaseP50) || !math.IsNaN(r.CurP50) {
				out = append(out, r)
			}
		}
	}
	if r, ok := specRow(sides[0].m, sides[1].m); ok {
		out = append(out, r)
	}
	return out
}

// Stages of the rows whose notes say what the GPU and acceptance rows
// are (gpuNotes).
const (
	gpuUtilStage = "GPU util"
	specStage    = "Spec. acceptance"
)

// gpuNotes are the notes under a scenario's table in Markdown and HTML
// (the terminal says each row's notes under it): what its GPU rows and
// its acceptance row hold, each side's, and that they are shown, not
// tested.
func gpuNotes(s Scenario) []string {
	var out []string
	for _, row := range s.Rows {
		switch {
		case len(row.Notes) == 0 || row.Silent(): // a row left out says its notes there (leftOut)
		case row.Stage == gpuUtilStage:
			out = append(out, "GPU util, memory and power: "+strings.Join(row.Notes, "; ")+".")
		case row.Stage == specStage:
			out = append(out, row.Stage+": "+strings.Join(row.Notes, "; ")+".")
		}
	}
	return out
}

// sharedNote says that a run's pages held both variants' work (one
// server measured for both at once): its figures are not the variant's
// alone.
func sharedNote(m *results.ServerMetrics) string {
	if m != nil && m.Shared {
		return ", both variants' requests together"
	}
	return ""
}

// gpuNote says a run's GPUs: their count, the busiest and its figures.
func gpuNote(m *results.ServerMetrics, g results.MetricGPU) string {
	n := len(m.GPUs)
	s := fmt.Sprintf("%s, the busiest %s", plural(n, "GPU", "GPUs"), clean(g.GPU))
	if n == 1 {
		s = "1 GPU, " + clean(g.GPU)
	}
	if g.Model != "" {
		s += " (" + clean(g.Model) + ")"
	}
	var parts []string
	for _, x := range []struct {
		name, unit string
		st         *results.GaugeStats
	}{{"util", "%", g.Util}, {"memory", " MiB", g.MemoryMiB}, {"power", " W", g.PowerW}} {
		if x.st != nil {
			parts = append(parts, fmt.Sprintf("%s median %s%s, max %s%s", x.name, gaugeNum(x.st.Median), x.unit, gaugeNum(x.st.Max), x.unit))
		}
	}
	s += ": " + strings.Join(parts, "; ") + fmt.Sprintf(" over %d samples", g.Util.Samples)
	if m.GPUsLeftOut > 0 {
		s += fmt.Sprintf("; %s more left out (at most %d read)", plural(m.GPUsLeftOut, "GPU", "GPUs"), results.MaxGPUs)
	}
	return s
}

// gaugeNum writes a gauge's value: whole above 100, else to a tenth.
func gaugeNum(v float64) string {
	if math.Abs(v) >= 100 {
		return grouped(int(math.Round(v)))
	}
	return trimFloat(math.Round(10*v) / 10)
}

// specRow is the speculative-decoding acceptance rate of each side's run,
// with the counts or gauges it comes from.
func specRow(base, cur *results.ServerMetrics) (Row, bool) {
	row := emptyRow(specStage, "%", "")
	seen := false
	for i, m := range []*results.ServerMetrics{base, cur} {
		rate, length, counted, ok := specOf(m)
		if !ok {
			continue
		}
		seen = true
		if i == 0 {
			row.BaseP50 = rate
		} else {
			row.CurP50 = rate
		}
		name := [2]string{"baseline", "current"}[i]
		if counted {
			s := m.Spec
			n := fmt.Sprintf("%s: %s of %s draft tokens accepted", name, grouped(int(s.Accepted)), grouped(int(s.DraftTokens)))
			if s.Drafts > 0 {
				n += fmt.Sprintf(" in %s drafts, mean acceptance length %s (the bonus token counted)", grouped(int(math.Round(s.Drafts))), trimFloat(math.Round(100*length)/100))
			}
			row.Notes = append(row.Notes, n+" by the server's counters over the run"+sharedNote(m))
		} else {
			n := fmt.Sprintf("%s: the server's gauges of its last logged batch, median over the run", name)
			if !math.IsNaN(length) {
				n += fmt.Sprintf("; acceptance length median %s", trimFloat(math.Round(100*length)/100))
			}
			row.Notes = append(row.Notes, n+sharedNote(m))
		}
	}
	if !seen {
		return Row{}, false
	}
	row.Notes = append(row.Notes, "the server's own figures, of every request it served meanwhile (not only latgate's), with no per-request sample: shown, not tested")
	return row, true
}

// gpuParts are a run's GPU and speculative-decoding parts of
// ServerMetricsLine.
func gpuParts(m *results.ServerMetrics) []string {
	var parts []string
	if g, ok := busiestGPU(m); ok {
		parts = append(parts, gpuNote(m, g))
	}
	if rate, length, counted, ok := specOf(m); ok {
		p := "spec. acceptance " + cell(rate, "%")
		if !math.IsNaN(length) {
			p += ", length " + trimFloat(math.Round(100*length)/100)
		}
		if !counted {
			p += " (gauges of its last batch)"
		}
		parts = append(parts, p)
	}
	return parts
}

// levelGPU is a level's busiest GPU's median and max utilization, in
// percent; NaN without a GPU page.
func (l LevelPoint) levelGPU() (median, maxUtil float64) {
	if g, ok := busiestGPU(l.Server); ok {
		return g.Util.Median, g.Util.Max
	}
	return math.NaN(), math.NaN()
}

// hasGPU reports whether a level of either side had a GPU page.
func (c Capacity) hasGPU() bool {
	for _, s := range c.sides() {
		for _, l := range s.Levels {
			if m, _ := l.levelGPU(); !math.IsNaN(m) {
				return true
			}
		}
	}
	return false
}

// sides are c's searches, the base's first.
func (c Capacity) sides() []CapacitySide {
	if c.Base == nil {
		return []CapacitySide{c.Head}
	}
	return []CapacitySide{*c.Base, c.Head}
}

// heads are the headings of c's levels table: a GPU column when a level
// had a GPU page.
func (c Capacity) heads() []string {
	if !c.hasGPU() {
		return c.levelHeadsOf()
	}
	return append(slices.Clone(c.levelHeadsOf()), "GPU util")
}

// withGPU is a level's row with its GPU cell when the table has one: the
// busiest GPU's median utilization.
func (c Capacity) withGPU(row []string, l LevelPoint) []string {
	if !c.hasGPU() {
		return row
	}
	m, _ := l.levelGPU()
	if math.IsNaN(m) {
		return append(row, "–")
	}
	return append(row, gaugeNum(m)+"%")
}

// GPULine says whether a side's GPU was the limit: "GPU 97 % at 12 users:
// compute-bound" when its busiest GPU's median utilization reached
// GPUBound at a load below the lowest that failed; "the GPU may be the
// limit" when it reached it only at that load; else its
// utilization at the capacity (or the lowest level, without one) and "the
// limit is elsewhere", with what the engine's gauges point at there
// (requests waiting: the queue; a KV cache at least 90 % full); when no
// level failed, no limit was reached, and it says so; "" without a GPU
// page.
func (s CapacitySide) GPULine() string {
	levels := slices.Clone(s.Levels)
	slices.SortStableFunc(levels, func(a, b LevelPoint) int { return cmp.Compare(a.Load, b.Load) })
	var fail *LevelPoint // the lowest that failed
	for i, l := range levels {
		if l.Status == vocab.Fails {
			fail = &levels[i]
			break
		}
	}
	var at *LevelPoint
	for i, l := range levels {
		m, _ := l.levelGPU()
		if math.IsNaN(m) {
			continue
		}
		if m >= GPUBound && fail != nil && l.Load == fail.Load {
			// Busy only at the load that broke the SLO: nothing says
			// whether it was busy first.
			return fmt.Sprintf("GPU %s%% at %s, where the SLO broke%s: the GPU may be the limit", gaugeNum(m), s.load(l.Value), s.gpuAtCapacity(levels))
		}
		if m >= GPUBound && (fail == nil || l.Load < fail.Load) {
			return fmt.Sprintf("GPU %s%% at %s: compute-bound (its busiest GPU's median utilization reached %g%%%s)", gaugeNum(m), s.load(l.Value), GPUBound, s.boundWhen(l, fail))
		}
		if at == nil || l.Value == s.Result.Capacity {
			at = &levels[i]
		}
	}
	if at == nil {
		return ""
	}
	m, _ := at.levelGPU()
	where := "at capacity"
	if at.Value != s.Result.Capacity {
		where = "at " + s.load(at.Value)
	}
	if fail == nil {
		return fmt.Sprintf("GPU %s%% %s: no level broke the SLO, so no limit was reached", gaugeNum(m), where)
	}
	line := fmt.Sprintf("GPU %s%% %s: the limit is elsewhere", gaugeNum(m), where)
	var why []string
	for _, g := range at.Server.Gauges {
		switch {
		case g.Gauge == "waiting" && g.Median >= 1:
			why = append(why, fmt.Sprintf("queue (%s requests waiting, median)", gaugeNum(g.Median)))
		case g.Gauge == "kv_cache" && g.Max >= 0.9:
			why = append(why, fmt.Sprintf("KV cache (%s%% full at most)", gaugeNum(100*g.Max)))
		}
	}
	if len(why) > 0 {
		line += ": " + strings.Join(why, ", ")
	}
	return line
}

// boundWhen says where a level whose GPU reached GPUBound stands to the
// SLO: below the lowest load that failed it, at it, or with none failing.
func (s CapacitySide) boundWhen(l LevelPoint, fail *LevelPoint) string {
	switch {
	case fail == nil:
		return "; no level broke the SLO"
	}
	return " before the SLO broke at " + s.load(fail.Value)
}

// gpuAtCapacity is the busiest GPU's median at the capacity's level, for
// the GPU line: " (50% at capacity, 4 users)"; "" without one.
func (s CapacitySide) gpuAtCapacity(levels []LevelPoint) string {
	for _, l := range levels {
		if m, _ := l.levelGPU(); l.Value == s.Result.Capacity && !math.IsNaN(m) {
			return fmt.Sprintf(" (%s%% at capacity, %s)", gaugeNum(m), s.load(l.Value))
		}
	}
	return ""
}

// gpuDetails is c's GPU line under its row, each side's ("base: …")
// when there are two; "" without a GPU page.
func (c Capacity) gpuDetails() string {
	h := c.Head.GPULine()
	if c.Base == nil {
		return h
	}
	b := c.Base.GPULine()
	switch {
	case h == "" && b == "":
		return ""
	case h == "":
		h = "no GPU page"
	case b == "":
		b = "no GPU page"
	}
	return h + "; base " + b
}

// gpuUtil names the curve of the busiest GPU's utilization against the
// load (the HTML report's, beside the latency–load curves).
const gpuUtil vocab.Metric = "gpu_util"

// levelSpec is a level's acceptance rate (NaN without one).
func (l LevelPoint) levelSpec() float64 {
	rate, _, _, ok := specOf(l.Server)
	if !ok {
		return math.NaN()
	}
	return rate
}

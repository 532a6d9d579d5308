//go:build browser

package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestBrowserGPUCurve lays out in Chromium, at a phone's 390 px, a
// laptop's 900 px and a desktop's 1,280 px, the capacity case's HTML
// report, whose A/B search (8 slots, then 6, at $2.00 an hour) had each
// level scraped from a GPU exporter's page of 2 GPUs, the busiest at
// 100·min(users, slots) ÷ slots % (median; its max 3 points above, at
// most 100): gpuCurve, gpuCharts and gpuColumn at each width.
func TestBrowserGPUCurve(t *testing.T) {
	bin := chromium(t)
	i := slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })
	rep := buildCase(t, suiteCases[i])
	c := rep.Capacity[0]
	if !c.hasGPU() || c.Cost == nil || c.Base == nil {
		t.Fatalf("the fixture's A/B search %s has no GPU page, no price or no base", c.Name())
	}
	// The fixture's servers, by the side as the curves and the levels
	// table name it.
	servers := map[string]slotServer{"base": {slots: 8}, "cur": {slots: 6}, "head": {slots: 6}}
	levels := len(c.Base.Levels) + len(c.Head.Levels)
	path, _ := reportPage(t, t.TempDir(), rep, "gpu")
	widths := []int{390, 900, 1280}
	rs := loadWidths(t, bin, path, widths)
	for _, w := range widths {
		at := fmt.Sprintf("at %d px", w)
		gpuCurve(t, rs[w], servers, levels, at)
		gpuCharts(t, rs[w], w)
		gpuColumn(t, rs[w], servers, levels, at)
	}
}

// gpuCurve: the page has one GPU-utilization curve, with a median and a
// max point for every level of both sides, each at the fixture's value
// for its side and load; its points lie on one linear scale, a higher
// utilization higher, all inside the chart.
func gpuCurve(t *testing.T, r probeResult, servers map[string]slotServer, levels int, at string) {
	t.Helper()
	var curves []int
	for k, cv := range r.Curves {
		if cv.Metric == string(gpuUtil) {
			curves = append(curves, k)
		}
	}
	if len(curves) != 1 {
		t.Fatalf("%s: %d GPU-utilization curves, want 1", at, len(curves))
	}
	cv := r.Curves[curves[0]]
	if len(cv.Points) != 2*levels || cv.Outside > 0 {
		t.Errorf("%s: the GPU curve has %d points (%d outside its chart), want a median and a max for each of %d levels", at, len(cv.Points), cv.Outside, levels)
	}
	seen := map[string]bool{}
	for _, p := range cv.Points {
		sv, ok := servers[p.Side]
		median := sv.gpuUtil(p.Load)
		want := map[string]float64{"median": median, "max": math.Min(median+3, 100)}[p.Stat]
		key := fmt.Sprintf("%s %s %g", p.Side, p.Stat, p.Load)
		if !ok || math.Abs(p.V-want) > 1e-9 || seen[key] || p.W <= 0 || p.Cut {
			t.Errorf("%s: GPU point %s is %v (drawn %.1f px wide, cut %v), want %v once", at, key, p.V, p.W, p.Cut, want)
		}
		seen[key] = true
	}
	// One scale: y = y0 + k·v for every point, k < 0 (up the page).
	lo, hi := -1, -1
	for i, p := range cv.Points {
		if p.V < 20 && lo < 0 {
			lo = i
		}
		if p.V == 100 && hi < 0 {
			hi = i
		}
	}
	if lo < 0 || hi < 0 {
		t.Fatalf("%s: no GPU point below 20%% or at 100%%", at)
	}
	a, b := cv.Points[lo], cv.Points[hi]
	k := (b.Y - a.Y) / (b.V - a.V)
	if !(k < 0) {
		t.Fatalf("%s: 100%% drawn at y %.1f, %v%% at %.1f", at, b.Y, a.V, a.Y)
	}
	for _, p := range cv.Points {
		if y := a.Y + k*(p.V-a.V); math.Abs(p.Y-y) > 0.75 {
			t.Errorf("%s: GPU point %s %s at %g users (%v%%) at y %.1f, its scale puts it at %.1f", at, p.Side, p.Stat, p.Load, p.V, p.Y, y)
		}
	}
}

// gpuCharts: the GPU-utilization chart and the cost–load chart are in
// the window, neither scrolls nor draws outside itself, they do not
// overlap, and at 1,280 px they stand side by side on one row.
func gpuCharts(t *testing.T, r probeResult, width int) {
	t.Helper()
	type chartBox = struct {
		Title                       string
		Left, Right, Scroll, Client float64
		Top, Bottom                 float64
		Marks                       int
		Outside                     []string
	}
	find := func(prefix string) *chartBox {
		for i, c := range r.Charts {
			if strings.HasPrefix(c.Title, prefix) {
				return &r.Charts[i]
			}
		}
		t.Fatalf("at %d px: no chart %q… on the page", width, prefix)
		return nil
	}
	gpu, cost := find("GPU utilization against the load"), find("Cost per 1M output tokens")
	for _, c := range []*chartBox{gpu, cost} {
		if c.Left < -0.5 || c.Right > r.Width+0.5 || c.Scroll > c.Client+1 || c.Marks == 0 || len(c.Outside) > 0 || c.Bottom <= c.Top {
			t.Errorf("at %d px: the chart %q at %.0f–%.0f px scrolls %.0f in %.0f px; %d of its %d marks reach beyond it: %q",
				width, c.Title, c.Left, c.Right, c.Scroll, c.Client, len(c.Outside), c.Marks, c.Outside)
		}
	}
	g := box{Left: gpu.Left, Right: gpu.Right, Top: gpu.Top, Bottom: gpu.Bottom}
	if g.overlaps(box{Left: cost.Left, Right: cost.Right, Top: cost.Top, Bottom: cost.Bottom}) {
		t.Errorf("at %d px: the GPU chart (%.0f–%.0f, %.0f–%.0f) and the cost chart (%.0f–%.0f, %.0f–%.0f) overlap",
			width, gpu.Left, gpu.Right, gpu.Top, gpu.Bottom, cost.Left, cost.Right, cost.Top, cost.Bottom)
	}
	if width == 1280 && (math.Abs(gpu.Top-cost.Top) > 1 || gpu.Right > cost.Left) {
		t.Errorf("at 1280 px: the cost chart (top %.0f, left %.0f) is not beside the GPU chart (top %.0f, right %.0f)", cost.Top, cost.Left, gpu.Top, gpu.Right)
	}
}

// gpuColumn: the A/B search's levels table has a GPU util cell in each
// of its rows, the fixture's busiest GPU's median for the row's side and
// load, laid out inside its table's visible box; no other table has one.
func gpuColumn(t *testing.T, r probeResult, servers map[string]slotServer, levels int, at string) {
	t.Helper()
	var side, load string
	rows := 0
	for _, c := range r.Cells {
		switch c.Label {
		case "side":
			side = strings.TrimSpace(c.Text)
		case "load":
			load = strings.TrimSpace(c.Text)
		case "GPU util":
			rows++
			users, err := strconv.ParseFloat(load, 64)
			sv, ok := servers[side]
			if want := gaugeNum(sv.gpuUtil(users)) + "%"; err != nil || !ok || strings.TrimSpace(c.Text) != want {
				t.Errorf("%s: the levels table's GPU util of %s at %s users is %q, want %q", at, side, load, c.Text, want)
			}
			if c.Width <= 0 || c.Left < -0.5 || c.Right > math.Min(r.Width, c.Shown)+1 {
				t.Errorf("%s: the GPU util cell of %s at %s users is at %.0f–%.0f px, its table shown to %.0f", at, side, load, c.Left, c.Right, c.Shown)
			}
		}
	}
	if rows != levels {
		t.Errorf("%s: %d GPU util cells in the levels tables, want one for each of the A/B search's %d levels", at, rows, levels)
	}
}

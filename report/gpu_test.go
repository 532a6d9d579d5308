package report

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// gpuMetrics is a run's server metrics of two GPUs, the busiest at util
// median, and the engine's gauges.
func gpuMetrics(util, waiting, kv float64) *results.ServerMetrics {
	return &results.ServerMetrics{Scrapes: 10, GPUs: []results.MetricGPU{
		{GPU: "GPU-0", Model: "NVIDIA H100 80GB HBM3", Util: &results.GaugeStats{Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 9, Median: util, Max: math.Min(100, util+2)},
			MemoryMiB: &results.GaugeStats{Family: "DCGM_FI_DEV_FB_USED", Samples: 9, Median: 73560, Max: 74000},
			PowerW:    &results.GaugeStats{Family: "DCGM_FI_DEV_POWER_USAGE", Samples: 9, Median: 612.4, Max: 690}},
		{GPU: "GPU-1", Util: &results.GaugeStats{Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 9, Median: util / 2, Max: util / 2}},
	}, Gauges: []results.MetricGauge{{Gauge: "waiting", Family: "vllm:num_requests_waiting", Samples: 9, Median: waiting, Max: waiting},
		{Gauge: "kv_cache", Family: "vllm:kv_cache_usage_perc", Samples: 9, Median: kv, Max: kv}}}
}

// gpuSide is a search of users 1, 2, 4, 8, 16 whose levels' busiest GPU
// is at utils, holding up to capacity and failing above it.
func gpuSide(capacityAt float64, utils []float64, waiting, kv float64) CapacitySide {
	s := CapacitySide{Result: capacity.Result{Capacity: capacityAt, Spec: capacity.Spec{Vary: vocab.VaryConcurrency}}}
	for i, u := range utils {
		v := math.Pow(2, float64(i))
		l := LevelPoint{Load: v, Step: i + 1, TTFT: stage("TTFT", nil), ITL: stage("ITL", nil)}
		l.Value, l.Status = v, vocab.Holds
		if v > capacityAt {
			l.Status = vocab.Fails
		}
		if !math.IsNaN(u) {
			l.Server = gpuMetrics(u, waiting, kv)
		}
		s.Levels = append(s.Levels, l)
	}
	return s
}

// TestGPULine: the capacity row says the GPU was the limit when its
// busiest GPU's median reached 90 % at a load below the lowest that
// failed, that it may be when only at that load; else its utilization at the capacity and what the
// engine's gauges point at; nothing without a GPU page.
func TestGPULine(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	for _, c := range []struct {
		name string
		side CapacitySide
		want string
	}{
		{"compute-bound", gpuSide(8, []float64{12, 25, 50, 97, 99}, 0, 0.5), "GPU 97% at 8 users: compute-bound (its busiest GPU's median utilization reached 90% before the SLO broke at 16 users)"},
		{"saturated where the SLO broke", gpuSide(4, []float64{12, 25, 50, 97, 99}, 0, 0.5), "GPU 97% at 8 users, where the SLO broke (50% at capacity, 4 users): the GPU may be the limit"},
		{"saturated only above the failure", gpuSide(4, []float64{12, 25, 41, 60, 95}, 3, 0.95), "GPU 41% at capacity: the limit is elsewhere: queue (3 requests waiting, median), KV cache (95% full at most)"},
		{"elsewhere, the gauges quiet", gpuSide(4, []float64{12, 25, 41, 60, 70}, 0, 0.2), "GPU 41% at capacity: the limit is elsewhere"},
		{"no GPU page", gpuSide(4, []float64{nan, nan, nan, nan, nan}, 0, 0), ""},
		// No level failed: the SLO never broke, and no limit was found.
		{"saturated, every level within the SLO", gpuSide(16, []float64{12, 25, 50, 97, 99}, 0, 0.5), "GPU 97% at 8 users: compute-bound (its busiest GPU's median utilization reached 90%; no level broke the SLO)"},
		{"idle, every level within the SLO", gpuSide(16, []float64{12, 25, 41, 60, 70}, 3, 0.95), "GPU 70% at capacity: no level broke the SLO, so no limit was reached"},
	} {
		if got := c.side.GPULine(); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestGPURowsAndLevels: a scenario's GPU and speculative-decoding rows,
// base → head, in the terminal, Markdown, JSON and HTML; the levels
// table's GPU column and the HTML report's GPU curve.
func TestGPURowsAndLevels(t *testing.T) {
	t.Parallel()
	base, head := gpuMetrics(41, 0, 0.2), gpuMetrics(97, 0, 0.2)
	head.Spec = &results.MetricSpec{DraftTokensFamily: "vllm:spec_decode_num_draft_tokens_total", AcceptedFamily: "vllm:spec_decode_num_accepted_tokens_total",
		DraftsFamily: "vllm:spec_decode_num_drafts_total", Drafts: 300, DraftTokens: 900, Accepted: 630}
	base.Gauges = append(base.Gauges, results.MetricGauge{Gauge: "spec_accept_rate", Family: "sglang:spec_accept_rate", Samples: 9, Median: 0.5, Max: 0.6})
	rows := gpuRows(Scenario{BaseRun: &results.Run{ServerMetrics: base}, CurrentRun: &results.Run{ServerMetrics: head}})
	got := map[string]Row{}
	for _, r := range rows {
		got[r.Stage] = r
	}
	if u := got["GPU util"]; u.BaseP50 != 0.41 || u.CurP50 != 0.97 || u.Status != "" || !strings.Contains(strings.Join(u.Notes, "\n"), "current: 2 GPUs, the busiest GPU-0 (NVIDIA H100 80GB HBM3): util median 97%, max 99%; memory median 73,560 MiB, max 74,000 MiB; power median 612 W, max 690 W over 9 samples") {
		t.Errorf("util row %+v", u)
	}
	if m := got["GPU memory"]; cell(m.CurP50, m.Unit) != "73,560" || cell(got["GPU power"].CurP50, unitW) != "612" {
		t.Errorf("memory %+v, power %+v", m, got["GPU power"])
	}
	s := got["Spec. acceptance"]
	notes := strings.Join(s.Notes, "\n")
	if s.BaseP50 != 0.5 || s.CurP50 != 0.7 || !strings.Contains(notes, "current: 630 of 900 draft tokens accepted in 300 drafts, mean acceptance length 3.1") ||
		!strings.Contains(notes, "baseline: the server's gauges of its last logged batch") || !strings.Contains(notes, "not tested") {
		t.Errorf("spec row %+v", s)
	}

	c := Capacity{Endpoint: "e", Scenario: "s", Status: vocab.NoBaseline, SameSLO: true, DeltaPct: math.NaN(), Head: gpuSide(8, []float64{12, 25, 50, 97, 99}, 0, 0.5)}
	if h := c.heads(); h[len(h)-1] != "GPU util" || c.levelRows()[3][len(h)-1] != "97%" {
		t.Errorf("heads %v, rows %v", h, c.levelRows())
	}
	r := &Report{Capacity: []Capacity{c}}
	var html strings.Builder
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if h := html.String(); !strings.Contains(h, `data-metric="gpu_util"`) || strings.Count(h, `data-stat="median"`) != 5 || !strings.Contains(h, "GPU 97% at 8 users: compute-bound") {
		t.Errorf("HTML: no GPU curve of 5 levels or GPU line")
	}
	noGPU := Capacity{Head: gpuSide(8, []float64{math.NaN(), math.NaN()}, 0, 0)}
	if len(noGPU.heads()) != len(levelHeads) || len(noGPU.details()) != 4 {
		t.Errorf("without a GPU page: heads %v, details %v", noGPU.heads(), noGPU.details())
	}
}

// TestGPUNamesEscaped: a GPU's identity and model come from a server's
// page: an idle GPU's row (0 % on both sides) is left out, and its note
// then says them in the list under the details table, where a Markdown
// link, image or HTML tag of theirs must reach the comment escaped.
func TestGPUNamesEscaped(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, uint64(len(suiteCases[0].name))))
	br, cr := suiteCases[0].runs(rng)
	idle := func() *results.ServerMetrics {
		return &results.ServerMetrics{Scrapes: 5, GPUs: []results.MetricGPU{{GPU: "[click](https://evil.example/x)", Model: "<img src=https://evil.example/p.png> @org/team",
			Util: &results.GaugeStats{Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 5, Median: 0, Max: 0}}}}
	}
	br[0].ServerMetrics, cr[0].ServerMetrics = idle(), idle()
	pairs := results.Match(&results.File{Runs: br}, &results.File{Runs: cr})
	th := thresholds()
	rep := Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
	out := Markdown(rep, MarkdownOptions{})
	if !strings.Contains(out, "GPU util") {
		t.Fatalf("no GPU util row or note in the Markdown")
	}
	if strings.Contains(out, "GPU util, memory and power") {
		t.Error("the idle GPU's notes are said again under the table, beside the rows left out")
	}
	for _, bad := range []string{"[click](", "<img", "@org/team"} {
		if strings.Contains(out, bad) {
			t.Errorf("the Markdown holds a server's %q unescaped", bad)
		}
	}
}

// TestServerMetricsLineSpecOnce: latgate run's server-metrics line says
// an SGLang run's speculative-decoding gauges once, as its acceptance
// (said to be its batches' gauges), not again among the gauges; its other
// gauges stay.
func TestServerMetricsLineSpecOnce(t *testing.T) {
	t.Parallel()
	m := &results.ServerMetrics{Scrapes: 5, Gauges: []results.MetricGauge{
		{Gauge: "waiting", Family: "sglang:num_queue_reqs", Samples: 4, Median: 1, Max: 2},
		{Gauge: "spec_accept_rate", Family: "sglang:spec_accept_rate", Samples: 4, Median: 0.62, Max: 0.7},
		{Gauge: "spec_accept_length", Family: "sglang:spec_accept_length", Samples: 4, Median: 2.9, Max: 3.1}}}
	line := ServerMetricsLine(&results.Run{Endpoint: "sglang", Scenario: "chat", ServerMetrics: m})
	want := "server metrics, chat @ sglang (the server's own histograms, quantiles from their buckets, ms): waiting median 1, max 2; spec. acceptance 62%, length 2.9 (gauges of its last batch)"
	if line != want {
		t.Errorf("server-metrics line\n%s\nwant\n%s", line, want)
	}
}

// TestGPUNotesInEveryFormat: an A/B scenario with a GPU exporter's and
// vLLM's pages on both sides shows its GPU and acceptance rows base →
// head, and under them, in Markdown and HTML as in the terminal, what
// they are (each side's busiest GPU, the draft counts) and that they are
// shown, not tested; a figure from a page both variants shared says so;
// a gauge-only rate is not called a count; a gauge's row has no p95 cell.
func TestGPUNotesInEveryFormat(t *testing.T) {
	t.Parallel()
	base, head := gpuPage(2, 41, 300, 0.7), gpuPage(2, 97, 320, 0.55)
	base.Shared = true
	s := Scenario{Endpoint: "e", Scenario: "s", BaseRun: &results.Run{ServerMetrics: base}, CurrentRun: &results.Run{ServerMetrics: head}}
	s.Rows = gpuRows(s)
	notes := strings.Join(gpuNotes(s), "\n")
	for _, w := range []string{
		"GPU util, memory and power: baseline: 2 GPUs, the busiest GPU-0005eed0 (NVIDIA H100 80GB HBM3): util median 41%, max 44%",
		"over 10 samples, both variants' requests together; current: 2 GPUs",
		"the rows are the busiest GPU's medians over each run's samples: shown, not tested.",
		"Spec. acceptance: baseline: 840 of 1,200 draft tokens accepted in 300 drafts, mean acceptance length 3.8 (the bonus token counted) by the server's counters over the run, both variants' requests together; current: 704 of 1,280",
		"the server's own figures, of every request it served meanwhile (not only latgate's), with no per-request sample: shown, not tested.",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("the GPU notes do not say %q:\n%s", w, notes)
		}
	}
	// The capacity case's A/B scenario, each side's pages its own.
	rep := buildCase(t, suiteCases[slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })])
	md := Markdown(rep, MarkdownOptions{})
	for _, w := range []string{"| GPU util | 41% → 97% | | |", "| GPU memory (MiB) | 42,600 → 76,200 | | |", "| Spec. acceptance | 70% → 55% | | |",
		"- GPU util, memory and power&#58; baseline&#58; 2 GPUs", "shown, not tested.\n- Spec. acceptance&#58; baseline&#58; 840 of 1,200"} {
		if !strings.Contains(md, w) {
			t.Errorf("the Markdown comment does not hold %q", w)
		}
	}
	if strings.Contains(md, "both variants' requests together") {
		t.Error("the Markdown comment says pages of their own were shared")
	}
	var html strings.Builder
	if err := HTML(&html, rep); err != nil {
		t.Fatal(err)
	}
	if h := html.String(); !strings.Contains(h, "<p class=\"sub\">GPU util, memory and power: baseline: 2 GPUs") || !strings.Contains(h, "<p class=\"sub\">Spec. acceptance: baseline: 840 of 1,200") {
		t.Errorf("the HTML report does not say what its GPU rows are")
	}

	// SGLang's gauges on both sides: not the server's counts.
	g := func(rate float64) *results.ServerMetrics {
		return &results.ServerMetrics{Gauges: []results.MetricGauge{{Gauge: "spec_accept_rate", Family: "sglang:spec_accept_rate", Samples: 3, Median: rate, Max: rate}}}
	}
	row, ok := specRow(g(0.5), g(0.6))
	if n := strings.Join(row.Notes, "; "); !ok || strings.Contains(n, "counters") || strings.Contains(n, "totals") || !strings.Contains(n, "gauges of its last logged batch") {
		t.Errorf("gauge-only acceptance notes: %q", n)
	}
}

// gpuVerdictSearch is what TestGPUVerdictSchema reads of a verdict's
// search.
type gpuVerdictSearch struct {
	GPU  string
	Cost *struct {
		PerHour float64 `json:"per_hour"`
	}
	Levels []struct {
		Load           float64
		GPUUtilPct     *float64 `json:"gpu_util_pct"`
		SpecAcceptRate *float64 `json:"spec_accept_rate"`
	}
}

// TestGPUVerdictSchema: the verdict JSON of the capacity case, whose A/B
// search has a price and each level a GPU page and vLLM's draft counters,
// holds each side's gpu line, each level's gpu_util_pct (the fixture's
// busiest GPU's median) and spec_accept_rate, and the cost; it conforms
// to docs/schema/verdict.schema.json, which declares each of those keys
// and refuses a utilization over 100 % and a rate over 1.
func TestGPUVerdictSchema(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })])
	var js bytes.Buffer
	if err := JSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Capacity []struct {
			Cost       *struct{ Status string }
			Head, Base gpuVerdictSearch
		}
	}
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	c := v.Capacity[0]
	for _, side := range []struct {
		name  string
		slots int
		s     gpuVerdictSearch
	}{{"base", 8, c.Base}, {"head", 6, c.Head}} {
		if !strings.Contains(side.s.GPU, "compute-bound") || side.s.Cost == nil || side.s.Cost.PerHour != 2 || len(side.s.Levels) == 0 {
			t.Errorf("%s: gpu %q, cost %+v, %d levels", side.name, side.s.GPU, side.s.Cost, len(side.s.Levels))
		}
		for _, l := range side.s.Levels {
			want := math.Round(1000*slotServer{slots: side.slots}.gpuUtil(l.Load)) / 1000
			if l.GPUUtilPct == nil || *l.GPUUtilPct != want || l.SpecAcceptRate == nil || *l.SpecAcceptRate != 0.75 {
				t.Errorf("%s at %g users: gpu_util_pct %v (want %v), spec_accept_rate %v (want 0.75)", side.name, l.Load, l.GPUUtilPct, want, l.SpecAcceptRate)
			}
		}
	}
	if c.Cost == nil {
		t.Error("the A/B search's verdict has no cost")
	}
	verdictSchemaHolds(t, js.Bytes())
}

// verdictSchemaHolds: a verdict with GPU data conforms to the verdict
// schema, which declares every key its first search's head and level
// write (it allows others) and refuses GPU figures no page gives.
func verdictSchemaHolds(t *testing.T, js []byte) {
	t.Helper()
	path := filepath.Join("..", "docs", "schema", "verdict.schema.json")
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.AssertFormat()
	sch, err := comp.Compile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Errorf("the verdict with GPU data and a cost does not conform to its schema: %v", err)
	}
	var defs struct {
		Defs map[string]struct {
			Properties map[string]any
		} `json:"$defs"`
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &defs) != nil {
		t.Fatalf("reading the verdict schema: %v", err)
	}
	head := doc.(map[string]any)["capacity"].([]any)[0].(map[string]any)["head"].(map[string]any)
	level := head["levels"].([]any)[0].(map[string]any)
	for def, obj := range map[string]map[string]any{"search": head, "level": level} {
		for k := range obj {
			if _, ok := defs.Defs[def].Properties[k]; !ok {
				t.Errorf("the verdict schema's %s does not declare %q", def, k)
			}
		}
	}
	for key, bad := range map[string]any{"gpu_util_pct": 101.0, "spec_accept_rate": 1.5} {
		old := level[key]
		level[key] = bad
		if sch.Validate(doc) == nil {
			t.Errorf("the verdict schema accepts a level's %s of %v", key, bad)
		}
		level[key] = old
	}
}

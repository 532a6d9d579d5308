package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// traceStrata are the fixture's strata of input length.
var traceStrata = []int{312, 1024, 3900, 31000}

// traceRun is a run of n requests drawn from a trace: input lengths from
// 40 to 31,000 tokens, its TTFT growing with them (slow× in the last
// stratum), its prompts off the trace's lengths by tokenErr (a fraction),
// a prefix cache that served cached of each prompt, and the server's
// counters when queries > 0.
func traceRun(rng *rand.Rand, n int, slow, tokenErr, cached, queries float64) results.Run {
	r := results.Run{Endpoint: "vllm", Scenario: "prod-mix", Model: "m", Fingerprint: "sha256:1", Config: results.RunConfig{Concurrency: 8},
		Workload: &results.Workload{Trace: "chat.jsonl", Format: "mooncake", Lines: 1000000, Sample: n, Seed: "3f2a9c0d1e2f3a4b", Timing: "replay",
			Speedup: 20, BlockTokens: 512, Strata: traceStrata, Tokens: results.TokenModel{PerWord: 1.3, Overhead: 7, Source: "prompt_tokens"}}}
	for i := range n {
		in := int(40 * math.Pow(31000.0/40, rng.Float64()))
		k := 1
		for k < len(traceStrata) && in > traceStrata[k-1] {
			k++
		}
		ttft := 80 + 0.05*float64(in)*math.Exp(0.2*rng.NormFloat64())
		if k == len(traceStrata) {
			ttft *= slow
		}
		lag, at := 0.5+2*rng.Float64(), float64(i)*50
		prompt := int(math.Round(float64(in) * (1 + tokenErr*(0.5+rng.Float64()))))
		r.Requests = append(r.Requests, results.Request{OK: true, Status: 200, Reused: true, TTFBMs: f64(ttft / 2), FirstEventMs: f64(ttft / 2), TTFTMs: f64(ttft),
			TTFCMs: f64(ttft), TotalMs: f64(ttft + 300), PerceivedMs: f64(ttft), TPOTMs: f64(10), MaxStallMs: f64(12), ITLMs: []float64{10, 10},
			OutputTokens: 32, PromptTokens: prompt, CachedTokens: int(cached * float64(prompt)), TokensSource: "usage",
			SentMs: at, LagMs: &lag, Trace: &results.TraceRef{Line: i + 1, Input: in, Output: 32, Stratum: k, ScheduledMs: &at}})
	}
	if queries > 0 {
		r.ServerMetrics = &results.ServerMetrics{Scrapes: 3, PrefixCache: &results.MetricCache{QueriesFamily: "vllm:prefix_cache_queries_total",
			HitsFamily: "vllm:prefix_cache_hits_total", Queries: queries, Hits: queries * cached}}
	}
	return r
}

// traceResult is a hand-built comparison of the trace's runs: TTFT of
// every request within the tolerance, and per stratum the p50, the last
// stratum's +38% a regression.
func traceResult() compare.Result {
	chk := func(stratum int, stat vocab.Stat, base, cur float64, st vocab.Status) compare.Check {
		d := 100 * (cur/base - 1)
		return compare.Check{Endpoint: "vllm", Scenario: "prod-mix", Metric: vocab.TTFT, Stat: stat, Stratum: stratum, Baseline: base, Current: cur,
			CurrentCI: [2]float64{math.NaN(), math.NaN()}, DeltaPct: d, CIPct: [2]float64{d - 4, d + 4}, CIPoints: [2]float64{math.NaN(), math.NaN()},
			PValue: 0.01, Budget: math.NaN(), NBase: 400, NCurrent: 400, Status: st, Bounded: st == vocab.WithinTolerance,
			Regressed: st == vocab.Regression, MinDelta: 25}
	}
	return compare.Result{Verdict: vocab.Fail, Tested: 6, Checks: []compare.Check{
		chk(0, vocab.P50, 300, 309, vocab.WithinTolerance),
		chk(0, vocab.P95, 1200, 1236, vocab.WithinTolerance),
		chk(1, vocab.P50, 90, 91, vocab.WithinTolerance),
		chk(2, vocab.P50, 110, 112, vocab.WithinTolerance),
		chk(3, vocab.P50, 180, 183, vocab.WithinTolerance),
		chk(4, vocab.P50, 700, 966, vocab.Regression),
		{Endpoint: "vllm", Scenario: "prod-mix", Metric: vocab.Errors, Stat: "rate", Baseline: 0, Current: 0, CurrentCI: [2]float64{math.NaN(), math.NaN()},
			DeltaPct: math.NaN(), CIPct: [2]float64{math.NaN(), math.NaN()}, CIPoints: [2]float64{-0.009, 0.009}, PValue: 1, Budget: math.NaN(),
			NBase: 400, NCurrent: 400, Status: vocab.WithinTolerance, Bounded: true},
	}}
}

// buildTrace is the report of a trace's runs: the head 38% slower in the
// last stratum, its prompts 12% longer than the trace's.
func buildTrace(t *testing.T) *Report {
	t.Helper()
	rng := rand.New(rand.NewPCG(40, 41))
	base := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{traceRun(rng, 400, 1, 0.01, 0.3, 0)}}
	cur := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{traceRun(rng, 400, 1.38, 0.12, 0.5, 120000)}}
	for _, f := range []*results.File{base, cur} {
		if err := f.Runs[0].Workload.Check(); err != nil {
			t.Fatal(err)
		}
	}
	th := compare.Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, FailOn: []vocab.Status{vocab.Regression, vocab.OverBudget}}
	return Build(results.Match(base, cur), traceResult(), th)
}

func TestGoldenTrace(t *testing.T) {
	t.Parallel()
	r := buildTrace(t)
	var txt, js bytes.Buffer
	Text(&txt, r, false)
	golden(t, "report-trace.txt", txt.Bytes())
	golden(t, "comment-trace.md", []byte(Markdown(r, MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->", MaxLen: 65536})))
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "verdict-trace.json", js.Bytes())
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	sch, err := c.Compile(filepath.Join("..", "docs", "schema", "verdict.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the verdict does not conform to its schema: %v", err)
	}
}

// TestStratumChecksKeptApart: a check of one stratum has a row of its
// own, is named with its stratum wherever it is said (headline, badges,
// summary column, JSON, BMF), and never merges with the same metric and
// statistic of every request.
func TestStratumChecksKeptApart(t *testing.T) {
	t.Parallel()
	r := buildTrace(t)
	s := r.Scenarios[0]
	ttft := s.row("TTFT")
	if ttft == nil || len(ttft.Checks) != 2 || ttft.Status != vocab.WithinTolerance || Millis(ttft.CurP50) != "309" {
		t.Fatalf("the TTFT row of every request: %+v", ttft)
	}
	var stages []string
	for _, row := range s.Rows {
		if row.Stratum != 0 {
			stages = append(stages, row.Stage)
		}
	}
	want := []string{"TTFT · input ≤ 312", "TTFT · input 313–1,024", "TTFT · input 1,025–3,900", "TTFT · input 3,901–31,000"}
	if fmt.Sprint(stages) != fmt.Sprint(want) {
		t.Errorf("stratum rows %q, want %q", stages, want)
	}
	if last := s.row(want[3]); last == nil || last.Status != vocab.Regression || Millis(last.CurP50) != "966" {
		t.Errorf("the last stratum's row %+v", last)
	}
	if !strings.HasPrefix(r.Headline, "fail: TTFT p50 in input 3,901–31,000 tokens +38% (700 → 966 ms), a regression; 1 regression in 1 scenario") {
		t.Errorf("headline %q", r.Headline)
	}
	if b := s.Badges(); len(b) == 0 || !strings.Contains(b[0].Plain(), "TTFT · input 3,901–31,000") {
		t.Errorf("badges %+v", b)
	}
	md := Markdown(r, MarkdownOptions{MaxLen: 65536})
	if !strings.Contains(md, "TTFT p50 · input 3,901–31,000") {
		t.Errorf("no summary column of the failing stratum:\n%s", md)
	}
	var js bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var v struct{ Checks []jsonCheck }
	if err := json.Unmarshal(js.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if c := v.Checks[5]; c.Stratum != 4 || c.InputTokens == nil || *c.InputTokens != [2]int{3901, 31000} || v.Checks[0].Stratum != 0 || v.Checks[0].InputTokens != nil {
		t.Errorf("JSON checks %+v / %+v", v.Checks[0], v.Checks[5])
	}
	var bmf bytes.Buffer
	if err := BMF(&bmf, r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"ttft-p50"`, `"ttft-p50-stratum-4"`} {
		if !strings.Contains(bmf.String(), k) {
			t.Errorf("BMF lacks %s: %s", k, bmf.String())
		}
	}
}

// TestWorkloadWords: the workload line, the token count's error of each
// side (a note only where its p95 passes 5%, longer or shorter as the
// data are), and the prefix cache from usage and from the server.
func TestWorkloadWords(t *testing.T) {
	t.Parallel()
	s := buildTrace(t).Scenarios[0]
	line := s.WorkloadLine()
	if !strings.HasPrefix(line, "Workload: 400 of 1,000,000 entries of chat.jsonl (mooncake), stratified by input length into 4 strata (≤ 312, 313–1,024, 1,025–3,900, 3,901–31,000 tokens), seed 3f2a9c0d…; replay at 20× the trace's times (lag p95 ") {
		t.Errorf("workload line %q", line)
	}
	tl := strings.Join(s.TokenLines(), "\n")
	if strings.Contains(tl, "baseline run's prompts") || !strings.Contains(tl, "The current run's prompts were longer than the trace's by a median of +12%") ||
		!strings.Contains(tl, "token model 1.3 tokens a word + 7, source prompt_tokens") {
		t.Errorf("token lines:\n%s", tl)
	}
	usage, server := s.row("Cache (usage)"), s.row("Cache (server)")
	if usage == nil || math.Abs(usage.BaseP50-0.3) > 0.01 || math.Abs(usage.CurP50-0.5) > 0.01 {
		t.Errorf("cache from usage %+v", usage)
	}
	if server == nil || !math.IsNaN(server.BaseP50) || server.CurP50 != 0.5 || !strings.Contains(strings.Join(server.Notes, ""), "60,000 of 120,000 prompt tokens") {
		t.Errorf("cache from the server %+v", server)
	}
	s.CurrentRun.Workload.Timing = "concurrency"
	if l := s.WorkloadLine(); !strings.HasSuffix(l, "; at concurrency 8") {
		t.Errorf("closed loop: %q", l)
	}
}

// TestTracePointsBounded: a run of many requests keeps at most
// MaxTracePoints points, spread over the run, the same on every digest;
// each stratum's median is of all its requests; the scatter draws them.
func TestTracePointsBounded(t *testing.T) {
	t.Parallel()
	run := traceRun(rand.New(rand.NewPCG(1, 2)), 10000, 1, 0, 0.2, 0)
	d := DigestOf(&run)
	tr := d.Trace
	if n := len(tr.Points); n > MaxTracePoints || n < MaxTracePoints/2 || tr.PointsOf != 10000 || tr.PointsEvery != 8 {
		t.Fatalf("%d points of %d, every %d", n, tr.PointsOf, tr.PointsEvery)
	}
	if last := tr.Points[len(tr.Points)-1]; last.Input != run.Requests[(len(tr.Points)-1)*8].Trace.Input {
		t.Errorf("the points are not every 8th request")
	}
	if again := DigestOf(&run).Trace; fmt.Sprint(again.Points) != fmt.Sprint(tr.Points) {
		t.Error("two digests of one run keep other points")
	}
	var last []float64
	for _, q := range run.Requests {
		if q.Trace.Stratum == 4 {
			last = append(last, *q.TTFTMs)
		}
	}
	if want := compare.Quantile(compare.Sorted(last), 0.5); tr.StratumTTFT[3] != want {
		t.Errorf("stratum 4's median %v, want %v of all its %d requests", tr.StratumTTFT[3], want, len(last))
	}
	r := buildTrace(t)
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	if !strings.Contains(h, "TTFT (ms) against the trace&#39;s input length (tokens, log scale)") || strings.Count(h, "class=\"cur median\"") != 1 ||
		strings.Count(h, "<circle class=\"dcur\" cx=") < 300 || !strings.Contains(h, "Workload: 400 of 1,000,000 entries") {
		t.Errorf("no scatter of TTFT against input length in the HTML report")
	}
}

// TestServerCacheFamilyNotInjected: a results file's prefix-cache family
// (printable text, which validation lets through) reaches the comment's
// "Left out" note, which is not escaped, only as a metric name: a link or
// a tag there is said as "a family of another name".
func TestServerCacheFamilyNotInjected(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	base := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{traceRun(rng, 50, 1, 0.01, 0, 0)}}
	cur := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{traceRun(rng, 50, 1, 0.01, 0, 1000)}}
	evil := `<img src=x onerror=alert(1)>[click](https://evil.example)`
	cur.Runs[0].ServerMetrics.PrefixCache.HitsFamily = evil
	if err := cur.Runs[0].ServerMetrics.Check(); err != nil {
		t.Fatal(err)
	}
	th := compare.Config{Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, FailOn: []vocab.Status{vocab.Regression}}
	r := Build(results.Match(base, cur), traceResult(), th)
	m := Markdown(r, MarkdownOptions{Marker: "<!-- x -->", MaxLen: 65536})
	if !strings.Contains(m, "a family of another name") {
		t.Error("the comment does not say the family was not a metric name")
	}
	if strings.Contains(m, "<img") || strings.Contains(m, "](https://evil") {
		i := strings.Index(m, "img")
		t.Errorf("the comment carries the family raw: %q", m[max(0, i-200):min(len(m), i+100)])
	}
}

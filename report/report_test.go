package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/goldenfile"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func f64(v float64) *float64 { return &v }

// fixtureRun makes a deterministic run: TTFT log-normal around ttft
// seconds, a pace of itl seconds per token, failRate failures.
func fixtureRun(rng *rand.Rand, endpoint, scenario string, n int, ttft, itl, failRate float64, cached, reasoning bool) results.Run {
	r := results.Run{Scenario: scenario, Endpoint: endpoint, Model: "gpt-test", Fingerprint: "sha256:1",
		FingerprintParts: map[string]string{"max_tokens": "64", "model": "gpt-test"}, ConfigLine: 7}
	for i := range n {
		if rng.Float64() < failRate {
			msg, kind := "HTTP 429 Too Many Requests: slow down", vocab.HTTPStatus
			if i%2 == 0 {
				msg, kind = "stalled: no data for 15s (stall_timeout) after 3 output events", vocab.Stall
			}
			r.Requests = append(r.Requests, results.Request{Error: msg, Failure: kind, Status: 429, ITLMs: []float64{}})
			continue
		}
		t := 1000 * ttft * math.Exp(0.3*rng.NormFloat64())
		gaps := make([]float64, 31)
		sum := 0.0
		for j := range gaps {
			gaps[j] = 1000 * itl * math.Exp(0.2*rng.NormFloat64())
			sum += gaps[j]
		}
		q := results.Request{OK: true, Status: 200, Reused: i > 0, TTFBMs: f64(t / 3), FirstEventMs: f64(t / 3),
			TTFTMs: f64(t), TTFCMs: f64(t), TotalMs: f64(t + sum), PerceivedMs: f64(t), TPOTMs: f64(sum / 31),
			MaxStallMs: f64(gaps[0]), ITLMs: gaps, OutputTokens: 32, PromptTokens: 100, TokensSource: "usage"}
		if i == 0 {
			q.ConnectMs, q.DNSMs = 0.4, 0.1
		}
		if cached {
			q.CachedTokens = 80
		}
		if reasoning {
			q.TTFCMs = f64(t + 150)
		}
		r.Requests = append(r.Requests, q)
	}
	return r
}

func fixture() (*results.File, *results.File) {
	rng := rand.New(rand.NewPCG(11, 12))
	hostile := "chat <b>@team</b> | x"
	base := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		fixtureRun(rng, "us-east", "chat-short", 50, 0.40, 0.010, 0.02, true, false),
		fixtureRun(rng, "us-east", hostile, 50, 0.30, 0.010, 0, false, false),
		fixtureRun(rng, "eu-west", "chat-short", 50, 0.45, 0.010, 0, false, false),
		fixtureRun(rng, "us-east", "reasoning", 50, 0.30, 0.008, 0, false, true),
		fixtureRun(rng, "us-east", "retired", 50, 0.30, 0.008, 0, false, false),
	}}
	cur := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		fixtureRun(rng, "us-east", "chat-short", 50, 0.60, 0.010, 0.02, true, false), // TTFT regression
		fixtureRun(rng, "us-east", hostile, 50, 0.30, 0.010, 0, false, false),
		fixtureRun(rng, "eu-west", "chat-short", 50, 0.45, 0.010, 0.20, false, false), // errors
		fixtureRun(rng, "us-east", "reasoning", 50, 0.30, 0.008, 0, false, true),
		fixtureRun(rng, "us-east", "brand-new", 20, 0.30, 0.008, 0, false, false),
	}}
	cur.Runs[3].Fingerprint = "sha256:2"
	cur.Runs[3].FingerprintParts = map[string]string{"max_tokens": "128", "model": "gpt-test"}
	return base, cur
}

func build(t *testing.T) *Report {
	t.Helper()
	base, cur := fixture()
	pairs := results.Match(base, cur)
	th := compare.Config{
		Tolerance: 0.10, MinDelta: 25, Alpha: 0.05, Permutations: 500, Bootstrap: 200,
		FailOn:  []vocab.Status{vocab.Regression, vocab.OverBudget},
		Budgets: []compare.Budget{{Metric: "ttft", Stat: "p95", Value: 700}},
	}
	return Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestGoldenText(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	Text(&b, build(t), false)
	golden(t, "report.txt", b.Bytes())
}

func TestGoldenMarkdown(t *testing.T) {
	t.Parallel()
	golden(t, "report.md", []byte(Markdown(build(t), MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->"})))
}

func TestGoldenJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JSON(&b, build(t)); err != nil {
		t.Fatal(err)
	}
	golden(t, "verdict.json", b.Bytes())
	var v struct {
		Schema  string
		Verdict string
		Checks  []map[string]any
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Schema != "latgate/verdict/v1" || v.Verdict != "fail" || len(v.Checks) == 0 {
		t.Errorf("schema %q verdict %q checks %d", v.Schema, v.Verdict, len(v.Checks))
	}
	for _, key := range []string{"endpoint", "scenario", "metric", "stat", "baseline", "current", "delta_pct", "ci_pct", "p_value", "budget", "n_baseline", "n_current", "status"} {
		if _, ok := v.Checks[0][key]; !ok {
			t.Errorf("check lacks documented key %q", key)
		}
	}
}

// TestGoldenCapacity: the capacity searches in the terminal and in
// latgate/verdict/v1.
func TestGoldenCapacity(t *testing.T) {
	t.Parallel()
	i := slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })
	rep := buildCase(t, suiteCases[i])
	var b bytes.Buffer
	Text(&b, rep, false)
	golden(t, "report-capacity.txt", b.Bytes())
	b.Reset()
	if err := JSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "verdict-capacity.json", b.Bytes())
	var v struct {
		Capacity []struct {
			Status     string
			DeltaPct   *float64 `json:"delta_pct"`
			Head, Base *struct {
				Capacity  *float64
				Shown     bool
				Lower     *float64
				Complete  bool
				LimitedBy string `json:"limited_by"`
				Levels    []map[string]any
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil || len(v.Capacity) != 4 {
		t.Fatalf("%v: %d searches", err, len(v.Capacity))
	}
	ab, rate, cut, est := v.Capacity[0], v.Capacity[1], v.Capacity[2], v.Capacity[3]
	switch {
	case ab.Status != "regression" || *ab.DeltaPct != -25 || *ab.Head.Capacity != 6 || *ab.Base.Capacity != 8 || len(ab.Head.Levels) != 7:
		t.Errorf("the A/B search: %+v", ab)
	case rate.Base != nil || rate.Head.LimitedBy != "saturated" || rate.Status != "no_baseline":
		t.Errorf("the rate search: %+v", rate)
	case cut.Head.Complete || cut.Head.Capacity != nil || cut.DeltaPct != nil || cut.Base.LimitedBy != "errors":
		t.Errorf("the cut search reads as a pass: %+v", cut)
	case !ab.Head.Shown || *ab.Head.Lower != 6:
		t.Errorf("the A/B search's head is not shown to hold 6: %+v", ab.Head)
	case est.Head.Capacity == nil || *est.Head.Capacity != 8 || est.Head.Shown || est.Status != "ok" || est.Head.Levels[0]["status"] != "undecided" || est.Head.Levels[0]["meets"] != true:
		t.Errorf("the search within its SLO on its estimates: %+v", est)
	}
	if !strings.Contains(b.String(), `"text": "8 users at TTFT p95 ≤ 800 ms on its estimates, not shown with confidence (at most 8); base 8 on its estimates (at most 8): +0.0%"`) {
		t.Error("the verdict's row of the search within its SLO on its estimates does not say so")
	}
}

// A users axis of the latency–load curves has whole-user ticks whatever
// its top (no "0.5" or "2.5 users"), and still reaches past it.
func TestWholeTicks(t *testing.T) {
	t.Parallel()
	for users := 1; users <= 200; users++ {
		hi := float64(users) * 1.05
		got := wholeTicks(hi)
		ts := ticks(0, got, 5)
		if got < hi || len(ts) < 2 {
			t.Fatalf("%d users: axis to %v, ticks %v", users, got, ts)
		}
		for _, v := range ts {
			if v != math.Trunc(v) {
				t.Fatalf("%d users: axis to %v, ticks %v", users, got, ts)
			}
		}
	}
}

func TestReportContent(t *testing.T) {
	t.Parallel()
	r := build(t)
	if r.Verdict != "fail" {
		t.Fatalf("verdict %s, want fail", r.Verdict)
	}
	if !strings.HasPrefix(r.Headline, "fail: chat-short @ us-east TTFT") {
		t.Errorf("headline %q does not name the failing TTFT first", r.Headline)
	}
	md := Markdown(r, MarkdownOptions{})
	for _, bad := range []string{"<b>@team", "@team", "</b> | x"} {
		if strings.Contains(md, bad) {
			t.Errorf("markdown contains unescaped %q", bad)
		}
	}
	for _, want := range []string{"chat &lt;b&gt;&#64;team&lt;/b&gt; &#124; x", "Endpoints ranked by TTFT p95", "max&#95;tokens 64 → 128", "<details open>", "Cache", "TTFC (visible)", "removed since the baseline", "Removed since the baseline: retired &#64; us-east"} {
		if !strings.Contains(md+textOf(r), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func textOf(r *Report) string {
	var b bytes.Buffer
	Text(&b, r, false)
	return b.String()
}

func TestMarkdownTrimmedToLimit(t *testing.T) {
	t.Parallel()
	r := build(t)
	full := Markdown(r, MarkdownOptions{})
	limit := len(full) - 500
	got := Markdown(r, MarkdownOptions{MaxLen: limit, SummaryURL: "https://example.test/summary"})
	if len(got) > limit {
		t.Fatalf("len %d > limit %d", len(got), limit)
	}
	if !strings.Contains(got, "left out to fit GitHub's comment size limit of 65,536 characters: see [the job summary](https://example.test/summary)") {
		t.Errorf("trimmed report does not point to the job summary:\n%s", got)
	}
	// The failing scenario's details survive trimming.
	if !strings.Contains(got, "<details open><summary><b>chat-short</b> @ us-east") {
		t.Error("the regression's details were trimmed before the passing ones")
	}
	if tiny := Markdown(r, MarkdownOptions{MaxLen: 1500}); len(tiny) > 1500 {
		t.Errorf("len %d > 1500", len(tiny))
	}
}

// TestNotTestedIsNeverOK: a scenario too small for any latency test, whose
// latency rose by half, is reported as not tested — in the headline, its
// status and its rows — with its values shown, never as a pass of any
// check.
func TestNotTestedIsNeverOK(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCase{"tiny", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "tiny", 8, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "tiny", 8, 0.45, 0.010, 0, false, false))
		return
	}})
	if !strings.Contains(rep.Headline, "pass: no change could be tested at 8 requests per side (TTFT p50 needs about 10)") || strings.Contains(rep.Headline, "within") {
		t.Errorf("headline %q", rep.Headline)
	}
	one := buildCase(t, suiteCase{"one", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "one", 1, 0.30, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "one", 1, 0.30, 0.010, 0, false, false))
		return
	}})
	if !strings.Contains(one.Headline, "at 1 request per side (") {
		t.Errorf("headline of one request a side: %q", one.Headline)
	}
	md := Markdown(rep, MarkdownOptions{Marker: "<!-- m -->"})
	if !regexp.MustCompile(`\| tiny @ us-east \| \d+\x{a0}→\x{a0}\d+\x{a0}— \| \d+\x{a0}→\x{a0}\d+\x{a0}— \| .* \| — not tested \|`).MatchString(md) {
		t.Errorf("summary row does not show the values and \"not tested\":\n%s", md)
	}
	var b bytes.Buffer
	Text(&b, rep, false)
	if !strings.Contains(b.String(), "tiny @ us-east (gpt-test): not tested") || !regexp.MustCompile(`(?m)^  TTFT .* not tested$`).MatchString(b.String()) || strings.Contains(b.String(), "— Not tested") {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestImprovementIsNeverInconclusive: a change for the better that is not
// significant (a third faster at 40 requests: some of its tests do not
// reach significance) is never inconclusive, which a reader would take for
// a change for the worse.
func TestImprovementIsNeverInconclusive(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCase{"faster", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "faster", 40, 0.60, 0.010, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "faster", 40, 0.40, 0.010, 0, false, false))
		return
	}})
	found := false
	for _, c := range rep.Result.Checks {
		if c.Status == vocab.Inconclusive && c.Current < c.Baseline {
			t.Errorf("%s %s %+.0f%%: inconclusive", c.Metric, c.Stat, c.DeltaPct)
		}
		found = found || !math.IsNaN(c.PValue) && c.DeltaPct < -10 && c.PValue > 0.05
	}
	if !found {
		t.Fatal("the case has no improvement beyond the tolerance that is not significant: it no longer tests anything")
	}
	var b bytes.Buffer
	Text(&b, rep, false)
	if regexp.MustCompile(`(?m)inconclusive$|: .*inconclusive`).MatchString(strings.Split(b.String(), "Intervals [")[0]) {
		t.Errorf("an improvement shown as inconclusive:\n%s", b.String())
	}
}

// TestHTMLSaysTheCost: the HTML report carries the cost line the text and
// the comment have.
func TestHTMLSaysTheCost(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[0])
	rep.Costs = []Cost{{Endpoint: "us-east", Scenario: "chat-short", USD: 0.0000075}}
	var b bytes.Buffer
	if err := HTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Cost of this run: $0.0000075 at the suite&#39;s pricing") {
		t.Errorf("no cost line in the HTML report")
	}
}

// TestBufferedHeadIsNotFaster: when the current run's streams arrived
// buffered (all events at once: gaps near 0), its inter-token "speed-up"
// is not flagged as faster; the buffering warning says what happened.
func TestBufferedHeadIsNotFaster(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCase{"buffered", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "buffered", 60, 0.30, 0.010, 0, false, false))
		// A proxy holds the stream: the first token comes with the last.
		cur := fixtureRun(rng, "us-east", "buffered", 60, 0.30, 0.010, 0, false, false)
		for i := range cur.Requests {
			q := &cur.Requests[i]
			q.Buffered = true
			q.TTFTMs, q.TTFCMs, q.PerceivedMs, q.TPOTMs = q.TotalMs, q.TotalMs, q.TotalMs, f64(0.001)
			for j := range q.ITLMs {
				q.ITLMs[j] = 0.001
			}
		}
		c = append(c, cur)
		return
	}})
	improved := false
	for _, c := range rep.Result.Checks {
		improved = improved || c.Metric == "itl" && c.Status == vocab.Improvement
	}
	if !improved {
		t.Fatal("the case has no inter-token improvement: it no longer tests anything")
	}
	for _, f := range rep.Scenarios[0].Badges() {
		if f.Status == vocab.Improvement {
			t.Errorf("flag %q on a buffered head", f.String())
		}
	}
	// A buffered head whose inter-token got slower (a page's paints far
	// apart) keeps its regression in the badges, as the headline names it.
	rep = buildCase(t, suiteCase{"buffered-slow", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "buffered-slow", 60, 0.30, 0.010, 0, false, false))
		cur := fixtureRun(rng, "us-east", "buffered-slow", 60, 0.30, 0.010, 0, false, false)
		for i := range cur.Requests {
			q := &cur.Requests[i]
			q.Buffered = true
			for j := range q.ITLMs {
				q.ITLMs[j] *= 8
			}
		}
		c = append(c, cur)
		return
	}})
	badges := fmt.Sprint(rep.Scenarios[0].Badges())
	regressed := false
	for _, c := range rep.Result.Checks {
		regressed = regressed || c.Metric == "itl" && c.Status == vocab.Regression
	}
	if !regressed || !strings.Contains(badges, "inter-token") {
		t.Errorf("a buffered head's slower inter-token (regression %v): badges %s", regressed, badges)
	}
}

// TestMeasurementsKeepTheConfigOrder: the run table groups endpoints in the
// order the results file has them (the config's), not by name.
func TestMeasurementsKeepTheConfigOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{
		fixtureRun(rng, "zeta", "a", 5, 0.3, 0.01, 0, false, false),
		fixtureRun(rng, "alpha", "a", 5, 0.3, 0.01, 0, false, false),
		fixtureRun(rng, "zeta", "b", 5, 0.3, 0.01, 0, false, false),
	}}
	var b bytes.Buffer
	Measurements(&b, f)
	var order []string
	for _, line := range strings.Split(b.String(), "\n")[1:] { // after the header
		if fs := strings.Fields(line); len(fs) > 1 && fs[0] != "endpoint" {
			order = append(order, fs[0]+"/"+fs[1])
		}
	}
	if got, want := strings.Join(order, " "), "zeta/a zeta/b alpha/a"; !strings.HasPrefix(got, want) {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestDigestHoldsTheRunsSample: a digest's sample is SampleOf's, kept
// apart from the Digester (which is reset), and its counts are the run's.
func TestDigestHoldsTheRunsSample(t *testing.T) {
	t.Parallel()
	r := fixtureRun(rand.New(rand.NewPCG(3, 4)), "e", "s", 200, 0.3, 0.01, 0.1, true, false)
	r.Variant = vocab.Head
	for i := range r.Requests {
		r.Requests[i].Block = 1 + i/20
		r.Requests[i].Buffered = i%2 == 0
	}
	var d Digester
	for i := range r.Requests {
		d.Add(&r.Requests[i])
	}
	got := d.Digest(&r)
	d.Add(&r.Requests[0]) // a reused Digester does not touch the digest
	if g, w := fmt.Sprintf("%+v", *got.Sample), fmt.Sprintf("%+v", *compare.SampleOf(&r)); g != w || len(got.Sample.Block) != 200 {
		t.Errorf("sample\n%s\nwant\n%s", g, w)
	}
	b := got.Breakdown
	if b.N != 200 || b.OK != r.OKCount() || b.FirstError == "" || b.Buffered == 0 || !b.BufferedMostly() {
		t.Errorf("breakdown: %d requests, %d ok (want %d), first error %q, %d buffered", b.N, b.OK, r.OKCount(), b.FirstError, b.Buffered)
	}
}

// TestMeasurementsErrorsColumn: the errors column is words, aligned left
// under its header, so a long error does not push the header away.
func TestMeasurementsErrorsColumn(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	r := fixtureRun(rng, "e", "a", 5, 0.3, 0.01, 0, false, false)
	r.Requests[0].OK, r.Requests[0].Error = false, "sending request: dial tcp 127.0.0.1:1: connect: connection refused"
	var b bytes.Buffer
	Measurements(&b, &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{r}})
	lines := strings.Split(b.String(), "\n")
	header, row := lines[1], lines[2]
	if i, j := strings.Index(header, "errors"), strings.Index(row, "1 ("); i < 0 || i != j {
		t.Errorf("errors header at %d, its cell at %d:\n%s\n%s", i, j, header, row)
	}
}

// TestMeasurementsServerMetrics: latgate run says what the server's own
// histograms held over a run, their quantiles said to come from the
// buckets, a quantile above the top bucket as at least its bound.
func TestMeasurementsServerMetrics(t *testing.T) {
	t.Parallel()
	r := fixtureRun(rand.New(rand.NewPCG(1, 2)), "vllm", "chat", 5, 0.3, 0.01, 0, false, false)
	r.ServerMetrics = &results.ServerMetrics{Scrapes: 4, Stages: []results.MetricStage{
		{Stage: "queue", Family: "vllm:request_queue_time_seconds", Count: 5, MeanMs: f64(140), Quantiles: []results.MetricQuantile{
			{Q: 0.5, Ms: f64(150), LowerMs: f64(0), UpperMs: f64(300)}, {Q: 0.95, Ms: f64(285), LowerMs: f64(0), UpperMs: f64(300)}}},
		{Stage: "ttft", Family: "vllm:time_to_first_token_seconds", Count: 5, MeanMs: f64(9000), Quantiles: []results.MetricQuantile{
			{Q: 0.5, Ms: f64(7500), LowerMs: f64(5000), UpperMs: f64(7500)}, {Q: 0.95, Ms: f64(2560000), LowerMs: f64(2560000), AboveTop: true}}}},
		Gauges: []results.MetricGauge{{Gauge: "waiting", Family: "vllm:num_requests_waiting", Samples: 3, Median: 1, Max: 2.5}}}
	var b bytes.Buffer
	Measurements(&b, &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{r}})
	want := "server metrics, chat @ vllm (the server's own histograms, quantiles from their buckets, ms): queue 5 observed, p50 150, p95 285 (bucket 0.0–300); ttft 5 observed, p50 7500, p95 over 2560.0s (the top bucket); waiting median 1, max 2.5\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got\n%s\nwant the line\n%s", b.String(), want)
	}
}

// TestWithinMinDeltaSaysSo: a fast statistic whose interval reaches
// beyond the tolerance in percent but stays within min_delta in
// milliseconds is within tolerance by min_delta: the headline names that
// bound and the most its interval allows, never "within 10%".
func TestWithinMinDeltaSaysSo(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCase{"fast", func(rng *rand.Rand) (b, c []results.Run) {
		b = append(b, fixtureRun(rng, "us-east", "fast", 40, 0.02, 0.001, 0, false, false))
		c = append(c, fixtureRun(rng, "us-east", "fast", 40, 0.02, 0.001, 0, false, false))
		return
	}})
	var bounded *compare.Check
	for i, c := range rep.Result.Checks {
		if c.Status == vocab.WithinTolerance && !c.Metric.IsRate() && c.CIPct[1] > 10 {
			bounded = &rep.Result.Checks[i]
		}
	}
	if bounded == nil {
		t.Fatalf("no check within tolerance by min_delta alone: the case no longer tests anything (headline %q)", rep.Headline)
	}
	if !regexp.MustCompile(`^pass: .* within 25 ms \([-+][0-9.]+% \[[-+][0-9.]+%, \+[0-9.]+%\], at most \+[0-9.]+ ms\)`).MatchString(rep.Headline) {
		t.Errorf("headline %q: want the min_delta bound and the most the interval allows", rep.Headline)
	} else {
		t.Log(rep.Headline)
	}
}

// TestServerMetricsLineNamesTheLevel: each level of a capacity search is
// a run with its own server metrics, and its line names the level's load
// as the table's row does. Without it, `latgate run` of a 9-level search
// printed nine lines all headed "server metrics, chat-capacity @ local",
// GPU 13% to 100% with no level to tell them apart.
func TestServerMetricsLineNamesTheLevel(t *testing.T) {
	t.Parallel()
	run := func(level results.Level, shards int, variant vocab.Side) *results.Run {
		r := fixtureRun(rand.New(rand.NewPCG(1, 2)), "local", "chat-capacity", 5, 0.3, 0.01, 0, false, false)
		r.Level, r.Shards, r.Variant = &level, shards, variant
		r.ServerMetrics = &results.ServerMetrics{Scrapes: 3, Gauges: []results.MetricGauge{{Gauge: "waiting", Family: "vllm:num_requests_waiting", Samples: 3, Median: 1, Max: 2}}}
		return &r
	}
	for _, tt := range []struct {
		r    *results.Run
		want string
	}{
		{run(results.Level{Vary: vocab.VaryConcurrency, Value: 8, Step: 5}, 0, ""), "server metrics, chat-capacity @ local at 8 users ("},
		{run(results.Level{Vary: vocab.VaryConcurrency, Value: 1, Step: 1}, 0, vocab.Head), "server metrics, chat-capacity @ local (head) at 1 user ("},
		{run(results.Level{Vary: vocab.VaryRate, Value: 2.5, Step: 2, Round: 2}, 0, ""), "server metrics, chat-capacity @ local at 2.5 requests/s (measurement 2) ("},
		{run(results.Level{Vary: vocab.VaryConcurrency, Value: 4, Step: 3}, 4, ""), "server metrics, chat-capacity @ local at 16 users (4 legs) ("},
	} {
		if got := ServerMetricsLine(tt.r); !strings.HasPrefix(got, tt.want) {
			t.Errorf("got %q, want it to start %q", got, tt.want)
		}
	}
}

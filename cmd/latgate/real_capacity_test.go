package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// realAnswerTokens is the length of every answer of the real engine's
// capacity search: long enough that a user waiting for a slot waits for
// a whole answer (about 180 ms at one user on the shared 2-core machine),
// far beyond a first token's own time (about 7 ms).
const realAnswerTokens = 64

// TestRealEngineCapacity searches the capacity of a real Ollama serving
// the tiny model, once with OLLAMA_NUM_PARALLEL=4 (the base) and once with
// OLLAMA_NUM_PARALLEL=1 (the head), in one latgate ab: base and head
// searched level by level, alternating, on the same machine
// (scripts/e2e-real/capacity.sh starts both servers, one runner thread
// each; make e2e-real). One slot serves one user at a time: a second
// user's first token waits for the first user's whole answer, where four
// slots answer four users at once. The SLO is set from the machine's own
// speed, measured first (the machine is shared and its speed varies by a
// factor of several): TTFT p50 within half an answer's time at one user.
// The search starts at 2 users: on one CPU thread a batch of two adds no
// throughput over one user (seen at load average 6: 3.64 requests/s at 1
// user on four slots, 2.95 at 2), which the search calls saturation; from
// 2 users the comparison rests on the slots' own effect on the wait for a
// first token (seen at 2 users: TTFT p50 24 ms on four slots, 268 on one),
// and four users add throughput again (4.06 requests/s). The head cannot
// hold 2 users; the base holds 2 or more: a capacity regression.
func TestRealEngineCapacity(t *testing.T) {
	p1, p4 := os.Getenv("LATGATE_OLLAMA_P1_URL"), os.Getenv("LATGATE_OLLAMA_P4_URL")
	if p1 == "" || p4 == "" {
		t.Skip("needs two Ollama servers, OLLAMA_NUM_PARALLEL=1 and 4: make e2e-real")
	}
	dir := t.TempDir()
	t.Logf("load average before: %s", loadAvg())
	answer, ttft := realServiceTime(t, p1, dir)
	slo := math.Round(answer/2/10) * 10
	t.Logf("one user on NUM_PARALLEL=1: TTFT p50 %.0f ms, an answer of %d tokens %.0f ms: the SLO is TTFT p50 ≤ %.0f ms", ttft, realAnswerTokens, answer, slo)
	if ttft > answer/4 {
		t.Fatalf("the machine cannot show the slots: a first token (p50 %.0f ms) is more than a quarter of an answer (%.0f ms), "+
			"so a second user's wait for a slot is not told from the first token's own time; load average %s", ttft, answer, loadAvg())
	}
	cfg := filepath.Join(dir, "capacity.yaml")
	yaml := fmt.Sprintf(`endpoints:
  - {name: ollama, base_url: %s, model: tiny}
scenarios:
  - name: chat-capacity
    prompt: "Tell me a story about a fox."
    max_tokens: %d
    capacity: {vary: concurrency, from: 2, to: 8, requests_per_level: 40, slo: {ttft: {p50: %gms}}}
limits: {timeout: 60s, stall_timeout: 30s, max_requests: 1000}
`, p4, realAnswerTokens, slo)
	r, f := realAB(t, cfg, yaml, p1)
	t.Logf("latgate ab, base NUM_PARALLEL=4, head NUM_PARALLEL=1 (load average after: %s):\n%s\n%s", loadAvg(), r.stdout, r.stderr)
	sides := map[vocab.Side]capacity.Result{}
	for _, rec := range f.Capacity {
		res := realReplay(t, f, rec)
		sides[rec.Variant] = res
		t.Logf("NUM_PARALLEL=%s: %s", map[vocab.Side]string{vocab.Base: "4", vocab.Head: "1"}[rec.Variant], report.SearchText(res, rec.StopReason))
	}
	base, head := sides[vocab.Base], sides[vocab.Head]
	if r.code != 1 || !strings.Contains(r.stdout, ", a capacity regression") {
		t.Errorf("latgate ab: exit %d, want 1 with a capacity regression (base holds %v users, head %v)", r.code, base.Capacity, head.Capacity)
	}
	// One slot: a second user waits for the first one's answer, so the head
	// holds no load from 2 users on; four slots hold two at least.
	if !math.IsNaN(head.Capacity) || head.Upper > 1 || !(base.Capacity >= 2) {
		t.Errorf("capacities: base %v (to %v), head %v (to %v)", base.Capacity, base.Upper, head.Capacity, head.Upper)
	}
	for _, format := range []string{"markdown", "html"} {
		r := runCLI(t, nil, "compare", filepath.Join(dir, "ab.json"), "-c", cfg, "--format", format)
		if err := os.WriteFile(filepath.Join(dir, "report."+format), []byte(r.stdout), 0o644); err != nil || r.code != 1 {
			t.Errorf("compare --format %s: exit %d, %v", format, r.code, err)
		}
		if format == "markdown" {
			t.Logf("the comment:\n%s", r.stdout)
		}
	}
}

// realServiceTime measures one user on url: the p50 of an answer's total
// time (realAnswerTokens tokens) and of its TTFT, in ms.
func realServiceTime(t *testing.T, url, dir string) (total, ttft float64) {
	t.Helper()
	cfg := filepath.Join(dir, "one-user.yaml")
	yaml := "endpoints:\n  - {name: ollama, base_url: " + url + ", model: tiny}\n" +
		"scenarios:\n  - {name: one-user, prompt: \"Tell me a story about a fox.\", max_tokens: " + strconv.Itoa(realAnswerTokens) +
		", requests: 12, warmup: 2, concurrency: 1}\n" +
		"limits: {timeout: 60s, stall_timeout: 30s}\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "one-user.json")
	if r := runCLI(t, nil, "run", "-c", cfg, "-o", out); r.code != 0 {
		t.Fatalf("one user: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	b := report.Describe(&f.Runs[0])
	if b.OK != b.N {
		t.Fatalf("one user: %d of %d requests failed (%s)", b.N-b.OK, b.N, b.FirstError)
	}
	return b.Total.P50, b.TTFT.P50
}

// realAB writes yaml to cfg and runs latgate ab of it against itself,
// the head's endpoint at the NUM_PARALLEL=1 server p1; it returns the
// ab's result and its results file (beside cfg, ab.json).
func realAB(t *testing.T, cfg, yaml, p1 string) (result, *results.File) {
	t.Helper()
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(filepath.Dir(cfg), "ab.json")
	r := runCLI(t, nil, "ab", "-c", cfg, "--base-config", cfg, "--head-url", "ollama="+p1, "-o", out)
	f, err := fileio.Read(out)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, r.stdout, r.stderr)
	}
	return r, f
}

// realReplay decides a search of f again from its levels.
func realReplay(t *testing.T, f *results.File, rec results.Search) capacity.Result {
	t.Helper()
	res, err := capacity.Replay(f, rec)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// loadAvg is the machine's load average over 1, 5 and 15 minutes.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// realPerHour is the price both servers of TestRealEngineCost are given:
// the same hardware, only the engine's parallelism differs.
const realPerHour = 2.0

// TestRealEngineCost is the cost per 1M output tokens at the SLO of the
// same real Ollama servers as TestRealEngineCapacity (base
// OLLAMA_NUM_PARALLEL=4, head 1, both at realPerHour), searched from 1
// user: one slot holds one user, four slots hold one or more. Each side's
// cost is its price ÷ its goodput at its capacity, so the test checks the
// figures the file records against the levels' own goodput, and that the
// ab's cost row says the change and a status its interval allows (a
// regression only when the head's lowest cost is above the base's
// highest). The machine's single thread a runner decides whether four
// slots serve more tokens a second than one: the log says which.
func TestRealEngineCost(t *testing.T) {
	p1, p4 := os.Getenv("LATGATE_OLLAMA_P1_URL"), os.Getenv("LATGATE_OLLAMA_P4_URL")
	if p1 == "" || p4 == "" {
		t.Skip("needs two Ollama servers, OLLAMA_NUM_PARALLEL=1 and 4: make e2e-real")
	}
	dir := t.TempDir()
	t.Logf("load average before: %s", loadAvg())
	answer, _ := realServiceTime(t, p1, dir)
	slo := math.Round(answer/2/10) * 10
	cfg := filepath.Join(dir, "cost.yaml")
	yaml := fmt.Sprintf(`endpoints:
  - {name: ollama, base_url: %s, model: tiny, cost: {per_hour: %g}}
scenarios:
  - name: chat-cost
    prompt: "Tell me a story about a fox."
    max_tokens: %d
    capacity: {vary: concurrency, from: 1, to: 4, requests_per_level: 40, slo: {ttft: {p50: %gms}}}
limits: {timeout: 60s, stall_timeout: 30s, max_requests: 1000}
`, p4, realPerHour, realAnswerTokens, slo)
	r, f := realAB(t, cfg, yaml, p1)
	t.Logf("latgate ab at $%g/h, base NUM_PARALLEL=4, head NUM_PARALLEL=1, SLO TTFT p50 ≤ %g ms (load average after: %s):\n%s\n%s", realPerHour, slo, loadAvg(), r.stdout, r.stderr)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("latgate ab: exit %d", r.code)
	}
	sides := map[vocab.Side]capacity.Result{}
	for _, rec := range f.Capacity {
		res := realReplay(t, f, rec)
		sides[rec.Variant] = res
		want := realPerHour / (res.GoodTPS * 3600) * 1e6
		if rec.CostPerHour == nil || *rec.CostPerHour != realPerHour || math.IsNaN(res.Capacity) || rec.CostPerMTok == nil || math.Abs(*rec.CostPerMTok-want) > 1e-3*want {
			t.Errorf("%s: capacity %v, goodput %.1f tokens/s, recorded cost %v per 1M tokens at %v/h, want $%.4f", rec.Variant, res.Capacity, res.GoodTPS, rec.CostPerMTok, rec.CostPerHour, want)
			continue
		}
		lo, hi := res.CostRange()
		t.Logf("NUM_PARALLEL=%s: capacity %g users, goodput %.1f output tokens/s: $%.4f per 1M output tokens at the SLO (interval $%.4f to $%.4f)",
			map[vocab.Side]string{vocab.Base: "4", vocab.Head: "1"}[rec.Variant], res.Capacity, res.GoodTPS, *rec.CostPerMTok, lo, hi)
	}
	base, head := sides[vocab.Base], sides[vocab.Head]
	ch := capacity.CompareCost(base, head, 0.10)
	t.Logf("cost: %s, %+.1f %%", ch.Status, ch.DeltaPct)
	if !strings.Contains(r.stdout, "cost per 1M tokens at TTFT p50 ≤ ") {
		t.Errorf("the ab's output has no cost row")
	}
	blo, bhi := base.CostRange()
	hlo, hhi := head.CostRange()
	if ch.Status == vocab.Regression && !(hlo > 1.1*bhi) || ch.Status == vocab.Improvement && !(hhi < 0.9*blo) {
		t.Errorf("cost %s with intervals base [%g, %g], head [%g, %g]", ch.Status, blo, bhi, hlo, hhi)
	}
}

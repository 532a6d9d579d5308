package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// pricedSuite is capacitySuite's suite with the endpoint's cost:
// {per_hour: perHour}.
func pricedSuite(t *testing.T, srv *clocktest.Server, capacityYAML string, perHour string) *suite.Config {
	t.Helper()
	text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m, cost: {per_hour: " + perHour + "}}\n" +
		"scenarios:\n  - name: chat\n    prompt: hi\n    max_tokens: 16\n    capacity: " + capacityYAML + "\n" +
		"limits: {max_requests: 5000}\n"
	cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCapacityCostOnVirtualTime: the simulator's 8 slots with fixed delays
// answer 8 users at once in 470 ms each (a first token after 100 ms and
// 10 ms for each of the 7 others in the batch, then 15 gaps of 20 ms), 16
// output tokens each, every one within the SLO: 8 × 16 ÷ 0.47 = 272.3
// output tokens a second at the capacity, so at $3.50 an hour a million
// cost 3.5 × 0.47 ÷ (128 × 3600) × 1e6 = $3.570, exactly as the search
// records it, says it on its progress line and a reader computes it again.
func TestCapacityCostOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := pricedSuite(t, srv, "{vary: concurrency, from: 1, to: 64, requests_per_level: 60, slo: {ttft: {p95: 200ms}}}", "3.50")
		var log strings.Builder
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), Progress: &log})
		if err != nil {
			t.Fatal(err)
		}
		rec := f.Capacity[0]
		want := 3.5 * 0.47 / (128 * 3600) * 1e6
		if rec.CostPerHour == nil || *rec.CostPerHour != 3.5 || rec.CostPerMTok == nil || math.Abs(*rec.CostPerMTok-want) > 1e-5*want {
			t.Fatalf("recorded price %v, cost %v, want 3.5 and %v", rec.CostPerHour, rec.CostPerMTok, want)
		}
		if !strings.Contains(log.String(), "; $3.57 per 1M output tokens at the capacity (8 users, $3.50/h); above: 9 users") {
			t.Errorf("progress output:\n%s", log.String())
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		mustValidate(t, compileSchema(t, "results.schema.json"), "a priced capacity search's results", b)
		again, err := capacity.Replay(f, rec)
		if err != nil || math.Abs(again.Cost()-want) > 1e-9*want {
			t.Fatalf("replayed: cost %v, %v", again.Cost(), err)
		}
		if lo, hi := again.CostRange(); !(lo <= want && want <= hi && hi/lo < 1.01) {
			t.Errorf("cost interval %v to %v around %v: fixed delays leave no room", lo, hi, want)
		}
	})
}

// abCost is latgate ab of a base and a head simulator of baseSlots and
// headSlots at prices basePrice and headPrice: the report.
func abCost(t *testing.T, baseSlots, headSlots int, basePrice, headPrice string) *report.Report {
	t.Helper()
	base := clocktest.NewServer(t, sim.New(engineProfile(baseSlots), 1))
	head := clocktest.NewServer(t, sim.New(engineProfile(headSlots), 2))
	capYAML := "{vary: concurrency, from: 1, to: 64, slo: {ttft: {p95: 200ms}}}"
	bc, hc := pricedSuite(t, base, capYAML, basePrice), pricedSuite(t, head, capYAML, headPrice)
	f, err := MeasureAB(context.Background(), bc, hc, MeasureOptions{Client: base.Client()})
	if err != nil {
		t.Fatal(err)
	}
	th, _ := CompareConfig(hc, Overrides{})
	rep, _, err := CompareAB(f, "ab.json", th)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCapacityCostAB: the same 8 slots on a GPU a fifth dearer ($3.50 →
// $4.20 an hour) hold the same 8 users, no capacity change, but each
// million tokens costs 20 % more: a cost regression with confidence,
// which fails the gate and says so in the headline and every format;
// the same server at the same price is no change; 6 slots against 8 at
// the same price serve 6 users in 450 ms where 8 took 470: each million
// tokens costs 8 × 0.45 ÷ (6 × 0.47) − 1 = 27.7 % more.
func TestCapacityCostAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rep := abCost(t, 8, 8, "3.50", "4.20")
		c := rep.Capacity[0]
		if c.Status != vocab.OK || c.Cost == nil || c.Cost.Status != vocab.Regression || rep.Verdict != vocab.Fail {
			t.Fatalf("capacity %s, cost %+v, verdict %s", c.Status, c.Cost, rep.Verdict)
		}
		if want := "cost per 1M tokens at TTFT p95 ≤ 200 ms: $3.57 → $4.284, +20%: ❌"; c.CostLine() != want {
			t.Errorf("row %q, want %q", c.CostLine(), want)
		}
		if !strings.Contains(rep.Headline, ", a cost regression (+20% per 1M tokens)") {
			t.Errorf("headline %q", rep.Headline)
		}
		var md, text, js bytes.Buffer
		for _, w := range []struct {
			name  string
			buf   *bytes.Buffer
			wants []string
		}{
			{"markdown", &md, []string{"| chat @ e | cost per 1M tokens at TTFT p95 ≤ 200 ms: $3.57 → $4.284, +20%: ❌ | – | – | ❌ cost regression<br><sub>higher beyond 10% with confidence</sub> |", "| $/1M tokens |", "| $3.57 |"}},
			{"text", &text, []string{"chat @ e: cost per 1M tokens at TTFT p95 ≤ 200 ms: $3.57 → $4.284, +20%: ❌", "cost regression: higher beyond 10% with confidence; head $4.2"}},
			{"json", &js, []string{`"cost": {`, `"status": "regression"`, `"per_hour": 4.2`, `"cost_per_mtok": 3.56988`}},
		} {
			f, err := report.ReportFormats.Lookup(w.name)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Write(w.buf, rep, report.RenderOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, s := range w.wants {
				if !strings.Contains(w.buf.String(), s) {
					t.Errorf("%s does not say %q:\n%s", w.name, s, w.buf.String())
				}
			}
		}
		mustValidate(t, compileSchema(t, "verdict.schema.json"), "a verdict with a cost", js.Bytes())

		rep = abCost(t, 8, 8, "3.50", "3.50")
		if c := rep.Capacity[0]; c.Cost.Status != vocab.OK || rep.Verdict != vocab.Pass || c.CostVerdict() != "cost: no change beyond 10% with confidence" {
			t.Errorf("A/A: cost %+v (%s), verdict %s", c.Cost, c.CostVerdict(), rep.Verdict)
		}
		rep = abCost(t, 8, 6, "3.50", "3.50")
		if c := rep.Capacity[0]; c.Status != vocab.Regression || c.Cost.Status != vocab.Regression || math.Abs(c.Cost.DeltaPct-100*(8*0.45/(6*0.47)-1)) > 1e-6 {
			t.Errorf("6 slots of 8: capacity %s, cost %+v", c.Status, c.Cost)
		}
	})
}

// TestMergeShardsCost: four legs each drive 2 users of one level against
// the same 8 slots at once; each leg alone sees a quarter of the server's
// goodput, so its own cost is four times the server's. Merged with
// --shards, the level is 8 users on the server: 8 × 16 ÷ 0.47 output
// tokens a second at $3.50 an hour, $3.570 per million, recorded in the
// merged file and carried into its report.
func TestMergeShardsCost(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := pricedSuite(t, srv, "{vary: concurrency, from: 2, to: 2, slo: {ttft: {p95: 200ms}}}", "3.50")
		dir := t.TempDir()
		paths, _ := legs(t, 4, srv, cfg, time.Time{}, dir)
		want := 3.5 * 0.47 / (128 * 3600) * 1e6
		leg, err := fileio.Read(paths[0])
		if err != nil || leg.Capacity[0].CostPerMTok == nil || math.Abs(*leg.Capacity[0].CostPerMTok-4*want) > 1e-4*want {
			t.Fatalf("a leg's own cost %v, want %v: %v", leg.Capacity[0].CostPerMTok, 4*want, err)
		}
		m, err := MergeFiles(paths, filepath.Join(dir, "all.json"), true)
		if err != nil {
			t.Fatal(err)
		}
		if c := m.Capacity[0].CostPerMTok; c == nil || math.Abs(*c-want) > 1e-5*want {
			t.Fatalf("merged cost %v, want %v", c, want)
		}
		th, _ := CompareConfig(cfg, Overrides{})
		rep, err := CompareFiles(nil, m, "", "all.json", th)
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Capacity[0].CostLine(); got != "$3.57 per 1M output tokens at the capacity (8 users, $3.50/h)" {
			t.Errorf("merged report's cost: %q", got)
		}
	})
}

package gate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

// costOutcome is one A/B run's cost comparison.
type costOutcome struct {
	status, capStatus vocab.Status
	deltaPct          float64
}

// costRun is latgate ab of the calibration's noisy engines (baseSlots and
// headSlots) at prices basePrice and headPrice, on virtual time: the cost
// comparison ab makes of the written file.
func costRun(t *testing.T, seed uint64, baseSlots, headSlots int, basePrice, headPrice, slo string) costOutcome {
	var out costOutcome
	synctest.Test(t, func(t *testing.T) {
		base := clocktest.NewServer(t, sim.New(noisyEngine(baseSlots), 2*seed))
		head := clocktest.NewServer(t, sim.New(noisyEngine(headSlots), 2*seed+1))
		capYAML := fmt.Sprintf("{vary: concurrency, from: 1, to: 64, requests_per_level: 60, slo: %s}", slo)
		bc, hc := pricedSuite(t, base, capYAML, basePrice), pricedSuite(t, head, capYAML, headPrice)
		f, err := MeasureAB(context.Background(), bc, hc, MeasureOptions{Client: base.Client()})
		if err != nil {
			t.Fatal(err)
		}
		th, _ := CompareConfig(hc, Overrides{})
		changes, err := capacityChanges(f, f, "ab.json", "ab.json", th.Tolerance)
		if err != nil || len(changes) != 1 || changes[0].Cost == nil {
			t.Fatal(err)
		}
		c := changes[0]
		out.status, out.capStatus, out.deltaPct = c.Cost.Status, c.Status, c.Cost.DeltaPct
	})
	return out
}

// costConditions are the cost calibration's rows: unchanged servers at one
// price (false alarms), fewer slots at one price, and the same slots at a
// price a fifth higher (a dearer GPU serving the same), each at an SLO
// with room and at the full batch's own p95 (the edge).
var costConditions = []struct {
	name, slo                   string
	baseSlots, headSlots        int
	basePrice, headPrice, truth string
}{
	{"ttft p95 ≤ 300 ms: unchanged (8 and 8 slots, $3.50/h)", "{ttft: {p95: 300ms}}", 8, 8, "3.50", "3.50", "+0 %"},
	{"ttft p95 ≤ 300 ms: one slot less (8 → 7)", "{ttft: {p95: 300ms}}", 8, 7, "3.50", "3.50", "+12 %"},
	{"ttft p95 ≤ 300 ms: a quarter less (8 → 6)", "{ttft: {p95: 300ms}}", 8, 6, "3.50", "3.50", "+28 %"},
	{"ttft p95 ≤ 300 ms: a dearer GPU ($3.50 → $4.20/h)", "{ttft: {p95: 300ms}}", 8, 8, "3.50", "4.20", "+20 %"},
	{"ttft p95 ≤ 210 ms (edge): unchanged", "{ttft: {p95: 210ms}}", 8, 8, "3.50", "3.50", "+0 %"},
	{"ttft p95 ≤ 210 ms (edge): a dearer GPU ($3.50 → $4.20/h)", "{ttft: {p95: 210ms}}", 8, 8, "3.50", "4.20", "+20 %"},
}

// costCalibration is the cost comparison's table: how often unchanged
// servers' cost is flagged, and how often a dearer cost per token is.
func costCalibration(t *testing.T, b *strings.Builder) {
	b.WriteString("\n| condition | true change of the cost | cost regression | inconclusive | ok | improvement | capacity regression | change (median) |\n|---|---|---|---|---|---|---|---|\n")
	for _, c := range costConditions {
		outs := make([]costOutcome, *calReps)
		capRuns(*calReps, func(i int) capOutcome {
			outs[i] = costRun(t, uint64(i+1)*7919, c.baseSlots, c.headSlots, c.basePrice, c.headPrice, c.slo)
			return capOutcome{}
		})
		share := func(f func(costOutcome) bool) string {
			k := 0
			for _, o := range outs {
				k += b2i(f(o))
			}
			return fmt.Sprintf("%.1f %%", 100*float64(k)/float64(len(outs)))
		}
		is := func(st vocab.Status) func(costOutcome) bool {
			return func(o costOutcome) bool { return o.status == st }
		}
		var deltas []float64
		for _, o := range outs {
			if !math.IsNaN(o.deltaPct) {
				deltas = append(deltas, o.deltaPct)
			}
		}
		slices.Sort(deltas)
		med := "–"
		if len(deltas) > 0 {
			med = fmt.Sprintf("%+.1f %%", deltas[len(deltas)/2])
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", c.name, c.truth, share(is(vocab.Regression)), share(is(vocab.Inconclusive)), share(is(vocab.OK)),
			share(is(vocab.Improvement)), share(func(o costOutcome) bool { return o.capStatus == vocab.Regression }), med)
	}
}

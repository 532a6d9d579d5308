package gate

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latgate/latgate/vocab"
)

// TestConfirmMeasuresTheFailingScenarioAgain: with regression.confirm, an
// A/B run whose head is 30% slower measures the scenario again, both
// variants interleaved, as many requests per side as it measured; the file
// holds the confirmation runs, the regressions are confirmed and the
// headline says so. An unchanged head measures nothing more.
func TestConfirmMeasuresTheFailingScenarioAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a few hundred simulated requests")
	}
	t.Parallel()
	th, err := CompareConfig(nil, Overrides{MinDelta: "5ms"})
	if err != nil {
		t.Fatal(err)
	}
	th.Bootstrap, th.Confirm = -1, true // the head suite's regression.confirm, as CompareConfig(head) has it
	synctest.Test(t, func(t *testing.T) {
		var log bytes.Buffer
		base, client := adaptiveSuite(t, 0, 4)
		head, _ := adaptiveSuite(t, 0.3, 5)
		head.Regression.Confirm = true
		f, err := MeasureAB(context.Background(), base, head, MeasureOptions{Client: client, Thresholds: &th, Progress: &log})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Runs) != 4 || !f.Runs[2].Confirm || !f.Runs[3].Confirm || f.Runs[2].Variant == f.Runs[3].Variant {
			t.Fatalf("%d runs; want base and head, then their confirmation runs", len(f.Runs))
		}
		if n := len(f.Runs[1].Requests); len(f.Runs[2].Requests) != n || len(f.Runs[3].Requests) != n || f.Runs[3].RequestsMin != 0 {
			t.Errorf("confirmation runs of %d and %d requests (min %d); want %d each, a fixed count", len(f.Runs[2].Requests), len(f.Runs[3].Requests), f.Runs[3].RequestsMin, n)
		}
		if !strings.Contains(log.String(), "regression.confirm: measuring chat") {
			t.Errorf("the progress does not say it confirms:\n%s", log.String())
		}
		rep, _, err := CompareAB(f, "ab.json", th)
		if err != nil {
			t.Fatal(err)
		}
		confirmed := 0
		for _, c := range rep.Result.Checks {
			if c.Status == vocab.Regression && c.Confirmed {
				confirmed++
			}
		}
		if rep.Verdict != "fail" || confirmed == 0 || !strings.Contains(rep.Headline, "(confirmed by a fresh interleaved run)") {
			t.Errorf("verdict %s, %d confirmed regressions, headline %q", rep.Verdict, confirmed, rep.Headline)
		}
		same, _ := adaptiveSuite(t, 0, 6)
		same.Regression.Confirm = true
		if f, err := MeasureAB(context.Background(), base, same, MeasureOptions{Client: client, Thresholds: &th}); err != nil || len(f.Runs) != 2 {
			t.Errorf("unchanged: %v, %d runs; want no confirmation run", err, len(f.Runs))
		}
	})
}

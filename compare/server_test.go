package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// withServer adds a server's stages to a sample: a queue of queueMs
// (log-normal, sigma 0.3) and a prefill of 80 ms per request, the outside
// the rest of each TTFT; ok false leaves them unreported.
func withServer(s *Sample, queueMs float64, report bool, rng *rand.Rand) *Sample {
	for i := range s.OK {
		q, pre, out := math.NaN(), math.NaN(), math.NaN()
		if report && s.OK[i] {
			q, pre = queueMs*math.Exp(0.3*rng.NormFloat64()), 80
			out = math.Max(0, s.Values[vocab.TTFT][i]-q-pre)
		}
		s.Values[vocab.Queue] = append(s.Values[vocab.Queue], q)
		s.Values[vocab.Prefill] = append(s.Values[vocab.Prefill], pre)
		s.Values[vocab.Decode] = append(s.Values[vocab.Decode], math.NaN())
		s.Values[vocab.Outside] = append(s.Values[vocab.Outside], out)
	}
	return s
}

func serverPair(baseQueue, headQueue float64, baseReports, headReports bool) []Pair {
	rng := rand.New(rand.NewPCG(3, 9))
	m := realistic()
	m.errRate = 0
	return []Pair{{Endpoint: "e", Scenario: "s",
		Base: withServer(m.sample(200, rng), baseQueue, baseReports, rng),
		Head: withServer(m.sample(200, rng), headQueue, headReports, rng)}}
}

func checksOf(r Result, m vocab.Metric) []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Metric == m {
			out = append(out, c)
		}
	}
	return out
}

// TestServerStages: the server's queue is compared like every latency
// where both sides report it; a stage no side reports has no check (decode
// here); one the current server does not report is not tested, never
// invented, and a budget on it says so.
func TestServerStages(t *testing.T) {
	t.Parallel()
	r := Compare(serverPair(50, 250, true, true), cfg())
	if c := find(t, r, "s", vocab.Queue, vocab.P50); c.Status != vocab.Regression {
		t.Errorf("queue p50 50 → 250 ms: %s (%+v)", c.Status, c)
	}
	if c := find(t, r, "s", vocab.Prefill, vocab.P50); c.Status != vocab.WithinTolerance {
		t.Errorf("an unchanged prefill: %s", c.Status)
	}
	if cs := checksOf(r, vocab.Decode); len(cs) != 0 {
		t.Errorf("decode, reported by neither side, has %d checks", len(cs))
	}

	cfgB := cfg()
	cfgB.Budgets = []Budget{{Metric: vocab.Queue, Stat: vocab.P95, Value: 100}}
	r = Compare(serverPair(50, 50, true, false), cfgB)
	for _, c := range checksOf(r, vocab.Queue) {
		if c.Status != vocab.NotTested || c.Reason != vocab.NotReported || !math.IsNaN(c.Current) || c.BudgetUntested() {
			t.Errorf("queue %s not reported by the current server: %s %s current %v (a budget not tested for too few requests: %v)", c.Stat, c.Status, c.Reason, c.Current, c.BudgetUntested())
		}
	}
	if cs := checksOf(r, vocab.Queue); len(cs) < 3 {
		t.Errorf("queue checks %d: the base reported it, the head stopped: each statistic says so", len(cs))
	}
	r = Compare(serverPair(50, 50, false, false), cfgB)
	if cs := checksOf(r, vocab.Queue); len(cs) != 1 || cs[0].Stat != vocab.P95 || cs[0].Reason != vocab.NotReported {
		t.Errorf("a budget on a queue neither server reports: %+v, want one p95 check not reported", cs)
	}
	r = Compare(serverPair(50, 150, false, true), cfgB)
	if c := find(t, r, "s", vocab.Queue, vocab.P95); c.Status != vocab.OverBudget {
		t.Errorf("a queue only the head reports, over its budget: %s", c.Status)
	}
	if c := find(t, r, "s", vocab.Queue, vocab.P50); c.Status != vocab.NoBaseline {
		t.Errorf("a queue only the head reports: %s, want no_baseline", c.Status)
	}
}

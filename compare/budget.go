package compare

import (
	"math"
	"slices"

	"github.com/latgate/latgate/vocab"
)

// The budget check with confidence: the budget check of a statistic (its
// value as newCheck computes it, beyond the budget as exceedsBudget says)
// decided one-sided at alpha, as a capacity search decides each level.
//
// A statistic within its budget is a share of requests allowed to miss it:
// p95 ≤ 800 ms holds when at most 5 % of requests take longer than 800 ms,
// errors ≤ 2 % when at most 2 % fail, goodput ≥ 95 % when at most 5 % miss
// the per-request SLO. A failed request misses every latency budget (it was
// not served within any). With k of n requests missing, the exact binomial
// test is distribution-free: the budget holds with confidence when
// P(Bin(n, share) ≤ k) ≤ alpha (so few misses are unlikely if the true share
// were the budget's), and is missed with confidence when P(Bin(n, share) ≥ k)
// ≤ alpha; neither is inconclusive. It is the order-statistic bound of
// QuantileCI, one-sided: p95 holds at n = 60 exactly when the 60th value is
// within the budget.

// BudgetTest is the budget check of one statistic with confidence.
type BudgetTest struct {
	Budget Budget
	// Value is the statistic as the budget check computes it (the
	// successful requests' quantile, or the rate); NaN without requests.
	Value float64
	// Miss of N requests missed the budget; Share is the share of misses
	// the budget allows.
	Miss, N int
	Share   float64
	// Status is vocab.OK (within the budget with confidence),
	// vocab.OverBudget (beyond it with confidence) or vocab.Inconclusive.
	Status vocab.Status
}

// MissShare is the share of requests the budget allows to miss it: 1 − q
// for a latency's q-quantile, the rate for errors, 1 − the floor for
// goodput; NaN for a statistic that allows no share (a mean).
func (b Budget) MissShare() float64 {
	switch b.Metric {
	case vocab.Errors:
		return b.Value
	case vocab.Goodput:
		return 1 - b.Value
	}
	if q, ok := b.Stat.Quantile(); ok && slices.Contains(vocab.Latencies, b.Metric) {
		return 1 - q
	}
	return math.NaN()
}

// TestBudget is the budget check of b on s, one-sided at alpha. slos is
// the per-request SLO a goodput floor counts misses of. A budget on a mean
// has no distribution-free test, and a metric no successful request
// observed shows nothing: their status is inconclusive.
func TestBudget(s *Sample, b Budget, slos []SLO, alpha float64) BudgetTest {
	t := BudgetTest{Budget: b, Value: math.NaN(), Share: math.NaN(), Status: vocab.Inconclusive}
	if s == nil || s.N() == 0 {
		return t
	}
	t.N = s.N()
	switch {
	case b.Metric == vocab.Errors:
		t.Value, _ = failRate(s)
		t.Share = b.MissShare()
		t.Miss = int(math.Round(t.Value * float64(t.N)))
	case b.Metric == vocab.Goodput:
		t.Value = goodShare(s, slos)
		t.Share = b.MissShare()
		t.Miss = t.N - int(math.Round(t.Value*float64(t.N)))
	default:
		q, _ := b.Stat.Quantile()
		vs := okValues(s, b.Metric)
		if math.IsNaN(b.MissShare()) || len(vs) == 0 {
			return t // not a latency's quantile, or not observed: never shown to hold
		}
		t.Value = Quantile(vs, q)
		t.Share = b.MissShare()
		t.Miss = latencyMisses(s, b.Metric, b.Value)
	}
	t.Status = t.decide(alpha)
	return t
}

// latencyMisses counts the requests that failed or took longer than limit.
func latencyMisses(s *Sample, m vocab.Metric, limit float64) int {
	v := s.Values[m]
	k := 0
	for i, ok := range s.OK {
		if !ok || i < len(v) && v[i] > limit {
			k++
		}
	}
	return k
}

// decide is the status of the test at alpha.
func (t BudgetTest) decide(alpha float64) vocab.Status { return t.Decide(alpha, alpha) }

// Decide is the status of the test shown within the budget at holdAlpha
// and beyond it at failAlpha (a capacity search's later looks at a level
// decide at smaller alphas: LookAlphas).
func (t BudgetTest) Decide(holdAlpha, failAlpha float64) vocab.Status {
	switch {
	case t.N == 0:
		return vocab.Inconclusive
	case !(t.Share > 0 && t.Share < 1):
		// A budget of 0 % errors (or 100 % goodput) can be missed with
		// confidence, never shown to hold.
		if t.Miss > 0 {
			return vocab.OverBudget
		}
		return vocab.Inconclusive
	case binomialCDF(t.N, t.Share)[t.Miss] <= holdAlpha:
		return vocab.OK
	case binomialUpper(t.N, t.Miss, t.Share) <= failAlpha:
		return vocab.OverBudget
	}
	return vocab.Inconclusive
}

// Meets reports whether the test's point estimate is within the budget:
// the share of requests that missed it at most the share it allows and,
// for a latency, the statistic itself within it (a budget on what no
// request observed is not met).
func (t BudgetTest) Meets() bool {
	if t.N == 0 || float64(t.Miss) > t.Share*float64(t.N)+1e-9 {
		return false
	}
	switch t.Budget.Metric {
	case vocab.Errors, vocab.Goodput:
		return true
	}
	return t.Value <= t.Budget.Value
}

// MaxMisses is the most misses of n requests with which the budget still
// holds with confidence at alpha; -1 when n requests can never show it.
func (t BudgetTest) MaxMisses(n int, alpha float64) int {
	if !(t.Share > 0 && t.Share < 1) || n <= 0 {
		return -1
	}
	cdf := binomialCDF(n, t.Share)
	k := -1
	for k+1 <= n && cdf[k+1] <= alpha {
		k++
	}
	return k
}

// CanHold reports whether the budget can still hold with confidence at
// alpha once n requests are measured, with the misses seen so far.
func (t BudgetTest) CanHold(n int, alpha float64) bool {
	return t.Miss <= t.MaxMisses(n, alpha)
}

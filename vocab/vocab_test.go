package vocab

import "testing"

func TestMinN(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s    Stat
		want int
	}{{P50, 10}, {Mean, 10}, {P95, 40}, {P99, 500}} {
		if got := c.s.MinN(); got != c.want {
			t.Errorf("%s.MinN() = %d, want %d", c.s, got, c.want)
		}
	}
	if _, ok := Mean.Quantile(); ok {
		t.Error("mean is not a quantile")
	}
}

func TestRates(t *testing.T) {
	t.Parallel()
	for _, m := range Latencies {
		if m.IsRate() || m.HigherIsBetter() {
			t.Errorf("%s: a latency is neither a rate nor better when higher", m)
		}
	}
	for _, m := range Rates {
		if !m.IsRate() {
			t.Errorf("%s is a rate", m)
		}
	}
	if Errors.HigherIsBetter() || !Goodput.HigherIsBetter() || !CacheHitRate.HigherIsBetter() {
		t.Error("a drop in goodput or the cache hit rate is the regression, a rise in errors")
	}
	if !ITL.PerEvent() || !TPOT.PerEvent() || TTFT.PerEvent() {
		t.Error("itl and tpot are per event, ttft is not")
	}
}

func TestStatsOfAMetric(t *testing.T) {
	if s := StepCount.Stats(); len(s) != 1 || s[0] != Mean {
		t.Errorf("step_count is compared by its mean, got %v", s)
	}
	if s := Session.Stats(); len(s) != len(LatencyStats) {
		t.Errorf("session is a latency: %v", s)
	}
	if s := CacheHitRate.Stats(); len(s) != 1 || s[0] != Min {
		t.Errorf("the cache hit rate has a floor: %v", s)
	}
	for _, m := range PerRequest {
		if m.IsRate() {
			t.Errorf("%s: a rate is not a per-request value", m)
		}
	}
}

package compare

import (
	"fmt"
	"math"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// TestSampleColdAndFailover: a cold sample gives cold_ttft and
// cold_total and no other per-request value (nor events or tokens); a
// warm request gives neither; failover is the value of the requests that
// have one. Every metric keeps one value per request.
func TestSampleColdAndFailover(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	steps := 2
	warm := results.Request{OK: true, TTFTMs: f(100), TotalMs: f(300), TTFCMs: f(100), PerceivedMs: f(100), ITLMs: []float64{10, 10}, PromptTokens: 50, CachedTokens: 40}
	failed := warm
	failed.FailoverMs = f(1800)
	cold := warm
	cold.Cold, cold.TTFTMs, cold.TotalMs, cold.StepCount, cold.AnswerMs = true, f(2100), f(2300), &steps, f(2100)
	s := SampleOf(&results.Run{Requests: []results.Request{warm, cold, failed, warm}})
	for _, m := range vocab.PerRequest {
		if len(s.Values[m]) != 4 {
			t.Errorf("%s: %d values, want one per request (4)", m, len(s.Values[m]))
		}
	}
	nan := math.NaN()
	for _, c := range []struct {
		m    vocab.Metric
		want []float64
	}{
		{vocab.TTFT, []float64{100, nan, 100, 100}},
		{vocab.Total, []float64{300, nan, 300, 300}},
		{vocab.ITL, []float64{10, nan, 10, 10}},
		{vocab.Answer, []float64{nan, nan, nan, nan}},
		{vocab.StepCount, []float64{nan, nan, nan, nan}},
		{vocab.ColdTTFT, []float64{nan, 2100, nan, nan}},
		{vocab.ColdTotal, []float64{nan, 2300, nan, nan}},
		{vocab.Failover, []float64{nan, nan, 1800, nan}},
	} {
		if fmt.Sprint(s.Values[c.m]) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.m, s.Values[c.m], c.want)
		}
	}
	if s.PromptTokens != 150 || s.CachedTokens != 120 || s.Events != 3 {
		t.Errorf("prompt tokens %d, cached %d, events %v; want the 3 warm requests' 150, 120 and 3", s.PromptTokens, s.CachedTokens, s.Events)
	}
	if n := s.N(); n != 4 {
		t.Errorf("N = %d: a cold sample is still a request of the run (the error rate)", n)
	}
}

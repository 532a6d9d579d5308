package results

import (
	"errors"
	"fmt"
	"math"
)

// ServerTiming is what the server reported of its own time on a request
// (or a step of a session), checked against what latgate measured around
// it (docs/metrics.md, "The server's own time"): the wait in its queue,
// the prefill, the decode, its whole processing and a gateway's own
// overhead, each null where it reported nothing it could be trusted with.
// Source names what reported the stages kept ("ollama", "vllm+litellm").
// Ignored counts the values the server reported that latgate could not
// trust (of the wrong type or unit, negative, absurd, longer than latgate
// measured around them), IgnoredReason says why the first was not.
type ServerTiming struct {
	QueueMs       *float64 `json:"queue_ms"`
	PrefillMs     *float64 `json:"prefill_ms"`
	DecodeMs      *float64 `json:"decode_ms"`
	ProcessingMs  *float64 `json:"processing_ms"`
	GatewayMs     *float64 `json:"gateway_ms"`
	Source        string   `json:"source"`
	Ignored       int      `json:"ignored,omitempty"`
	IgnoredReason string   `json:"ignored_reason,omitempty"`
}

// MaxReason bounds the words of a reason kept in a results file.
const MaxReason = 300

// check refuses a server timing no measurement gives: a time out of
// bounds, a negative count, a reason too long. Its message starts with
// the key, below "server".
func (t *ServerTiming) check() error {
	if t == nil {
		return nil
	}
	if key, v, bad := outOfBounds([]timed{{"queue_ms", t.QueueMs}, {"prefill_ms", t.PrefillMs}, {"decode_ms", t.DecodeMs},
		{"processing_ms", t.ProcessingMs}, {"gateway_ms", t.GatewayMs}}); bad {
		return fmt.Errorf("%s is %g: a time is from 0 to %g ms", key, v, MaxMs)
	}
	if t.Ignored < 0 || t.Ignored > maxCount {
		return fmt.Errorf("ignored is %d: a count is from 0 to %g", t.Ignored, float64(maxCount))
	}
	if len(t.IgnoredReason) > MaxReason || len(t.Source) > MaxReason {
		return fmt.Errorf("ignored_reason or source is longer than %d bytes", MaxReason)
	}
	return nil
}

// ServerMetrics is what a run's scrapes of the endpoint's own Prometheus
// page (its metrics_url) said about the server over the measured part of
// the run: the deltas of its queue, prefill, decode and TTFT histograms
// (quantiles from the buckets), its gauges sampled during the run, and
// how the scrapes went. Shared: another run (the other variant of an A/B
// run) was measured against the same page at the same time, and the
// histograms hold both runs' requests.
type ServerMetrics struct {
	Stages   []MetricStage `json:"stages,omitempty"`
	Gauges   []MetricGauge `json:"gauges,omitempty"`
	Scrapes  int           `json:"scrapes"`
	Failed   int           `json:"failed"`
	Shared   bool          `json:"shared,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
}

// MetricStage is one histogram's delta over a run: Stage is queue,
// prefill, decode or ttft, Family the page's name for it.
type MetricStage struct {
	Stage     string           `json:"stage"`
	Family    string           `json:"family"`
	Count     float64          `json:"count"`
	MeanMs    *float64         `json:"mean_ms"`
	Quantiles []MetricQuantile `json:"quantiles"`
}

// MetricQuantile is a quantile from a histogram's buckets: Ms by linear
// interpolation inside the bucket [LowerMs, UpperMs] it falls in. AboveTop:
// it falls above the top finite bucket, Ms is that bound (the quantile is
// at least that) and UpperMs is null.
type MetricQuantile struct {
	Q        float64  `json:"q"`
	Ms       *float64 `json:"ms"`
	LowerMs  *float64 `json:"lower_ms"`
	UpperMs  *float64 `json:"upper_ms"`
	AboveTop bool     `json:"above_top,omitempty"`
}

// MetricGauge is one gauge over the samples taken during a run: Gauge is
// waiting (requests waiting for the engine) or kv_cache (its KV-cache
// usage, a fraction).
type MetricGauge struct {
	Gauge   string  `json:"gauge"`
	Family  string  `json:"family"`
	Samples int     `json:"samples"`
	Median  float64 `json:"median"`
	Max     float64 `json:"max"`
}

// Check refuses server metrics no scrape gives.
func (m *ServerMetrics) Check() error {
	if m == nil {
		return nil
	}
	if m.Scrapes < 0 || m.Failed < 0 || m.Failed > m.Scrapes {
		return fmt.Errorf("server_metrics: %d of %d scrapes failed", m.Failed, m.Scrapes)
	}
	for i, s := range m.Stages {
		if !(s.Count >= 0 && s.Count <= maxCount) {
			return fmt.Errorf("server_metrics.stages[%d].count is %g", i, s.Count)
		}
		times := []timed{{"mean_ms", s.MeanMs}}
		for _, q := range s.Quantiles {
			if !(q.Q > 0 && q.Q < 1) {
				return fmt.Errorf("server_metrics.stages[%d]: quantile %g is not between 0 and 1", i, q.Q)
			}
			times = append(times, timed{"ms", q.Ms}, timed{"lower_ms", q.LowerMs}, timed{"upper_ms", q.UpperMs})
		}
		if key, v, bad := outOfBounds(times); bad {
			return fmt.Errorf("server_metrics.stages[%d].%s is %g: a time is from 0 to %g ms", i, key, v, MaxMs)
		}
	}
	for i, g := range m.Gauges {
		if g.Samples < 0 || math.IsNaN(g.Median) || math.IsInf(g.Median, 0) || math.IsNaN(g.Max) || math.IsInf(g.Max, 0) {
			return fmt.Errorf("server_metrics.gauges[%d] is not a number", i)
		}
	}
	if len(m.Warnings) > 100 {
		return errors.New("server_metrics: more than 100 warnings")
	}
	return nil
}

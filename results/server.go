package results

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
	Stages []MetricStage `json:"stages,omitempty"`
	Gauges []MetricGauge `json:"gauges,omitempty"`
	// PrefixCache is the server's prefix-cache counters over the run
	// (vLLM's); nil when its page has none.
	PrefixCache *MetricCache `json:"prefix_cache,omitempty"`
	// GPUs are each GPU's gauges over the run, from a GPU exporter's page
	// (NVIDIA dcgm-exporter's), at most MaxGPUs; GPUsLeftOut counts the
	// GPUs beyond.
	GPUs        []MetricGPU `json:"gpus,omitempty"`
	GPUsLeftOut int         `json:"gpus_left_out,omitempty"`
	// Spec is the server's speculative-decoding counters over the run
	// (vLLM's); nil when its page has none.
	Spec     *MetricSpec `json:"spec_decode,omitempty"`
	Scrapes  int         `json:"scrapes"`
	Failed   int         `json:"failed"`
	Shared   bool        `json:"shared,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`
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

// MetricCache is a prefix cache's counters over a run: the prompt tokens
// looked up in it (Queries) and those found (Hits), the page after the
// run minus the page before, and the page's families of them.
type MetricCache struct {
	QueriesFamily string  `json:"queries_family"`
	HitsFamily    string  `json:"hits_family"`
	Queries       float64 `json:"queries"`
	Hits          float64 `json:"hits"`
}

// Check refuses counters no scrape gives: negative, more hits than
// queries, beyond a count, families that are no line of printable text.
func (c *MetricCache) Check() error {
	if c == nil {
		return nil
	}
	if !(c.Queries >= 0 && c.Queries <= maxCount && c.Hits >= 0 && c.Hits <= c.Queries) {
		return fmt.Errorf("server_metrics.prefix_cache: %g hits of %g queries", c.Hits, c.Queries)
	}
	if !plainText(c.QueriesFamily, MaxReason) || !plainText(c.HitsFamily, MaxReason) {
		return fmt.Errorf("server_metrics.prefix_cache: a family over %d bytes or not printable text", MaxReason)
	}
	return nil
}

// MetricGauge is one gauge over the samples taken during a run: Gauge is
// waiting (requests waiting for the engine), kv_cache (its KV-cache
// usage, a fraction) or cache_hit (a prefix cache's hit rate as the
// server last computed it, SGLang's of its last prefill batch).
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
	if err := m.checkNames(); err != nil {
		return err
	}
	if err := m.PrefixCache.Check(); err != nil {
		return err
	}
	if err := m.checkGPUs(); err != nil {
		return err
	}
	if err := m.Spec.Check(); err != nil {
		return err
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
		if hi, ok := specGaugeMax[g.Gauge]; ok && !(g.Median >= 0 && g.Median <= g.Max && g.Max <= hi) {
			return fmt.Errorf("server_metrics.gauges[%d]: %s of median %g and max %g, not from 0 to %g", i, g.Gauge, g.Median, g.Max, hi)
		}
	}
	if len(m.Warnings) > 100 {
		return errors.New("server_metrics: more than 100 warnings")
	}
	for i, w := range m.Warnings {
		if !plainText(w, MaxReason) {
			return fmt.Errorf("server_metrics.warnings[%d]: over %d bytes or not printable text", i, MaxReason)
		}
	}
	return nil
}

// Bounds of what a run's server metrics hold: a scrape gives one stage per
// histogram kind and one gauge per gauge kind (the stage and gauge names),
// a few quantiles each, names and warnings of a line.
const (
	maxMetricEntries = 8
	maxQuantiles     = 16
)

var (
	metricStages = []string{"queue", "prefill", "decode", "ttft"}
	metricGauges = []string{"waiting", "kv_cache", "cache_hit", "spec_accept_rate", "spec_accept_length"}
	// specGaugeMax bounds the speculative-decoding gauges: a rate is a
	// fraction, a length a few tokens (a draft of at most 64).
	specGaugeMax = map[string]float64{"spec_accept_rate": 1, "spec_accept_length": MaxDraft + 1}
)

// checkNames refuses stages and gauges no scrape writes: unknown names,
// too many entries, families that are no line of printable text.
func (m *ServerMetrics) checkNames() error {
	if len(m.Stages) > maxMetricEntries || len(m.Gauges) > maxMetricEntries {
		return fmt.Errorf("server_metrics: %d stages and %d gauges, at most %d each", len(m.Stages), len(m.Gauges), maxMetricEntries)
	}
	for i, s := range m.Stages {
		switch {
		case !slices.Contains(metricStages, s.Stage):
			return fmt.Errorf("server_metrics.stages[%d].stage is %q, want one of %s", i, s.Stage, strings.Join(metricStages, ", "))
		case !plainText(s.Family, MaxReason):
			return fmt.Errorf("server_metrics.stages[%d].family: over %d bytes or not printable text", i, MaxReason)
		case len(s.Quantiles) > maxQuantiles:
			return fmt.Errorf("server_metrics.stages[%d]: %d quantiles, at most %d", i, len(s.Quantiles), maxQuantiles)
		}
	}
	for i, g := range m.Gauges {
		switch {
		case !slices.Contains(metricGauges, g.Gauge):
			return fmt.Errorf("server_metrics.gauges[%d].gauge is %q, want one of %s", i, g.Gauge, strings.Join(metricGauges, ", "))
		case !plainText(g.Family, MaxReason):
			return fmt.Errorf("server_metrics.gauges[%d].family: over %d bytes or not printable text", i, MaxReason)
		}
	}
	return nil
}

// plainText reports whether s is valid UTF-8 of at most n bytes without
// control characters (no escape sequence reaches a terminal).
func plainText(s string, n int) bool {
	if len(s) > n || !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, unicode.IsControl)
}

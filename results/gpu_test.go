package results

import (
	"math"
	"strings"
	"testing"
)

// TestServerMetricsGPUsChecked: a results file's GPUs and speculative
// counters are refused where no scrape gives them (a hostile artifact):
// utilization over 100 %, a median over its max, over 64 GPUs, more
// accepted than drafted tokens, a GPU's name with an escape sequence.
func TestServerMetricsGPUsChecked(t *testing.T) {
	ok := func() *ServerMetrics {
		return &ServerMetrics{Scrapes: 3, GPUs: []MetricGPU{{GPU: "GPU-0", Util: &GaugeStats{Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 3, Median: 90, Max: 97}}},
			Spec: &MetricSpec{DraftTokensFamily: "a", AcceptedFamily: "b", Drafts: 300, DraftTokens: 900, Accepted: 630}}
	}
	if err := ok().Check(); err != nil {
		t.Fatal(err)
	}
	if s := ok().Spec; s.Rate() != 0.7 || s.Length() != 3.1 {
		t.Errorf("rate %v, length %v: 630 of 900, 1 + 630/300", s.Rate(), s.Length())
	}
	if s := (&MetricSpec{}); !math.IsNaN(s.Rate()) || !math.IsNaN(s.Length()) {
		t.Error("no drafts: no rate")
	}
	for name, bad := range map[string]func(*ServerMetrics){
		"util over 100":   func(m *ServerMetrics) { m.GPUs[0].Util.Max = 101 },
		"median over max": func(m *ServerMetrics) { m.GPUs[0].Util.Median = 98 },
		"power NaN":       func(m *ServerMetrics) { m.GPUs[0].PowerW = &GaugeStats{Samples: 1, Median: math.NaN(), Max: 1} },
		"65 GPUs":         func(m *ServerMetrics) { m.GPUs = make([]MetricGPU, 65) },
		"escape":          func(m *ServerMetrics) { m.GPUs[0].GPU = "\x1b[2J" },
		"accepted":        func(m *ServerMetrics) { m.Spec.Accepted = 901 },
		// 900 draft tokens in one draft: a length of 631, where a draft
		// holds at most 64 tokens (spec_accept_length's bound).
		"one draft of 900": func(m *ServerMetrics) { m.Spec.Drafts = 1 },
		"rate gauge": func(m *ServerMetrics) {
			m.Gauges = []MetricGauge{{Gauge: "spec_accept_rate", Samples: 1, Median: 2, Max: 2}}
		},
	} {
		m := ok()
		bad(m)
		if err := m.Check(); err == nil || !strings.HasPrefix(err.Error(), "server_metrics") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

package results

import (
	"fmt"
	"math"
)

// MaxGPUs bounds the GPUs of a run's server metrics (scrape reads at
// most as many).
const MaxGPUs = 64

// MetricGPU is one GPU over a run's samples of a GPU exporter's page: its
// identity (its UUID, else its host and index), its model, and its
// gauges, each nil when the page had none: Util the share of time a
// kernel ran, in percent (DCGM_FI_DEV_GPU_UTIL: not SM occupancy);
// MemoryMiB the framebuffer memory used; PowerW the power draw.
type MetricGPU struct {
	GPU       string      `json:"gpu"`
	Model     string      `json:"model,omitempty"`
	Util      *GaugeStats `json:"util_pct,omitempty"`
	MemoryMiB *GaugeStats `json:"memory_mib,omitempty"`
	PowerW    *GaugeStats `json:"power_w,omitempty"`
}

// GaugeStats is a gauge over a run's samples: its family on the page,
// the samples, their median and maximum.
type GaugeStats struct {
	Family  string  `json:"family"`
	Samples int     `json:"samples"`
	Median  float64 `json:"median"`
	Max     float64 `json:"max"`
}

// Bounds of a GPU's gauges (a value beyond is no GPU's): percent, MiB
// (1 TiB), watts.
const (
	MaxGPUUtil   = 100
	MaxGPUMemory = 1 << 20
	MaxGPUPower  = 5000
)

// checkGPUs refuses GPUs no scrape gives: too many, values out of their
// bounds, names that are no line of printable text.
func (m *ServerMetrics) checkGPUs() error {
	if len(m.GPUs) > MaxGPUs || m.GPUsLeftOut < 0 || m.GPUsLeftOut > maxCount {
		return fmt.Errorf("server_metrics: %d GPUs and %d left out, at most %d", len(m.GPUs), m.GPUsLeftOut, MaxGPUs)
	}
	for i, g := range m.GPUs {
		if !plainText(g.GPU, MaxReason) || !plainText(g.Model, MaxReason) {
			return fmt.Errorf("server_metrics.gpus[%d]: a name over %d bytes or not printable text", i, MaxReason)
		}
		for _, s := range []struct {
			key string
			g   *GaugeStats
			max float64
		}{{"util_pct", g.Util, MaxGPUUtil}, {"memory_mib", g.MemoryMiB, MaxGPUMemory}, {"power_w", g.PowerW, MaxGPUPower}} {
			if s.g == nil {
				continue
			}
			if !(s.g.Median >= 0 && s.g.Median <= s.g.Max && s.g.Max <= s.max) || s.g.Samples < 1 || !plainText(s.g.Family, MaxReason) {
				return fmt.Errorf("server_metrics.gpus[%d].%s: median %g and max %g of %d samples, not from 0 to %g", i, s.key, s.g.Median, s.g.Max, s.g.Samples, s.max)
			}
		}
	}
	return nil
}

// MetricSpec is a server's speculative-decoding counters over a run (the
// page after the run minus the page before): the drafts proposed (0 and
// DraftsFamily "" when the page has no count of them), their tokens, and
// the tokens accepted.
type MetricSpec struct {
	DraftsFamily      string  `json:"drafts_family,omitempty"`
	DraftTokensFamily string  `json:"draft_tokens_family"`
	AcceptedFamily    string  `json:"accepted_family"`
	Drafts            float64 `json:"drafts"`
	DraftTokens       float64 `json:"draft_tokens"`
	Accepted          float64 `json:"accepted"`
}

// Rate is the share of draft tokens accepted (NaN when none were drafted).
func (s *MetricSpec) Rate() float64 {
	if s.DraftTokens == 0 {
		return math.NaN()
	}
	return s.Accepted / s.DraftTokens
}

// Length is the mean acceptance length, the bonus token counted (1 +
// accepted ÷ drafts, as vLLM logs it); NaN without drafts.
func (s *MetricSpec) Length() float64 {
	if s.Drafts == 0 {
		return math.NaN()
	}
	return 1 + s.Accepted/s.Drafts
}

// MaxDraft bounds the tokens of one draft (a mean acceptance length of
// at most MaxDraft + 1: spec_accept_length's bound).
const MaxDraft = 64

// Check refuses counters no scrape gives: negative, more accepted than
// drafted, more drafts than draft tokens or drafts of more than MaxDraft
// tokens, families that are no line of printable text.
func (s *MetricSpec) Check() error {
	if s == nil {
		return nil
	}
	if !(s.DraftTokens >= 0 && s.DraftTokens <= maxCount && s.Accepted >= 0 && s.Accepted <= s.DraftTokens && s.Drafts >= 0 && s.Drafts <= s.DraftTokens) ||
		s.Drafts > 0 && s.DraftTokens > MaxDraft*s.Drafts {
		return fmt.Errorf("server_metrics.spec_decode: %g accepted of %g draft tokens in %g drafts", s.Accepted, s.DraftTokens, s.Drafts)
	}
	if !plainText(s.DraftsFamily, MaxReason) || !plainText(s.DraftTokensFamily, MaxReason) || !plainText(s.AcceptedFamily, MaxReason) {
		return fmt.Errorf("server_metrics.spec_decode: a family over %d bytes or not printable text", MaxReason)
	}
	return nil
}

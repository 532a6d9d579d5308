package sim

import (
	"fmt"
	"math"
	"net/http"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"
)

// The engine's GPUs and its speculative decoding (Engine.GPUs,
// SpecTokens, SpecAccept), exact and deterministic so that a test on
// virtual time asserts their figures:
//
//   - GET /dcgm/metrics serves a page in NVIDIA dcgm-exporter's names,
//     types and labels (docs/metrics.md cites the commit read): each of
//     Engine.GPUs GPUs (the model split over them, as tensor parallelism
//     does: every GPU busy together) is utilized at the share of the
//     fullest profile's slots in use (running ÷ slots, 100 % when the
//     batch is full; without slots, 100 % while a request runs), its
//     memory holds the weights (half its 81,559 MiB) and the KV cache in
//     proportion to its use, and it draws 70 W idle and 700 W at full
//     utilization, in proportion between.
//   - /metrics adds vLLM's speculative-decoding counters: every answer of
//     N output tokens made N ÷ (1 + P·K) drafts of K tokens each, of which
//     P·K were accepted (each token of the answer an accepted draft token
//     or a draft's bonus token), so the acceptance rate is P and the mean
//     acceptance length 1 + P·K.

// GPU figures of the simulated GPUs.
const (
	gpuMemoryMiB = 81559 // an H100 80GB's framebuffer
	gpuIdleW     = 70
	gpuMaxW      = 700
)

// MaxGPUs bounds Engine.GPUs.
const MaxGPUs = 64

// gpuLoad is the share of the engines' capacity in use: the fullest
// profile's slots in use, or 1 while a request runs on one without slots.
func (s *Server) gpuLoad() float64 {
	s.mu.Lock()
	engines := make([]*engine, 0, len(s.engines))
	for _, e := range s.engines {
		engines = append(engines, e)
	}
	s.mu.Unlock()
	load := 0.0
	for _, e := range engines {
		e.mu.Lock()
		switch {
		case e.slots > 0:
			load = math.Max(load, math.Min(1, float64(e.busy)/float64(e.slots)))
		case e.busy > 0:
			load = 1
		}
		e.mu.Unlock()
	}
	return load
}

// dcgm serves the GPUs' page, 404 when the engine has none.
func (s *Server) dcgm(w http.ResponseWriter) {
	s.mu.RLock()
	e := s.profile.Engine
	s.mu.RUnlock()
	if e == nil || e.GPUs == 0 {
		writeError(w, http.StatusNotFound, "invalid_request_error", "no GPUs: run the simulator with --engine (or --gpus N)", "")
		return
	}
	load := s.gpuLoad()
	util := math.Round(100 * load) // dcgm-exporter gives an integer percent
	gauges := []struct {
		name, help string
		v          float64
	}{
		{"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", util},
		{"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", math.Round(gpuMemoryMiB * (0.5 + 0.45*load))},
		{"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", gpuIdleW + (gpuMaxW-gpuIdleW)*util/100},
	}
	w.Header().Set("Content-Type", string(expfmt.NewFormat(expfmt.TypeTextPlain)))
	for _, g := range gauges {
		f := &dto.MetricFamily{Name: proto.String(g.name), Help: proto.String(g.help), Type: dto.MetricType_GAUGE.Enum()}
		for i := range e.GPUs {
			f.Metric = append(f.Metric, &dto.Metric{Label: gpuLabels(i), Gauge: &dto.Gauge{Value: proto.Float64(g.v)}})
		}
		if _, err := expfmt.MetricFamilyToText(w, f); err != nil {
			return
		}
	}
}

// gpuLabels are dcgm-exporter's labels of simulated GPU i.
func gpuLabels(i int) []*dto.LabelPair {
	l := func(k, v string) *dto.LabelPair { return &dto.LabelPair{Name: proto.String(k), Value: proto.String(v)} }
	return []*dto.LabelPair{l("gpu", fmt.Sprint(i)), l("UUID", fmt.Sprintf("GPU-5e1a0000-0000-4000-8000-%012d", i)),
		l("pci_bus_id", fmt.Sprintf("00000000:%02X:00.0", i+1)), l("device", fmt.Sprintf("nvidia%d", i)),
		l("modelName", "latgate sim GPU"), l("hostname", "sim")}
}

// specCounters are vLLM's speculative-decoding counters of the answers
// served, under engineStats.mu.
type specCounters struct {
	on                            bool
	drafts, draftTokens, accepted float64
}

// observeSpec adds an answer's drafts: N ÷ (1 + P·K) drafts of K tokens,
// P·K of each accepted.
func (c *specCounters) observeSpec(t *engineTimes) {
	if t.specTokens <= 0 {
		return
	}
	c.on = true
	k, pk := float64(t.specTokens), t.specAccept*float64(t.specTokens)
	d := float64(t.output) / (1 + pk)
	c.drafts += d
	c.draftTokens += k * d
	c.accepted += pk * d
}

// families are the counters in vLLM's names, none before a draft.
func (c *specCounters) families() []*dto.MetricFamily {
	if !c.on {
		return nil
	}
	counter := func(name, help string, v float64) *dto.MetricFamily {
		return &dto.MetricFamily{Name: proto.String(name), Help: proto.String(help), Type: dto.MetricType_COUNTER.Enum(),
			Metric: []*dto.Metric{{Label: simLabels, Counter: &dto.Counter{Value: proto.Float64(v)}}}}
	}
	return []*dto.MetricFamily{
		counter("vllm:spec_decode_num_drafts_total", "Number of spec decoding drafts.", c.drafts),
		counter("vllm:spec_decode_num_draft_tokens_total", "Number of draft tokens.", c.draftTokens),
		counter("vllm:spec_decode_num_accepted_tokens_total", "Number of accepted tokens.", c.accepted),
	}
}

// Package scrape reads an inference server's own Prometheus metrics page
// (its metrics_url) before, during and after a run: the histogram deltas
// of its queue, prefill, decode and TTFT histograms become the run's
// server-side quantiles (from the buckets, and said to be), and its gauges
// (requests waiting, KV-cache usage) a median and a maximum over the
// samples taken during the run. A text page (Prometheus text, OpenMetrics)
// is parsed with the Prometheus project's own library
// (github.com/prometheus/common/expfmt), given only the lines of the
// families read; a protobuf page is read at the wire, family by family and
// series by series (client_model's metrics.proto). A scrape that fails is
// a warning, never a failed run; a page is bounded in size, and what it
// costs in memory and warnings whatever its series, families or messages
// (each family read is held once, and makes one warning at most); the
// endpoint's key goes only to a page on the endpoint's own origin.
package scrape

import (
	"slices"
	"sort"
)

// Names says which families of a page feed the run's stages. Each lists
// alternatives (a family's current name and an older one): the first the
// page has is read. A stage without names is not read.
type Names struct {
	// Histograms of a request's time, in seconds.
	Queue, Prefill, Decode, TTFT []string
	// Gauges: the requests waiting for the engine (summed over the page's
	// series, e.g. engines) and the KV-cache usage, a fraction (the
	// fullest series).
	Waiting, KVCache []string
	// The prefix cache: counters of the prompt tokens looked up in it and
	// of those found (each summed over the page's series; their deltas
	// over a run are its hit rate), or a gauge of a hit rate (the fullest
	// series) where the server keeps no counters.
	CacheQueries, CacheHits, CacheHitRate []string
	// GPU telemetry (gpu.go): gauges per GPU, read GPU by GPU: its
	// utilization in percent, its framebuffer memory used in MiB and its
	// power draw in watts.
	GPUUtil, GPUMemory, GPUPower []string
	// Speculative decoding (spec.go): counters of the drafts proposed,
	// their tokens and the tokens accepted (each summed over the page's
	// series; their deltas over a run are its acceptance), or, where the
	// server keeps no counters, gauges of the acceptance rate and the
	// mean acceptance length it last computed (the mean of the series).
	SpecDrafts, SpecDraftTokens, SpecAccepted []string
	SpecAcceptRate, SpecAcceptLength          []string
}

// Stage and gauge names, as the results file says them.
const (
	StageQueue    = "queue"
	StagePrefill  = "prefill"
	StageDecode   = "decode"
	StageTTFT     = "ttft"
	GaugeWaiting  = "waiting"
	GaugeKVCache  = "kv_cache"
	GaugeCacheHit = "cache_hit"
	// Gauges of a server that keeps no speculative-decoding counters.
	GaugeSpecRate   = "spec_accept_rate"
	GaugeSpecLength = "spec_accept_length"
)

// stages lists the histograms of n in the order of the results file.
func (n Names) stages() []struct {
	name     string
	families []string
} {
	return []struct {
		name     string
		families []string
	}{{StageQueue, n.Queue}, {StagePrefill, n.Prefill}, {StageDecode, n.Decode}, {StageTTFT, n.TTFT}}
}

// all is every family n names.
func (n Names) all() []string {
	return slices.Concat(n.Queue, n.Prefill, n.Decode, n.TTFT, n.Waiting, n.KVCache, n.CacheQueries, n.CacheHits, n.CacheHitRate,
		n.GPUUtil, n.GPUMemory, n.GPUPower, n.SpecDrafts, n.SpecDraftTokens, n.SpecAccepted, n.SpecAcceptRate, n.SpecAcceptLength)
}

// known are the names of the engines latgate knows, as their sources
// register them (docs/metrics.md cites each).
var known = map[string]Names{
	// vLLM (vllm/v1/metrics/loggers.py): the request's time WAITING, in
	// PREFILL and in DECODE, and its TTFT; kv_cache_usage_perc replaced
	// gpu_cache_usage_perc. The prefix cache's counters of queried and hit
	// tokens, prefix_cache_queries and prefix_cache_hits (gpu_prefix_cache_*
	// before 0.9), are Python client counters: _total in the text
	// exposition, the bare name a family of OpenMetrics.
	"vllm": {
		Queue:        []string{"vllm:request_queue_time_seconds"},
		Prefill:      []string{"vllm:request_prefill_time_seconds"},
		Decode:       []string{"vllm:request_decode_time_seconds"},
		TTFT:         []string{"vllm:time_to_first_token_seconds"},
		Waiting:      []string{"vllm:num_requests_waiting"},
		KVCache:      []string{"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
		CacheQueries: []string{"vllm:prefix_cache_queries_total", "vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries"},
		CacheHits:    []string{"vllm:prefix_cache_hits_total", "vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits"},
		// Speculative decoding (vllm/v1/spec_decode/metrics.py at
		// ee4ceaae5953d367d8edd2132fd86d6c42506e1e, SpecDecodingProm):
		// client counters per engine, _total in the text exposition.
		// vllm:spec_decode_num_accepted_tokens_per_pos (a series per
		// engine and position) is not read: a family's series are
		// summed, which would give the accepted tokens again, and the
		// results file keeps no positions (docs/metrics.md).
		SpecDrafts:      []string{"vllm:spec_decode_num_drafts_total", "vllm:spec_decode_num_drafts"},
		SpecDraftTokens: []string{"vllm:spec_decode_num_draft_tokens_total", "vllm:spec_decode_num_draft_tokens"},
		SpecAccepted:    []string{"vllm:spec_decode_num_accepted_tokens_total", "vllm:spec_decode_num_accepted_tokens"},
	},
	// SGLang (python/sglang/srt/metrics/collector.py): queueing time, TTFT,
	// the waiting queue, the token (KV) pool's usage; no per-request
	// prefill or decode histogram. Its cache_hit_rate is a gauge the
	// scheduler sets to the hit rate of the prefill batch it last logged
	// (and to 0 at a decode batch's log: managers/scheduler_metrics_mixin.py),
	// so its samples are batches', not the run's.
	"sglang": {
		Queue:        []string{"sglang:queue_time_seconds"},
		TTFT:         []string{"sglang:time_to_first_token_seconds"},
		Waiting:      []string{"sglang:num_queue_reqs"},
		KVCache:      []string{"sglang:token_usage"},
		CacheHitRate: []string{"sglang:cache_hit_rate"},
		// Speculative decoding (collector.py at
		// 93d04878cfb9b08645fae7b11bd340ee33b34acf): only gauges the
		// scheduler sets at each log of a batch, no counters.
		SpecAcceptRate:   []string{"sglang:spec_accept_rate"},
		SpecAcceptLength: []string{"sglang:spec_accept_length"},
	},
	// Text Generation Inference (router/src/server.rs, backends/v3): the
	// request's queue time and the queue's size; its inference duration is
	// prefill and decode together, and it has no KV-cache gauge.
	"tgi": {
		Queue:   []string{"tgi_request_queue_duration"},
		Waiting: []string{"tgi_queue_size"},
	},
	// NVIDIA's dcgm-exporter (etc/default-counters.csv and
	// internal/pkg/rendermetrics/render_metrics.go at
	// d5e5f510a1b6b393f39a43293ccd9dc985defc79): gauges per GPU, labelled
	// gpu (its index on the host), UUID (uuid with --use-old-namespace),
	// pci_bus_id, device, modelName, hostname (Hostname before that
	// commit) and GPU_I_ID on a MIG instance. GPU_UTIL is the share of
	// time a kernel ran (not SM occupancy), in %; FB_USED in MiB;
	// POWER_USAGE in W.
	"dcgm": {
		GPUUtil:   []string{"DCGM_FI_DEV_GPU_UTIL"},
		GPUMemory: []string{"DCGM_FI_DEV_FB_USED"},
		GPUPower:  []string{"DCGM_FI_DEV_POWER_USAGE"},
	},
}

// Known returns the names of a known engine ("vllm", "sglang", "tgi") or
// GPU exporter ("dcgm").
func Known(engine string) (Names, bool) {
	n, ok := known[engine]
	return n, ok
}

// Engines lists the known engines.
func Engines() []string {
	var out []string
	for e := range known {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// AnyEngine are the names of every known engine together, so a page is
// read by whichever engine's families it holds (their prefixes keep them
// apart: vllm:, sglang:, tgi_, DCGM_).
func AnyEngine() Names {
	var n Names
	for _, e := range Engines() {
		n = n.Then(known[e])
	}
	return n
}

// Then is n with o's alternatives after n's own: n's families are read
// first where the page has them.
func (n Names) Then(o Names) Names {
	return Names{
		Queue: slices.Concat(n.Queue, o.Queue), Prefill: slices.Concat(n.Prefill, o.Prefill),
		Decode: slices.Concat(n.Decode, o.Decode), TTFT: slices.Concat(n.TTFT, o.TTFT),
		Waiting: slices.Concat(n.Waiting, o.Waiting), KVCache: slices.Concat(n.KVCache, o.KVCache),
		CacheQueries: slices.Concat(n.CacheQueries, o.CacheQueries), CacheHits: slices.Concat(n.CacheHits, o.CacheHits),
		CacheHitRate: slices.Concat(n.CacheHitRate, o.CacheHitRate),
		GPUUtil:      slices.Concat(n.GPUUtil, o.GPUUtil), GPUMemory: slices.Concat(n.GPUMemory, o.GPUMemory),
		GPUPower: slices.Concat(n.GPUPower, o.GPUPower), SpecDrafts: slices.Concat(n.SpecDrafts, o.SpecDrafts),
		SpecDraftTokens: slices.Concat(n.SpecDraftTokens, o.SpecDraftTokens), SpecAccepted: slices.Concat(n.SpecAccepted, o.SpecAccepted),
		SpecAcceptRate: slices.Concat(n.SpecAcceptRate, o.SpecAcceptRate), SpecAcceptLength: slices.Concat(n.SpecAcceptLength, o.SpecAcceptLength),
	}
}

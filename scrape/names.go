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
	return slices.Concat(n.Queue, n.Prefill, n.Decode, n.TTFT, n.Waiting, n.KVCache, n.CacheQueries, n.CacheHits, n.CacheHitRate)
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
	},
	// Text Generation Inference (router/src/server.rs, backends/v3): the
	// request's queue time and the queue's size; its inference duration is
	// prefill and decode together, and it has no KV-cache gauge.
	"tgi": {
		Queue:   []string{"tgi_request_queue_duration"},
		Waiting: []string{"tgi_queue_size"},
	},
}

// Known returns the names of a known engine ("vllm", "sglang", "tgi").
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
// apart: vllm:, sglang:, tgi_).
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
	}
}

package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/latgate/latgate/internal/clock"
)

// Engine makes the simulator an inference engine that reports its own
// time, in the forms real servers use (docs/metrics.md): every reported
// duration is the delay the simulator actually injected. The time an
// answer waited for a slot of the profile's Capacity is its queue; of its
// TTFT, Front is the part spent in front of the engine (a gateway, the
// framework) and the rest the prefill; the decode runs from the first
// output event to the last. The engine's histograms and gauges are served
// at GET /metrics in vLLM's names.
type Engine struct {
	// Front is the part of each TTFT before the engine (within the
	// HeaderDelay, as a gateway's time is before the engine's headers).
	Front time.Duration
	// Report lists the forms the engine reports its time in: "llama.cpp"
	// (timings on the last chunk), "vllm" (metrics on the usage chunk),
	// "groq" (x_groq.usage on the finish chunk, and usage), "openai"
	// (openai-processing-ms), "litellm" (x-litellm-overhead-duration-ms,
	// Front as the gateway's time), "tgi" (x-queue-time … on an answer that
	// is not streamed, as Text Generation Inference does). Ollama's native
	// API always reports its durations.
	Report []string
	// GPUs, when > 0, are served at GET /dcgm/metrics in dcgm-exporter's
	// names (gpu.go), at most MaxGPUs.
	GPUs int
	// SpecTokens, when > 0, makes the engine decode speculatively: K
	// draft tokens a draft, SpecAccept (0 to 1) of them accepted, counted
	// at /metrics in vLLM's names (gpu.go).
	SpecTokens int
	SpecAccept float64
}

// Forms of Engine.Report.
const (
	ReportLlamaCpp = "llama.cpp"
	ReportVLLM     = "vllm"
	ReportGroq     = "groq"
	ReportOpenAI   = "openai"
	ReportLiteLLM  = "litellm"
	ReportTGI      = "tgi"
)

// Reports are the forms of Engine.Report.
var Reports = []string{ReportLlamaCpp, ReportVLLM, ReportGroq, ReportOpenAI, ReportLiteLLM, ReportTGI}

// Validate refuses an engine the simulator cannot be: a negative front, a
// form it does not know.
func (e Engine) Validate() error {
	if e.Front < 0 {
		return fmt.Errorf("engine front %v: must not be negative", e.Front)
	}
	if e.GPUs < 0 || e.GPUs > MaxGPUs {
		return fmt.Errorf("gpus %d: from 0 to %d", e.GPUs, MaxGPUs)
	}
	if e.SpecTokens < 0 || e.SpecTokens > 64 || !(e.SpecAccept >= 0 && e.SpecAccept <= 1) {
		return fmt.Errorf("spec tokens %d, spec accept %v: from 0 to 64 tokens a draft, a share from 0 to 1 accepted", e.SpecTokens, e.SpecAccept)
	}
	for _, r := range e.Report {
		if !slices.Contains(Reports, r) {
			return fmt.Errorf("engine report %q: not a form the simulator reports (%s)", r, strings.Join(Reports, ", "))
		}
	}
	return nil
}

// engineTimes are an answer's times as the engine saw them, from the
// simulator's clock.
type engineTimes struct {
	report                        []string
	queue, front, prefill, decode time.Duration
	total                         time.Duration // arrival to the end of the answer
	prompt, cached, output        int
	specTokens                    int // Engine.SpecTokens, SpecAccept
	specAccept                    float64
}

func (t *engineTimes) has(form string) bool { return t != nil && slices.Contains(t.report, form) }

// withFields is v's JSON object with extra fields.
func withFields(v any, extra map[string]any) []byte {
	if len(extra) == 0 {
		return jsonOf(v)
	}
	var m map[string]any
	_ = json.Unmarshal(jsonOf(v), &m)
	for k, x := range extra {
		m[k] = x
	}
	return jsonOf(m)
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// llamaTimings is llama.cpp's timings object.
func (t *engineTimes) llamaTimings() map[string]any {
	perToken := func(d time.Duration, n int) float64 {
		if n == 0 {
			return 0
		}
		return msOf(d) / float64(n)
	}
	return map[string]any{"cache_n": t.cached, "prompt_n": t.prompt - t.cached, "prompt_ms": msOf(t.prefill),
		"prompt_per_token_ms": perToken(t.prefill, t.prompt-t.cached), "predicted_n": t.output, "predicted_ms": msOf(t.decode),
		"predicted_per_token_ms": perToken(t.decode, t.output)}
}

// groqUsage is Groq's usage with its times in seconds.
func (t *engineTimes) groqUsage() map[string]any {
	return map[string]any{"queue_time": t.queue.Seconds(), "prompt_tokens": t.prompt, "prompt_time": t.prefill.Seconds(),
		"completion_tokens": t.output, "completion_time": t.decode.Seconds(), "total_tokens": t.prompt + t.output,
		"total_time": (t.prefill + t.decode).Seconds()}
}

// chatFinish is the finish chunk's JSON with what the forms put there:
// Groq's x_groq.usage, and llama.cpp's timings when no usage chunk follows.
func (t *engineTimes) chatFinish(chunk any, usageFollows bool) []byte {
	extra := map[string]any{}
	if t.has(ReportGroq) {
		extra["x_groq"] = map[string]any{"id": "req_sim", "usage": t.groqUsage()}
	}
	if t.has(ReportLlamaCpp) && !usageFollows {
		extra["timings"] = t.llamaTimings()
	}
	return withFields(chunk, extra)
}

// chatUsage is the usage chunk's JSON with llama.cpp's timings, vLLM's
// per-request metrics and Groq's usage times.
func (t *engineTimes) chatUsage(chunk any) []byte {
	extra := map[string]any{}
	if t.has(ReportLlamaCpp) {
		extra["timings"] = t.llamaTimings()
	}
	if t.has(ReportVLLM) {
		m := map[string]any{"queue_time_ms": msOf(t.queue), "time_to_first_token_ms": msOf(t.prefill),
			"generation_time_ms": msOf(t.decode), "mean_itl_ms": nil, "tokens_per_second": nil}
		if t.output > 1 {
			m["mean_itl_ms"] = msOf(t.decode) / float64(t.output-1)
		}
		extra["metrics"] = m
	}
	if t.has(ReportGroq) {
		u := t.groqUsage()
		if t.cached > 0 {
			u["prompt_tokens_details"] = map[string]any{"cached_tokens": t.cached}
		}
		extra["usage"] = u
	}
	return withFields(chunk, extra)
}

// ollamaDone adds Ollama's durations, in nanoseconds, to its final line:
// load_duration is the wait for the engine (its scheduler), the rest as
// its runner counts them.
func (t *engineTimes) ollamaDone(line map[string]any) {
	line["total_duration"], line["load_duration"] = int64(t.total), int64(t.queue)
	line["prompt_eval_duration"], line["eval_duration"] = int64(t.prefill), int64(t.decode)
}

// headers sets the forms' headers, written at header time: what the
// engine knows then (processing so far, the gateway's overhead; TGI's
// times only on an answer that is not streamed, when it knows them all).
func (t *engineTimes) headers(h http.Header, sinceArrival time.Duration, streamed bool) {
	msText := func(d time.Duration) string { return strconv.FormatFloat(msOf(d), 'f', -1, 64) }
	if t.has(ReportOpenAI) {
		h.Set("openai-processing-ms", strconv.FormatInt(sinceArrival.Milliseconds(), 10))
	}
	if t.has(ReportLiteLLM) {
		// The gateway's time so far: Front, or what has passed of it.
		h.Set("x-litellm-overhead-duration-ms", msText(min(t.front, sinceArrival-t.queue)))
	}
	if t.has(ReportTGI) {
		h.Set("x-compute-type", "gpu+optimized")
		if !streamed {
			h.Set("x-total-time", strconv.FormatInt(sinceArrival.Milliseconds(), 10))
			h.Set("x-validation-time", "0")
			h.Set("x-queue-time", strconv.FormatInt(t.queue.Milliseconds(), 10))
			h.Set("x-inference-time", strconv.FormatInt((sinceArrival-t.queue).Milliseconds(), 10))
		}
	}
}

// engineStats are the histograms of the answers served, for GET /metrics.
type engineStats struct {
	mu    sync.Mutex
	hists map[string]*simHistogram
	spec  specCounters
}

// vLLM's buckets (vllm/v1/metrics/loggers.py): request_latency_buckets for
// a request's phases, and the TTFT histogram's own.
var (
	requestBuckets = []float64{0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0}
	ttftBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0}
)

// simHistogram is one histogram of the engine.
type simHistogram struct {
	bounds []float64
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

func (h *simHistogram) observe(d time.Duration) {
	v := d.Seconds()
	i, _ := slices.BinarySearch(h.bounds, v)
	h.counts[i]++
	h.sum += v
	h.n++
}

// observe records a finished answer's times.
func (e *engineStats) observe(t *engineTimes) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hists == nil {
		e.hists = map[string]*simHistogram{}
		for name, b := range map[string][]float64{"vllm:request_queue_time_seconds": requestBuckets, "vllm:request_prefill_time_seconds": requestBuckets,
			"vllm:request_decode_time_seconds": requestBuckets, "vllm:e2e_request_latency_seconds": requestBuckets, "vllm:time_to_first_token_seconds": ttftBuckets} {
			e.hists[name] = &simHistogram{bounds: b, counts: make([]uint64, len(b)+1)}
		}
	}
	e.hists["vllm:request_queue_time_seconds"].observe(t.queue)
	e.hists["vllm:request_prefill_time_seconds"].observe(t.prefill)
	e.hists["vllm:request_decode_time_seconds"].observe(t.decode)
	e.hists["vllm:e2e_request_latency_seconds"].observe(t.queue + t.prefill + t.decode)
	e.hists["vllm:time_to_first_token_seconds"].observe(t.queue + t.prefill)
	e.spec.observeSpec(t)
}

// load is the engines' requests waiting and running now, and the KV-cache
// usage as the simulator models it: the share of the fullest engine's
// slots in use (0 without a capacity model).
func (s *Server) load() (waiting, running int, kv float64) {
	s.mu.Lock()
	engines := make([]*engine, 0, len(s.engines))
	for _, e := range s.engines {
		engines = append(engines, e)
	}
	s.mu.Unlock()
	for _, e := range engines {
		e.mu.Lock()
		waiting, running = waiting+len(e.waiting), running+e.busy
		if e.slots > 0 {
			kv = math.Max(kv, math.Min(1, float64(e.busy)/float64(e.slots)))
		}
		e.mu.Unlock()
	}
	return waiting, running, kv
}

// cachedTTFT is a first step's TTFT with a prefix cache in front of an
// engine (Quirks.PrefixCache or BlockCache, and Engine set): the engine
// evaluates only the prompt tokens the cache does not hold (at least
// one), so the prefill, the TTFT less Front, shrinks in their proportion.
// Otherwise the TTFT as drawn.
func (p Profile) cachedTTFT(ttft time.Duration, prompt, cached int) time.Duration {
	if p.Engine == nil || !(p.Quirks.PrefixCache || p.Quirks.BlockCache > 0) || prompt <= 0 || cached <= 0 {
		return ttft
	}
	front := min(p.Engine.Front, ttft)
	evaluated := max(prompt-cached, 1)
	return front + time.Duration(float64(ttft-front)*float64(evaluated)/float64(prompt))
}

// times are the answer's engine times now, its first output at first.
func (rs response) times(clk clock.Clock, first time.Time) *engineTimes {
	now := clk.Now()
	t := &engineTimes{queue: rs.start.Sub(rs.arrival), decode: now.Sub(first), total: now.Sub(rs.arrival),
		prompt: rs.u.prompt, cached: rs.u.cached, output: rs.u.output}
	if e := rs.p.Engine; e != nil {
		t.report, t.front = e.Report, e.Front
		t.specTokens, t.specAccept = e.SpecTokens, e.SpecAccept
	}
	t.prefill = max(first.Sub(rs.start)-t.front, 0)
	return t
}

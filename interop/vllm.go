package interop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// vllmResult is what `vllm bench serve --save-result --save-detailed` (and
// benchmarks/benchmark_serving.py before it) writes: summary keys and, with
// --save-detailed, parallel per-request arrays. Times are seconds.
type vllmResult struct {
	Date           string          `json:"date"`
	Backend        string          `json:"backend"`
	Label          string          `json:"label"`
	ModelID        string          `json:"model_id"`
	RequestRate    json.RawMessage `json:"request_rate"` // a number or "inf"
	Burstiness     *float64        `json:"burstiness"`
	MaxConcurrency *int            `json:"max_concurrency"`
	Completed      *int            `json:"completed"`
	// Version keys are not written by vLLM itself; a --metadata
	// version=… (or vllm_version=…) lands at the top level.
	VLLMVersion string `json:"vllm_version"`
	Version     string `json:"version"`

	TTFTs      []*float64  `json:"ttfts"`
	ITLs       [][]float64 `json:"itls"`
	InputLens  []int       `json:"input_lens"`
	OutputLens []int       `json:"output_lens"`
	Errors     []string    `json:"errors"`
	// Latencies (end to end) and StartTimes (a monotonic clock) are in
	// the files of recent versions only.
	Latencies  []*float64 `json:"latencies"`
	StartTimes []*float64 `json:"start_times"`
}

// vllmDerivedTotal says how total_ms is computed when the file has no
// per-request end-to-end time (versions before `latencies`).
const vllmDerivedTotal = "ttft_ms + sum(itl_ms): the arrival of the last output chunk; this vLLM file has no per-request end-to-end time, and the end of the stream ([DONE]) comes slightly later"

// vllmDerivedTPOT says how tpot_ms is computed: latgate's definition from
// the chunk gaps vLLM records.
const vllmDerivedTPOT = "sum(itl_ms) / (output_tokens - 1): from the first to the last output chunk, per token after the first"

// decodeVLLM reads one vLLM result file: a JSON object, a JSON array of
// them (a sweep's summary) or objects one after another (--append-result).
func decodeVLLM(in Input) ([]results.Run, error) {
	var objs []vllmResult
	trimmed := bytes.TrimSpace(in.Data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(in.Data, &objs); err != nil {
			return nil, jsonError(in.Name, in.Data, err)
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(in.Data))
		for {
			var o vllmResult
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) && len(objs) > 0 {
				break
			}
			if err != nil {
				return nil, jsonError(in.Name, in.Data, err)
			}
			objs = append(objs, o)
		}
	}
	var runs []results.Run
	for i, o := range objs {
		name := in.Name
		if len(objs) > 1 {
			name = fmt.Sprintf("%s (result %d of %d)", in.Name, i+1, len(objs))
		}
		r, err := vllmRun(name, in.Name, &o)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// vllmRun checks one result and turns it into a run.
func vllmRun(name, file string, o *vllmResult) (results.Run, error) {
	if o.ModelID == "" && o.Backend == "" && o.Completed == nil && o.TTFTs == nil {
		return results.Run{}, fmt.Errorf("%s: not a vLLM bench serve result (no model_id, backend, completed or ttfts key): is it another tool's file?", name)
	}
	if o.TTFTs == nil {
		return results.Run{}, fmt.Errorf("%s: a summary without per-request data (no \"ttfts\", \"itls\" or \"errors\"): vLLM writes them with --save-detailed (vllm bench serve --save-result --save-detailed)", name)
	}
	n := len(o.TTFTs)
	for _, a := range []struct {
		key      string
		len      int
		optional bool
	}{{"itls", len(o.ITLs), false}, {"errors", len(o.Errors), false}, {"output_lens", len(o.OutputLens), false},
		{"input_lens", len(o.InputLens), true}, {"latencies", len(o.Latencies), true}, {"start_times", len(o.StartTimes), true}} {
		if a.len != n && !(a.optional && a.len == 0) {
			return results.Run{}, fmt.Errorf("%s: %q has %d entries and \"ttfts\" %d: the per-request arrays must be parallel", name, a.key, a.len, n)
		}
	}
	scenario, parts, cfg, err := vllmLoad(name, o)
	if err != nil {
		return results.Run{}, err
	}
	r := newRun(VLLM, file, o.ModelID, scenario, parts)
	r.Config = cfg
	r.Imported.ToolVersion = o.VLLMVersion
	if r.Imported.ToolVersion == "" {
		r.Imported.ToolVersion = o.Version
	}
	r.Imported.Date = vllmDate(o.Date)
	start := math.Inf(1)
	for _, s := range o.StartTimes {
		if s != nil {
			start = min(start, *s)
		}
	}
	derived := false
	for i := 0; i < n; i++ {
		q, fromGaps, err := vllmRequest(o, i)
		if err != nil {
			return results.Run{}, fmt.Errorf("%s: %v", name, err)
		}
		if len(o.StartTimes) == n && o.StartTimes[i] != nil {
			q.SentMs = 1000 * (*o.StartTimes[i] - start)
		}
		derived = derived || fromGaps
		r.Requests = append(r.Requests, q)
	}
	r.Imported.Derived = map[string]string{"tpot_ms": vllmDerivedTPOT}
	if derived {
		r.Imported.Derived["total_ms"] = vllmDerivedTotal
	}
	return r, finish(name, &r)
}

// vllmRequest is request i: failed with vLLM's message, failed when it
// produced no output (vLLM counts an empty answer as completed; latgate
// does not), else successful. fromGaps says total_ms was derived.
func vllmRequest(o *vllmResult, i int) (q results.Request, fromGaps bool, err error) {
	ttft := 0.0
	if o.TTFTs[i] != nil {
		ttft = *o.TTFTs[i]
	}
	gaps := make([]float64, len(o.ITLs[i]))
	for j, g := range o.ITLs[i] {
		if g < 0 {
			return q, false, fmt.Errorf("itls[%d][%d] is %g: a time cannot be negative", i, j, g)
		}
		gaps[j] = 1000 * g
	}
	if ttft < 0 {
		return q, false, fmt.Errorf("ttfts[%d] is %g: a time cannot be negative", i, ttft)
	}
	out := o.OutputLens[i]
	switch msg := errorText(o.Errors[i]); {
	case msg != "":
		q = failed(msg)
	case out <= 0 && ttft == 0:
		q = failed("no output: vLLM recorded no first token, no output tokens and no error")
		q.Failure = vocab.NoOutput
	case out <= 0:
		q = failed("no output tokens: vLLM counted 0 output tokens and recorded no error")
		q.Failure = vocab.NoOutput
	case ttft == 0:
		q = failed(fmt.Sprintf("no first-token time: vLLM counted %d output tokens but recorded ttft 0", out))
	default:
		total := 1000*ttft + sum(gaps)
		fromGaps = true
		if len(o.Latencies) > 0 && o.Latencies[i] != nil && *o.Latencies[i] > 0 {
			total, fromGaps = 1000**o.Latencies[i], false
		}
		q = succeeded(1000*ttft, max(total, 1000*ttft))
		q.ITLMs, q.OutputTokens = gaps, out
		if out >= 2 {
			q.TPOTMs = ptr(sum(gaps) / float64(out-1))
		}
	}
	if !q.OK && ttft > 0 {
		q.TTFTMs, q.ITLMs = ptr(1000*ttft), gaps // the times it reached
	}
	if len(o.InputLens) == len(o.TTFTs) {
		q.PromptTokens = max(0, o.InputLens[i])
	}
	return q, fromGaps, nil
}

// vllmLoad names the benchmark's load: request rate, concurrency cap,
// burstiness and label.
func vllmLoad(name string, o *vllmResult) (string, map[string]string, results.RunConfig, error) {
	var cfg results.RunConfig
	parts := map[string]string{}
	rate := math.Inf(1)
	if raw := strings.Trim(string(bytes.TrimSpace(o.RequestRate)), `"`); raw != "" && raw != "null" && raw != "inf" {
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) { // NaN, "Infinity": not a rate (infinite is written "inf")
			return "", nil, cfg, fmt.Errorf("%s: request_rate is %s: want a number above 0 or \"inf\"", name, o.RequestRate)
		}
		rate = v
	}
	var words []string
	if o.Label != "" && o.Label != o.Backend {
		words = append(words, o.Label)
		parts["label"] = o.Label
	}
	words = append(words, "rate="+number(rate))
	parts["rate"] = number(rate)
	if !math.IsInf(rate, 1) {
		cfg.Rate = rate
	}
	if o.MaxConcurrency != nil && *o.MaxConcurrency > 0 {
		words = append(words, fmt.Sprintf("concurrency=%d", *o.MaxConcurrency))
		parts["concurrency"] = strconv.Itoa(*o.MaxConcurrency)
		if cfg.Rate == 0 {
			cfg.Concurrency = *o.MaxConcurrency
		}
	}
	if o.Burstiness != nil && *o.Burstiness != 1 && !math.IsInf(rate, 1) {
		words = append(words, "burstiness="+number(*o.Burstiness))
		parts["burstiness"] = number(*o.Burstiness)
	}
	return strings.Join(words, " "), parts, cfg, nil
}

// vllmDate is vLLM's local "20060102-150405" as ISO 8601 without a zone
// (vLLM writes none), or the text as written when it is not that.
func vllmDate(s string) string {
	t, err := time.Parse("20060102-150405", s)
	if err != nil {
		return s
	}
	return t.Format("2006-01-02T15:04:05")
}

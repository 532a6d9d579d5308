package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// aiperfRecord is one line of AIPerf's profile_export.jsonl: a request's
// metadata, its metrics (each a value with the unit the record states) and
// its error.
type aiperfRecord struct {
	Metadata struct {
		TimestampNs    json.Number `json:"timestamp_ns"`     // request start, epoch ns (0.1)
		RequestStartNs json.Number `json:"request_start_ns"` // the same, later versions
		CreditPhase    string      `json:"credit_phase"`     // "profiling" or "warmup" (0.1)
		BenchmarkPhase string      `json:"benchmark_phase"`  // the same, later versions
	} `json:"metadata"`
	Metrics map[string]aiperfValue `json:"metrics"`
	Error   *struct {
		Code    int    `json:"code"`
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// aiperfValue is a metric: a number or a list of numbers, and its unit.
type aiperfValue struct {
	Value json.RawMessage `json:"value"`
	Unit  string          `json:"unit"`
}

// aiperfSummary is the part of profile_export_aiperf.json (the summary
// AIPerf writes beside the records) that names the model and the load.
type aiperfSummary struct {
	Records     json.RawMessage `json:"records"`
	Version     string          `json:"aiperf_version"`
	InputConfig *struct {
		Endpoint struct {
			ModelNames []string `json:"model_names"`
		} `json:"endpoint"`
		Loadgen struct {
			Concurrency *int     `json:"concurrency"`
			RequestRate *float64 `json:"request_rate"`
		} `json:"loadgen"`
	} `json:"input_config"`
}

// The metric names of AIPerf records (0.1 and later spellings).
var (
	aiperfTTFT   = []string{"ttft", "time_to_first_token"}
	aiperfTTFO   = []string{"ttfo", "time_to_first_output_token"}
	aiperfTotal  = []string{"request_latency"}
	aiperfGaps   = []string{"inter_chunk_latency"}
	aiperfTPOT   = []string{"inter_token_latency"}
	aiperfOutput = []string{"output_sequence_length", "output_token_count"}
	aiperfInput  = []string{"input_sequence_length"}
	aiperfReason = []string{"reasoning_token_count"}
)

// aiperfSummaryName is the summary AIPerf writes beside prefix.jsonl.
func aiperfSummaryName(file string) string {
	base := file[strings.LastIndexAny(file, `/\`)+1:]
	return strings.TrimSuffix(base, ".jsonl") + "_aiperf.json"
}

// decodeAIPerf reads profile_export.jsonl: one run, its model and load from
// the summary beside it when it is there.
func decodeAIPerf(in Input) ([]results.Run, error) {
	if isAIPerfSummary(in.Data) {
		return nil, fmt.Errorf("%s: AIPerf's summary (profile_export_aiperf.json) holds no per-request data: import profile_export.jsonl, the per-request records AIPerf writes beside it", in.Name)
	}
	sum, note := aiperfSummaryOf(in)
	model, scenario, parts := "", "profile", map[string]string{}
	var cfg results.RunConfig
	if sum != nil && sum.InputConfig != nil {
		ic := sum.InputConfig
		if len(ic.Endpoint.ModelNames) > 0 {
			model = ic.Endpoint.ModelNames[0]
		}
		var words []string
		if c := ic.Loadgen.Concurrency; c != nil && *c > 0 {
			words, parts["concurrency"], cfg.Concurrency = append(words, fmt.Sprintf("concurrency=%d", *c)), fmt.Sprint(*c), *c
		}
		if r := ic.Loadgen.RequestRate; r != nil && *r > 0 {
			words, parts["rate"], cfg.Rate, cfg.Concurrency = append(words, "rate="+number(*r)), number(*r), *r, 0
		}
		if len(words) > 0 {
			scenario = strings.Join(words, " ")
		}
	}
	r := newRun(AIPerf, in.Name, model, scenario, parts)
	r.Config = cfg
	if sum != nil {
		r.Imported.ToolVersion = sum.Version
	}
	if note != "" {
		r.Imported.Notes = append(r.Imported.Notes, note)
	}
	if err := aiperfRecords(in, &r); err != nil {
		return nil, err
	}
	return []results.Run{r}, finish(in.Name, &r)
}

// isAIPerfSummary reports whether data is the summary, one JSON object
// spread over lines (a record is an object on one line).
func isAIPerfSummary(data []byte) bool {
	first, _, _ := bytes.Cut(bytes.TrimSpace(data), []byte("\n"))
	if string(bytes.TrimSpace(first)) != "{" {
		return false
	}
	var s aiperfSummary
	return json.Unmarshal(data, &s) == nil && (s.Records != nil || s.InputConfig != nil)
}

// aiperfSummaryOf reads the summary beside the records; without one, the
// note says what is unknown.
func aiperfSummaryOf(in Input) (*aiperfSummary, string) {
	name := aiperfSummaryName(in.Name)
	missing := fmt.Sprintf("no %s beside it: the model and the load are unknown", name)
	if in.Sibling == nil {
		return nil, missing
	}
	b, err := in.Sibling(name)
	if err != nil {
		return nil, missing
	}
	var s aiperfSummary
	if err := json.Unmarshal(b, &s); err != nil || s.InputConfig == nil {
		return nil, fmt.Sprintf("%s beside it is not an AIPerf summary: the model and the load are unknown", name)
	}
	return &s, ""
}

// aiperfRecords appends one request per profiling record (warmup records
// are left out, and counted in a note).
func aiperfRecords(in Input, r *results.Run) error {
	start, warmup := int64(math.MaxInt64), 0
	var starts []int64
	for i, line := range bytes.Split(in.Data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		where := fmt.Sprintf("%s:%d", in.Name, i+1)
		var rec aiperfRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return lineError(in.Name, i+1, line, err)
		}
		if rec.Metadata.CreditPhase == "warmup" || rec.Metadata.BenchmarkPhase == "warmup" {
			warmup++
			continue
		}
		q, err := aiperfRequest(&rec)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		t := epochNs(rec.Metadata.RequestStartNs, rec.Metadata.TimestampNs)
		if t > 0 && t < start {
			start = t
		}
		starts = append(starts, t)
		r.Requests = append(r.Requests, q)
	}
	for i, t := range starts {
		if t > 0 {
			r.Requests[i].SentMs = float64(t-start) / 1e6
		}
	}
	if start < math.MaxInt64 {
		r.Imported.Date = time.Unix(0, start).UTC().Format(time.RFC3339Nano)
	}
	if warmup > 0 {
		r.Imported.Notes = append(r.Imported.Notes, fmt.Sprintf("%d warmup records left out", warmup))
	}
	return nil
}

// epochNs is the first positive epoch time in nanoseconds of those given
// (written as whole numbers, or in exponent form); 0 for none.
func epochNs(vs ...json.Number) int64 {
	for _, v := range vs {
		if n, err := v.Int64(); err == nil && n > 0 {
			return n
		}
		if f, err := v.Float64(); err == nil && f > 0 && f < math.MaxInt64 {
			return int64(f)
		}
	}
	return 0
}

// aiperfRequest turns a record into a request: failed with AIPerf's error,
// else successful with the times it records.
func aiperfRequest(rec *aiperfRecord) (results.Request, error) {
	m := aiperfMetrics{rec.Metrics}
	ttft, hasTTFT, err := m.ms(aiperfTTFT)
	if err != nil {
		return results.Request{}, err
	}
	total, hasTotal, err := m.ms(aiperfTotal)
	if err != nil {
		return results.Request{}, err
	}
	out, _, err := m.count(aiperfOutput)
	if err != nil {
		return results.Request{}, err
	}
	var q results.Request
	switch e := rec.Error; {
	case e != nil:
		q = failed(errorText(fmt.Sprintf("%s (%d): %s", e.Type, e.Code, e.Message)))
		if e.Code >= 100 && e.Code <= 599 {
			q.Status = e.Code
		}
		if e.Code >= 400 && e.Code <= 599 {
			q.Failure = vocab.HTTPStatus // AIPerf's code is the response's status
		}
		if hasTTFT {
			q.TTFTMs = ptr(ttft)
		}
	case !hasTTFT || !hasTotal:
		return q, fmt.Errorf("a successful record without ttft or request_latency: AIPerf records them for streamed requests only (aiperf profile --streaming)")
	case out <= 0:
		q = failed("no output tokens: AIPerf recorded the request as successful with none")
		q.Failure = vocab.NoOutput
		q.TTFTMs = ptr(ttft)
	default:
		q = succeeded(ttft, max(total, ttft))
		q.OutputTokens = out
		if err := m.fill(&q); err != nil {
			return q, err
		}
	}
	if in, ok, err := m.count(aiperfInput); err != nil {
		return q, err
	} else if ok {
		q.PromptTokens = in
	}
	return q, nil
}

// fill adds what a successful record may hold besides TTFT and total:
// chunk gaps, time per token, time to first visible token, reasoning.
func (a aiperfMetrics) fill(q *results.Request) error {
	gaps, err := a.gaps(aiperfGaps)
	if err != nil {
		return err
	}
	q.ITLMs = gaps
	if v, ok, err := a.ms(aiperfTPOT); err != nil {
		return err
	} else if ok && q.OutputTokens >= 2 {
		q.TPOTMs = ptr(v)
	}
	if v, ok, err := a.ms(aiperfTTFO); err != nil {
		return err
	} else if ok {
		q.TTFCMs = ptr(v)
	}
	n, ok, err := a.count(aiperfReason)
	if ok && n <= q.OutputTokens {
		q.ReasoningTokens = n
	}
	return err
}

// aiperfMetrics reads a record's metrics in the units the record states.
type aiperfMetrics struct{ m map[string]aiperfValue }

// find is the first of the names the record holds.
func (a aiperfMetrics) find(names []string) (string, aiperfValue, bool) {
	for _, n := range names {
		if v, ok := a.m[n]; ok && len(v.Value) > 0 && string(v.Value) != "null" {
			return n, v, true
		}
	}
	return "", aiperfValue{}, false
}

// msPer is milliseconds per unit of a time metric.
var msPer = map[string]float64{"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1000, "sec": 1000}

// ms is a time in milliseconds.
func (a aiperfMetrics) ms(names []string) (float64, bool, error) {
	name, v, ok := a.find(names)
	if !ok {
		return 0, false, nil
	}
	f, err := scale(name, v)
	if err != nil {
		return 0, false, err
	}
	var x float64
	if err := json.Unmarshal(v.Value, &x); err != nil {
		return 0, false, fmt.Errorf("metrics.%s is %s: want a number", name, v.Value)
	}
	if x < 0 {
		return 0, false, fmt.Errorf("metrics.%s is %g: a time cannot be negative", name, x)
	}
	return x * f, true, nil
}

// gaps is a list of times in milliseconds (empty when absent).
func (a aiperfMetrics) gaps(names []string) ([]float64, error) {
	name, v, ok := a.find(names)
	if !ok {
		return []float64{}, nil
	}
	f, err := scale(name, v)
	if err != nil {
		return nil, err
	}
	var xs []float64
	if err := json.Unmarshal(v.Value, &xs); err != nil {
		return nil, fmt.Errorf("metrics.%s is not a list of numbers", name)
	}
	for i := range xs {
		if xs[i] < 0 {
			return nil, fmt.Errorf("metrics.%s[%d] is %g: a time cannot be negative", name, i, xs[i])
		}
		xs[i] *= f
	}
	return xs, nil
}

// count is a token count.
func (a aiperfMetrics) count(names []string) (int, bool, error) {
	name, v, ok := a.find(names)
	if !ok {
		return 0, false, nil
	}
	var x float64
	if err := json.Unmarshal(v.Value, &x); err != nil || x < 0 || x != math.Trunc(x) || x > 1<<40 {
		return 0, false, fmt.Errorf("metrics.%s is %s: want a whole number of tokens", name, v.Value)
	}
	return int(x), true, nil
}

// scale is the factor to milliseconds of a time metric's unit.
func scale(name string, v aiperfValue) (float64, error) {
	f, ok := msPer[strings.ToLower(v.Unit)]
	if !ok {
		return 0, fmt.Errorf("metrics.%s has unit %q: want ns, us, ms or s", name, v.Unit)
	}
	return f, nil
}

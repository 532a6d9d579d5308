package interop

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// guidellmFile is GuideLLM's benchmarks.json: its version (0.5 and later),
// its arguments and one benchmark per load it ran. Two layouts are read:
// 0.5 (config, scheduler, requests with info) and before 0.3 (args,
// worker, requests with scheduler_info).
type guidellmFile struct {
	Metadata struct {
		Version string `json:"guidellm_version"`
	} `json:"metadata"`
	Args struct {
		Model string `json:"model"`
	} `json:"args"`
	Benchmarks *[]guidellmBenchmark `json:"benchmarks"`
}

type guidellmBenchmark struct {
	Config struct {
		Strategy guidellmStrategy `json:"strategy"`
		Backend  struct {
			Model string `json:"model"`
		} `json:"backend"`
	} `json:"config"`
	Args struct {
		Strategy guidellmStrategy `json:"strategy"`
	} `json:"args"`
	Worker struct {
		BackendModel string `json:"backend_model"`
	} `json:"worker"`
	// StartTime and EndTime bound the measured window (epoch seconds):
	// the requests lists also hold warmup and cooldown requests.
	StartTime float64 `json:"start_time"`
	EndTime   float64 `json:"end_time"`
	Requests  struct {
		Successful []guidellmRequest `json:"successful"`
		Errored    []guidellmRequest `json:"errored"`
		Incomplete []guidellmRequest `json:"incomplete"`
	} `json:"requests"`
	Metrics struct {
		RequestTotals *guidellmTotals `json:"request_totals"`
	} `json:"metrics"`
	RequestTotals *guidellmTotals `json:"request_totals"`
}

type guidellmStrategy struct {
	Type           string   `json:"type_"`
	Rate           *float64 `json:"rate"`
	Streams        *int     `json:"streams"`
	MaxConcurrency *int     `json:"max_concurrency"`
}

type guidellmTotals struct {
	Successful int `json:"successful"`
	Errored    int `json:"errored"`
}

// guidellmRequest is one request's statistics: times in epoch seconds,
// request_latency in seconds, the *_ms keys in milliseconds.
type guidellmRequest struct {
	RequestStart *float64 `json:"request_start_time"`
	RequestEnd   *float64 `json:"request_end_time"`
	Start        *float64 `json:"start_time"` // before 0.3
	End          *float64 `json:"end_time"`
	Latency      *float64 `json:"request_latency"`
	TTFTMs       *float64 `json:"time_to_first_token_ms"`
	TTFOMs       *float64 `json:"time_to_first_output_token_ms"`
	// ITLMs is GuideLLM's inter-token latency, (last token − first
	// token) / (output tokens − 1): latgate's tpot.
	ITLMs        *float64 `json:"inter_token_latency_ms"`
	PromptTokens *int     `json:"prompt_tokens"`
	OutputTokens *int     `json:"output_tokens"`
	Error        string   `json:"error"` // before 0.3
	Info         struct {
		Error  string `json:"error"`
		Status string `json:"status"`
	} `json:"info"`
}

// decodeGuideLLM reads benchmarks.json: one run per benchmark.
func decodeGuideLLM(in Input) ([]results.Run, error) {
	var f guidellmFile
	if err := json.Unmarshal(in.Data, &f); err != nil {
		return nil, jsonError(in.Name, in.Data, err)
	}
	if f.Benchmarks == nil {
		return nil, fmt.Errorf("%s: not a GuideLLM benchmarks.json (no \"benchmarks\" key): is it another tool's file?", in.Name)
	}
	if len(*f.Benchmarks) == 0 {
		return nil, fmt.Errorf("%s: no benchmarks: GuideLLM measured nothing", in.Name)
	}
	var runs []results.Run
	for i := range *f.Benchmarks {
		b := &(*f.Benchmarks)[i]
		name := fmt.Sprintf("%s: benchmark %d", in.Name, i+1)
		r, err := guidellmRun(name, in.Name, &f, b)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// guidellmRun is one benchmark's run: its requests in the measured window,
// errored ones failed with GuideLLM's message; incomplete ones (cancelled
// by GuideLLM when the benchmark ended) are left out and counted.
func guidellmRun(name, file string, f *guidellmFile, b *guidellmBenchmark) (results.Run, error) {
	listed := len(b.Requests.Successful) + len(b.Requests.Errored) + len(b.Requests.Incomplete)
	totals := b.Metrics.RequestTotals
	if totals == nil {
		totals = b.RequestTotals
	}
	if listed == 0 {
		if totals != nil && totals.Successful+totals.Errored > 0 {
			return results.Run{}, fmt.Errorf("%s: no per-request data (%d requests counted, none listed): GuideLLM left them out of the file; run it without --sample-requests (--output-sampling before 0.3) limiting them", name, totals.Successful+totals.Errored)
		}
		return results.Run{}, fmt.Errorf("%s: no requests: GuideLLM measured nothing", name)
	}
	model := firstNonEmpty(b.Config.Backend.Model, b.Worker.BackendModel, f.Args.Model)
	st := b.Config.Strategy
	if st.Type == "" {
		st = b.Args.Strategy
	}
	scenario, parts, cfg := guidellmLoad(st)
	r := newRun(GuideLLM, file, model, scenario, parts)
	r.Config = cfg
	r.Imported.ToolVersion = f.Metadata.Version
	r.Imported.Date = epochDate(b.StartTime)
	r.Imported.Derived = map[string]string{"tpot_ms": "GuideLLM's inter_token_latency_ms, (last token − first token) / (output tokens − 1): latgate's definition of tpot"}
	outside := 0
	var starts []float64
	for _, group := range []struct {
		key  string
		reqs []guidellmRequest
	}{{"successful", b.Requests.Successful}, {"errored", b.Requests.Errored}} {
		for j := range group.reqs {
			q := &group.reqs[j]
			if !b.inWindow(q) {
				outside++
				continue
			}
			req, err := guidellmRequestOf(q, group.key == "successful")
			if err != nil {
				return results.Run{}, fmt.Errorf("%s, requests.%s[%d]: %v", name, group.key, j, err)
			}
			r.Requests = append(r.Requests, req)
			starts = append(starts, q.start())
		}
	}
	r.Imported.Notes = guidellmNotes(len(b.Requests.Incomplete), outside, len(r.Requests), totals)
	if len(r.Requests) == 0 {
		return r, fmt.Errorf("%s: none of its %d requests is in the measured window (%s to %s)", name, listed, epochDate(b.StartTime), epochDate(b.EndTime))
	}
	first := starts[0]
	for _, s := range starts {
		if s > 0 && (first <= 0 || s < first) {
			first = s
		}
	}
	for i, s := range starts {
		if s > 0 && first > 0 {
			r.Requests[i].SentMs = 1000 * (s - first)
		}
	}
	return r, finish(name, &r)
}

// inWindow reports whether a request overlaps the measured window, as
// GuideLLM's own metrics count it (ended after its start, started before
// its end).
func (b *guidellmBenchmark) inWindow(q *guidellmRequest) bool {
	if b.StartTime <= 0 || b.EndTime <= 0 {
		return true
	}
	s, e := q.start(), q.end()
	return (e <= 0 || e >= b.StartTime) && (s <= 0 || s <= b.EndTime)
}

func (q *guidellmRequest) start() float64 { return firstPositive(q.RequestStart, q.Start) }
func (q *guidellmRequest) end() float64   { return firstPositive(q.RequestEnd, q.End) }

// guidellmRequestOf turns a listed request into a latgate request.
func guidellmRequestOf(q *guidellmRequest, ok bool) (results.Request, error) {
	for _, v := range []struct {
		key string
		v   *float64
	}{{"request_latency", q.Latency}, {"time_to_first_token_ms", q.TTFTMs}, {"time_to_first_output_token_ms", q.TTFOMs}, {"inter_token_latency_ms", q.ITLMs}} {
		if v.v != nil && *v.v < 0 {
			return results.Request{}, fmt.Errorf("%s is %g: a time cannot be negative", v.key, *v.v)
		}
	}
	out := 0
	if q.OutputTokens != nil {
		out = *q.OutputTokens
	}
	var r results.Request
	switch {
	case !ok:
		r = failed(firstNonEmpty(errorText(q.Info.Error), errorText(q.Error), "errored: GuideLLM recorded no message"))
	case q.TTFTMs == nil || q.Latency == nil:
		return r, fmt.Errorf("a successful request without time_to_first_token_ms or request_latency: GuideLLM records them for streamed requests only")
	case out <= 0:
		r = failed("no output tokens: GuideLLM recorded the request as successful with none")
		r.Failure = vocab.NoOutput
	default:
		r = succeeded(*q.TTFTMs, max(1000**q.Latency, *q.TTFTMs))
		r.OutputTokens = out
		if q.ITLMs != nil && out >= 2 {
			r.TPOTMs = ptr(*q.ITLMs)
		}
		if q.TTFOMs != nil {
			r.TTFCMs = ptr(*q.TTFOMs)
		}
	}
	if !r.OK && q.TTFTMs != nil {
		r.TTFTMs = ptr(*q.TTFTMs) // the times it reached
	}
	if q.PromptTokens != nil && *q.PromptTokens > 0 {
		r.PromptTokens = *q.PromptTokens
	}
	return r, nil
}

// guidellmLoad names a benchmark by its strategy: synchronous,
// concurrent streams=8, constant rate=5, throughput.
func guidellmLoad(st guidellmStrategy) (string, map[string]string, results.RunConfig) {
	var cfg results.RunConfig
	typ := st.Type
	if typ == "" {
		typ = "benchmark"
	}
	words := []string{typ}
	parts := map[string]string{"strategy": typ}
	switch {
	case typ == "synchronous":
		cfg.Concurrency = 1
	case st.Streams != nil && *st.Streams > 0:
		words = append(words, fmt.Sprintf("streams=%d", *st.Streams))
		parts["streams"], cfg.Concurrency = fmt.Sprint(*st.Streams), *st.Streams
	case st.Rate != nil && *st.Rate > 0:
		words = append(words, "rate="+number(*st.Rate))
		parts["rate"], cfg.Rate = number(*st.Rate), *st.Rate
	case st.MaxConcurrency != nil && *st.MaxConcurrency > 0:
		words = append(words, fmt.Sprintf("concurrency=%d", *st.MaxConcurrency))
		parts["concurrency"], cfg.Concurrency = fmt.Sprint(*st.MaxConcurrency), *st.MaxConcurrency
	}
	return strings.Join(words, " "), parts, cfg
}

// guidellmNotes say what the run leaves out of the benchmark's lists, and
// when GuideLLM kept only a sample of the requests it counted.
func guidellmNotes(incomplete, outside, kept int, totals *guidellmTotals) []string {
	var notes []string
	if outside > 0 {
		notes = append(notes, fmt.Sprintf("%d warmup or cooldown requests outside the measured window left out, as GuideLLM's metrics leave them out", outside))
	}
	if incomplete > 0 {
		notes = append(notes, fmt.Sprintf("%d incomplete requests (cancelled by GuideLLM when the benchmark ended) left out", incomplete))
	}
	if totals != nil && totals.Successful+totals.Errored > kept {
		notes = append(notes, fmt.Sprintf("GuideLLM counted %d requests and listed %d of them (a sample): the statistics use the %d listed", totals.Successful+totals.Errored, kept, kept))
	}
	return notes
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func firstPositive(v ...*float64) float64 {
	for _, x := range v {
		if x != nil && *x > 0 {
			return *x
		}
	}
	return 0
}

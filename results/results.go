// Package results holds the one form of a measurement from the runner to
// the report: a results file (schema latgate/results/v1, documented in
// docs/formats.md) of runs, one per measured (endpoint, scenario) — and, in
// an interleaved A/B file, per variant — each with its requests.
// Latencies are float64 milliseconds; a time that was not observed is null
// in the file (nil here). The package is pure data: it reads and writes no
// file (package baseline does), measures nothing (package probe) and
// computes no statistic (package compare).
package results

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Schema and MetricsVersion identify the format and the metric definitions.
const (
	Schema = "latgate/results/v1"
	// MetricsVersion 2: perceived counts only visible tokens (the reader
	// starts at the first visible token, never before ttfc).
	MetricsVersion = 2
)

// File is a results file.
type File struct {
	Schema         string    `json:"schema"`
	MetricsVersion int       `json:"metrics_version"`
	ToolVersion    string    `json:"tool_version"`
	CreatedAt      time.Time `json:"created_at"`
	// ID identifies the measurement that wrote the file: 128 random bits
	// in hex (NewID), drawn when latgate started measuring, at StartedAt.
	// A copy of the file keeps them: latgate merge --shards refuses two
	// legs of one ID. Absent in a file written before files had one, an
	// imported file and a merged one.
	ID        string     `json:"id,omitempty"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	Source    Source     `json:"source"`
	Runs      []Run      `json:"runs"`
	// Incomplete, when not empty, says why the run did not measure all it
	// planned (interrupted, a cap reached, stopped on repeated errors). An
	// incomplete file is never recorded as a baseline and never passes a gate.
	Incomplete string `json:"incomplete,omitempty"`
	// CostUSD is what the run paid: every priced request received, warmup
	// included (absent when no model has a price).
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Notes say when a run stopped early or was interrupted.
	Notes []string `json:"notes,omitempty"`
	// Capacity holds the file's capacity searches; their levels are runs
	// with a Level.
	Capacity []Search `json:"capacity,omitempty"`
	// Budgets are those of the suite the file was measured with (the
	// head's in an A/B file); nil when it recorded none.
	Budgets *Budgets `json:"budgets,omitempty"`
}

// Source says where and from what the file was recorded.
type Source struct {
	GitSHA string `json:"git_sha"`
	GitRef string `json:"git_ref"`
	Runner string `json:"runner"`
	Region string `json:"region"`
	// Tool names the tool that measured the requests of an imported file
	// (latgate import): "vllm", "aiperf" or "guidellm"; empty when latgate
	// measured them itself. Each run's Imported says more.
	Tool string `json:"tool,omitempty"`
}

// Imported is the provenance of a run that another tool measured
// (latgate import): which tool, which of its versions, which file, when,
// and which values latgate derived from the file rather than read.
type Imported struct {
	Tool string `json:"tool"`
	// ToolVersion is the version the file names; empty when it names none.
	ToolVersion string `json:"tool_version,omitempty"`
	// File is the base name of the file the run was read from.
	File string `json:"file"`
	// Date is when the source says the benchmark ran: RFC 3339 when it
	// gives a time zone or an epoch time, else as it wrote it.
	Date string `json:"date,omitempty"`
	// Derived maps a request key to how latgate computed it from the
	// source's values (for example total_ms from ttft and the gaps).
	Derived map[string]string `json:"derived,omitempty"`
	// Notes say what the source held that the run leaves out (warmup,
	// requests the tool cancelled itself), or how it differs.
	Notes []string `json:"notes,omitempty"`
}

// Run is one (endpoint, scenario) pair.
type Run struct {
	Scenario         string            `json:"scenario"`
	Endpoint         string            `json:"endpoint"`
	Model            string            `json:"model"`
	Fingerprint      string            `json:"fingerprint"`
	FingerprintParts map[string]string `json:"fingerprint_parts,omitempty"`
	ConfigLine       int               `json:"config_line,omitempty"`
	Config           RunConfig         `json:"config"`
	Region           string            `json:"region,omitempty"`
	// Variant is the side of an interleaved A/B file (latgate ab) the run
	// measured: vocab.Base or vocab.Head; empty otherwise.
	Variant vocab.Side `json:"variant,omitempty"`
	// Confirm marks a confirmation run of an A/B file (regression.confirm):
	// a scenario that failed, measured again, both variants interleaved,
	// before its regressions fail the gate.
	Confirm bool `json:"confirm,omitempty"`
	// CostUSD adds up the priced requests of the run, its warmup requests
	// included; absent when its model has no price.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Adaptive sampling (requests: {min, max}); all absent for a fixed
	// count. RequestsMin is min (Config.Requests is max); Looks the
	// planned looks of the sequential design; StoppedAt the requests (per
	// variant in an A/B file) measured when the scenario stopped; Stop why
	// (vocab.Decided at a look, vocab.MaxReached, or the cause that cut the
	// whole run short: interrupted, capped, fail_fast), and StopReason the
	// same in words: "at the look at 80, every check was within 10% (or
	// not testable at max)", "regression (…)", "max
	// reached", "max reached: …" when nothing could decide earlier.
	RequestsMin int        `json:"requests_min,omitempty"`
	Looks       int        `json:"looks,omitempty"`
	StoppedAt   int        `json:"stopped_at,omitempty"`
	Stop        vocab.Stop `json:"stop,omitempty"`
	StopReason  string     `json:"stop_reason,omitempty"`
	// Imported is set on a run that another tool measured (latgate
	// import); nil for latgate's own.
	Imported *Imported `json:"imported,omitempty"`
	// Level labels a level of a capacity search with its load; nil for
	// every other run. Shards is how many matrix legs measured it, each at
	// the level's load (latgate merge --shards); 0 for one.
	Level  *Level `json:"level,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// ServerMetrics is what the endpoint's metrics_url said over the
	// run's measured requests; nil without one.
	ServerMetrics *ServerMetrics `json:"server_metrics,omitempty"`
	// Phase is the phase of a scenario with phases (run in order, each a
	// run: healthy, fault, recovered); its Scenario is then the
	// scenario's name, "/" and the phase's. Faults are the faults the
	// phase's proxies injected. Both empty for a scenario without phases.
	Phase  string  `json:"phase,omitempty"`
	Faults []Fault `json:"faults,omitempty"`
	// Workload is the trace the run's requests were drawn from; nil for a
	// run of written prompts.
	Workload *Workload `json:"workload,omitempty"`
	Requests []Request `json:"requests"`
}

// RunConfig records how the run was driven. In an imported run
// (Run.Imported), a value the source does not state is 0: max_tokens,
// reading_rate (no reader model: perceived_ms is null).
type RunConfig struct {
	MaxTokens       int     `json:"max_tokens"`
	Concurrency     int     `json:"concurrency,omitempty"`
	Rate            float64 `json:"rate,omitempty"`
	Lanes           int     `json:"lanes,omitempty"` // copies of the load run at once; 0: one
	Requests        int     `json:"requests"`
	Warmup          int     `json:"warmup"`
	ColdConnections bool    `json:"cold_connections,omitempty"`
	ReadingRate     float64 `json:"reading_rate"`
}

// Request is one measured request (docs/formats.md). A time that was
// not observed (for example the TTFT of a failed request) is null.
type Request struct {
	OK     bool   `json:"ok"`
	Status int    `json:"status"`
	Error  string `json:"error"`
	// Failure is the kind of a failed request's error; "" when ok, and in
	// a file written before failures were typed (its kind is unknown).
	Failure      vocab.Failure `json:"failure,omitempty"`
	DNSMs        float64       `json:"dns_ms"`
	ConnectMs    float64       `json:"connect_ms"`
	TLSMs        float64       `json:"tls_ms"`
	UpgradeMs    float64       `json:"upgrade_ms,omitempty"` // api realtime: a new WebSocket's upgrade and session.created
	Reused       bool          `json:"reused"`
	TTFBMs       *float64      `json:"ttfb_ms"`
	FirstEventMs *float64      `json:"first_event_ms"`
	TTFTMs       *float64      `json:"ttft_ms"`
	TTFCMs       *float64      `json:"ttfc_ms"`
	TotalMs      *float64      `json:"total_ms"`
	PerceivedMs  *float64      `json:"perceived_ms"`
	TPOTMs       *float64      `json:"tpot_ms"`
	MaxStallMs   *float64      `json:"max_stall_ms"`
	ITLMs        Gaps          `json:"itl_ms"`
	OutputTokens int           `json:"output_tokens"`
	PromptTokens int           `json:"prompt_tokens"`
	CachedTokens int           `json:"cached_tokens"`
	// ReasoningTokens is the part of output_tokens the server reports as
	// reasoning (hidden or summarised thinking); 0 when it reports none.
	ReasoningTokens int    `json:"reasoning_tokens,omitempty"`
	TokensSource    string `json:"tokens_source"`
	// SentMs is when the request was handed to the HTTP client, from the
	// start of its run's measured phase; LagMs is how late that was against
	// the open-loop schedule (coordinated omission made visible), null in a
	// closed loop, where there is no schedule to fall behind.
	SentMs float64  `json:"sent_ms"`
	LagMs  *float64 `json:"lag_ms"`
	// CostUSD is what the request cost at the suite's pricing for its
	// model (reasoning tokens are billed as output); absent when the model
	// has no price.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Buffered: the answer arrived all at once after the wait, as a
	// buffering proxy or gateway releases it (docs/metrics.md, "Buffering").
	Buffered bool `json:"buffered,omitempty"`
	// Block is the interleaving block of an A/B request (from 1): base and
	// head requests of one block were sent at the same moments. 0 otherwise.
	Block int `json:"block,omitempty"`
	// Trace is the trace entry the request replayed (a workload's run);
	// nil otherwise.
	Trace *TraceRef `json:"trace,omitempty"`
	// Upstream is which of the scenario's upstreams served the request
	// (the fault proxy's stamp, passed back by the gateway, or its log);
	// "" without upstreams, or when no proxy saw it. FailoverMs is, for a
	// request a proxy faulted and another upstream then served, from its
	// arrival at the faulted upstream to its arrival at the one that
	// served it; null otherwise.
	Upstream   string   `json:"upstream,omitempty"`
	FailoverMs *float64 `json:"failover_ms,omitempty"`
	// Cold: the request was sent after the scenario's idle period
	// (cold: {idle, samples}): its times are cold_ttft and cold_total,
	// not ttft and total.
	Cold bool `json:"cold,omitempty"`

	// A session (a scenario with tools or turns: several dependent model
	// calls, docs/metrics.md) has its steps and session metrics; a single
	// call has none of them (absent, which reads as null). Times are from
	// the session's send; the stream metrics above cover the whole
	// session (ttft: its first output of any kind; total: its end;
	// inter-token gaps within steps only).
	Steps []Step `json:"steps,omitempty"`
	// FirstToolCallMs is the first step's first tool-call delta; null
	// when the first step called no tool.
	FirstToolCallMs *float64 `json:"first_tool_call_ms,omitempty"`
	// AnswerMs is the first visible token of the final answer; null when
	// there was none (the session failed or was cut by max_steps).
	AnswerMs *float64 `json:"answer_ms,omitempty"`
	// SessionMs is the send of the first step to the end of the final
	// answer, tool time included.
	SessionMs *float64 `json:"session_ms,omitempty"`
	// ToolMs is the tool time inside the session: the client's wait for
	// its scripted tools, or the server's tool execution it streamed.
	ToolMs    *float64 `json:"tool_ms,omitempty"`
	StepCount *int     `json:"step_count,omitempty"`
	// SessionEnd says how the session ended: "answer" (an answer without
	// tool calls after the last turn), "max_steps" (cut before an answer:
	// a failure), or "error" (a step failed).
	SessionEnd string `json:"session_end,omitempty"`
	// UnknownTools are the tools the model called that the suite does not
	// define (each answered {"error": "unknown tool"}).
	UnknownTools []string `json:"unknown_tools,omitempty"`
	// UnknownEvents counts the events of types latgate does not know
	// (api realtime), which it ignored.
	UnknownEvents int `json:"unknown_events,omitempty"`

	// A request of a chat page in a browser (api browser, docs/metrics.md)
	// has the page's answer stream as the browser received it and what the
	// page added (its client stage); no other request has them (absent).
	// Its ttft_ms, total_ms and itl_ms are the frames the page painted.
	Stream *PageStream `json:"stream,omitempty"`
	// ClientMs is ttft_ms − stream.first_text_ms, ClientEndMs total_ms −
	// stream.end_ms.
	ClientMs    *float64 `json:"client_ms,omitempty"`
	ClientEndMs *float64 `json:"client_end_ms,omitempty"`
	// LongFrames counts the page's frames over 50 ms from the click to its
	// last paint; MaxFrameMs is the longest of its frames then.
	LongFrames *int     `json:"long_frames,omitempty"`
	MaxFrameMs *float64 `json:"max_frame_ms,omitempty"`
	// PaintedChars is the answer's characters on the page at the end.
	PaintedChars *int `json:"painted_chars,omitempty"`
	// PageTimeline is what the page painted and its stream received over
	// time, and Screenshots its screenshots: kept for the requests the
	// report shows (the median and p95 by TTFT of each run) and for a few
	// failures on the page (docs/formats.md).
	PageTimeline *PageTimeline `json:"page_timeline,omitempty"`
	Screenshots  []Screenshot  `json:"screenshots,omitempty"`

	// Server is what the server reported of its own time (absent when it
	// reported nothing); a session's is its first step's. OutsideMs is the
	// part of ttft_ms outside the engine: ttft − (queue + prefill), when
	// the server reported both (absent otherwise).
	Server    *ServerTiming `json:"server,omitempty"`
	OutsideMs *float64      `json:"outside_ms,omitempty"`
}

// PageStream is a browser page's answer stream, from the click: its
// response headers, its first chunk that carried answer text, its end;
// null where the browser saw none.
type PageStream struct {
	TTFBMs      *float64 `json:"ttfb_ms"`
	FirstTextMs *float64 `json:"first_text_ms"`
	EndMs       *float64 `json:"end_ms"`
}

// IsSession reports whether the request was a session of several calls.
func (q *Request) IsSession() bool { return q.StepCount != nil }

// Step is one model call of a session. StartMs is from the session's send;
// the other times are from the step's own start (its send in a
// client-driven loop, its start event in a server-driven stream).
type Step struct {
	Turn    int      `json:"turn"`
	StartMs float64  `json:"start_ms"`
	TTFTMs  *float64 `json:"ttft_ms"`
	TTFCMs  *float64 `json:"ttfc_ms"`
	// FirstToolCallMs is the step's first tool-call delta; ToolCallMs
	// when the first tool call's arguments were complete (a tool can
	// start); null without tool calls.
	FirstToolCallMs *float64 `json:"first_tool_call_ms"`
	ToolCallMs      *float64 `json:"tool_call_ms"`
	TotalMs         *float64 `json:"total_ms"`
	ToolCalls       int      `json:"tool_calls"`
	Tools           []string `json:"tools,omitempty"`
	// ToolMs is the step's tool time: after the step, before the next one,
	// in a loop latgate drives; within the step, from ToolCallMs to the
	// tool's result, on a server-driven agent (its step ends after its tools).
	ToolMs       float64 `json:"tool_ms"`
	OutputTokens int     `json:"output_tokens"`
	PromptTokens int     `json:"prompt_tokens"`
	CachedTokens int     `json:"cached_tokens"`
	Error        string  `json:"error,omitempty"`
	// Server is what the server reported of its own time on the step's
	// call (absent when nothing): a conversation's turn-2 prefill beside
	// turn 1's.
	Server *ServerTiming `json:"server,omitempty"`
}

// Validate checks the schema, metrics version and required keys, and
// every request (Request.Check).
func (f *File) Validate() error {
	checks := make([]RunCheck, len(f.Runs))
	for i := range f.Runs {
		for j := range f.Runs[i].Requests {
			checks[i].Add(&f.Runs[i].Requests[j])
		}
	}
	return f.ValidateChecked(checks)
}

// RunCheck is what validation needs of a run's requests, gathered one
// request at a time (a reader that does not keep them checks each as it
// passes): how many there are, the first that Check refuses, and the
// first with screenshots (whether it may have them depends on the run's
// API, which a streamed file may give after its requests).
type RunCheck struct {
	n    int
	err  error
	shot int // 1 + the index of the first request with screenshots; 0: none
	// stratum is the highest stratum of a request that replayed a trace.
	stratum int
}

// Add checks the run's next request.
func (c *RunCheck) Add(q *Request) {
	if c.err == nil {
		if err := q.Check(); err != nil {
			c.err = fmt.Errorf("requests[%d]: %v", c.n, err)
		}
	}
	if c.shot == 0 && len(q.Screenshots) > 0 {
		c.shot = c.n + 1
	}
	if q.Trace != nil {
		c.stratum = max(c.stratum, q.Trace.Stratum, 1)
	}
	c.n++
}

// BrowserAPI is the API of a chat page in a browser as a run's
// fingerprint_parts name it: only its requests have screenshots.
const BrowserAPI = "browser"

// API is the run's API as its fingerprint_parts name it ("api"); "" when
// they name none (the default API, or an imported run).
func (r Run) API() string { return r.FingerprintParts["api"] }

// checkShots refuses screenshots on a run that is not of a browser page.
func (r Run) checkShots(c RunCheck) error {
	if c.shot == 0 || r.API() == BrowserAPI {
		return nil
	}
	api := "no fingerprint_parts.api"
	if r.API() != "" {
		api = fmt.Sprintf("fingerprint_parts.api %q", r.API())
	}
	return fmt.Errorf("requests[%d]: screenshots on a run of %s: only a chat page in a browser (%q) has screenshots", c.shot-1, api, BrowserAPI)
}

// ValidateChecked is Validate with the runs' requests already checked:
// checks[i] holds run i's, whose Requests may then be nil. It returns
// the error Validate returns for the same file.
func (f *File) ValidateChecked(checks []RunCheck) error {
	if len(checks) != len(f.Runs) {
		return fmt.Errorf("validating %d runs with the checks of %d", len(f.Runs), len(checks))
	}
	if f.Schema != Schema {
		if f.Schema == "" {
			return fmt.Errorf("not a latgate results file (no \"schema\" key; want %q)", Schema)
		}
		return fmt.Errorf("not a latgate results file: schema is %q, want %q", f.Schema, Schema)
	}
	if f.MetricsVersion != MetricsVersion {
		return fmt.Errorf("recorded with metrics_version %d, but this latgate measures with version %d: the definitions differ, so re-record the baseline with this version", f.MetricsVersion, MetricsVersion)
	}
	if len(f.Runs) == 0 {
		return errors.New("no runs: the file holds no measurements")
	}
	if !validID(f.ID) {
		return fmt.Errorf("id is %.40q: an id is %d lowercase hexadecimal digits", f.ID, 2*idBytes)
	}
	seen := map[string]bool{}
	for i, r := range f.Runs {
		if r.Scenario == "" || r.Endpoint == "" {
			return fmt.Errorf("runs[%d]: \"scenario\" and \"endpoint\" are required", i)
		}
		k := r.Key()
		if seen[k] {
			return fmt.Errorf("runs[%d]: endpoint %q, scenario %q%s appears twice", i, r.Endpoint, r.Scenario, variantLabel(r.Variant))
		}
		if r.Confirm && r.Variant == "" {
			return fmt.Errorf("runs[%d]: a confirmation run (confirm) needs a variant: it belongs to an A/B file", i)
		}
		if r.Variant != "" && r.Variant != vocab.Base && r.Variant != vocab.Head {
			return fmt.Errorf("runs[%d]: variant is %q, want %q or %q", i, r.Variant, vocab.Base, vocab.Head)
		}
		seen[k] = true
		if checks[i].n == 0 && f.Incomplete == "" {
			return fmt.Errorf("runs[%d] (endpoint %q, scenario %q%s): no requests: nothing was measured", i, r.Endpoint, r.Scenario, variantLabel(r.Variant))
		}
		if checks[i].err != nil {
			return fmt.Errorf("runs[%d].%v", i, checks[i].err)
		}
		if err := r.checkShots(checks[i]); err != nil {
			return fmt.Errorf("runs[%d].%v", i, err)
		}
		if err := checkCost("cost_usd", r.CostUSD); err != nil {
			return fmt.Errorf("runs[%d]: %v", i, err)
		}
		if err := r.checkCounts(); err != nil {
			return fmt.Errorf("runs[%d]: %v", i, err)
		}
		if err := r.ServerMetrics.Check(); err != nil {
			return fmt.Errorf("runs[%d]: %v", i, err)
		}
		if err := r.checkTrace(checks[i]); err != nil {
			return fmt.Errorf("runs[%d]: %v", i, err)
		}
		if err := r.checkPhase(); err != nil {
			return fmt.Errorf("runs[%d]: %v", i, err)
		}
	}
	if err := f.checkLevels(); err != nil {
		return err
	}
	if err := f.Budgets.check(); err != nil {
		return err
	}
	return checkCost("cost_usd", f.CostUSD)
}

// MaxMs bounds every time of a results file (about 11.6 days): a larger
// value is no measurement, and would overflow what reports compute.
const MaxMs = 1e9

// maxCount bounds token and step counts, users and requests; maxUSD a
// cost.
const (
	maxCount = 1e9
	maxUSD   = 1e6
)

// MaxShards bounds the matrix legs one run merges (latgate merge
// --shards): GitHub Actions runs at most 256 jobs of a matrix.
const MaxShards = 256

// checkCounts refuses a run whose load or counts no run gives: users,
// requests or tokens below zero or beyond maxCount, a rate beyond MaxMs
// a second, shards other than 2 to MaxShards (absent for one leg).
func (r *Run) checkCounts() error {
	c := r.Config
	for _, n := range [...]struct {
		key string
		v   int
	}{{"config.max_tokens", c.MaxTokens}, {"config.concurrency", c.Concurrency}, {"config.lanes", c.Lanes}, {"config.requests", c.Requests},
		{"config.warmup", c.Warmup}, {"requests_min", r.RequestsMin}, {"looks", r.Looks}, {"stopped_at", r.StoppedAt}} {
		if n.v < 0 || n.v > maxCount {
			return fmt.Errorf("%s is %d: a count is from 0 to %g", n.key, n.v, float64(maxCount))
		}
	}
	for _, v := range [...]struct {
		key string
		v   float64
	}{{"config.rate", c.Rate}, {"config.reading_rate", c.ReadingRate}} {
		if !(v.v >= 0 && v.v <= MaxMs) {
			return fmt.Errorf("%s is %g: a rate is from 0 to %g a second", v.key, v.v, MaxMs)
		}
	}
	if r.Shards != 0 && (r.Shards < 2 || r.Shards > MaxShards) {
		return fmt.Errorf("shards is %d: a run merges 2 to %d matrix legs (latgate merge --shards), and a leg's own run has none", r.Shards, MaxShards)
	}
	return nil
}

// Check refuses a request whose values no measurement gives (Validate says
// which run and request): an ok request without ttft_ms or total_ms, a
// time below zero or beyond MaxMs, a negative or absurd count or cost, a
// session whose step count is not its steps'.
func (q *Request) Check() error {
	if q.OK && (q.TTFTMs == nil || q.TotalMs == nil) {
		return errors.New("an ok request needs ttft_ms and total_ms")
	}
	switch {
	case q.OK && q.Failure != "":
		return fmt.Errorf("an ok request has no failure, got %q", q.Failure)
	case q.Failure != "" && !slices.Contains(vocab.Failures, q.Failure):
		return fmt.Errorf("failure is %q: not a kind of failure (%s)", q.Failure, failureNames())
	}
	if key, v, bad := q.badTime(); bad {
		return fmt.Errorf("%s is %g: a time is from 0 to %g ms", key, v, MaxMs)
	}
	for _, c := range [...]struct {
		key string
		v   int
	}{{"output_tokens", q.OutputTokens}, {"prompt_tokens", q.PromptTokens}, {"cached_tokens", q.CachedTokens}, {"reasoning_tokens", q.ReasoningTokens}, {"unknown_events", q.UnknownEvents},
		{"long_frames", deref(q.LongFrames)}, {"painted_chars", deref(q.PaintedChars)}} {
		if c.v < 0 || c.v > maxCount {
			return fmt.Errorf("%s is %d: a count is from 0 to %g", c.key, c.v, float64(maxCount))
		}
	}
	if err := checkCost("cost_usd", q.CostUSD); err != nil {
		return err
	}
	if err := q.checkClient(); err != nil {
		return err
	}
	if err := q.checkPage(); err != nil {
		return err
	}
	if err := q.Server.check(); err != nil {
		return fmt.Errorf("server.%v", err)
	}
	if err := q.Trace.check(); err != nil {
		return err
	}
	if err := q.checkUpstream(); err != nil {
		return err
	}
	for i := range q.Steps {
		if err := q.Steps[i].Server.check(); err != nil {
			return fmt.Errorf("steps[%d].server.%v", i, err)
		}
	}
	if q.StepCount != nil && (*q.StepCount < 1 || *q.StepCount != len(q.Steps)) {
		return fmt.Errorf("step_count is %d but the session has %d steps", *q.StepCount, len(q.Steps))
	}
	return nil
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

// failureNames lists the kinds of failure, for a message.
func failureNames() string {
	names := make([]string, len(vocab.Failures))
	for i, f := range vocab.Failures {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

func checkCost(key string, v *float64) error {
	if v != nil && !(*v >= 0 && *v <= maxUSD) {
		return fmt.Errorf("%s is %g: a cost is from $0 to $%g", key, *v, float64(maxUSD))
	}
	return nil
}

// timed is one time of a request or a step, by its key.
type timed struct {
	key string
	v   *float64
}

// outOfBounds finds the first of times that is no time (below zero,
// beyond MaxMs); null times are not observed, not wrong.
func outOfBounds(times []timed) (string, float64, bool) {
	for _, t := range times {
		if t.v != nil && !(*t.v >= 0 && *t.v <= MaxMs) {
			return t.key, *t.v, true
		}
	}
	return "", 0, false
}

// badTime finds the request's first time out of bounds, its gaps' and
// steps' included, in the order of the file's keys; it allocates only to
// name a step's bad time (a request is checked on every read).
func (q *Request) badTime() (string, float64, bool) {
	if key, v, bad := outOfBounds([]timed{
		{"dns_ms", &q.DNSMs}, {"connect_ms", &q.ConnectMs}, {"tls_ms", &q.TLSMs}, {"upgrade_ms", &q.UpgradeMs},
		{"ttfb_ms", q.TTFBMs}, {"first_event_ms", q.FirstEventMs}, {"ttft_ms", q.TTFTMs},
		{"ttfc_ms", q.TTFCMs}, {"total_ms", q.TotalMs}, {"perceived_ms", q.PerceivedMs},
		{"tpot_ms", q.TPOTMs}, {"max_stall_ms", q.MaxStallMs}, {"sent_ms", &q.SentMs}, {"lag_ms", q.LagMs},
		{"first_tool_call_ms", q.FirstToolCallMs}, {"answer_ms", q.AnswerMs}, {"session_ms", q.SessionMs}, {"tool_ms", q.ToolMs},
		{"max_frame_ms", q.MaxFrameMs},
		{"outside_ms", q.OutsideMs},
	}); bad {
		return key, v, true
	}
	for _, g := range q.ITLMs {
		if !(g >= 0 && g <= MaxMs) {
			return "itl_ms", g, true
		}
	}
	if key, v, bad := q.badPageTime(); bad {
		return key, v, true
	}
	for i := range q.Steps {
		st := &q.Steps[i]
		if key, v, bad := outOfBounds([]timed{{"start_ms", &st.StartMs}, {"ttft_ms", st.TTFTMs}, {"ttfc_ms", st.TTFCMs},
			{"first_tool_call_ms", st.FirstToolCallMs}, {"tool_call_ms", st.ToolCallMs},
			{"total_ms", st.TotalMs}, {"tool_ms", &st.ToolMs}}); bad {
			return fmt.Sprintf("steps[%d].%s", i, key), v, true
		}
	}
	return "", 0, false
}

// badPageTime finds a browser request's stream time out of bounds.
func (q *Request) badPageTime() (string, float64, bool) {
	if st := q.Stream; st != nil {
		return outOfBounds([]timed{{"stream.ttfb_ms", st.TTFBMs}, {"stream.first_text_ms", st.FirstTextMs}, {"stream.end_ms", st.EndMs}})
	}
	return "", 0, false
}

// checkClient refuses a client stage beyond ±MaxMs: a difference of two
// times, negative when a page paints before its stream ended (or shows a
// placeholder before the stream's first text).
func (q *Request) checkClient() error {
	for _, t := range []timed{{"client_ms", q.ClientMs}, {"client_end_ms", q.ClientEndMs}} {
		if t.v != nil && !(*t.v >= -MaxMs && *t.v <= MaxMs) {
			return fmt.Errorf("%s is %g: a client stage is from -%g to %g ms", t.key, *t.v, MaxMs, MaxMs)
		}
	}
	return nil
}

// Key identifies a run across files: (endpoint, scenario), the variant in
// an A/B file, the load of a capacity search's level, and whether it is a
// confirmation run.
func (r Run) Key() string {
	k := r.Endpoint + "\x00" + r.Scenario + "\x00" + string(r.Variant) + r.levelKey()
	if r.Confirm {
		k += "\x00confirm"
	}
	return k
}

// OKCount is the number of successful requests.
func (r Run) OKCount() int {
	n := 0
	for _, q := range r.Requests {
		if q.OK {
			n++
		}
	}
	return n
}

func variantLabel(v vocab.Side) string {
	if v == "" {
		return ""
	}
	return " (" + string(v) + ")"
}

// Interleaved reports whether the file holds an A/B run (variants).
func (f *File) Interleaved() bool {
	for _, r := range f.Runs {
		if r.Variant != "" {
			return true
		}
	}
	return false
}

// Requests counts all requests of the file.
func (f *File) Requests() int {
	n := 0
	for _, r := range f.Runs {
		n += len(r.Requests)
	}
	return n
}

// Package suite parses and validates latgate.yaml (docs/config.md).
//
// Decoding is strict: an unknown key is an error naming the key and its line
// (with a "did you mean" for a likely typo), a value of the wrong type names
// its key, a value whose unit could be misread ("tolerance: 10",
// "min_delta: 25") is an error that says what to write, and every error is
// "file:line: message". Files referenced by prompt_file and content_file are
// read relative to the config file through the injected ReadFile; API keys
// and ${VAR} references come from the injected Getenv, never from the file,
// and an unset variable is an error before any request is sent.
//
// The package does no I/O of its own, sends nothing and does not know how
// requests are made: it checks an endpoint's keys against its API's Spec
// (package apis, which probe's files fill: a program that parses suites
// links probe, as gate does) but leaves their meaning to the prober.
//
// The files: the model (suite.go), the raw YAML shapes (raw.go), the
// parser (parse.go, with the endpoints' keys in api.go, the scenarios' in
// scenario.go and session.go, the values' units in values.go, the strict
// decoding in yaml.go) and the fingerprint (fingerprint.go).
package suite

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// Defaults, documented in docs/config.md.
const (
	DefaultRequests        = 50
	DefaultWarmup          = 1
	DefaultConcurrency     = 1
	DefaultMaxTokens       = 128
	DefaultTimeout         = 60 * time.Second
	DefaultStallTimeout    = 15 * time.Second
	DefaultMaxRequests     = 1000
	DefaultMaxOutputTokens = 200000
	DefaultMaxDuration     = 30 * time.Minute
	DefaultReadingRate     = 10.0
	// DefaultLanes is a suite's lanes when it does not say: one copy of
	// each scenario's load, the load the suite describes (docs/statistics.md,
	// "Lanes", measures more).
	DefaultLanes = 1
	// MaxLanes bounds lanes: each lane holds its own connections and
	// workers.
	MaxLanes              = 256
	DefaultTolerance      = 0.10
	DefaultMinDelta       = 25 * time.Millisecond
	DefaultAlpha          = 0.05
	DefaultHistory        = 10
	DefaultTrend          = 100
	DefaultMaxBaselineAge = 14 * 24 * time.Hour
)

// MinTrend and MaxTrend bound regression.trend: a change point needs runs
// on both sides, and the trend file stays small.
const (
	MinTrend = 10
	MaxTrend = 1000
)

// DefaultFailOn is the default list of statuses that fail the gate.
var DefaultFailOn = []vocab.Status{vocab.Regression, vocab.OverBudget}

// stats that latency budgets can bound.
var stats = []vocab.Stat{vocab.P50, vocab.P95, vocab.P99}

// Message is one chat message, with content resolved.
type Message struct {
	Role    string
	Content string
}

// Endpoint is a server to measure.
type Endpoint struct {
	Name string
	// API is the wire format: one of apis.Names() (the default API when
	// the file names none).
	API string
	// BaseURL is what the API's path is appended to (docs/config.md),
	// ${VAR} expanded, without a trailing slash. Empty for an API called
	// at its url.
	BaseURL   string
	Model     string
	APIKeyEnv string
	APIKey    string            // resolved from APIKeyEnv; never written anywhere
	Headers   map[string]string // values with ${VAR} expanded
	// Azure only.
	Deployment, APIVersion string
	// Custom only: the full URL (${VAR} expanded), the HTTP method, the
	// body template as decoded YAML (nil = no body) and how to read the
	// stream.
	URL    string
	Method string
	Body   any
	Stream *Stream
	// Realtime only: answer in audio (TTFT is the first audio delta).
	Audio bool
	// Browser, for a chat page in a browser: how the page is driven.
	Browser *Browser
	// MetricsURLs are the server's own Prometheus pages (${VAR} expanded:
	// the engine's, a GPU exporter's), each scraped during each run; none
	// for none. MetricsNames are the families
	// the suite names for the run's server stages, read before the known
	// engines' (nil: only theirs).
	MetricsURLs  []string
	MetricsNames *MetricsNames
	// PerHour is the price of the endpoint's hardware (cost: per_hour),
	// USD an hour; 0 for none. A capacity search reports what a million
	// output tokens cost at its SLO.
	PerHour float64
	Line    int
	// envSecrets are the values its headers, url or base_url took from the
	// environment: a key in a URL (?key=${K}) is as secret as a header.
	envSecrets []string
}

// MetricsNames are, per server stage of a run, the families of a metrics
// page that hold it (alternatives, the first the page has is read):
// histograms in seconds for the queue, prefill, decode and TTFT; gauges
// for the requests waiting and the KV-cache usage (a fraction).
type MetricsNames struct {
	Queue, Prefill, Decode, TTFT, Waiting, KVCache []string
}

// Stream says how to read a custom endpoint's response: its framing and
// RFC 6901 JSON pointers into each event ("" = not read).
type Stream struct {
	Format       string // sse, ndjson or text
	Text         string // visible output
	Reasoning    string
	Done         string // true or non-empty ends the stream
	Error        string
	OutputTokens string
	InputTokens  string
	CachedTokens string
	// Type points at each event's type; Types says which types are text,
	// reasoning, a tool call (its arguments at ToolCall), its completion, a
	// tool's result and a new step (a server-driven agent).
	Type     string
	ToolCall string
	Types    StreamTypes
}

// StreamTypes lists, per role, the event types that play it.
type StreamTypes struct {
	Text, Reasoning, ToolCall, ToolCallDone, ToolResult, Step []string
}

// Scenario is one representative request, sent Requests times per endpoint.
type Scenario struct {
	Name     string
	Messages []Message
	// MaxTokens is sent as the API's output-token limit.
	MaxTokens int
	// Requests is the number of measured requests per endpoint: the fixed
	// count, or the most an adaptive scenario sends.
	Requests int
	// RequestsMin is the fewest requests of an adaptive scenario
	// (requests: {min, max}); 0 for a fixed count.
	RequestsMin int
	Warmup      int
	Concurrency int
	Rate        float64 // requests per second (open loop); 0 = closed loop
	MaxInFlight int
	Temperature *float64
	Endpoints   []string // subset of endpoint names; empty = all
	// Cache is "warm" (identical prompts: a server's prefix cache can serve
	// them) or "cold" (a unique prefix per request defeats it).
	Cache string
	// A session (several dependent model calls: docs/metrics.md): the
	// tools offered with their scripted results, the most model calls of a
	// session, and the further user turns. None of them: a single call.
	Tools    []Tool
	MaxSteps int
	Turns    []string
	// Capacity, when set, searches the scenario's capacity at an SLO
	// (capacity.go) instead of measuring it at one load.
	Capacity *Capacity
	// Workload, when set, draws the scenario's requests from a trace
	// (workload.go): their prompts, output lengths and times.
	Workload *Workload
	// Upstreams are latgate's fault proxies in front of the scenario's
	// upstreams, and Phases its runs in order with the faults they inject
	// (faults.go); none without them.
	Upstreams []Upstream
	Phases    []Phase
	// Phase is, on the scenario a phase runs as (its Name the scenario's,
	// "/" and the phase's), that phase; nil otherwise.
	Phase *Phase
	Line  int

	// Cold, when set, follows the measured requests with cold samples
	// (cold.go): the first request after each idle period.
	Cold *Cold
}

// Budget is an absolute limit on one metric's statistic.
//
// Value's unit depends on the metric: for the latency metrics (ttft, ttfc,
// itl, tpot, total, perceived; written in milliseconds in the file, "800" or
// "800ms" or "1.2s") it is in seconds; for errors.rate, goodput.rate and
// cache_hit_rate.min it is a fraction between 0 and 1.
type Budget struct {
	Metric vocab.Metric
	Stat   vocab.Stat
	Value  float64
	Line   int
}

// SLO is one per-request goodput objective: a request meets it when its
// Metric is at most Max.
type SLO struct {
	Metric vocab.Metric
	Max    time.Duration
	Line   int
}

// Price is the cost of a model's tokens in USD per 1M tokens.
type Price struct {
	Input, Output, CachedInput float64
	Line                       int
}

// Regression holds the comparison thresholds.
type Regression struct {
	Tolerance float64       // relative, a fraction (0.10 = 10 %)
	MinDelta  time.Duration // absolute
	Alpha     float64       // family-wise, a fraction
	FailOn    []vocab.Status
	// History is how many recorded runs a baseline artifact keeps (≥ 2).
	History int
	// Trend is how many recorded runs the baseline artifact's trend keeps
	// (MinTrend to MaxTrend).
	Trend int
	// MaxBaselineAge: a stored baseline older than this gets a warning.
	MaxBaselineAge time.Duration
	// Confirm re-measures the scenarios that fail, in a fresh interleaved
	// run, before failing them (ab; docs/statistics.md, "Confirmation").
	Confirm bool
}

// Limits bound a run.
type Limits struct {
	Timeout         time.Duration
	StallTimeout    time.Duration
	MaxRequests     int
	MaxOutputTokens int
	// MaxDuration bounds the run's planned open-loop time: a rate that
	// cannot send its requests within it is a config error.
	MaxDuration     time.Duration
	MaxCost         float64 // USD per run; 0 = no limit
	ColdConnections bool
}

// Config is a validated suite.
type Config struct {
	Path       string
	Endpoints  []Endpoint
	Scenarios  []Scenario
	Budgets    []Budget // upper limits: latency statistics and errors.rate
	Regression Regression
	Limits     Limits
	// ReadingRate is the reader's tokens per second behind perceived.
	ReadingRate float64
	// Lanes is how many copies of each scenario's load run at once (1 to
	// MaxLanes; DefaultLanes when the suite does not say): each lane
	// interleaves an A/B run's variants in its own blocks.
	Lanes int
	// Pricing maps a model name as sent to its price.
	Pricing map[string]Price
	// Goodput is the per-request SLO; empty = no goodput.
	Goodput []SLO
	// Floors are lower limits (goodput.rate, cache_hit_rate.min): a
	// statistic below its floor fails like an over-budget one.
	Floors []Budget
	// Warnings are problems that do not stop the run (a price for a model
	// no endpoint uses).
	Warnings []*Error
	// upstreamSecrets are the values scenarios' upstreams took from the
	// environment: hidden like endpoints' (Secrets).
	upstreamSecrets []string
}

// Error is a configuration error at a line of a file.
type Error struct {
	File string
	Line int
	Msg  string
	// key marks a warning about a value that SetRequests replaces.
	key string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Options are the injected I/O.
type Options struct {
	ReadFile func(string) ([]byte, error)
	Getenv   func(string) string
	// SkipKeys skips resolving API keys and ${VAR} references (compare
	// needs none).
	SkipKeys bool
}

// Errors are several mistakes in one file, in the order of their lines.
type Errors []*Error

// Unwrap gives each mistake to errors.Is and errors.As.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i == maxErrors {
			fmt.Fprintf(&b, "\n(and %d more)", len(es)-maxErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// SetRequests gives every scenario a fixed count of n measured requests
// per endpoint (--requests N, also for an adaptive scenario), and replaces
// the warnings about the counts in the file with one about n.
func (c *Config) SetRequests(n int) {
	for i := range c.Scenarios {
		c.Scenarios[i].Requests, c.Scenarios[i].RequestsMin = n, 0
	}
	c.Warnings = slices.DeleteFunc(c.Warnings, func(e *Error) bool { return e.key == "requests" })
	if w := requestsWarning(n); w != "" {
		c.Warnings = append(c.Warnings, &Error{File: "--requests", Msg: w, key: "requests"})
	}
}

// EndpointsFor returns the endpoints a scenario runs against.
func (c *Config) EndpointsFor(s Scenario) []Endpoint {
	if len(s.Endpoints) == 0 {
		return c.Endpoints
	}
	var out []Endpoint
	for _, e := range c.Endpoints {
		if slices.Contains(s.Endpoints, e.Name) {
			out = append(out, e)
		}
	}
	return out
}

// PlannedRequests counts the requests a full run sends, warmup included.
func (c *Config) PlannedRequests() int {
	n := 0
	for _, s := range c.Scenarios {
		n += (s.Requests + s.Warmup) * len(c.EndpointsFor(s))
	}
	return n
}

// Secrets lists every secret value the config resolved (API keys and
// header values that came from the environment), for masking.
func (c *Config) Secrets() []string {
	var out []string
	for _, e := range c.Endpoints {
		if e.APIKey != "" {
			out = append(out, e.APIKey)
		}
		out = append(out, e.envSecrets...)
	}
	out = append(out, c.upstreamSecrets...)
	sort.Strings(out)
	return slices.Compact(out)
}

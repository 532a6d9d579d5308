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
// requests are made: it checks the per-API keys of an endpoint (listed in
// docs/config.md) but leaves their meaning to the prober.
package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/apis"
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
	DefaultTolerance       = 0.10
	DefaultMinDelta        = 25 * time.Millisecond
	DefaultAlpha           = 0.05
	DefaultHistory         = 10
	DefaultTrend           = 100
	DefaultMaxBaselineAge  = 14 * 24 * time.Hour
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
	Line  int
	// envSecrets are the values its headers, url or base_url took from the
	// environment: a key in a URL (?key=${K}) is as secret as a header.
	envSecrets []string
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
	Line     int
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

// ---- raw YAML shapes ----

// scalar keeps a value's text for parsing with a clear error.
type scalar struct {
	Value string
}

func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: cannot unmarshal %s into suite.scalar", n.Line, kindTag(n))}}
	}
	s.Value = n.Value
	return nil
}

func kindTag(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "!!seq"
	case yaml.MappingNode:
		return "!!map"
	}
	return "!!" + strings.TrimPrefix(n.Tag, "!!")
}

type rawMessage struct {
	Role        string `yaml:"role"`
	Content     string `yaml:"content"`
	ContentFile string `yaml:"content_file"`
}

type rawStream struct {
	Format       string          `yaml:"format"`
	Text         string          `yaml:"text"`
	Reasoning    string          `yaml:"reasoning"`
	Done         string          `yaml:"done"`
	Error        string          `yaml:"error"`
	OutputTokens string          `yaml:"output_tokens"`
	InputTokens  string          `yaml:"input_tokens"`
	CachedTokens string          `yaml:"cached_tokens"`
	Type         string          `yaml:"type"`
	ToolCall     string          `yaml:"tool_call"`
	Types        *rawStreamTypes `yaml:"types"`
}

// rawStreamTypes says which event types play which role in a
// server-driven agent's stream.
type rawStreamTypes struct {
	Text         []string `yaml:"text"`
	Reasoning    []string `yaml:"reasoning"`
	ToolCall     []string `yaml:"tool_call"`
	ToolCallDone []string `yaml:"tool_call_done"`
	ToolResult   []string `yaml:"tool_result"`
	Step         []string `yaml:"step"`
}

// rawTool is a tool of a session scenario.
type rawTool struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Parameters  *rawBody `yaml:"parameters"`
	Result      *rawBody `yaml:"result"`
	ResultFile  string   `yaml:"result_file"`
	Latency     *scalar  `yaml:"latency"`
}

// rawBody is a custom endpoint's body template: any YAML value.
type rawBody struct{ yaml.Node }

func (*rawBody) freeForm() {}

func (b *rawBody) UnmarshalYAML(n *yaml.Node) error { b.Node = *n; return nil }

type rawEndpoint struct {
	Name       string            `yaml:"name"`
	API        string            `yaml:"api"`
	BaseURL    string            `yaml:"base_url"`
	Model      string            `yaml:"model"`
	APIKeyEnv  string            `yaml:"api_key_env"`
	Headers    map[string]string `yaml:"headers"`
	Deployment string            `yaml:"deployment"`
	APIVersion string            `yaml:"api_version"`
	URL        string            `yaml:"url"`
	Method     string            `yaml:"method"`
	Body       *rawBody          `yaml:"body"`
	Stream     *rawStream        `yaml:"stream"`
	Audio      *bool             `yaml:"audio"`
}

// rawRequests is a fixed count (requests: 50) or a range (requests:
// {min: 40, max: 200}).
type rawRequests struct {
	Fixed *int
	Range *rawRequestRange
}

type rawRequestRange struct {
	Min *int `yaml:"min"`
	Max *int `yaml:"max"`
}

func (*rawRequests) shape(n *yaml.Node) reflect.Type {
	if n.Kind == yaml.MappingNode {
		return reflect.TypeFor[rawRequestRange]()
	}
	return reflect.TypeFor[int]()
}

func (r *rawRequests) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		r.Range = &rawRequestRange{}
		return n.Decode(r.Range)
	}
	r.Fixed = new(int)
	return n.Decode(r.Fixed)
}

type rawScenario struct {
	Name        string       `yaml:"name"`
	Messages    []rawMessage `yaml:"messages"`
	Prompt      string       `yaml:"prompt"`
	PromptFile  string       `yaml:"prompt_file"`
	MaxTokens   *int         `yaml:"max_tokens"`
	Requests    *rawRequests `yaml:"requests"`
	Warmup      *int         `yaml:"warmup"`
	Concurrency *int         `yaml:"concurrency"`
	Rate        *scalar      `yaml:"rate"`
	MaxInFlight *int         `yaml:"max_in_flight"`
	Temperature *float64     `yaml:"temperature"`
	Endpoints   []string     `yaml:"endpoints"`
	Cache       string       `yaml:"cache"`
	Tools       []rawTool    `yaml:"tools"`
	MaxSteps    *int         `yaml:"max_steps"`
	Turns       []string     `yaml:"turns"`
}

type rawRegression struct {
	Tolerance      *scalar  `yaml:"tolerance"`
	MinDelta       *scalar  `yaml:"min_delta"`
	Alpha          *scalar  `yaml:"alpha"`
	FailOn         []string `yaml:"fail_on"`
	History        *int     `yaml:"history"`
	Trend          *int     `yaml:"trend"`
	MaxBaselineAge *scalar  `yaml:"max_baseline_age"`
}

type rawLimits struct {
	Timeout         *scalar  `yaml:"timeout"`
	StallTimeout    *scalar  `yaml:"stall_timeout"`
	MaxRequests     *int     `yaml:"max_requests"`
	MaxOutputTokens *int     `yaml:"max_output_tokens"`
	MaxDuration     *scalar  `yaml:"max_duration"`
	MaxCost         *float64 `yaml:"max_cost"`
	ColdConnections bool     `yaml:"cold_connections"`
}

type rawPrice struct {
	Input       *float64 `yaml:"input"`
	Output      *float64 `yaml:"output"`
	CachedInput *float64 `yaml:"cached_input"`
}

// rawLimitsMap holds budgets and goodput, whose keys are metric names.
type rawLimitsMap struct{ yaml.Node }

func (*rawLimitsMap) freeForm() {}

func (m *rawLimitsMap) UnmarshalYAML(n *yaml.Node) error { m.Node = *n; return nil }

type rawConfig struct {
	Endpoints   []rawEndpoint       `yaml:"endpoints"`
	Scenarios   []rawScenario       `yaml:"scenarios"`
	Budgets     rawLimitsMap        `yaml:"budgets"`
	Goodput     rawLimitsMap        `yaml:"goodput"`
	Regression  rawRegression       `yaml:"regression"`
	Limits      rawLimits           `yaml:"limits"`
	Pricing     map[string]rawPrice `yaml:"pricing"`
	ReadingRate *scalar             `yaml:"reading_rate"`
}

// Parse validates a config given its bytes; path names the file in errors
// and is the base for relative prompt files. The error is a *Error.
func Parse(path string, data []byte, opt Options) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if line := tabIndent(data); line > 0 {
			return nil, &Error{File: path, Line: line, Msg: "a tab in the indentation: YAML indents with spaces only"}
		}
		return nil, syntaxError(path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: path, Msg: "the file is empty: a suite needs endpoints and scenarios"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: path, Line: root.Line, Msg: "want a mapping with endpoints: and scenarios:"}
	}
	x := &docIndex{lines: map[string]int{}}
	x.walk(path, root, reflect.TypeFor[rawConfig](), "", "")
	var raw rawConfig
	errs := x.errs
	if x.seen <= maxNodes {
		if err := root.Decode(&raw); err != nil {
			errs = append(errs, x.typeError(path, err)...)
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	p := &parser{path: path, opt: opt, x: x}
	cfg := p.build(&raw)
	if len(p.errs) > 0 {
		return nil, joinErrors(p.errs)
	}
	return cfg, nil
}

// tabIndent is the first line (from 1) whose indentation holds a tab, 0
// when none does.
func tabIndent(data []byte) int {
	for i, line := range strings.Split(string(data), "\n") {
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if strings.Contains(indent, "\t") && strings.TrimSpace(line) != "" {
			return i + 1
		}
	}
	return 0
}

// maxErrors is how many of a file's mistakes Parse reports at once.
const maxErrors = 10

// joinErrors is a file's mistakes in the order of their lines (those
// without a line last), one per line of the file (the first found there is
// the most specific), at most maxErrors: a lone one is itself, several an
// Errors.
func joinErrors(errs []*Error) error {
	errs = slices.Clone(errs)
	slices.SortStableFunc(errs, func(a, b *Error) int {
		switch {
		case a.Line == b.Line:
			return 0
		case a.Line == 0:
			return 1
		case b.Line == 0:
			return -1
		}
		return a.Line - b.Line
	})
	errs = slices.CompactFunc(errs, func(a, b *Error) bool { return a.Line > 0 && a.Line == b.Line })
	if len(errs) == 1 {
		return errs[0]
	}
	return Errors(errs)
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

type parser struct {
	path string
	opt  Options
	x    *docIndex
	errs []*Error
}

func (p *parser) errf(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// line returns the line of a key or item by its indexed path
// ("scenarios[0].rate"), else of the nearest enclosing one that has a line.
func (p *parser) line(ipath string) int {
	for ipath != "" {
		if l, ok := p.x.lines[ipath]; ok {
			return l
		}
		i := strings.LastIndexAny(ipath, ".[")
		if i < 0 {
			break
		}
		ipath = ipath[:i]
	}
	return 0
}

func (p *parser) getenv(name string) string {
	if p.opt.Getenv == nil {
		return ""
	}
	return p.opt.Getenv(name)
}

func (p *parser) build(raw *rawConfig) *Config {
	cfg := &Config{Path: p.path}
	if len(raw.Endpoints) == 0 {
		p.errf(p.line("endpoints"), "no endpoints: add at least one under endpoints:")
	}
	if len(raw.Scenarios) == 0 {
		p.errf(p.line("scenarios"), "no scenarios: add at least one under scenarios:")
	}
	seen := map[string]bool{}
	for i, re := range raw.Endpoints {
		cfg.Endpoints = append(cfg.Endpoints, p.endpoint(i, re, seen, len(raw.Endpoints)))
	}
	cfg.Regression = p.regression(raw.Regression)
	cfg.Limits = p.limits(raw.Limits)
	seen = map[string]bool{}
	for i, rs := range raw.Scenarios {
		cfg.Scenarios = append(cfg.Scenarios, p.scenario(i, rs, seen, cfg))
	}
	p.duration(cfg)
	p.sessionEndpoints(cfg)
	p.apiLimits(cfg)
	cfg.ReadingRate = DefaultReadingRate
	if raw.ReadingRate != nil {
		cfg.ReadingRate = p.readingRate(raw.ReadingRate.Value)
	}
	cfg.Goodput = p.goodput(&raw.Goodput.Node)
	cfg.Budgets, cfg.Floors = p.budgets(&raw.Budgets.Node, cfg)
	cfg.Pricing = p.pricing(raw.Pricing, cfg)
	p.costCap(cfg)
	return cfg
}

// costCap checks that limits.max_cost can count every request: a model
// without a price would count nothing toward it, so the cap would not hold.
func (p *parser) costCap(cfg *Config) {
	if cfg.Limits.MaxCost <= 0 {
		return
	}
	var missing []string
	eg := "MODEL"
	used := map[string]bool{}
	for _, s := range cfg.Scenarios {
		for _, e := range cfg.EndpointsFor(s) {
			if _, priced := cfg.Pricing[e.Model]; used[e.Name] || priced && e.Model != "" {
				continue
			}
			used[e.Name] = true
			if e.Model == "" {
				missing = append(missing, fmt.Sprintf("endpoint %q (it has no model: give it one)", e.Name))
				continue
			}
			if eg == "MODEL" {
				eg = e.Model
			}
			missing = append(missing, fmt.Sprintf("%q (endpoint %q)", e.Model, e.Name))
		}
	}
	if len(missing) > 0 {
		p.errf(p.line("limits.max_cost"), "limits.max_cost needs pricing for every model the suite sends to (an unpriced request counts nothing toward the cap); no price for %s: add it under pricing:, in USD per 1M tokens, such as %s: {input: 0.15, output: 0.60}",
			strings.Join(missing, ", "), eg)
	}
}

// maxBareReadingRate is the largest reading_rate accepted without a unit:
// above it, a bare number is more likely words per minute (250 is a
// typical reading speed) than tokens per second.
const maxBareReadingRate = 50

func (p *parser) readingRate(s string) float64 {
	line := p.line("reading_rate")
	if strings.Contains(s, "/") {
		v, err := ParseRate(s)
		if err != nil {
			p.errf(line, "reading_rate: %v", err)
		}
		return v
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || !(v > 0) || math.IsInf(v, 0):
		p.errf(line, "reading_rate: want a positive number of tokens per second such as 10 or 10/s, got %q", s)
	case v > maxBareReadingRate:
		p.errf(line, "reading_rate: %s tokens per second is faster than anyone reads (is it per minute?): write %s/m or %s/s", s, s, s)
	}
	return v
}

var (
	envRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)
)

// expand replaces ${VAR} in a value of key (an indexed path) from the
// environment; an unset variable or a malformed reference is an error. With
// SkipKeys the value is returned as written.
// expand resolves every ${VAR} of an endpoint's value and returns it with
// the values it took from the environment (secrets: never shown).
func (p *parser) expand(ipath, name, key, v string) (string, []string) {
	if strings.Count(v, "${") != len(envRE.FindAllStringIndex(v, -1)) {
		// The value is not echoed: a header value may be a secret.
		p.errf(p.line(ipath), "endpoint %q: %s: malformed variable reference (write ${NAME})", name, key)
		return v, nil
	}
	if p.opt.SkipKeys {
		return v, nil
	}
	var vals []string
	out := envRE.ReplaceAllStringFunc(v, func(m string) string {
		vn := m[2 : len(m)-1]
		val := p.getenv(vn)
		if val == "" {
			p.errf(p.line(ipath), "endpoint %q: %s: environment variable %s is not set or is empty", name, key, vn)
		} else {
			vals = append(vals, val)
		}
		return val
	})
	return out, vals
}

func (p *parser) scenario(i int, rs rawScenario, seen map[string]bool, cfg *Config) Scenario {
	ip := fmt.Sprintf("scenarios[%d]", i)
	line := p.line(ip)
	s := Scenario{Name: rs.Name, Line: line, Temperature: rs.Temperature, Endpoints: rs.Endpoints, Cache: rs.Cache}
	switch s.Cache {
	case "":
		s.Cache = "warm"
	case "warm", "cold":
	default:
		p.errf(p.line(ip+".cache"), "scenario %q: cache: want warm or cold, got %q", s.Name, s.Cache)
	}
	if s.Name == "" {
		p.errf(line, "scenario %d: name is required", i+1)
	}
	if seen[s.Name] {
		p.errf(line, "scenario name %q is used twice", s.Name)
	}
	seen[s.Name] = true
	s.Messages = p.scenarioMessages(ip, s.Name, rs)
	p.scenarioLoad(ip, rs, &s, cfg)
	p.scenarioRate(ip, rs, &s, cfg)
	p.scenarioSession(ip, rs, &s)
	return s
}

// scenarioMessages reads a scenario's prompt: exactly one of messages,
// prompt or prompt_file, each message with one of content or content_file.
func (p *parser) scenarioMessages(ip, name string, rs rawScenario) []Message {
	sources := 0
	if len(rs.Messages) > 0 {
		sources++
	}
	if rs.Prompt != "" {
		sources++
	}
	if rs.PromptFile != "" {
		sources++
	}
	if sources != 1 {
		p.errf(p.line(ip), "scenario %q: give exactly one of messages, prompt or prompt_file", name)
	}
	var out []Message
	switch {
	case rs.Prompt != "":
		out = []Message{{Role: "user", Content: rs.Prompt}}
	case rs.PromptFile != "":
		out = []Message{{Role: "user", Content: p.readRel(p.line(ip+".prompt_file"), rs.PromptFile)}}
	}
	for j, m := range rs.Messages {
		ml := p.line(fmt.Sprintf("%s.messages[%d]", ip, j))
		msg := Message{Role: m.Role, Content: m.Content}
		switch m.Role {
		case "system", "user", "assistant", "developer":
		default:
			p.errf(ml, "scenario %q: message role %q is not system, user, assistant or developer", name, m.Role)
		}
		if (m.Content == "") == (m.ContentFile == "") {
			p.errf(ml, "scenario %q: each message needs exactly one of content or content_file", name)
		}
		if m.ContentFile != "" {
			msg.Content = p.readRel(ml, m.ContentFile)
		}
		out = append(out, msg)
	}
	return out
}

// scenarioLoad sets what a scenario sends: max tokens (and checks the
// temperature), requests (a count or {min, max}), concurrency, warmup, the
// open-loop pool.
func (p *parser) scenarioLoad(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	kl := func(key string) int { return p.line(ip + "." + key) }
	intOr := func(v *int, def int, key string, minV int) int {
		if v == nil {
			return def
		}
		if *v < minV {
			p.errf(kl(key), "scenario %q: %s must be at least %d, got %d", s.Name, key, minV, *v)
		}
		return *v
	}
	s.MaxTokens = intOr(rs.MaxTokens, DefaultMaxTokens, "max_tokens", 1)
	s.Requests = DefaultRequests
	if r := rs.Requests; r != nil {
		switch {
		case r.Fixed != nil:
			s.Requests = intOr(r.Fixed, DefaultRequests, "requests", 1)
		case r.Range != nil:
			s.Requests, s.RequestsMin = p.requestRange(kl("requests"), s.Name, *r.Range)
		}
	}
	if w := requestsWarning(s.Requests); w != "" && s.RequestsMin == 0 {
		cfg.Warnings = append(cfg.Warnings, &Error{File: p.path, Line: kl("requests"), Msg: fmt.Sprintf("scenario %q: requests: %s", s.Name, w), key: "requests"})
	}
	s.Concurrency = intOr(rs.Concurrency, DefaultConcurrency, "concurrency", 1)
	// By default warm one connection per request in flight, so the
	// measured requests find a warm pool.
	s.Warmup = intOr(rs.Warmup, max(DefaultWarmup, s.Concurrency), "warmup", 0)
	s.MaxInFlight = intOr(rs.MaxInFlight, 64, "max_in_flight", 1)
	if t := rs.Temperature; t != nil && !(*t >= 0 && *t <= 2) {
		p.errf(kl("temperature"), "scenario %q: temperature: want a number from 0 to 2, got %v", s.Name, *t)
	}
}

// scenarioRate sets a scenario's rate (open loop, not with a concurrency)
// and checks its endpoints, and that the rate sends the requests to them
// within limits.max_duration.
func (p *parser) scenarioRate(ip string, rs rawScenario, s *Scenario, cfg *Config) {
	kl := func(key string) int { return p.line(ip + "." + key) }
	if rs.Rate != nil {
		r, err := ParseRate(rs.Rate.Value)
		if err != nil {
			p.errf(kl("rate"), "scenario %q: rate: %v", s.Name, err)
		}
		s.Rate = r
		if rs.Concurrency != nil {
			p.errf(kl("rate"), "scenario %q: give concurrency (closed loop) or rate (open loop), not both", s.Name)
		}
	}
	for _, n := range s.Endpoints {
		if !slices.ContainsFunc(cfg.Endpoints, func(e Endpoint) bool { return e.Name == n }) {
			p.errf(kl("endpoints"), "scenario %q: unknown endpoint %q", s.Name, n)
		}
	}
	if s.Rate > 0 {
		eps := len(cfg.EndpointsFor(*s))
		if d := openLoopTime(s.Requests*eps, s.Rate); d > cfg.Limits.MaxDuration {
			p.errf(kl("rate"), "scenario %q: rate %s sends %d requests in about %s, longer than limits.max_duration (%s): raise the rate, lower requests or raise limits.max_duration",
				s.Name, rs.Rate.Value, s.Requests*eps, roundDuration(d), cfg.Limits.MaxDuration)
		}
	}
}

// requestRange validates requests: {min, max}.
func (p *parser) requestRange(line int, name string, r rawRequestRange) (maxN, minN int) {
	need := vocab.P95.MinN()
	if r.Min == nil || r.Max == nil {
		p.errf(line, "scenario %q: requests: give both min and max, such as {min: %d, max: 200}", name, need)
		return DefaultRequests, 0
	}
	minN, maxN = *r.Min, *r.Max
	switch {
	case minN < need:
		p.errf(line, "scenario %q: requests.min is %d, but p95 checks need at least %d successful requests per side: raise min to %d or more", name, minN, need, need)
	case minN > maxN:
		p.errf(line, "scenario %q: requests: min (%d) is above max (%d)", name, minN, maxN)
	}
	return maxN, minN
}

// openLoopTime is the expected time to send n requests at rate per second.
func openLoopTime(n int, rate float64) time.Duration {
	s := float64(n) / rate
	if s > float64(math.MaxInt64/int64(time.Second)) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(s * float64(time.Second))
}

func roundDuration(d time.Duration) time.Duration {
	if d > time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// duration checks the whole suite's open-loop time against
// limits.max_duration (the scenarios run one after another).
func (p *parser) duration(cfg *Config) {
	var total time.Duration
	for _, s := range cfg.Scenarios {
		if s.Rate > 0 {
			total += openLoopTime(s.Requests*len(cfg.EndpointsFor(s)), s.Rate)
			if total < 0 {
				total = time.Duration(math.MaxInt64)
			}
		}
	}
	if total > cfg.Limits.MaxDuration && len(p.errs) == 0 {
		p.errf(p.line("scenarios"), "the open-loop scenarios together take about %s at their rates, longer than limits.max_duration (%s): raise the rates, lower requests or raise limits.max_duration",
			roundDuration(total), cfg.Limits.MaxDuration)
	}
}

func (p *parser) readRel(line int, name string) string {
	if p.opt.ReadFile == nil {
		p.errf(line, "cannot read %s", name)
		return ""
	}
	if filepath.IsAbs(name) {
		p.errf(line, "%s: a file of the suite is named relative to the config file, inside its repository", name)
		return ""
	}
	full := filepath.Join(filepath.Dir(p.path), name)
	b, err := p.opt.ReadFile(full)
	if err != nil {
		p.errf(line, "cannot read %s: %v", full, unwrapPathErr(err))
		return ""
	}
	return string(b)
}

func unwrapPathErr(err error) error {
	type unwrapper interface{ Unwrap() error }
	if u, ok := err.(unwrapper); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}

func (p *parser) regression(r rawRegression) Regression {
	out := Regression{Tolerance: DefaultTolerance, MinDelta: DefaultMinDelta, Alpha: DefaultAlpha, FailOn: DefaultFailOn,
		History: DefaultHistory, Trend: DefaultTrend, MaxBaselineAge: DefaultMaxBaselineAge}
	kl := func(key string) int { return p.line("regression." + key) }
	if r.Tolerance != nil {
		v, err := ParseTolerance(r.Tolerance.Value)
		if err != nil {
			p.errf(kl("tolerance"), "regression.tolerance: %v", err)
		}
		out.Tolerance = v
	}
	if r.MinDelta != nil {
		v, err := ParseMinDelta(r.MinDelta.Value)
		if err != nil {
			p.errf(kl("min_delta"), "regression.min_delta: %v", err)
		}
		out.MinDelta = v
	}
	if r.Alpha != nil {
		v, err := ParseAlpha(r.Alpha.Value)
		if err != nil {
			p.errf(kl("alpha"), "regression.alpha: %v", err)
		}
		out.Alpha = v
	}
	if r.FailOn != nil {
		fo, err := ParseFailOn(r.FailOn)
		if err != nil {
			p.errf(kl("fail_on"), "regression.fail_on: %v", err)
		}
		out.FailOn = fo
	}
	if r.History != nil {
		if *r.History < 2 {
			p.errf(kl("history"), "regression.history: want at least 2 runs (a history estimates run-to-run spread), got %d", *r.History)
		}
		out.History = *r.History
	}
	if r.Trend != nil {
		if *r.Trend < MinTrend || *r.Trend > MaxTrend {
			p.errf(kl("trend"), "regression.trend: want %d to %d runs (a change point needs runs on both sides; the trend file stays small), got %d", MinTrend, MaxTrend, *r.Trend)
		}
		out.Trend = *r.Trend
	}
	if r.MaxBaselineAge != nil {
		v, err := ParseDuration(r.MaxBaselineAge.Value)
		switch {
		case err != nil:
			p.errf(kl("max_baseline_age"), "regression.max_baseline_age: %v", err)
		case v <= 0:
			p.errf(kl("max_baseline_age"), "regression.max_baseline_age: want a positive duration such as 14d, got %q", r.MaxBaselineAge.Value)
		}
		out.MaxBaselineAge = v
	}
	return out
}

// ParseFailOn validates a list of statuses (items may be comma-separated).
func ParseFailOn(list []string) ([]vocab.Status, error) {
	var out []vocab.Status
	for _, s := range list {
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if !slices.Contains(vocab.Statuses, vocab.Status(part)) {
				return nil, fmt.Errorf("unknown status %q (valid: %s)", part, names(vocab.Statuses))
			}
			out = append(out, vocab.Status(part))
		}
	}
	return out, nil
}

func (p *parser) limits(r rawLimits) Limits {
	out := Limits{MaxRequests: DefaultMaxRequests, MaxOutputTokens: DefaultMaxOutputTokens, ColdConnections: r.ColdConnections}
	dur := func(n *scalar, key string, def time.Duration) time.Duration {
		if n == nil {
			return def
		}
		d, err := ParseDuration(n.Value)
		if err == nil && d <= 0 {
			err = fmt.Errorf("want a positive duration such as 60s, got %q", n.Value)
		}
		if err != nil {
			p.errf(p.line("limits."+key), "limits.%s: %v", key, err)
			return def
		}
		return d
	}
	out.Timeout = dur(r.Timeout, "timeout", DefaultTimeout)
	out.StallTimeout = dur(r.StallTimeout, "stall_timeout", DefaultStallTimeout)
	out.MaxDuration = dur(r.MaxDuration, "max_duration", DefaultMaxDuration)
	if r.MaxRequests != nil {
		if *r.MaxRequests < 1 {
			p.errf(p.line("limits.max_requests"), "limits.max_requests: must be at least 1")
		}
		out.MaxRequests = *r.MaxRequests
	}
	if r.MaxOutputTokens != nil {
		if *r.MaxOutputTokens < 1 {
			p.errf(p.line("limits.max_output_tokens"), "limits.max_output_tokens: must be at least 1")
		}
		out.MaxOutputTokens = *r.MaxOutputTokens
	}
	if r.MaxCost != nil {
		if !(*r.MaxCost > 0) || math.IsInf(*r.MaxCost, 0) {
			p.errf(p.line("limits.max_cost"), "limits.max_cost: want a positive amount of USD such as 2.00, got %v", *r.MaxCost)
		}
		out.MaxCost = *r.MaxCost
	}
	return out
}

// budgetMetrics are the metrics budgets accept beyond compare's latency
// metrics, with their one statistic and whether it is a floor.
var budgetRates = map[vocab.Metric]struct {
	stat  vocab.Stat
	floor bool
	eg    string
}{
	vocab.Errors:       {vocab.Rate, false, "{rate: 2%}"},
	vocab.Goodput:      {vocab.Rate, true, "{rate: 95%}"},
	vocab.CacheHitRate: {vocab.Min, true, "{min: 80%}"},
}

// budgetMetricNames lists every metric budgets accept, for messages.
func budgetMetricNames() []vocab.Metric {
	return append(slices.Clone(vocab.Latencies), vocab.Rates...)
}

func (p *parser) budgets(n *yaml.Node, cfg *Config) (budgets, floors []Budget) {
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		p.errf(n.Line, "budgets: want a mapping such as ttft: {p95: 800}")
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		metric := vocab.Metric(k.Value)
		rate, isRate := budgetRates[metric]
		if !isRate && !slices.Contains(vocab.Latencies, metric) {
			msg := fmt.Sprintf("budgets: unknown metric %q (valid: %s)", k.Value, names(budgetMetricNames()))
			if s := suggest(k.Value, budgetMetricNames()); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			p.errf(k.Line, "%s", msg)
			continue
		}
		if v.Kind != yaml.MappingNode {
			eg := "{p95: 800}"
			if isRate {
				eg = rate.eg
			}
			p.errf(v.Line, "budgets.%s: want a mapping such as %s", k.Value, eg)
			continue
		}
		if metric == vocab.Goodput && len(cfg.Goodput) == 0 {
			p.errf(k.Line, "budgets.goodput: there is no goodput: section defining the per-request SLO")
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sk, sv := v.Content[j], v.Content[j+1]
			if sv.Kind != yaml.ScalarNode {
				p.errf(sv.Line, "budgets.%s.%s: want a single value", k.Value, sk.Value)
				continue
			}
			switch b, ok := p.budget(metric, sk, sv); {
			case !ok:
			case isRate && rate.floor:
				floors = append(floors, b)
			default:
				budgets = append(budgets, b)
			}
		}
	}
	return budgets, floors
}

// budget reads one statistic's budget of a metric (stat: value), a share
// for a rate, milliseconds for a latency; false after an error.
func (p *parser) budget(metric vocab.Metric, sk, sv *yaml.Node) (Budget, bool) {
	b := Budget{Metric: metric, Stat: vocab.Stat(sk.Value), Line: sk.Line}
	if rate, isRate := budgetRates[metric]; isRate {
		if b.Stat != rate.stat {
			p.errf(sk.Line, "budgets.%s: the only statistic is %s, got %q", metric, rate.stat, sk.Value)
			return b, false
		}
		f, err := ParsePercent(sv.Value)
		if err == nil && (f < 0 || f > 1) {
			err = fmt.Errorf("want a share from 0%% to 100%%, got %q", sv.Value)
		}
		if err != nil {
			p.errf(sv.Line, "budgets.%s.%s: %v", metric, sk.Value, err)
			return b, false
		}
		b.Value = f
		return b, true
	}
	if !slices.Contains(stats, b.Stat) {
		msg := fmt.Sprintf("budgets.%s: unknown statistic %q (valid: %s)", metric, sk.Value, names(stats))
		if s := suggest(sk.Value, stats); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		p.errf(sk.Line, "%s", msg)
		return b, false
	}
	d, err := ParseMillis(sv.Value)
	if err == nil && d <= 0 {
		err = fmt.Errorf("want a positive number of milliseconds, got %q", sv.Value)
	}
	if err != nil {
		p.errf(sv.Line, "budgets.%s.%s: %v", metric, sk.Value, err)
		return b, false
	}
	b.Value = d.Seconds()
	return b, true
}

func (p *parser) goodput(n *yaml.Node) []SLO {
	if n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errf(n.Line, "goodput: want a mapping such as {ttft: 800ms, itl: 60ms}")
		return nil
	}
	var out []SLO
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(vocab.Latencies, vocab.Metric(k.Value)) {
			msg := fmt.Sprintf("goodput: unknown metric %q (valid: %s)", k.Value, names(vocab.Latencies))
			if s := suggest(k.Value, vocab.Latencies); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			p.errf(k.Line, "%s", msg)
			continue
		}
		if v.Kind != yaml.ScalarNode {
			p.errf(v.Line, "goodput.%s: want a latency such as 800ms", k.Value)
			continue
		}
		d, err := ParseMillis(v.Value)
		if err == nil && d <= 0 {
			err = fmt.Errorf("want a positive latency such as 800ms, got %q", v.Value)
		}
		if err != nil {
			p.errf(v.Line, "goodput.%s: %v", k.Value, err)
			continue
		}
		out = append(out, SLO{Metric: vocab.Metric(k.Value), Max: d, Line: k.Line})
	}
	return out
}

func (p *parser) pricing(raw map[string]rawPrice, cfg *Config) map[string]Price {
	if len(raw) == 0 {
		return nil
	}
	out := map[string]Price{}
	models := make([]string, 0, len(raw))
	for m := range raw {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		r := raw[m]
		line := p.line("pricing." + m)
		pr := Price{Line: line}
		for _, f := range []struct {
			key string
			v   *float64
			dst *float64
		}{{"input", r.Input, &pr.Input}, {"output", r.Output, &pr.Output}, {"cached_input", r.CachedInput, &pr.CachedInput}} {
			if f.v == nil {
				continue
			}
			if !(*f.v >= 0) || math.IsInf(*f.v, 0) {
				p.errf(p.line("pricing."+m+"."+f.key), "pricing.%s.%s: want a price of at least 0 USD per 1M tokens, got %v", m, f.key, *f.v)
			}
			*f.dst = *f.v
		}
		if r.Input == nil || r.Output == nil {
			p.errf(line, "pricing.%s: give input and output (USD per 1M tokens)", m)
		}
		if r.CachedInput == nil {
			pr.CachedInput = pr.Input
		}
		if !slices.ContainsFunc(cfg.Endpoints, func(e Endpoint) bool { return e.Model == m }) {
			cfg.Warnings = append(cfg.Warnings, &Error{File: p.path, Line: line, Msg: fmt.Sprintf("pricing: no endpoint uses model %q, so its price is never applied", m)})
		}
		out[m] = pr
	}
	return out
}

// requestsWarning says what a fixed count of n requests per endpoint
// leaves untested ("" when nothing): a check needs vocab.MinN successful
// requests on each side. An adaptive range is held to p95's by an error.
func requestsWarning(n int) string {
	p50, p95 := vocab.P50.MinN(), vocab.P95.MinN()
	switch {
	case n < p50:
		return fmt.Sprintf("%d can never be tested: p50 needs %d successful requests per side, p95 %d (raise it to %d or more)", n, p50, p95, p95)
	case n < p95:
		return fmt.Sprintf("%d leaves p95 untested: p95 needs %d successful requests per side, p50 %d (raise it to %d or more for p95 checks)", n, p95, p50, p95)
	}
	return ""
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
	sort.Strings(out)
	return slices.Compact(out)
}

// Fingerprint hashes everything about a (scenario, endpoint) that changes
// latency: model, base URL host, messages, max_tokens, temperature,
// concurrency or rate, the API when it is not chat, and a realtime
// endpoint's audio. Described returns the parts for "what changed".
func Fingerprint(s Scenario, e Endpoint) (string, map[string]string) {
	host := e.BaseURL
	if spec, ok := apis.Lookup(e.API); ok && spec.Address.Key == apis.URL {
		host = e.URL
	}
	if u, err := url.Parse(host); err == nil {
		host = u.Host
	}
	var msgs strings.Builder
	for _, m := range s.Messages {
		fmt.Fprintf(&msgs, "%s\x00%s\x00", m.Role, m.Content)
	}
	ms := sha256.Sum256([]byte(msgs.String()))
	parts := map[string]string{
		"model":      e.Model,
		"host":       host,
		"messages":   hex.EncodeToString(ms[:8]),
		"max_tokens": strconv.Itoa(s.MaxTokens),
	}
	if s.Rate > 0 {
		parts["rate"] = strconv.FormatFloat(s.Rate, 'g', -1, 64) + "/s"
	} else {
		parts["concurrency"] = strconv.Itoa(s.Concurrency)
	}
	if e.API != "" && e.API != apis.Default().Name {
		parts["api"] = e.API
	}
	if e.Deployment != "" {
		parts["deployment"] = e.Deployment
	}
	if s.Cache == "cold" {
		parts["cache"] = "cold"
	}
	if e.Audio {
		parts["audio"] = "true"
	}
	if s.Temperature != nil {
		parts["temperature"] = strconv.FormatFloat(*s.Temperature, 'g', -1, 64)
	}
	sessionParts(s, parts)
	keys := make([]string, 0, len(parts))
	for k := range parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, parts[k])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), parts
}

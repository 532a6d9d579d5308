// Package suite parses and validates latgate.yaml (SPEC §3).
//
// Decoding is strict: an unknown key is an error naming the key and its line,
// and every error is "file:line: message". Files referenced by prompt_file
// and content_file are read relative to the config file through the injected
// ReadFile, and API keys come from the injected Getenv, never from the file.
// The package does no network I/O and does not know how requests are sent.
package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
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
	DefaultReadingRate     = 10.0
	DefaultTolerance       = 0.10
	DefaultMinDelta        = 25 * time.Millisecond
	DefaultAlpha           = 0.05
)

// DefaultFailOn is the default list of statuses that fail the gate.
var DefaultFailOn = []string{"regression", "over_budget"}

// Statuses a check can have (SPEC §6).
var Statuses = []string{"regression", "improvement", "ok", "inconclusive", "over_budget", "no_baseline"}

// Metrics that can be compared and budgeted, and their statistics.
var (
	Metrics = []string{"ttft", "ttfc", "itl", "tpot", "total", "perceived"}
	Stats   = []string{"p50", "p95", "p99"}
)

// Message is one chat message, with content resolved.
type Message struct {
	Role    string
	Content string
}

// Endpoint is an OpenAI-compatible server to measure.
type Endpoint struct {
	Name      string
	BaseURL   string
	Model     string
	APIKeyEnv string
	APIKey    string            // resolved from APIKeyEnv; never written anywhere
	Headers   map[string]string // values with ${VAR} expanded
	Line      int
	// headerSecrets are header values that came from the environment.
	headerSecrets []string
}

// Scenario is one representative request, sent Requests times per endpoint.
type Scenario struct {
	Name        string
	Messages    []Message
	MaxTokens   int
	Requests    int
	Warmup      int
	Concurrency int
	Rate        float64 // requests per second (open loop); 0 = closed loop
	MaxInFlight int
	Temperature *float64
	Endpoints   []string // subset of endpoint names; empty = all
	// Cache is "warm" (identical prompts: a server's prefix cache can serve
	// them) or "cold" (a unique prefix per request defeats it).
	Cache string
	Line  int
}

// Budget is an absolute limit on one metric's statistic.
type Budget struct {
	Metric string
	Stat   string
	Value  float64 // seconds for latency metrics, a fraction for errors.rate
	Line   int
}

// Regression holds the comparison thresholds.
type Regression struct {
	Tolerance float64       // relative, e.g. 0.10
	MinDelta  time.Duration // absolute
	Alpha     float64       // family-wise
	FailOn    []string
}

// Limits bound a run.
type Limits struct {
	Timeout         time.Duration
	StallTimeout    time.Duration
	MaxRequests     int
	MaxOutputTokens int
	ColdConnections bool
}

// Config is a validated suite.
type Config struct {
	Path        string
	Endpoints   []Endpoint
	Scenarios   []Scenario
	Budgets     []Budget
	Regression  Regression
	Limits      Limits
	ReadingRate float64
}

// Error is a configuration error at a line of a file.
type Error struct {
	File string
	Line int
	Msg  string
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
	// SkipKeys skips resolving API keys (compare needs none).
	SkipKeys bool
}

// ---- raw YAML shapes ----

// scalar keeps a value's text and line for parsing with a clear error.
type scalar struct {
	Value string
	Line  int
}

func (s *scalar) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a single value, not a list or mapping", n.Line)
	}
	s.Value, s.Line = n.Value, n.Line
	return nil
}

type rawMessage struct {
	Role        string `yaml:"role"`
	Content     string `yaml:"content"`
	ContentFile string `yaml:"content_file"`
}

type rawEndpoint struct {
	Name      string            `yaml:"name"`
	BaseURL   string            `yaml:"base_url"`
	Model     string            `yaml:"model"`
	APIKeyEnv string            `yaml:"api_key_env"`
	Headers   map[string]string `yaml:"headers"`
}

type rawScenario struct {
	Name        string       `yaml:"name"`
	Messages    []rawMessage `yaml:"messages"`
	Prompt      string       `yaml:"prompt"`
	PromptFile  string       `yaml:"prompt_file"`
	MaxTokens   *int         `yaml:"max_tokens"`
	Requests    *int         `yaml:"requests"`
	Warmup      *int         `yaml:"warmup"`
	Concurrency *int         `yaml:"concurrency"`
	Rate        *scalar      `yaml:"rate"`
	MaxInFlight *int         `yaml:"max_in_flight"`
	Temperature *float64     `yaml:"temperature"`
	Endpoints   []string     `yaml:"endpoints"`
	Cache       string       `yaml:"cache"`
}

type rawRegression struct {
	Tolerance *scalar  `yaml:"tolerance"`
	MinDelta  *scalar  `yaml:"min_delta"`
	Alpha     *scalar  `yaml:"alpha"`
	FailOn    []string `yaml:"fail_on"`
}

type rawLimits struct {
	Timeout         *scalar `yaml:"timeout"`
	StallTimeout    *scalar `yaml:"stall_timeout"`
	MaxRequests     *int    `yaml:"max_requests"`
	MaxOutputTokens *int    `yaml:"max_output_tokens"`
	ColdConnections bool    `yaml:"cold_connections"`
}

type rawConfig struct {
	Endpoints   []rawEndpoint `yaml:"endpoints"`
	Scenarios   []rawScenario `yaml:"scenarios"`
	Budgets     yaml.Node     `yaml:"budgets"`
	Regression  rawRegression `yaml:"regression"`
	Limits      rawLimits     `yaml:"limits"`
	ReadingRate *scalar       `yaml:"reading_rate"`
}

var (
	unknownFieldRE = regexp.MustCompile(`^line (\d+): field (\S+) not found in type`)
	lineRE         = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
)

// Parse validates a config given its bytes; path names the file in errors
// and is the base for relative prompt files.
func Parse(path string, data []byte, opt Options) (*Config, error) {
	var raw rawConfig
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil {
		return nil, yamlError(path, err)
	}
	var doc yaml.Node
	_ = yaml.Unmarshal(data, &doc)
	p := &parser{path: path, opt: opt, lines: sectionLines(&doc)}
	cfg := p.build(&raw)
	if len(p.errs) > 0 {
		return nil, p.errs[0]
	}
	return cfg, nil
}

func yamlError(path string, err error) error {
	if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
		msg := te.Errors[0]
		if m := unknownFieldRE.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return &Error{File: path, Line: line, Msg: fmt.Sprintf("unknown key %q", m[2])}
		}
		if m := lineRE.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return &Error{File: path, Line: line, Msg: m[2]}
		}
		return &Error{File: path, Msg: msg}
	}
	msg := err.Error()
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: path, Line: line, Msg: m[2]}
	}
	if msg == "EOF" {
		return &Error{File: path, Msg: "the file is empty: a suite needs endpoints and scenarios"}
	}
	return &Error{File: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// docLines records the line of each sequence item and mapping key we need.
type docLines struct {
	top       map[string]int
	endpoints []int
	scenarios []int
	scenKeys  []map[string]int
	endpKeys  []map[string]int
}

func sectionLines(doc *yaml.Node) docLines {
	var l docLines
	l.top = map[string]int{}
	if doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return l
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		l.top[k.Value] = k.Line
		if v.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range v.Content {
			keys := map[string]int{}
			if item.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(item.Content); j += 2 {
					keys[item.Content[j].Value] = item.Content[j].Line
				}
			}
			switch k.Value {
			case "endpoints":
				l.endpoints = append(l.endpoints, item.Line)
				l.endpKeys = append(l.endpKeys, keys)
			case "scenarios":
				l.scenarios = append(l.scenarios, item.Line)
				l.scenKeys = append(l.scenKeys, keys)
			}
		}
	}
	return l
}

type parser struct {
	path  string
	opt   Options
	lines docLines
	errs  []error
}

func (p *parser) errf(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.path, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func at(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 0
}

func keyLine(keys []map[string]int, i int, key string, fallback int) int {
	if i < len(keys) {
		if l, ok := keys[i][key]; ok {
			return l
		}
	}
	return fallback
}

func (p *parser) build(raw *rawConfig) *Config {
	cfg := &Config{Path: p.path}
	if len(raw.Endpoints) == 0 {
		p.errf(p.lines.top["endpoints"], "no endpoints: add at least one under endpoints:")
	}
	if len(raw.Scenarios) == 0 {
		p.errf(p.lines.top["scenarios"], "no scenarios: add at least one under scenarios:")
	}
	seen := map[string]bool{}
	for i, re := range raw.Endpoints {
		cfg.Endpoints = append(cfg.Endpoints, p.endpoint(i, re, seen))
	}
	seen = map[string]bool{}
	for i, rs := range raw.Scenarios {
		cfg.Scenarios = append(cfg.Scenarios, p.scenario(i, rs, seen, cfg.Endpoints))
	}
	cfg.Regression = p.regression(raw.Regression)
	cfg.Limits = p.limits(raw.Limits)
	cfg.ReadingRate = DefaultReadingRate
	if raw.ReadingRate != nil {
		v, err := strconv.ParseFloat(raw.ReadingRate.Value, 64)
		if err != nil || v <= 0 {
			p.errf(raw.ReadingRate.Line, "reading_rate: want a positive number of tokens per second, got %q", raw.ReadingRate.Value)
		}
		cfg.ReadingRate = v
	}
	cfg.Budgets = p.budgets(&raw.Budgets)
	return cfg
}

func (p *parser) endpoint(i int, re rawEndpoint, seen map[string]bool) Endpoint {
	line := at(p.lines.endpoints, i)
	e := Endpoint{Name: re.Name, BaseURL: strings.TrimRight(re.BaseURL, "/"), Model: re.Model, APIKeyEnv: re.APIKeyEnv, Line: line}
	if e.Name == "" {
		e.Name = fmt.Sprintf("endpoint-%d", i+1)
		if len(p.lines.endpoints) == 1 {
			e.Name = "default"
		}
	}
	if seen[e.Name] {
		p.errf(line, "endpoint name %q is used twice", e.Name)
	}
	seen[e.Name] = true
	if e.BaseURL == "" {
		p.errf(line, "endpoint %q: base_url is required (for example https://api.openai.com/v1)", e.Name)
	} else if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.errf(keyLine(p.lines.endpKeys, i, "base_url", line), "endpoint %q: base_url %q is not an http(s) URL", e.Name, e.BaseURL)
	}
	if e.Model == "" {
		p.errf(line, "endpoint %q: model is required", e.Name)
	}
	getenv := p.opt.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if e.APIKeyEnv != "" && !p.opt.SkipKeys {
		e.APIKey = getenv(e.APIKeyEnv)
		if e.APIKey == "" {
			p.errf(keyLine(p.lines.endpKeys, i, "api_key_env", line), "endpoint %q: environment variable %s (api_key_env) is not set", e.Name, e.APIKeyEnv)
		}
	}
	if len(re.Headers) > 0 {
		e.Headers = map[string]string{}
		for k, v := range re.Headers {
			if strings.EqualFold(k, "authorization") && e.APIKeyEnv != "" {
				p.errf(keyLine(p.lines.endpKeys, i, "headers", line), "endpoint %q: set either api_key_env or an Authorization header, not both", e.Name)
			}
			e.Headers[k] = expandEnv(v, getenv, p.opt.SkipKeys)
			if envRE.MatchString(v) && e.Headers[k] != "" {
				e.headerSecrets = append(e.headerSecrets, e.Headers[k])
			}
		}
	}
	return e
}

var envRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

func expandEnv(v string, getenv func(string) string, skip bool) string {
	if skip {
		return v
	}
	return envRE.ReplaceAllStringFunc(v, func(m string) string { return getenv(m[2 : len(m)-1]) })
}

func (p *parser) scenario(i int, rs rawScenario, seen map[string]bool, eps []Endpoint) Scenario {
	line := at(p.lines.scenarios, i)
	s := Scenario{Name: rs.Name, Line: line, Temperature: rs.Temperature, Endpoints: rs.Endpoints, Cache: rs.Cache}
	switch s.Cache {
	case "":
		s.Cache = "warm"
	case "warm", "cold":
	default:
		p.errf(keyLine(p.lines.scenKeys, i, "cache", line), "scenario %q: cache: want warm or cold, got %q", s.Name, s.Cache)
	}
	if s.Name == "" {
		p.errf(line, "scenario %d: name is required", i+1)
	}
	if seen[s.Name] {
		p.errf(line, "scenario name %q is used twice", s.Name)
	}
	seen[s.Name] = true
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
		p.errf(line, "scenario %q: give exactly one of messages, prompt or prompt_file", s.Name)
	}
	switch {
	case rs.Prompt != "":
		s.Messages = []Message{{Role: "user", Content: rs.Prompt}}
	case rs.PromptFile != "":
		s.Messages = []Message{{Role: "user", Content: p.readRel(keyLine(p.lines.scenKeys, i, "prompt_file", line), rs.PromptFile)}}
	}
	for _, m := range rs.Messages {
		msg := Message{Role: m.Role, Content: m.Content}
		switch m.Role {
		case "system", "user", "assistant", "developer":
		default:
			p.errf(keyLine(p.lines.scenKeys, i, "messages", line), "scenario %q: message role %q is not system, user, assistant or developer", s.Name, m.Role)
		}
		if (m.Content == "") == (m.ContentFile == "") {
			p.errf(keyLine(p.lines.scenKeys, i, "messages", line), "scenario %q: each message needs exactly one of content or content_file", s.Name)
		}
		if m.ContentFile != "" {
			msg.Content = p.readRel(keyLine(p.lines.scenKeys, i, "messages", line), m.ContentFile)
		}
		s.Messages = append(s.Messages, msg)
	}
	intOr := func(v *int, def int, key string, minV int) int {
		if v == nil {
			return def
		}
		if *v < minV {
			p.errf(keyLine(p.lines.scenKeys, i, key, line), "scenario %q: %s must be at least %d, got %d", s.Name, key, minV, *v)
		}
		return *v
	}
	s.MaxTokens = intOr(rs.MaxTokens, DefaultMaxTokens, "max_tokens", 1)
	s.Requests = intOr(rs.Requests, DefaultRequests, "requests", 1)
	s.Concurrency = intOr(rs.Concurrency, DefaultConcurrency, "concurrency", 1)
	// By default warm one connection per request in flight, so the
	// measured requests find a warm pool.
	s.Warmup = intOr(rs.Warmup, max(DefaultWarmup, s.Concurrency), "warmup", 0)
	s.MaxInFlight = intOr(rs.MaxInFlight, 64, "max_in_flight", 1)
	if rs.Rate != nil {
		r, err := ParseRate(rs.Rate.Value)
		if err != nil {
			p.errf(rs.Rate.Line, "scenario %q: rate: %v", s.Name, err)
		}
		s.Rate = r
		if rs.Concurrency != nil {
			p.errf(rs.Rate.Line, "scenario %q: give concurrency (closed loop) or rate (open loop), not both", s.Name)
		}
	}
	names := map[string]bool{}
	for _, e := range eps {
		names[e.Name] = true
	}
	for _, n := range s.Endpoints {
		if !names[n] {
			p.errf(keyLine(p.lines.scenKeys, i, "endpoints", line), "scenario %q: unknown endpoint %q", s.Name, n)
		}
	}
	return s
}

func (p *parser) readRel(line int, name string) string {
	if p.opt.ReadFile == nil {
		p.errf(line, "cannot read %s", name)
		return ""
	}
	full := name
	if !filepath.IsAbs(name) {
		full = filepath.Join(filepath.Dir(p.path), name)
	}
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

// ParseRate parses "2/s", "120/m", "0.5/s" or a bare number (per second).
func ParseRate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	per := 1.0
	if i := strings.Index(s, "/"); i >= 0 {
		switch strings.TrimSpace(s[i+1:]) {
		case "s", "sec", "second":
		case "m", "min", "minute":
			per = 60
		case "h", "hour":
			per = 3600
		default:
			return 0, fmt.Errorf("want N/s, N/m or N/h, got %q", s)
		}
		s = strings.TrimSpace(s[:i])
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("want a positive rate such as 2/s, got %q", s)
	}
	return v / per, nil
}

// ParsePercent parses "10%" or a fraction such as 0.1.
func ParsePercent(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil {
			return 0, fmt.Errorf("want a percentage such as 10%%, got %q", s)
		}
		return v / 100, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("want a percentage such as 10%% or a fraction such as 0.1, got %q", s)
	}
	return v, nil
}

// ParseMillis parses a duration "25ms", "1.5s" or a bare number of milliseconds.
func ParseMillis(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(v * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 25ms or 1.5s, got %q", s)
	}
	return d, nil
}

func (p *parser) regression(r rawRegression) Regression {
	out := Regression{Tolerance: DefaultTolerance, MinDelta: DefaultMinDelta, Alpha: DefaultAlpha, FailOn: DefaultFailOn}
	if r.Tolerance != nil {
		v, err := ParsePercent(r.Tolerance.Value)
		if err != nil {
			p.errf(r.Tolerance.Line, "regression.tolerance: %v", err)
		} else if v < 0 || v > 10 {
			p.errf(r.Tolerance.Line, "regression.tolerance: %s is out of range (0%% to 1000%%)", r.Tolerance.Value)
		}
		out.Tolerance = v
	}
	if r.MinDelta != nil {
		v, err := ParseMillis(r.MinDelta.Value)
		if err != nil {
			p.errf(r.MinDelta.Line, "regression.min_delta: %v", err)
		} else if v < 0 {
			p.errf(r.MinDelta.Line, "regression.min_delta: must not be negative")
		}
		out.MinDelta = v
	}
	if r.Alpha != nil {
		v, err := strconv.ParseFloat(r.Alpha.Value, 64)
		if err != nil || v <= 0 || v >= 0.5 {
			p.errf(r.Alpha.Line, "regression.alpha: want a number between 0 and 0.5 (such as 0.05), got %q", r.Alpha.Value)
		}
		out.Alpha = v
	}
	if r.FailOn != nil {
		fo, err := ParseFailOn(r.FailOn)
		if err != nil {
			p.errf(p.lines.top["regression"], "regression.fail_on: %v", err)
		}
		out.FailOn = fo
	}
	return out
}

// ParseFailOn validates a list of statuses.
func ParseFailOn(list []string) ([]string, error) {
	valid := map[string]bool{}
	for _, s := range Statuses {
		valid[s] = true
	}
	var out []string
	for _, s := range list {
		for _, part := range strings.Split(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if !valid[part] {
				return nil, fmt.Errorf("unknown status %q (valid: %s)", part, strings.Join(Statuses, ", "))
			}
			out = append(out, part)
		}
	}
	return out, nil
}

func (p *parser) limits(r rawLimits) Limits {
	out := Limits{Timeout: DefaultTimeout, StallTimeout: DefaultStallTimeout, MaxRequests: DefaultMaxRequests, MaxOutputTokens: DefaultMaxOutputTokens, ColdConnections: r.ColdConnections}
	dur := func(n *scalar, key string, def time.Duration) time.Duration {
		if n == nil {
			return def
		}
		d, err := time.ParseDuration(n.Value)
		if err != nil || d <= 0 {
			p.errf(n.Line, "limits.%s: want a positive duration such as 60s, got %q", key, n.Value)
			return def
		}
		return d
	}
	out.Timeout = dur(r.Timeout, "timeout", DefaultTimeout)
	out.StallTimeout = dur(r.StallTimeout, "stall_timeout", DefaultStallTimeout)
	if r.MaxRequests != nil {
		if *r.MaxRequests < 1 {
			p.errf(p.lines.top["limits"], "limits.max_requests: must be at least 1")
		}
		out.MaxRequests = *r.MaxRequests
	}
	if r.MaxOutputTokens != nil {
		if *r.MaxOutputTokens < 1 {
			p.errf(p.lines.top["limits"], "limits.max_output_tokens: must be at least 1")
		}
		out.MaxOutputTokens = *r.MaxOutputTokens
	}
	return out
}

func (p *parser) budgets(n *yaml.Node) []Budget {
	if n.Kind == 0 {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.errf(n.Line, "budgets: want a mapping such as ttft: {p95: 800}")
		return nil
	}
	validMetric := map[string]bool{"errors": true}
	for _, m := range Metrics {
		validMetric[m] = true
	}
	var out []Budget
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !validMetric[k.Value] {
			p.errf(k.Line, "budgets: unknown metric %q (valid: %s, errors)", k.Value, strings.Join(Metrics, ", "))
			continue
		}
		if v.Kind != yaml.MappingNode {
			p.errf(v.Line, "budgets.%s: want a mapping such as {p95: 800}", k.Value)
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sk, sv := v.Content[j], v.Content[j+1]
			b := Budget{Metric: k.Value, Stat: sk.Value, Line: sk.Line}
			if k.Value == "errors" {
				if sk.Value != "rate" {
					p.errf(sk.Line, "budgets.errors: the only statistic is rate, got %q", sk.Value)
					continue
				}
				f, err := ParsePercent(sv.Value)
				if err != nil || f < 0 || f > 1 {
					p.errf(sv.Line, "budgets.errors.rate: want a percentage such as 1%%, got %q", sv.Value)
					continue
				}
				b.Value = f
			} else {
				if !slices.Contains(Stats, sk.Value) {
					p.errf(sk.Line, "budgets.%s: unknown statistic %q (valid: %s)", k.Value, sk.Value, strings.Join(Stats, ", "))
					continue
				}
				d, err := ParseMillis(sv.Value)
				if err != nil || d <= 0 {
					p.errf(sv.Line, "budgets.%s.%s: want a positive number of milliseconds, got %q", k.Value, sk.Value, sv.Value)
					continue
				}
				b.Value = d.Seconds()
			}
			out = append(out, b)
		}
	}
	return out
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
		out = append(out, e.headerSecrets...)
	}
	sort.Strings(out)
	return out
}

// Fingerprint hashes everything about a (scenario, endpoint) that changes
// latency: model, base URL host, messages, max_tokens, temperature,
// concurrency or rate. Described returns the parts for "what changed".
func Fingerprint(s Scenario, e Endpoint) (string, map[string]string) {
	host := e.BaseURL
	if u, err := url.Parse(e.BaseURL); err == nil {
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
	if s.Cache == "cold" {
		parts["cache"] = "cold"
	}
	if s.Temperature != nil {
		parts["temperature"] = strconv.FormatFloat(*s.Temperature, 'g', -1, 64)
	}
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

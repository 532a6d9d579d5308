package suite

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/internal/didyoumean"
	"github.com/latgate/latgate/vocab"
)

// The parser: a file's YAML, decoded strictly into its raw shapes
// (raw.go), checked key by key into a Config (suite.go); the scenarios'
// keys in scenario.go, the endpoints' in api.go.

// Parse validates a config given its bytes; path names the file in errors
// and is the base for relative prompt files. The error is a *Error.
func Parse(path string, data []byte, opt Options) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if line := tabIndent(data); line > 0 {
			return nil, &Error{File: path, Line: line, Msg: "a tab in the indentation: YAML indents with spaces only"}
		}
		return nil, syntaxError(path, data, err)
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
	cfg.upstreamSecrets = p.upstreamSecrets
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

type parser struct {
	path string
	opt  Options
	x    *docIndex
	errs []*Error
	// upstreamSecrets are the values upstreams' to took from the
	// environment (Config.Secrets).
	upstreamSecrets []string
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
	p.coldDuration(cfg)
	p.sessionEndpoints(cfg)
	p.apiLimits(cfg)
	cfg.ReadingRate = DefaultReadingRate
	if raw.ReadingRate != nil {
		cfg.ReadingRate = p.readingRate(raw.ReadingRate.Value)
	}
	cfg.Lanes = DefaultLanes
	if raw.Lanes != nil {
		if err := CheckLanes(*raw.Lanes); err != nil {
			p.errf(p.line("lanes"), "lanes: %v", err)
		}
		cfg.Lanes = *raw.Lanes
	}
	cfg.Goodput = p.goodput(&raw.Goodput.Node)
	cfg.Budgets, cfg.Floors = p.budgets(&raw.Budgets.Node, cfg)
	budgetCounts(p.path, cfg)
	cfg.Pricing = p.pricing(raw.Pricing, cfg)
	p.capacitySLOs(cfg)
	p.costCap(cfg)
	p.costUnused(cfg)
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

// CheckLanes says what is wrong with a number of lanes, or nil; the flag
// --lanes is checked by it too.
func CheckLanes(n int) error {
	if n < 1 || n > MaxLanes {
		return fmt.Errorf("want 1 to %d copies of each scenario's load, got %d", MaxLanes, n)
	}
	return nil
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

// envRE is a ${VAR} reference.
var envRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand resolves every ${VAR} of an endpoint's value (key names it in
// errors, ipath is its indexed path) and returns it with the values it
// took from the environment (secrets: never shown); an unset variable or
// a malformed reference is an error. With SkipKeys the value is returned
// as written.
func (p *parser) expand(ipath, name, key, v string) (string, []string) {
	return p.expandIn(ipath, fmt.Sprintf("endpoint %q", name), key, v)
}

// expandIn is expand for a value of owner ("endpoint \"x\"", "scenario
// \"s\"").
func (p *parser) expandIn(ipath, owner, key, v string) (string, []string) {
	if strings.Count(v, "${") != len(envRE.FindAllStringIndex(v, -1)) {
		// The value is not echoed: a header value may be a secret.
		p.errf(p.line(ipath), "%s: %s: malformed variable reference (write ${NAME})", owner, key)
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
			p.errf(p.line(ipath), "%s: %s: environment variable %s is not set or is empty", owner, key, vn)
		} else {
			vals = append(vals, val)
		}
		return val
	})
	return out, vals
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
		History: DefaultHistory, Trend: DefaultTrend, MaxBaselineAge: DefaultMaxBaselineAge, Confirm: r.Confirm}
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
	return p.budgetsAt("budgets", n, cfg)
}

// budgetsAt reads budgets under key (budgets, or a scenario's
// capacity.slo), which names them in errors.
func (p *parser) budgetsAt(key string, n *yaml.Node, cfg *Config) (budgets, floors []Budget) {
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		p.errf(n.Line, "%s: want a mapping such as ttft: {p95: 800}", key)
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		metric := vocab.Metric(k.Value)
		rate, isRate := budgetRates[metric]
		if !isRate && !slices.Contains(vocab.Latencies, metric) {
			msg := fmt.Sprintf("%s: unknown metric %q (valid: %s)", key, k.Value, names(budgetMetricNames()))
			if s := didyoumean.Suggest(k.Value, budgetMetricNames()); s != "" {
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
			p.errf(v.Line, "%s.%s: want a mapping such as %s", key, k.Value, eg)
			continue
		}
		if metric == vocab.Goodput && len(cfg.Goodput) == 0 {
			p.errf(k.Line, "%s.goodput: there is no goodput: section defining the per-request SLO", key)
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sk, sv := v.Content[j], v.Content[j+1]
			if sv.Kind != yaml.ScalarNode {
				p.errf(sv.Line, "%s.%s.%s: want a single value", key, k.Value, sk.Value)
				continue
			}
			switch b, ok := p.budget(key, metric, sk, sv); {
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

// budget reads one statistic's budget of a metric (stat: value) under key,
// a share for a rate, milliseconds for a latency; false after an error.
func (p *parser) budget(key string, metric vocab.Metric, sk, sv *yaml.Node) (Budget, bool) {
	b := Budget{Metric: metric, Stat: vocab.Stat(sk.Value), Line: sk.Line}
	if rate, isRate := budgetRates[metric]; isRate {
		if b.Stat != rate.stat {
			p.errf(sk.Line, "%s.%s: the only statistic is %s, got %q", key, metric, rate.stat, sk.Value)
			return b, false
		}
		f, err := ParsePercent(sv.Value)
		if err == nil && (f < 0 || f > 1) {
			err = fmt.Errorf("want a share from 0%% to 100%%, got %q", sv.Value)
		}
		if err != nil {
			p.errf(sv.Line, "%s.%s.%s: %v", key, metric, sk.Value, err)
			return b, false
		}
		b.Value = f
		return b, true
	}
	if !slices.Contains(stats, b.Stat) {
		msg := fmt.Sprintf("%s.%s: unknown statistic %q (valid: %s)", key, metric, sk.Value, names(stats))
		if s := didyoumean.Suggest(sk.Value, stats); s != "" {
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
		p.errf(sv.Line, "%s.%s.%s: %v", key, metric, sk.Value, err)
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
			if s := didyoumean.Suggest(k.Value, vocab.Latencies); s != "" {
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

// budgetCounts warns of a budget whose statistic needs more successful
// requests than a scenario runs (a p99's 500), beyond what the requests'
// own warning says of p50 and p95: there it is "not tested", never held
// or blown.
func budgetCounts(path string, cfg *Config) {
	for _, b := range cfg.Budgets {
		need := b.Stat.MinN()
		if need <= vocab.P95.MinN() {
			continue
		}
		for _, s := range cfg.Scenarios {
			if s.Capacity == nil && s.Requests < need {
				cfg.Warnings = append(cfg.Warnings, &Error{File: path, Line: b.Line, Msg: fmt.Sprintf(
					"budgets.%s.%s: %s needs %d successful requests per side, and scenario %q runs %d: the budget is not tested there (raise its requests to %d or more)",
					b.Metric, b.Stat, b.Stat, need, s.Name, s.Requests, need)})
				break
			}
		}
	}
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

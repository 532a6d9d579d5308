package suite

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The raw YAML shapes: what a latgate.yaml decodes into before the parser
// checks it (parse.go). Their yaml keys are the file's keys, every one of
// them (the strict decoding and the schema's test walk these types).

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
	Browser    *rawBrowser       `yaml:"browser"`
	// MetricsURL is the server's own Prometheus page, MetricsNames the
	// families of another engine's (any API).
	MetricsURL   *rawURLs         `yaml:"metrics_url"`
	MetricsNames *rawMetricsNames `yaml:"metrics_names"`
	// Cost is the price of the endpoint's hardware (cost.go).
	Cost *rawCost `yaml:"cost"`
}

// rawURLs is one URL (metrics_url: http://x/metrics) or a list of them
// (metrics_url: [http://x/metrics, http://x:9400/metrics]).
type rawURLs struct {
	List []string
	Seq  bool // given as a list
}

func (*rawURLs) shape(n *yaml.Node) reflect.Type {
	if n.Kind == yaml.SequenceNode {
		return reflect.TypeFor[[]string]()
	}
	return reflect.TypeFor[string]()
}

func (u *rawURLs) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.SequenceNode {
		u.Seq = true
		return n.Decode(&u.List)
	}
	var one string
	if err := n.Decode(&one); err != nil {
		return err
	}
	u.List = []string{one}
	return nil
}

// rawMetricsNames are the families of a metrics page that feed each of the
// run's server stages, as lists of alternatives.
type rawMetricsNames struct {
	Queue   []string `yaml:"queue"`
	Prefill []string `yaml:"prefill"`
	Decode  []string `yaml:"decode"`
	TTFT    []string `yaml:"ttft"`
	Waiting []string `yaml:"waiting"`
	KVCache []string `yaml:"kv_cache"`
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
	Name        string                 `yaml:"name"`
	Messages    []rawMessage           `yaml:"messages"`
	Prompt      string                 `yaml:"prompt"`
	PromptFile  string                 `yaml:"prompt_file"`
	MaxTokens   *int                   `yaml:"max_tokens"`
	Requests    *rawRequests           `yaml:"requests"`
	Warmup      *int                   `yaml:"warmup"`
	Concurrency *int                   `yaml:"concurrency"`
	Rate        *scalar                `yaml:"rate"`
	MaxInFlight *int                   `yaml:"max_in_flight"`
	Temperature *float64               `yaml:"temperature"`
	Endpoints   []string               `yaml:"endpoints"`
	Cache       string                 `yaml:"cache"`
	Tools       []rawTool              `yaml:"tools"`
	MaxSteps    *int                   `yaml:"max_steps"`
	Turns       []string               `yaml:"turns"`
	Capacity    *rawCapacity           `yaml:"capacity"`
	Workload    *rawWorkload           `yaml:"workload"`
	Upstreams   map[string]rawUpstream `yaml:"upstreams"`
	Phases      []rawPhase             `yaml:"phases"`
	Cold        *rawCold               `yaml:"cold"`
}

type rawRegression struct {
	Tolerance      *scalar  `yaml:"tolerance"`
	MinDelta       *scalar  `yaml:"min_delta"`
	Alpha          *scalar  `yaml:"alpha"`
	FailOn         []string `yaml:"fail_on"`
	History        *int     `yaml:"history"`
	Trend          *int     `yaml:"trend"`
	MaxBaselineAge *scalar  `yaml:"max_baseline_age"`
	Confirm        bool     `yaml:"confirm"`
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
	Lanes       *int                `yaml:"lanes"`
}

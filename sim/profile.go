package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// Dist is a latency distribution: a log-normal body (Median, Sigma; Sigma 0
// means fixed at Median) plus an optional queueing spike that, with
// probability SpikeP, adds a delay drawn uniformly from [SpikeMin, SpikeMax].
type Dist struct {
	Median   time.Duration
	Sigma    float64
	SpikeP   float64
	SpikeMin time.Duration
	SpikeMax time.Duration
}

// Fixed is a distribution that always returns d.
func Fixed(d time.Duration) Dist { return Dist{Median: d} }

// LogNormal is a log-normal distribution with the given median and sigma
// (the standard deviation of the logarithm).
func LogNormal(median time.Duration, sigma float64) Dist {
	return Dist{Median: median, Sigma: sigma}
}

// WithSpikes returns d with a queueing-spike mixture added.
func (d Dist) WithSpikes(p float64, min, max time.Duration) Dist {
	d.SpikeP, d.SpikeMin, d.SpikeMax = p, min, max
	return d
}

// Sample draws one value.
func (d Dist) Sample(r *rand.Rand) time.Duration {
	v := float64(d.Median)
	if d.Sigma > 0 {
		v *= math.Exp(d.Sigma * r.NormFloat64())
	}
	if d.SpikeP > 0 && r.Float64() < d.SpikeP {
		v += float64(d.SpikeMin) + r.Float64()*float64(d.SpikeMax-d.SpikeMin)
	}
	if v < 0 {
		v = 0
	}
	return time.Duration(v)
}

// Quirks are protocol variations that real servers and proxies produce.
type Quirks struct {
	RoleChunk        bool // a role-only chunk right after the headers
	EmptyChunk       bool // a chunk with empty content before the first token
	AzureFilterChunk bool // a first chunk with empty choices (content-filter results)
	KeepAlives       int  // ": keep-alive" comment lines before the first token
	ReasoningTokens  int  // reasoning_content events before visible content
	ToolCall         bool // stream tool-call arguments instead of content
	NoUsage          bool // never send a usage chunk
	NoDone           bool // end with EOF after finish_reason, no [DONE]
	CRLF             bool // \r\n line endings
	NoSpace          bool // "data:" without the space
	MultiLineData    bool // split each JSON payload over several data: lines
	Gzip             bool // Content-Encoding: gzip
	Trickle          bool // write and flush one byte at a time
	LongLine         int  // pad the first content chunk with this many extra bytes
	Buffered         bool // hold the whole body and release it at the end, as a buffering proxy does
	TokensPerEvent   int  // tokens per output event (default 1)
	CachedTokens     int  // reported as prompt_tokens_details.cached_tokens
	// PrefixCache reports as cached (each API's own usage field) the prompt
	// tokens of the longest start of the conversation the server has seen
	// before (it remembers recent ones by hash): a prompt cache that hits
	// on a conversation's second turn. It overrides CachedTokens.
	PrefixCache bool
	// BlockCache, when above 0, is an engine's automatic prefix cache
	// (blockcache.go) of blocks of this many prompt tokens (words): a
	// request's cached tokens are the leading blocks of its prompt's
	// words that earlier prompts of the model had, times the block size,
	// as vLLM's prefix caching hashes its blocks, chained. It overrides
	// PrefixCache and CachedTokens.
	BlockCache int
	// IgnoreEOS makes every answer as long as its request's token limit
	// (Tokens when it has none), as if every request asked vLLM's
	// ignore_eos: an answer as long as a replayed trace asks, on every
	// API.
	IgnoreEOS bool
	// StampFirstOutput writes ": x-sim-first-output-unix-ns=N" right before
	// the first output event, in the same write: the server's actual send
	// time, for fidelity benchmarks (clients ignore comments).
	StampFirstOutput bool
}

// Faults are injected failures; rates are per-request probabilities.
type Faults struct {
	ErrorRate   float64 // answer with an HTTP error instead of a stream
	ErrorStatus int     // status for ErrorRate (default 500)
	RetryAfter  string  // Retry-After header on errors
	HTMLError   bool    // error body is an HTML page, not OpenAI JSON

	TruncateRate  float64 // close the stream mid-way, without finish_reason
	MidLineRate   float64 // close the connection in the middle of a data: line
	StallRate     float64 // stop sending for StallFor after StallAfter tokens
	StallAfter    int
	StallFor      time.Duration
	MalformedRate float64 // one data: line carries invalid JSON
	StreamErrRate float64 // an error object inside the stream
	ZeroTokens    bool    // finish immediately with no output
}

// Profile is everything the simulator needs to answer a request.
type Profile struct {
	Name string
	// HeaderDelay is the time before response headers are sent.
	HeaderDelay time.Duration
	// TTFT is the time from receiving the request to writing the first
	// output-carrying event. It is the "injected truth" tests measure against.
	TTFT Dist
	// PrefillPerToken lengthens the first TTFT by this much for each
	// prompt token no cache holds (Quirks.BlockCache, PrefixCache,
	// CachedTokens), scaled by the speed as the TTFT is: TTFT is then the
	// part that does not grow with the prompt. 0: the TTFT does not depend
	// on the prompt's length.
	PrefillPerToken time.Duration
	// ITL is the gap between consecutive output events.
	ITL Dist
	// Tokens is the number of output tokens (capped by max_tokens).
	Tokens int
	// ToolSteps is how many tool-call steps come before the answer: a
	// request that offers tools gets tool calls while its conversation
	// holds fewer answered tool steps (runs of tool results) than
	// ToolSteps, then the text answer. The AI SDK route streams ToolSteps
	// tool steps and the answer in one response, running the tools itself.
	// 0: never call a tool.
	ToolSteps int
	// ToolCalls is the number of parallel calls in a tool step (default 1).
	ToolCalls int
	// ToolArgs is the length in characters of each call's arguments, a JSON
	// object (default 24, at least 8).
	ToolArgs int
	// ToolChunk is the number of argument characters per delta (default 8;
	// Gemini sends each call whole). A tool step has the TTFT, then one ITL
	// per delta; its output tokens are its deltas.
	ToolChunk int
	// ToolLatency is how long the AI SDK route takes to run a tool, from the
	// call's complete input to its output (Speed does not scale it: the
	// tool is the application's, not the model's).
	ToolLatency time.Duration
	Quirks      Quirks
	Faults      Faults
	Speed       Speed
	// Capacity is the engine's slots, queue and batch prefill
	// (capacity.go); the zero value serves every request at once.
	Capacity Capacity
	// Engine, when set, queues requests for its slots and reports its
	// own time in the forms it lists (server_timing.go).
	Engine *Engine
	// ColdStart is a scale-to-zero deployment's start (coldstart.go): the
	// server's first request, and a request arriving when no request has
	// been in flight for IdleAfter (0: only the first), waits ColdStart
	// before its answer starts (its TTFT longer by exactly ColdStart; one
	// arriving during the start waits the rest). 0: always up.
	ColdStart time.Duration
	IdleAfter time.Duration
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func (p Profile) toolCalls() int { return orDefault(p.ToolCalls, 1) }
func (p Profile) toolArgs() int  { return max(orDefault(p.ToolArgs, 24), len(`{"q":""}`)) }
func (p Profile) toolChunk() int { return orDefault(p.ToolChunk, 8) }

// Speed scales every delay of a request (header delay, TTFT, inter-token
// gaps) by one factor, drawn when the request arrives: the server's speed
// as a whole, as opposed to the per-request spread of the distributions.
type Speed struct {
	// Slowdown makes the server uniformly slower: 0.3 multiplies every
	// delay by 1.3 (the head of an A/B test that must fail). Negative is
	// faster; it must be above -1.
	Slowdown float64
	// TTFTSlowdown makes the time to first output (every step's) this much
	// slower on top, the inter-token gaps unchanged: 0.2 multiplies every
	// TTFT by 1.2 (a head whose prefill regressed). It must be above -1.
	TTFTSlowdown float64
	// Swing makes the speed drift like a shared provider's: delays are
	// multiplied by 1 + Swing·sin(2π·t/SwingPeriod) (0.4: ±40 %), t the
	// time of the request's arrival on the server's Clock (the wall clock
	// by default), so every simulator on the machine (the base and head
	// servers of an A/B test, even in separate processes) swings in phase. Swing must be in [0, 1); it needs a
	// SwingPeriod.
	Swing       float64
	SwingPeriod time.Duration
}

// FactorAt is the multiplier of every delay for a request arriving at t.
func (s Speed) FactorAt(t time.Time) float64 {
	if s.SwingPeriod <= 0 {
		return s.Factor(0)
	}
	return s.Factor(time.Duration(t.UnixNano() % int64(s.SwingPeriod)))
}

// Factor is the multiplier of every delay at phase elapsed of the swing
// (elapsed from a moment the swing passes 1 going up).
func (s Speed) Factor(elapsed time.Duration) float64 {
	f := 1 + s.Slowdown
	if s.Swing != 0 && s.SwingPeriod > 0 {
		f *= 1 + s.Swing*math.Sin(2*math.Pi*float64(elapsed)/float64(s.SwingPeriod))
	}
	return max(f, 0)
}

// Validate says what is wrong with a speed, or nil.
func (s Speed) Validate() error {
	switch {
	case s.Slowdown <= -1:
		return fmt.Errorf("slowdown %v: must be above -1 (−0.5 is twice as fast)", s.Slowdown)
	case s.TTFTSlowdown <= -1:
		return fmt.Errorf("ttft slowdown %v: must be above -1 (−0.5 is twice as fast)", s.TTFTSlowdown)
	case s.Swing < 0 || s.Swing >= 1:
		return fmt.Errorf("swing %v: must be at least 0 and below 1 (0.4 is ±40%%)", s.Swing)
	case s.Swing > 0 && s.SwingPeriod <= 0:
		return fmt.Errorf("swing %v needs a positive swing period", s.Swing)
	}
	return nil
}

// profiles are the built-in profiles. Each makes tool calls (two steps of
// one call, agent more) when a request offers tools; a request that offers
// none is answered as ever.
var profiles = map[string]Profile{
	// agent is a tool-using model behind a prompt cache: three tool steps
	// of two parallel calls before the answer, at realistic speed.
	"agent": {
		Name:        "agent",
		HeaderDelay: 20 * time.Millisecond,
		TTFT:        LogNormal(350*time.Millisecond, 0.35),
		ITL:         LogNormal(15*time.Millisecond, 0.3),
		Tokens:      96,
		ToolSteps:   3,
		ToolCalls:   2,
		ToolArgs:    48,
		ToolLatency: 150 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true, PrefixCache: true},
	},
	"fast": {
		Name:        "fast",
		HeaderDelay: 5 * time.Millisecond,
		TTFT:        LogNormal(120*time.Millisecond, 0.25),
		ITL:         LogNormal(8*time.Millisecond, 0.2),
		Tokens:      64,
		ToolSteps:   2,
		ToolLatency: 50 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true},
	},
	// slow is slower than realistic in every delay: a loaded provider.
	"slow": {
		Name:        "slow",
		HeaderDelay: 30 * time.Millisecond,
		TTFT:        LogNormal(500*time.Millisecond, 0.35).WithSpikes(0.1, 300*time.Millisecond, 1500*time.Millisecond),
		ITL:         LogNormal(22*time.Millisecond, 0.3),
		Tokens:      128,
		ToolSteps:   2,
		ToolLatency: 300 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true, KeepAlives: 2},
	},
	"realistic": {
		Name:        "realistic",
		HeaderDelay: 20 * time.Millisecond,
		TTFT:        LogNormal(350*time.Millisecond, 0.35).WithSpikes(0.05, 300*time.Millisecond, 1500*time.Millisecond),
		ITL:         LogNormal(15*time.Millisecond, 0.3),
		Tokens:      128,
		ToolSteps:   2,
		ToolLatency: 150 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true, KeepAlives: 2},
	},
	"flaky": {
		Name:        "flaky",
		HeaderDelay: 5 * time.Millisecond,
		TTFT:        LogNormal(150*time.Millisecond, 0.3),
		ITL:         LogNormal(10*time.Millisecond, 0.3),
		Tokens:      64,
		ToolSteps:   2,
		ToolLatency: 150 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true},
		Faults: Faults{
			ErrorRate: 0.05, ErrorStatus: 503, RetryAfter: "1",
			TruncateRate: 0.03,
			StallRate:    0.03, StallAfter: 10, StallFor: 2 * time.Second,
		},
	},
	// engine is a self-hosted engine with 8 slots whose prefill grows
	// with the batch (capacity.go): its capacity at ttft p95 ≤ 150 ms is
	// 8 users.
	"engine": {
		Name:        "engine",
		HeaderDelay: 2 * time.Millisecond,
		TTFT:        LogNormal(60*time.Millisecond, 0.1),
		ITL:         LogNormal(12*time.Millisecond, 0.1),
		Tokens:      48,
		ToolSteps:   2,
		ToolLatency: 50 * time.Millisecond,
		Capacity:    Capacity{Slots: 8, PrefillPerRequest: 8 * time.Millisecond},
	},
	// trace is an engine for trace replay (a workload's trace): its TTFT
	// grows by 50 µs per prompt token its block cache (16-token blocks)
	// does not hold, every answer is as long as its request asks, and its
	// delays are fixed, so that a replay's latencies are the trace's
	// lengths, sharing and arrivals. 16 slots, the rest queued; it reports
	// its time as vLLM does.
	"trace": {
		Name:            "trace",
		HeaderDelay:     2 * time.Millisecond,
		TTFT:            Fixed(20 * time.Millisecond),
		PrefillPerToken: 50 * time.Microsecond,
		ITL:             Fixed(10 * time.Millisecond),
		Tokens:          128,
		ToolSteps:       2,
		ToolLatency:     50 * time.Millisecond,
		Quirks:          Quirks{BlockCache: 16, IgnoreEOS: true},
		Capacity:        Capacity{Slots: 16},
		Engine:          &Engine{Front: 2 * time.Millisecond, Report: []string{ReportVLLM}},
	},
	"reasoning": {
		Name:        "reasoning",
		HeaderDelay: 5 * time.Millisecond,
		TTFT:        LogNormal(200*time.Millisecond, 0.25),
		ITL:         LogNormal(8*time.Millisecond, 0.2),
		Tokens:      96,
		ToolSteps:   2,
		ToolLatency: 100 * time.Millisecond,
		Quirks:      Quirks{RoleChunk: true, ReasoningTokens: 32},
	},
}

// Named returns a built-in profile by name.
func Named(name string) (Profile, error) {
	p, ok := profiles[name]
	if !ok {
		return Profile{}, fmt.Errorf("unknown simulator profile %q (known: %s)", name, strings.Join(ProfileNames(), ", "))
	}
	return p, nil
}

// ProfileNames lists the built-in profiles.
func ProfileNames() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }

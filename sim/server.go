// Package sim is a streaming LLM API simulator: it speaks every API latgate
// measures, all at once, on one listener:
//
//	POST /v1/chat/completions                       OpenAI chat completions (streaming and not)
//	POST /v1/responses                              OpenAI Responses API
//	POST /v1/messages                               Anthropic Messages
//	POST /v1beta/models/{model}:streamGenerateContent?alt=sse   Gemini
//	POST /openai/deployments/{deployment}/chat/completions       Azure OpenAI
//	POST /api/chat                                  Ollama's native NDJSON (api: ollama, and custom), and
//	                                                the Vercel AI SDK's UI message stream to useChat's body (api: ai-sdk)
//	GET  /v1/realtime?model=M                       the OpenAI Realtime API over WebSocket (realtime.go)
//	GET  /v1/models
//	GET  /chat                                      a reference chat page over the AI SDK route (api_browser.go)
//
// A request that offers tools gets tool calls in its API's own format
// (Profile.ToolSteps); the AI SDK route is a server-driven agent that
// streams its tool steps, runs the tools and answers, in one response.
// Each API streams with its own preamble before the first output (a
// role-only chunk; message_start and ping; response.created; a part with
// only a thought signature; Azure's empty-choices content-filter frame),
// its own end and usage, and its own error shapes. Latency is drawn from a
// Profile: time to first token and inter-token gaps from fixed, log-normal
// and queueing-spike distributions, protocol quirks (keep-alive comments,
// CRLF, multi-line data, gzip, byte-by-byte trickle, reasoning and
// tool-call deltas) and injected faults (HTTP errors with the API's or HTML
// bodies, truncation, stalls, malformed events, in-stream errors). A
// profile's Speed scales every delay: uniformly (Slowdown, for the slower
// head of an A/B test) or swinging over time (Swing, for A/A drift tests).
// A request whose model is the name of a built-in profile ("fast",
// "slow", …) is served at that profile: names mean what they say.
// Every draw comes from a PCG generator seeded by (Seed, request number), so
// a run is reproducible. When the client goes away the stream stops at the
// next wait.
//
// The simulator is a measuring stick, not a model: it generates filler words.
// Its TTFT is measured from the moment the handler starts to the write of the
// first output-carrying event, which is the "injected truth" tests compare
// the probe with.
package sim

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/latgate/latgate/internal/clock"
)

// Server is an http.Handler serving the simulator.
type Server struct {
	// Seed makes the draws reproducible.
	Seed uint64
	// APIKey, when set, is required as a Bearer token.
	APIKey string
	// Clock stamps each request's arrival and times every delay;
	// clock.Real when nil. Set it before serving.
	Clock clock.Clock
	// Warn, when set, is told once per model when requests for it are
	// served at a profile their model names rather than the server's
	// (served). Set it before serving.
	Warn func(msg string)

	mu       sync.RWMutex
	profile  Profile
	byModel  map[string]Profile
	requests atomic.Uint64
	sessions atomic.Uint64 // Realtime connections accepted
	cache    prefixCache
	blocks   blockCache         // Quirks.BlockCache
	engines  map[string]*engine // each profile's slots (Profile.Capacity), under mu
	warned   sync.Map           // models Warn was told of
	stats    engineStats        // the histograms of Profile.Engine's /metrics (server_timing.go)
	zero     scaler             // scale to zero (Profile.ColdStart)
}

// New returns a simulator that answers every request with p, except
// requests for a model mapped with SetModelProfile and requests whose model
// names another built-in profile, which are served at that profile.
func New(p Profile, seed uint64) *Server {
	return &Server{Seed: seed, profile: p}
}

// SetProfile replaces the default profile (used by demo between runs).
func (s *Server) SetProfile(p Profile) {
	s.mu.Lock()
	s.profile = p
	s.mu.Unlock()
}

// SetModelProfile makes requests for model use p.
func (s *Server) SetModelProfile(model string, p Profile) {
	s.mu.Lock()
	if s.byModel == nil {
		s.byModel = map[string]Profile{}
	}
	s.byModel[model] = p
	s.mu.Unlock()
}

// Requests is the number of requests received, of every API.
func (s *Server) Requests() uint64 { return s.requests.Load() }

// profileFor is the profile a request for model is served at: the one
// SetModelProfile mapped model to; else, when model is the name of a
// built-in profile (Named) other than the default profile's, that profile,
// so that names mean what they say (model "fast" is served fast); else the
// default profile.
func (s *Server) profileFor(model string) Profile {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p, ok := s.byModel[model]; ok {
		return p
	}
	if p, ok := profiles[model]; ok && model != s.profile.Name {
		return p
	}
	return s.profile
}

// The response headers that say which profile answered: the one the
// request was served at, and the server's own (--profile).
const (
	ProfileHeader       = "Latgate-Sim-Profile"
	ServerProfileHeader = "Latgate-Sim-Server-Profile"
)

// served is the profile a request for model is served at (profileFor),
// named in the response's headers. A model that names another built-in
// profile pins it (latgate init's model: realistic is served realistic by
// a latgate sim --profile slow): Warn is told, once per model, since a
// second simulator started for a slower head would measure the same
// speed.
func (s *Server) served(w http.ResponseWriter, model string) Profile {
	p := s.profileFor(model)
	s.mu.RLock()
	own := s.profile.Name
	s.mu.RUnlock()
	w.Header().Set(ProfileHeader, p.Name)
	w.Header().Set(ServerProfileHeader, own)
	if _, builtin := profiles[model]; builtin && model == p.Name && p.Name != own && s.Warn != nil {
		if _, seen := s.warned.LoadOrStore(model, true); !seen {
			s.Warn(fmt.Sprintf("requests for model %q are served at the %s profile, which the model names, not at this server's %s: "+
				"give the endpoint a model that names no profile (such as sim) to measure %s", model, p.Name, own, own))
		}
	}
	return p
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/models" && r.Method == http.MethodGet {
		s.models(w)
		return
	}
	if r.URL.Path == "/metrics" && r.Method == http.MethodGet {
		s.metrics(w)
		return
	}
	if r.URL.Path == "/dcgm/metrics" && r.Method == http.MethodGet {
		s.dcgm(w)
		return
	}
	a, ok := route(r)
	if !ok {
		writeError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Unknown request URL: %s %s", r.Method, r.URL.Path), "")
		return
	}
	if serve := apiOf(a).serve; serve != nil {
		serve(s, w, r)
		return
	}
	s.serve(w, r, a)
}

func (s *Server) models(w http.ResponseWriter) {
	var list openai.ModelsList
	for _, n := range ProfileNames() {
		list.Models = append(list.Models, openai.Model{ID: n, Object: "model", OwnedBy: "latgate-sim"})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

func writeError(w http.ResponseWriter, status int, typ, msg, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil},
	})
}

// plan is every random decision for one request, drawn up front in a fixed
// order so the same seed and request number give the same stream: the
// header delay, the first step's TTFT, the faults and the answer's words by
// draw; each step's gaps (and the TTFT of each later step) as the
// timeline is laid out.
type plan struct {
	header    time.Duration
	ttft      time.Duration
	httpError bool
	truncate  bool
	midLine   bool
	stall     bool
	malformed bool
	streamErr bool
	words     []string

	r     *rand.Rand
	p     Profile
	speed float64
}

var words = strings.Fields("the quick brown fox jumps over a lazy dog while latency budgets hold and every token arrives on time for the reader")

// answerTokens is the length of the answer to q: the profile's Tokens,
// at most q's limit (exactly it with ignore_eos, q's or the profile's),
// at least q's min_tokens.
func (p Profile) answerTokens(q request) int {
	n := p.Tokens
	if q.maxTokens > 0 && (q.maxTokens < n || q.ignoreEOS || p.Quirks.IgnoreEOS) {
		n = q.maxTokens
	}
	return max(n, q.minTokens)
}

// draw plans a request to q; speed multiplies every delay (Profile.Speed's
// factor at the request's arrival).
func (p Profile) draw(r *rand.Rand, q request, speed float64) plan {
	pl := plan{r: r, p: p, speed: speed}
	pl.header = pl.scale(p.HeaderDelay)
	pl.ttft = pl.scaleTTFT(p.TTFT.Sample(r))
	pl.httpError = r.Float64() < p.Faults.ErrorRate
	pl.truncate = r.Float64() < p.Faults.TruncateRate
	pl.midLine = r.Float64() < p.Faults.MidLineRate
	pl.stall = r.Float64() < p.Faults.StallRate
	pl.malformed = r.Float64() < p.Faults.MalformedRate
	pl.streamErr = r.Float64() < p.Faults.StreamErrRate
	n := p.answerTokens(q)
	if p.Faults.ZeroTokens {
		n = 0
	}
	pl.words = make([]string, n)
	for i := range pl.words {
		pl.words[i] = " " + words[r.IntN(len(words))]
	}
	return pl
}

func (pl *plan) scale(d time.Duration) time.Duration { return time.Duration(float64(d) * pl.speed) }

// scaleTTFT scales a time to first output: the speed, and the TTFT's own
// slowdown.
func (pl *plan) scaleTTFT(d time.Duration) time.Duration {
	return time.Duration(float64(pl.scale(d)) * (1 + pl.p.Speed.TTFTSlowdown))
}

// drawGaps draws the gaps before each of n output events (the first is not
// used: the TTFT places the first event).
func (pl *plan) drawGaps(n int) []time.Duration {
	gaps := make([]time.Duration, n)
	for i := range gaps {
		gaps[i] = pl.scale(pl.p.ITL.Sample(pl.r))
	}
	return gaps
}

// nextTTFT draws the TTFT of a step after the first.
func (pl *plan) nextTTFT() time.Duration { return pl.scaleTTFT(pl.p.TTFT.Sample(pl.r)) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request, a api) {
	clk := clock.Or(s.Clock)
	start := clk.Now()
	n := s.requests.Add(1)
	if s.APIKey != "" {
		if got := key(a, r); got != s.APIKey {
			// Deliberately echo the key, as some gateways do, so tests can
			// check that the probe never lets it through.
			writeAPIError(w, a, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided: "+got+".", "")
			return
		}
	}
	q, err := parse(a, r)
	if err != nil {
		writeAPIError(w, a, http.StatusBadRequest, "invalid_request_error", parseErrorMessage(err), "")
		return
	}
	if q.aiSDK {
		a = apiAISDK
	}
	p := s.served(w, q.model)
	arrival := start // before its wait for a slot (Profile.Capacity)
	rng := rand.New(rand.NewPCG(s.Seed, n))
	pl := p.draw(rng, q, p.Speed.FactorAt(start))
	ctx := r.Context()
	if pl.httpError {
		if clk.Until(ctx, start.Add(pl.header)) {
			writeFault(w, a, p.Faults)
		}
		return
	}
	if !q.stream && !apiOf(a).unstreamed {
		writeAPIError(w, a, http.StatusBadRequest, "invalid_request_error", "the simulator answers this API only with a stream: set stream: true (Gemini: ?alt=sse)", "")
		return
	}
	ready := s.zero.arrive(p, start)
	defer func() { s.zero.leave(clk.Now()) }()
	release, ok := s.admit(ctx, clk, w, a, p, &start, &pl)
	if !ok {
		return
	}
	defer release()
	if start.Before(ready) {
		start = ready // scaled to zero: nothing is worked on before the server is up
	}
	steps := p.steps(q, n)
	rs := response{start: start, arrival: arrival, api: a, p: p, q: q, n: n, steps: steps}
	rs.u.prompt, rs.u.reasoning = q.promptTokens, p.Quirks.ReasoningTokens
	rs.u.cached, rs.remember = s.cacheOf(p, q)
	pl.ttft = p.promptTTFT(&pl, rs.u.prompt, rs.u.cached)
	rs.pl = pl
	rs.events = pl.timeline(p, steps, apiOf(a).wholeCalls)
	rs.finish, rs.u.output = p.outcome(q, pl, steps[len(steps)-1])
	if q.stream {
		s.stream(ctx, clk, w, rs)
		return
	}
	s.complete(ctx, clk, w, rs)
}

// response is everything planned for one answer.
type response struct {
	// arrival is when the request came; start when the engine took it up
	// (after its wait for a slot), the origin of every planned time.
	arrival time.Time
	start   time.Time
	api     api
	p       Profile
	pl      plan
	q       request
	n       uint64 // the request's number on the server
	steps   []step
	events  []outputEvent
	finish  string
	u       counts
	// remember, when set, has the block cache hold the prompt's blocks
	// (prefilled).
	remember func()
}

// writeFault answers with the profile's HTTP error: the API's error body,
// or an HTML page.
func writeFault(w http.ResponseWriter, a api, f Faults) {
	status := f.ErrorStatus
	if status == 0 {
		status = http.StatusInternalServerError
	}
	if f.HTMLError {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><h1>%s</h1><hr>nginx</body></html>\n", status, http.StatusText(status), http.StatusText(status))
		return
	}
	writeAPIError(w, a, status, "server_error", fmt.Sprintf("The server is overloaded (simulated %d).", status), f.RetryAfter)
}

// complete answers a chat request without a stream: the whole message,
// its tool calls or its text, when the stream would have ended.
func (s *Server) complete(ctx context.Context, clk clock.Clock, w http.ResponseWriter, rs response) {
	at := rs.start.Add(rs.pl.ttft)
	if n := len(rs.events); n > 0 {
		at = rs.start.Add(rs.events[n-1].at)
	}
	if !clk.Until(ctx, at) {
		return
	}
	rs.prefilled()
	msg := openai.ChatCompletionMessage{Role: "assistant", Content: strings.Join(rs.pl.words, "")}
	if calls := rs.steps[0].calls; len(calls) > 0 {
		msg.Content = ""
		for _, c := range calls {
			msg.ToolCalls = append(msg.ToolCalls, openai.ToolCall{ID: c.id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: c.name, Arguments: c.args}})
		}
	}
	u := openai.Usage{PromptTokens: rs.u.prompt, CompletionTokens: rs.u.output, TotalTokens: rs.u.prompt + rs.u.output}
	if rs.u.cached > 0 {
		u.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: rs.u.cached}
	}
	rs.times(clk, rs.start.Add(rs.pl.ttft)).headers(w.Header(), clk.Now().Sub(rs.arrival), false)
	resp := openai.ChatCompletionResponse{
		ID: "chatcmpl-sim", Object: "chat.completion", Created: rs.start.Unix(), Model: rs.q.model,
		Choices: []openai.ChatCompletionChoice{{Message: msg, FinishReason: openai.FinishReason(rs.finish)}},
		Usage:   u,
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// sseWriter writes SSE frames with the profile's quirks.
type sseWriter struct {
	w       io.Writer
	flush   func()
	nl      string
	prefix  string
	multi   bool
	trickle bool
	comment string // written with the next data event, in the same write
	ndjson  bool   // one line per event, no blank line
	err     error
}

// event writes a named SSE event (NDJSON has no names).
func (s *sseWriter) event(name string, payload []byte) {
	if !s.ndjson {
		s.comment += "event: " + name + s.nl
	}
	s.data(payload)
}

func (s *sseWriter) raw(b []byte) {
	if s.err != nil {
		return
	}
	if s.trickle {
		for i := range b {
			if _, s.err = s.w.Write(b[i : i+1]); s.err != nil {
				return
			}
			s.flush()
		}
		return
	}
	_, s.err = s.w.Write(b)
	s.flush()
}

func (s *sseWriter) data(payload []byte) {
	var b bytes.Buffer
	b.WriteString(s.comment)
	s.comment = ""
	lines := []string{string(payload)}
	if s.multi {
		// JSON allows a newline between a comma and the next key, and SSE
		// joins multi-line data with "\n", so this is a valid split.
		lines = strings.Split(strings.ReplaceAll(string(payload), `,"`, ",\n\""), "\n")
	}
	for _, l := range lines {
		b.WriteString(s.prefix + l + s.nl)
	}
	if !s.ndjson {
		b.WriteString(s.nl)
	}
	s.raw(b.Bytes())
}

func (s *sseWriter) chunk(c openai.ChatCompletionStreamResponse) {
	if c.Choices == nil {
		c.Choices = []openai.ChatCompletionStreamChoice{}
	}
	b, _ := json.Marshal(c)
	s.data(b)
}

func (s *Server) stream(ctx context.Context, clk clock.Clock, w http.ResponseWriter, rs response) {
	ndjson := apiOf(rs.api).ndjson
	sw, closeBody := newWriter(w, rs.p.Quirks, ndjson)
	defer closeBody()
	for k, v := range apiOf(rs.api).headers {
		w.Header().Set(k, v)
	}
	if !clk.Until(ctx, rs.start.Add(rs.pl.header)) {
		return
	}
	rs.times(clk, clk.Now()).headers(w.Header(), clk.Now().Sub(rs.arrival), true)
	w.WriteHeader(http.StatusOK)
	sw.flush()
	st := &streamer{clk: clk, sw: sw, enc: encoderFor(rs), p: rs.p, pl: rs.pl, ndjson: ndjson}
	if !st.preamble() {
		return
	}
	n := 0
	for _, e := range rs.events {
		if e.output {
			n++
		}
	}
	var stall time.Duration
	i := 0
	for _, e := range rs.events {
		if e.output && rs.pl.stall && i == rs.p.Faults.StallAfter {
			stall = rs.p.Faults.StallFor
		}
		if !clk.Until(ctx, rs.start.Add(e.at+stall)) {
			return
		}
		if e.output {
			rs.prefilled()
		}
		if !st.output(i, n, e) {
			return
		}
		if e.output {
			i++
		}
	}
	rs.prefilled()
	first := st.first
	if first.IsZero() {
		first = clk.Now()
	}
	u := rs.u
	u.eng = rs.times(clk, first)
	st.enc.end(sw, rs.finish, u, rs.q.includeUsage && !rs.p.Quirks.NoUsage)
	if sw.err == nil {
		s.stats.observe(u.eng)
	}
}

// streamer writes the events of one streamed answer.
type streamer struct {
	clk    clock.Clock
	sw     *sseWriter
	enc    encoder
	p      Profile
	pl     plan
	ndjson bool
	first  time.Time // when the first output event was written
}

// preamble writes what comes before the first output: the API's own
// events, keep-alives, an empty chunk. It reports whether the client is
// still there.
func (st *streamer) preamble() bool {
	sw, qk := st.sw, st.p.Quirks
	st.enc.preamble(sw)
	if !st.ndjson {
		for range qk.KeepAlives {
			sw.raw([]byte(": keep-alive" + sw.nl + sw.nl))
		}
	}
	if c, ok := st.enc.(*chatEnc); ok && qk.EmptyChunk {
		sw.chunk(c.delta(openai.ChatCompletionStreamChoiceDelta{Content: ""}, ""))
	}
	return sw.err == nil
}

// output writes event e, the i-th of n output events when it is one (or
// the fault the plan puts halfway). It reports whether the stream goes on.
func (st *streamer) output(i, n int, e outputEvent) bool {
	sw, pl, qk := st.sw, st.pl, st.p.Quirks
	if e.output && i == n/2 {
		switch {
		case pl.truncate:
			return false // clean EOF with no end of stream
		case pl.midLine:
			sw.raw([]byte(sw.prefix + `{"id":"chatcmpl-sim","choices":[{"delta":{"content":" tr`))
			panic(http.ErrAbortHandler) // drop the connection mid-line
		case pl.streamErr:
			st.enc.fail(sw)
			return false
		case pl.malformed:
			sw.raw([]byte(sw.prefix + `{"id":"chatcmpl-sim","choices":[{"delta":{"content":` + sw.nl + sw.nl))
		}
	}
	if e.output && i == 0 {
		st.first = st.clk.Now()
		if e.kind == kindContent && qk.LongLine > 0 {
			e.text += strings.Repeat("x", qk.LongLine)
		}
		if qk.StampFirstOutput && !st.ndjson {
			sw.comment = fmt.Sprintf(": x-sim-first-output-unix-ns=%d%s", st.clk.Now().UnixNano(), sw.nl)
		}
	}
	st.enc.output(sw, e)
	return sw.err == nil
}

// newWriter sets the stream's headers and returns its writer (with the
// quirks: gzip, CRLF, no space, multi-line data, trickle, a buffering
// proxy) and what to call when the body is done.
func newWriter(w http.ResponseWriter, qk Quirks, ndjson bool) (*sseWriter, func()) {
	fl, _ := w.(http.Flusher)
	flush := func() {}
	var out io.Writer = w
	var closers []func()
	if ndjson {
		w.Header().Set("Content-Type", "application/x-ndjson")
	} else {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
	}
	var gz *gzip.Writer
	if qk.Gzip {
		w.Header().Set("Content-Encoding", "gzip")
		gz = gzip.NewWriter(w)
		out = gz
		closers = append(closers, func() { _ = gz.Close() })
	}
	if fl != nil {
		flush = func() {
			if gz != nil {
				_ = gz.Flush()
			}
			fl.Flush()
		}
	}
	if qk.Buffered {
		// A buffering proxy: the client gets the headers, then nothing
		// until the whole body is there.
		var held bytes.Buffer
		real, realFlush := out, flush
		out, flush = &held, func() {}
		closers = append(closers, func() {
			_, _ = real.Write(held.Bytes())
			realFlush()
		})
	}
	sw := &sseWriter{w: out, flush: flush, nl: "\n", prefix: "data: ", multi: qk.MultiLineData, trickle: qk.Trickle, ndjson: ndjson}
	if qk.CRLF {
		sw.nl = "\r\n"
	}
	if qk.NoSpace {
		sw.prefix = "data:"
	}
	if ndjson {
		sw.prefix, sw.nl, sw.multi = "", "\n", false
	}
	return sw, func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
}

// outputEvent is one event of a response, written at its time.
type outputEvent struct {
	at   time.Duration // from the request's arrival
	kind kind
	text string // the content, the reasoning or a piece of a call's arguments
	// call is the tool call a piece of arguments (kindTool) or a tool's
	// output (kindToolResult) belongs to; first and last mark its first and
	// last piece.
	call        *toolCall
	first, last bool
	// output: the model's output (content, reasoning, a tool call), which
	// faults, stalls and stamps count; a tool's output and a step boundary
	// are the AI SDK server's.
	output bool
}

var toolCallQuirk = toolCall{id: "call_sim", name: "lookup"}

// outputs lists the output events of an answer: reasoning first, then the
// answer's words, TokensPerEvent to an event. With the ToolCall quirk the
// words stream as the arguments of one call.
func outputs(qk Quirks, words []string) []outputEvent {
	var evs []outputEvent
	for range qk.ReasoningTokens {
		evs = append(evs, outputEvent{kind: kindReasoning, text: " think", output: true})
	}
	for _, wd := range words {
		evs = append(evs, outputEvent{kind: kindContent, text: wd, output: true})
	}
	if k := qk.TokensPerEvent; k > 1 {
		var grouped []outputEvent
		for i := 0; i < len(evs); i += k {
			g := outputEvent{kind: evs[i].kind, output: true}
			for _, e := range evs[i:min(i+k, len(evs))] {
				g.text += e.text
			}
			grouped = append(grouped, g)
		}
		evs = grouped
	}
	if qk.ToolCall {
		first := true
		for i := range evs {
			if evs[i].kind == kindContent {
				evs[i].kind, evs[i].call, evs[i].first = kindTool, &toolCallQuirk, first
				first = false
			}
		}
		if n := len(evs); n > 0 && evs[n-1].kind == kindTool {
			evs[n-1].last = true
		}
	}
	return evs
}

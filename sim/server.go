// Package sim is a streaming LLM API simulator: it speaks every API latgate
// measures, all at once, on one listener:
//
//	POST /v1/chat/completions                       OpenAI chat completions (streaming and not)
//	POST /v1/responses                              OpenAI Responses API
//	POST /v1/messages                               Anthropic Messages
//	POST /v1beta/models/{model}:streamGenerateContent?alt=sse   Gemini
//	POST /openai/deployments/{deployment}/chat/completions       Azure OpenAI
//	POST /api/chat                                  Ollama's native NDJSON (for api: custom)
//	GET  /v1/models
//
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

	mu       sync.RWMutex
	profile  Profile
	byModel  map[string]Profile
	requests atomic.Uint64
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

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/v1/models" && r.Method == http.MethodGet {
		s.models(w)
		return
	}
	a, ok := route(r)
	if !ok {
		writeError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Unknown request URL: %s %s", r.Method, r.URL.Path), "")
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
// order so the same seed and request number give the same stream.
type plan struct {
	header    time.Duration
	ttft      time.Duration
	gaps      []time.Duration
	httpError bool
	truncate  bool
	midLine   bool
	stall     bool
	malformed bool
	streamErr bool
	words     []string
}

var words = strings.Fields("the quick brown fox jumps over a lazy dog while latency budgets hold and every token arrives on time for the reader")

// draw plans a request; speed multiplies every delay (Profile.Speed's
// factor at the request's arrival).
func (p Profile) draw(r *rand.Rand, maxTokens int, speed float64) plan {
	var pl plan
	scale := func(d time.Duration) time.Duration { return time.Duration(float64(d) * speed) }
	pl.header = scale(p.HeaderDelay)
	pl.ttft = scale(p.TTFT.Sample(r))
	pl.httpError = r.Float64() < p.Faults.ErrorRate
	pl.truncate = r.Float64() < p.Faults.TruncateRate
	pl.midLine = r.Float64() < p.Faults.MidLineRate
	pl.stall = r.Float64() < p.Faults.StallRate
	pl.malformed = r.Float64() < p.Faults.MalformedRate
	pl.streamErr = r.Float64() < p.Faults.StreamErrRate
	n := p.Tokens
	if maxTokens > 0 && maxTokens < n {
		n = maxTokens
	}
	if p.Faults.ZeroTokens {
		n = 0
	}
	pl.words = make([]string, n)
	for i := range pl.words {
		pl.words[i] = " " + words[r.IntN(len(words))]
	}
	events := p.Quirks.ReasoningTokens + n
	if p.Quirks.TokensPerEvent > 1 {
		events = (events + p.Quirks.TokensPerEvent - 1) / p.Quirks.TokensPerEvent
	}
	pl.gaps = make([]time.Duration, events)
	for i := range pl.gaps {
		pl.gaps[i] = scale(p.ITL.Sample(r))
	}
	return pl
}

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
		writeAPIError(w, a, http.StatusBadRequest, "invalid_request_error", "We could not parse the JSON body of your request: "+err.Error(), "")
		return
	}
	p := s.profileFor(q.model)
	rng := rand.New(rand.NewPCG(s.Seed, n))
	pl := p.draw(rng, q.maxTokens, p.Speed.FactorAt(start))
	ctx := r.Context()

	if pl.httpError {
		if !clk.Until(ctx, start.Add(pl.header)) {
			return
		}
		status := p.Faults.ErrorStatus
		if status == 0 {
			status = http.StatusInternalServerError
		}
		if p.Faults.HTMLError {
			if p.Faults.RetryAfter != "" {
				w.Header().Set("Retry-After", p.Faults.RetryAfter)
			}
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			fmt.Fprintf(w, "<html><head><title>%d %s</title></head><body><h1>%s</h1><hr>nginx</body></html>\n", status, http.StatusText(status), http.StatusText(status))
			return
		}
		writeAPIError(w, a, status, "server_error", fmt.Sprintf("The server is overloaded (simulated %d).", status), p.Faults.RetryAfter)
		return
	}
	switch {
	case q.stream:
		s.stream(ctx, clk, w, start, a, p, pl, q)
	case a == apiChat || a == apiAzure:
		s.complete(ctx, clk, w, start, p, pl, q)
	default:
		writeAPIError(w, a, http.StatusBadRequest, "invalid_request_error", "the simulator answers this API only with a stream: set stream: true (Gemini: ?alt=sse)", "")
	}
}

func (s *Server) complete(ctx context.Context, clk clock.Clock, w http.ResponseWriter, start time.Time, p Profile, pl plan, q request) {
	at := start.Add(pl.ttft)
	for _, g := range pl.gaps[1:] {
		at = at.Add(g)
	}
	if !clk.Until(ctx, at) {
		return
	}
	resp := openai.ChatCompletionResponse{
		ID: "chatcmpl-sim", Object: "chat.completion", Created: start.Unix(), Model: q.model,
		Choices: []openai.ChatCompletionChoice{{
			Message:      openai.ChatCompletionMessage{Role: "assistant", Content: strings.Join(pl.words, "")},
			FinishReason: openai.FinishReasonStop,
		}},
		Usage: usage(p, pl, q),
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func usage(p Profile, pl plan, q request) openai.Usage {
	prompt := q.promptTokens
	completion := len(pl.words) + p.Quirks.ReasoningTokens
	u := openai.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	if p.Quirks.CachedTokens > 0 {
		u.PromptTokensDetails = &openai.PromptTokensDetails{CachedTokens: min(p.Quirks.CachedTokens, prompt)}
	}
	return u
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

func (s *Server) stream(ctx context.Context, clk clock.Clock, w http.ResponseWriter, start time.Time, a api, p Profile, pl plan, q request) {
	ndjson := a == apiOllama
	sw, closeBody := newWriter(w, p.Quirks, ndjson)
	defer closeBody()
	if !clk.Until(ctx, start.Add(pl.header)) {
		return
	}
	w.WriteHeader(http.StatusOK)
	sw.flush()
	st := &streamer{clk: clk, sw: sw, enc: encoderFor(a, q, start, p), p: p, pl: pl, ndjson: ndjson}
	if !st.preamble() {
		return
	}
	evs := outputs(p.Quirks, pl.words)
	at := start.Add(pl.ttft)
	for i, e := range evs {
		if i > 0 {
			at = at.Add(pl.gaps[i])
		}
		if pl.stall && i == p.Faults.StallAfter {
			at = at.Add(p.Faults.StallFor)
		}
		if !clk.Until(ctx, at) || !st.output(i, len(evs), e) {
			return
		}
	}
	st.end(q, len(evs))
}

// streamer writes the events of one streamed answer.
type streamer struct {
	clk    clock.Clock
	sw     *sseWriter
	enc    encoder
	p      Profile
	pl     plan
	ndjson bool
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

// output writes the i-th of n output events, or the fault the plan puts
// halfway. It reports whether the stream goes on.
func (st *streamer) output(i, n int, e outputEvent) bool {
	sw, pl, qk := st.sw, st.pl, st.p.Quirks
	if i == n/2 {
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
	k, text := kindContent, e.text
	switch {
	case e.reasoning:
		k = kindReasoning
	case qk.ToolCall:
		k = kindTool
	case i == 0 && qk.LongLine > 0:
		text += strings.Repeat("x", qk.LongLine)
	}
	if i == 0 && qk.StampFirstOutput && !st.ndjson {
		sw.comment = fmt.Sprintf(": x-sim-first-output-unix-ns=%d%s", st.clk.Now().UnixNano(), sw.nl)
	}
	st.enc.output(sw, i, text, k)
	return sw.err == nil
}

// end writes the API's end of a stream of events output events, with its
// finish reason and usage.
func (st *streamer) end(q request, events int) {
	p, pl := st.p, st.pl
	finish := "stop"
	if events > 0 && len(pl.words) == q.maxTokens {
		finish = "length"
	}
	if p.Quirks.ToolCall {
		finish = "tool_calls"
	}
	u := counts{prompt: q.promptTokens, output: len(pl.words) + p.Quirks.ReasoningTokens, reasoning: p.Quirks.ReasoningTokens}
	if p.Quirks.CachedTokens > 0 {
		u.cached = min(p.Quirks.CachedTokens, u.prompt)
	}
	st.enc.end(st.sw, finish, u, q.includeUsage && !p.Quirks.NoUsage)
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

// outputEvent is one output event to stream.
type outputEvent struct {
	text      string
	reasoning bool
}

// outputs lists the output events: reasoning first, then the answer's
// words, TokensPerEvent to an event.
func outputs(qk Quirks, words []string) []outputEvent {
	var evs []outputEvent
	for range qk.ReasoningTokens {
		evs = append(evs, outputEvent{text: " think", reasoning: true})
	}
	for _, wd := range words {
		evs = append(evs, outputEvent{text: wd})
	}
	if k := qk.TokensPerEvent; k > 1 {
		var grouped []outputEvent
		for i := 0; i < len(evs); i += k {
			g := outputEvent{reasoning: evs[i].reasoning}
			for _, e := range evs[i:min(i+k, len(evs))] {
				g.text += e.text
			}
			grouped = append(grouped, g)
		}
		evs = grouped
	}
	return evs
}

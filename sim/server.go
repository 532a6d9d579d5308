// Package sim is an OpenAI-compatible streaming chat-completions simulator.
//
// It serves POST /v1/chat/completions (streaming and not) and GET /v1/models,
// with latency drawn from a Profile: time to first token and inter-token gaps
// from fixed, log-normal and queueing-spike distributions, protocol quirks
// (role-only first chunks, keep-alive comments, CRLF, multi-line data, gzip,
// byte-by-byte trickle, reasoning and tool-call deltas) and injected faults
// (HTTP errors with OpenAI-style or HTML bodies, truncation, stalls, malformed
// chunks, in-stream errors). A profile's Speed scales every delay: uniformly
// (Slowdown, for the slower head of an A/B test) or swinging over time
// (Swing, for A/A drift tests). Every draw comes from a PCG generator seeded by
// (Seed, request number), so a run is reproducible. When the client goes
// away the stream stops at the next wait.
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

	"github.com/latgate/latgate/internal/wait"
	openai "github.com/sashabaranov/go-openai"
)

// Server is an http.Handler serving the simulator.
type Server struct {
	// Seed makes the draws reproducible.
	Seed uint64
	// APIKey, when set, is required as a Bearer token.
	APIKey string

	started  time.Time // the time base of Speed.Swing
	mu       sync.RWMutex
	profile  Profile
	byModel  map[string]Profile
	requests atomic.Uint64
}

// New returns a simulator that answers every request with p (requests for a
// model mapped with SetModelProfile use that model's profile instead).
func New(p Profile, seed uint64) *Server {
	return &Server{Seed: seed, profile: p, started: time.Now()}
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

// Requests is the number of chat-completion requests received.
func (s *Server) Requests() uint64 { return s.requests.Load() }

func (s *Server) profileFor(model string) Profile {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p, ok := s.byModel[model]; ok {
		return p
	}
	return s.profile
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		s.models(w)
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r)
	default:
		writeError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Unknown request URL: %s %s", r.Method, r.URL.Path), "")
	}
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

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	n := s.requests.Add(1)
	if s.APIKey != "" {
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if got != s.APIKey {
			// Deliberately echo the key, as some gateways do, so tests can
			// check that the probe never lets it through.
			writeError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided: "+got+".", "")
			return
		}
	}
	var req openai.ChatCompletionRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "We could not parse the JSON body of your request: "+err.Error(), "")
		return
	}
	p := s.profileFor(req.Model)
	rng := rand.New(rand.NewPCG(s.Seed, n))
	pl := p.draw(rng, maxTokensOf(req), p.Speed.Factor(start.Sub(s.started)))
	ctx := r.Context()

	if pl.httpError {
		if !wait.Until(ctx, start.Add(pl.header)) {
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
		writeError(w, status, "server_error", fmt.Sprintf("The server is overloaded (simulated %d).", status), p.Faults.RetryAfter)
		return
	}
	if !req.Stream {
		s.complete(ctx, w, start, p, pl, req)
		return
	}
	s.stream(ctx, w, start, p, pl, req)
}

func (s *Server) complete(ctx context.Context, w http.ResponseWriter, start time.Time, p Profile, pl plan, req openai.ChatCompletionRequest) {
	at := start.Add(pl.ttft)
	for _, g := range pl.gaps[1:] {
		at = at.Add(g)
	}
	if !wait.Until(ctx, at) {
		return
	}
	resp := openai.ChatCompletionResponse{
		ID: "chatcmpl-sim", Object: "chat.completion", Created: start.Unix(), Model: req.Model,
		Choices: []openai.ChatCompletionChoice{{
			Message:      openai.ChatCompletionMessage{Role: "assistant", Content: strings.Join(pl.words, "")},
			FinishReason: openai.FinishReasonStop,
		}},
		Usage: usage(p, pl, req),
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func usage(p Profile, pl plan, req openai.ChatCompletionRequest) openai.Usage {
	prompt := 0
	for _, m := range req.Messages {
		prompt += len(strings.Fields(m.Content)) + 4
	}
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
	err     error
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
	b.WriteString(s.nl)
	s.raw(b.Bytes())
}

func (s *sseWriter) chunk(c openai.ChatCompletionStreamResponse) {
	if c.Choices == nil {
		c.Choices = []openai.ChatCompletionStreamChoice{}
	}
	b, _ := json.Marshal(c)
	s.data(b)
}

func (s *Server) stream(ctx context.Context, w http.ResponseWriter, start time.Time, p Profile, pl plan, req openai.ChatCompletionRequest) {
	fl, _ := w.(http.Flusher)
	flush := func() {}
	var out io.Writer = w
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	var gz *gzip.Writer
	if p.Quirks.Gzip {
		w.Header().Set("Content-Encoding", "gzip")
		gz = gzip.NewWriter(w)
		out = gz
		defer gz.Close()
	}
	if fl != nil {
		flush = func() {
			if gz != nil {
				_ = gz.Flush()
			}
			fl.Flush()
		}
	}
	sw := &sseWriter{w: out, flush: flush, nl: "\n", prefix: "data: ", multi: p.Quirks.MultiLineData, trickle: p.Quirks.Trickle}
	if p.Quirks.CRLF {
		sw.nl = "\r\n"
	}
	if p.Quirks.NoSpace {
		sw.prefix = "data:"
	}
	if !wait.Until(ctx, start.Add(pl.header)) {
		return
	}
	w.WriteHeader(http.StatusOK)
	flush()

	base := openai.ChatCompletionStreamResponse{ID: "chatcmpl-sim", Object: "chat.completion.chunk", Created: start.Unix(), Model: req.Model}
	delta := func(d openai.ChatCompletionStreamChoiceDelta, finish openai.FinishReason) openai.ChatCompletionStreamResponse {
		c := base
		c.Choices = []openai.ChatCompletionStreamChoice{{Index: 0, Delta: d, FinishReason: finish}}
		return c
	}
	if p.Quirks.AzureFilterChunk {
		c := base
		c.Model = ""
		c.PromptFilterResults = []openai.PromptFilterResult{{Index: 0}}
		sw.chunk(c)
	}
	if p.Quirks.RoleChunk {
		sw.chunk(delta(openai.ChatCompletionStreamChoiceDelta{Role: "assistant"}, ""))
	}
	for range p.Quirks.KeepAlives {
		sw.raw([]byte(": keep-alive" + sw.nl + sw.nl))
	}
	if p.Quirks.EmptyChunk {
		sw.chunk(delta(openai.ChatCompletionStreamChoiceDelta{Content: ""}, ""))
	}
	if sw.err != nil {
		return
	}

	// Output events: reasoning first, then content (or tool-call arguments).
	type ev struct {
		text      string
		reasoning bool
	}
	var evs []ev
	for range p.Quirks.ReasoningTokens {
		evs = append(evs, ev{text: " think", reasoning: true})
	}
	for _, wd := range pl.words {
		evs = append(evs, ev{text: wd})
	}
	if k := p.Quirks.TokensPerEvent; k > 1 {
		var grouped []ev
		for i := 0; i < len(evs); i += k {
			g := ev{reasoning: evs[i].reasoning}
			for _, e := range evs[i:min(i+k, len(evs))] {
				g.text += e.text
			}
			grouped = append(grouped, g)
		}
		evs = grouped
	}
	at := start.Add(pl.ttft)
	for i, e := range evs {
		if i > 0 {
			at = at.Add(pl.gaps[i])
		}
		if pl.stall && i == p.Faults.StallAfter {
			at = at.Add(p.Faults.StallFor)
		}
		if !wait.Until(ctx, at) {
			return
		}
		half := len(evs) / 2
		switch {
		case pl.truncate && i == half:
			return // clean EOF with no finish_reason and no [DONE]
		case pl.midLine && i == half:
			sw.raw([]byte(sw.prefix + `{"id":"chatcmpl-sim","choices":[{"delta":{"content":" tr`))
			panic(http.ErrAbortHandler) // drop the connection mid-line
		case pl.streamErr && i == half:
			sw.data([]byte(`{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","code":null}}`))
			return
		case pl.malformed && i == half:
			sw.raw([]byte(sw.prefix + `{"id":"chatcmpl-sim","choices":[{"delta":{"content":` + sw.nl + sw.nl))
		}
		var d openai.ChatCompletionStreamChoiceDelta
		switch {
		case e.reasoning:
			d.ReasoningContent = e.text
		case p.Quirks.ToolCall:
			idx := 0
			fn := openai.FunctionCall{Arguments: e.text}
			if i == 0 {
				fn.Name = "lookup"
			}
			d.ToolCalls = []openai.ToolCall{{Index: &idx, ID: "call_sim", Type: openai.ToolTypeFunction, Function: fn}}
		default:
			d.Content = e.text
			if i == 0 && p.Quirks.LongLine > 0 {
				d.Content += strings.Repeat("x", p.Quirks.LongLine)
			}
		}
		if i == 0 && p.Quirks.StampFirstOutput {
			sw.comment = fmt.Sprintf(": x-sim-first-output-unix-ns=%d%s", time.Now().UnixNano(), sw.nl)
		}
		sw.chunk(delta(d, ""))
		if sw.err != nil {
			return
		}
	}
	finish := openai.FinishReasonStop
	if len(evs) > 0 && len(pl.words) == maxTokensOf(req) {
		finish = openai.FinishReasonLength
	}
	if p.Quirks.ToolCall {
		finish = openai.FinishReasonToolCalls
	}
	sw.chunk(delta(openai.ChatCompletionStreamChoiceDelta{}, finish))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage && !p.Quirks.NoUsage {
		c := base
		u := usage(p, pl, req)
		c.Usage = &u
		sw.chunk(c)
	}
	if !p.Quirks.NoDone {
		sw.data([]byte("[DONE]"))
	}
}

// maxTokensOf is the request's token limit: max_completion_tokens, else
// max_tokens (which most OpenAI-compatible servers still use).
func maxTokensOf(req openai.ChatCompletionRequest) int {
	if req.MaxCompletionTokens > 0 {
		return req.MaxCompletionTokens
	}
	return req.MaxTokens
}

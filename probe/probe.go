// Package probe turns one streaming chat-completion request into one timed
// Record, and runs many of them (Runner) with a fixed worker pool.
//
// It reads the SSE stream itself (see docs/metrics.md for why) and decodes
// chunks with go-openai's types. Per-request failures are data: Do never
// returns an error, it returns a Record with OK false and a specific Error.
// Requests are never retried. The probe does not interpret prompts, count
// tokens with a tokenizer, or compare anything.
package probe

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"regexp"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Request is one prepared request.
type Request struct {
	URL     string            // full chat-completions URL
	Body    []byte            // JSON body (stream: true, include_usage: true)
	APIKey  string            // sent as a Bearer token when non-empty
	Headers map[string]string // extra headers
}

// Prober sends requests and times them.
type Prober struct {
	Client *http.Client
	// Now is the clock; time.Now (monotonic) when nil.
	Now func() time.Time
	// Timeout bounds a whole request; StallTimeout bounds any wait for the
	// next byte (including the headers). Zero disables a bound.
	Timeout      time.Duration
	StallTimeout time.Duration
	// ReadingRate is tokens/s for the reader model (default 10).
	ReadingRate float64
	// Secrets are removed from every error message.
	Secrets []string
}

var (
	errStall   = errors.New("stall")
	errTimeout = errors.New("timeout")
)

// stallReader cancels the request when no byte arrives for d.
type stallReader struct {
	r     io.Reader
	timer *time.Timer
	d     time.Duration
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 && s.timer != nil {
		s.timer.Reset(s.d)
	}
	return n, err
}

// Do sends req and measures it. It never returns an error: failures are
// recorded in the Record.
func (p *Prober) Do(ctx context.Context, req Request) Record {
	now := p.Now
	if now == nil {
		now = time.Now
	}
	rate := p.ReadingRate
	if rate <= 0 {
		rate = 10
	}
	rec := newRecord()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if p.Timeout > 0 {
		t := time.AfterFunc(p.Timeout, func() { cancel(errTimeout) })
		defer t.Stop()
	}
	var stallTimer *time.Timer
	if p.StallTimeout > 0 {
		stallTimer = time.AfterFunc(p.StallTimeout, func() { cancel(errStall) })
		defer stallTimer.Stop()
	}

	var t0 time.Time
	var mu sync.Mutex
	since := func() time.Duration { return now().Sub(t0) }
	var dnsStart, connStart, tlsStart time.Duration
	trace := &httptrace.ClientTrace{
		DNSStart: func(httptrace.DNSStartInfo) { mu.Lock(); dnsStart = since(); mu.Unlock() },
		DNSDone:  func(httptrace.DNSDoneInfo) { mu.Lock(); rec.DNS = since() - dnsStart; mu.Unlock() },
		ConnectStart: func(string, string) {
			mu.Lock()
			connStart = since()
			mu.Unlock()
		},
		ConnectDone: func(_, _ string, err error) {
			mu.Lock()
			if err == nil {
				rec.Connect = since() - connStart
			}
			mu.Unlock()
		},
		TLSHandshakeStart: func() { mu.Lock(); tlsStart = since(); mu.Unlock() },
		TLSHandshakeDone: func(tls.ConnectionState, error) {
			mu.Lock()
			rec.TLS = since() - tlsStart
			mu.Unlock()
		},
		GotConn: func(info httptrace.GotConnInfo) { mu.Lock(); rec.Reused = info.Reused; mu.Unlock() },
		GotFirstResponseByte: func() {
			mu.Lock()
			rec.TTFB = since()
			mu.Unlock()
		},
	}
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost, req.URL, bytes.NewReader(req.Body))
	if err != nil {
		rec.Error = p.redact("building request: " + err.Error())
		return rec
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	if req.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+req.APIKey)
	}
	for k, v := range req.Headers {
		hreq.Header.Set(k, v)
	}
	client := p.Client
	if client == nil {
		client = http.DefaultClient
	}

	rec.Start = time.Now()
	t0 = now()
	resp, err := client.Do(hreq)
	finish := func(msg string) Record {
		mu.Lock()
		defer mu.Unlock()
		rec.Error = p.redact(msg)
		if rec.Reused {
			rec.DNS, rec.Connect, rec.TLS = 0, 0, 0
		}
		return rec
	}
	if err != nil {
		return finish(p.causeMessage(ctx, err, "sending request", 0))
	}
	defer resp.Body.Close()
	rec.Status = resp.StatusCode
	var body io.Reader = resp.Body
	if stallTimer != nil {
		body = &stallReader{r: resp.Body, timer: stallTimer, d: p.StallTimeout}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, rerr := io.ReadAll(io.LimitReader(body, 64<<10))
		msg := httpErrorMessage(resp, b)
		if rerr != nil && len(b) == 0 {
			msg += " (" + p.causeMessage(ctx, rerr, "reading error body", 0) + ")"
		}
		return finish(msg)
	}
	if ct := resp.Header.Get("Content-Type"); strings.Contains(ct, "json") && !strings.Contains(ct, "event-stream") {
		return finish(fmt.Sprintf("expected an SSE stream (text/event-stream), got Content-Type %q: does the endpoint support stream: true?", ct))
	}

	dec := newSSEDecoder(body)
	var (
		events    []outputEvent
		lastEvent time.Duration = Missing
		usage     *openai.Usage
		sawFinish bool
		sawDone   bool
		finishWhy string
		failure   string
	)
	for failure == "" && !sawDone {
		ev, err := dec.Next()
		at := since()
		if err == io.EOF {
			rec.Total = at
			break
		}
		if err != nil {
			if errors.Is(err, errMidLine) || errors.Is(err, errLineTooLong) {
				failure = err.Error()
			} else {
				failure = p.causeMessage(ctx, err, "reading stream", len(events))
			}
			break
		}
		if rec.FirstEvent == Missing {
			rec.FirstEvent = at
		}
		if len(events) > 0 && lastEvent != Missing && at-lastEvent > rec.MaxStall {
			rec.MaxStall = at - lastEvent
		}
		lastEvent = at
		data := bytes.TrimSpace(ev.Data)
		if string(data) == "[DONE]" {
			sawDone = true
			rec.Total = at
			break
		}
		if len(data) == 0 {
			continue
		}
		var c chunk
		if err := json.Unmarshal(data, &c); err != nil {
			failure = fmt.Sprintf("malformed JSON in SSE data after %d output events: %v (data: %s)", len(events), err, clip(string(data), 120))
			break
		}
		if len(c.Error) > 0 && string(c.Error) != "null" || ev.Name == "error" {
			failure = "error inside the stream: " + errorText(c.Error, data)
			break
		}
		if c.Usage != nil {
			usage = c.Usage
		}
		chars := 0
		visible := false
		for i, ch := range c.Choices {
			chars += len(ch.Delta.Content) + len(ch.Delta.ReasoningContent)
			if ch.Delta.Content != "" {
				visible = true
			}
			if i < len(c.reasoning) {
				chars += len(c.reasoning[i])
			}
			for _, tc := range ch.Delta.ToolCalls {
				chars += len(tc.Function.Arguments)
			}
			if ch.Delta.FunctionCall != nil {
				chars += len(ch.Delta.FunctionCall.Arguments)
			}
			if ch.FinishReason != "" {
				sawFinish = true
				finishWhy = string(ch.FinishReason)
			}
		}
		if chars > 0 {
			if len(events) == 0 {
				rec.TTFT = at
				rec.MaxStall = 0
			}
			if visible && rec.TTFC == Missing {
				rec.TTFC = at
			}
			events = append(events, outputEvent{at: at, chars: chars})
		}
	}
	// Tokens.
	rec.OutputTokens, rec.TokensSource = len(events), "events"
	if usage != nil {
		rec.PromptTokens = usage.PromptTokens
		if usage.PromptTokensDetails != nil {
			rec.CachedTokens = usage.PromptTokensDetails.CachedTokens
		}
		if usage.CompletionTokens > 0 {
			rec.OutputTokens, rec.TokensSource = usage.CompletionTokens, "usage"
		}
	}
	if len(events) > 0 {
		rec.ITL = make([]time.Duration, 0, len(events)-1)
		for i := 1; i < len(events); i++ {
			rec.ITL = append(rec.ITL, events[i].at-events[i-1].at)
		}
		if rec.OutputTokens >= 2 {
			rec.TPOT = (events[len(events)-1].at - events[0].at) / time.Duration(rec.OutputTokens-1)
		}
		k := spreadTokens(events, 0)
		if rec.TokensSource == "usage" {
			k = spreadTokens(events, rec.OutputTokens)
		}
		rec.Perceived = readerModel(events, k, rate)
	}

	if sawDone {
		// Read the end of the chunked body so the connection can be reused
		// (Go's transport reuses only fully read bodies). Bounded by the
		// stall and request timers.
		_, _ = io.Copy(io.Discard, io.LimitReader(body, 1<<20))
	}

	switch {
	case failure != "":
		return finish(failure)
	case !sawDone && !sawFinish:
		return finish(fmt.Sprintf("truncated: stream ended without finish_reason or [DONE] after %d output events", len(events)))
	case len(events) == 0:
		why := ""
		if finishWhy != "" {
			why = " (finish_reason " + finishWhy + ")"
		}
		return finish("no output tokens: the stream finished without any content, reasoning or tool-call delta" + why)
	}
	rec.OK = true
	return finish("")
}

// chunk is a stream chunk: go-openai's type plus the fields it lacks (an
// in-stream error object and the "reasoning" delta some servers send).
type chunk struct {
	openai.ChatCompletionStreamResponse
	Error     json.RawMessage `json:"error"`
	reasoning []string
}

func (c *chunk) UnmarshalJSON(b []byte) error {
	type plain chunk
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = chunk(p)
	if bytes.Contains(b, []byte(`"reasoning"`)) {
		var r struct {
			Choices []struct {
				Delta struct {
					Reasoning string `json:"reasoning"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(b, &r) == nil {
			for _, ch := range r.Choices {
				c.reasoning = append(c.reasoning, ch.Delta.Reasoning)
			}
		}
	}
	return nil
}

// causeMessage explains why a read or send failed.
func (p *Prober) causeMessage(ctx context.Context, err error, doing string, outputEvents int) string {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errStall):
		return fmt.Sprintf("stalled: no data for %s (stall_timeout) after %d output events", p.StallTimeout, outputEvents)
	case errors.Is(cause, errTimeout):
		return fmt.Sprintf("timeout: request took longer than %s (timeout) after %d output events", p.Timeout, outputEvents)
	case errors.Is(cause, context.Canceled):
		return "canceled: the run was interrupted"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("connection closed unexpectedly while %s after %d output events", doing, outputEvents)
	}
	return doing + ": " + err.Error()
}

// httpErrorMessage builds "HTTP 429 Too Many Requests: <provider message>
// (Retry-After: 2)" from an error response.
func httpErrorMessage(resp *http.Response, body []byte) string {
	msg := fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	if detail := providerMessage(resp.Header.Get("Content-Type"), body); detail != "" {
		msg += ": " + detail
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		msg += " (Retry-After: " + clip(ra, 40) + ")"
	}
	return msg
}

var titleRE = regexp.MustCompile(`(?is)<title>(.*?)</title>`)
var tagRE = regexp.MustCompile(`(?s)<[^>]*>`)

func providerMessage(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if body[0] == '{' {
		return errorText(nil, body)
	}
	if strings.Contains(contentType, "html") || bytes.HasPrefix(body, []byte("<")) {
		if m := titleRE.FindSubmatch(body); m != nil {
			return "HTML error page: " + clip(strings.Join(strings.Fields(string(m[1])), " "), 160)
		}
		return "HTML error page: " + clip(strings.Join(strings.Fields(tagRE.ReplaceAllString(string(body), " ")), " "), 160)
	}
	return clip(strings.Join(strings.Fields(string(body)), " "), 200)
}

// errorText extracts a provider's message from the error shapes in use:
// {"error":{"message":...}}, {"error":"..."}, {"message":...}, {"detail":...}.
func errorText(errField json.RawMessage, whole []byte) string {
	var obj struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if errField == nil {
		if json.Unmarshal(whole, &obj) != nil {
			return clip(string(whole), 200)
		}
		errField = obj.Error
	}
	if len(errField) > 0 {
		var e openai.APIError
		if json.Unmarshal(errField, &e) == nil && e.Message != "" {
			s := e.Message
			if e.Type != "" {
				s += " [" + e.Type + "]"
			}
			return clip(s, 300)
		}
		var s string
		if json.Unmarshal(errField, &s) == nil && s != "" {
			return clip(s, 300)
		}
	}
	if obj.Message != "" {
		return clip(obj.Message, 300)
	}
	if len(obj.Detail) > 0 {
		var s string
		if json.Unmarshal(obj.Detail, &s) == nil {
			return clip(s, 300)
		}
		return clip(string(obj.Detail), 300)
	}
	return clip(string(whole), 200)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func (p *Prober) redact(s string) string {
	return Redact(s, p.Secrets)
}

// Redact replaces every occurrence of a secret (of 4 or more characters) in s.
func Redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "***")
		}
	}
	return s
}

// Package probe turns one streaming LLM request into one timed Record, and
// runs many of them (Runner): a pure pacer plans every request (Schedule for
// open loop, interleave for A/B blocks), a fixed worker pool sends them and
// one aggregator hands the records to the caller.
//
// Each API it speaks is one file, api_NAME.go, that registers its
// description (api.go): its Spec for package apis, its URL, auth, body,
// decoder and, for an API that is not an HTTP stream (the Realtime API's
// WebSocket), how a request is made. A request is sent (with httptrace
// times), its stream cut into frames that its API's decoder classifies
// into events (output of kind content, reasoning or tool; usage; end;
// provider error), and every metric is derived from that timeline by a
// pure function (see docs/metrics.md). Per-request failures are data: Do
// never returns an error, it returns a Record with OK false and a specific
// Error. Requests are never retried. The probe does not interpret prompts, count tokens
// with a tokenizer, or compare anything.
package probe

import (
	"github.com/latgate/latgate/vocab"

	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/internal/redact"
)

// Request is one prepared request.
type Request struct {
	API     API               // how to authenticate and read the stream ("" is the default API)
	Method  string            // default POST
	URL     string            // full URL (see URL)
	Body    []byte            // JSON body (see Body)
	APIKey  string            // sent in the API's auth header when non-empty
	Headers map[string]string // extra headers; they win over the API's
	Stream  *StreamSpec       // Custom: how to read the stream (required)
	// Session, when set, makes the request a session of several model
	// calls (steps): Body is then built for each step from Session.Params
	// and the conversation so far.
	Session *Session
	// Page is how api browser drives the chat page at its URL.
	Page *browser.Options
}

// Prober sends requests and times them.
type Prober struct {
	Client *http.Client
	// Clock stamps the request and every event and runs the timeouts;
	// clock.Real (monotonic) when nil.
	Clock clock.Clock
	// Timeout bounds a whole request; StallTimeout bounds any wait for the
	// next byte (including the headers). Zero disables a bound.
	Timeout      time.Duration
	StallTimeout time.Duration
	// ReadingRate is tokens/s for the reader model (default 10).
	ReadingRate float64
	// Secrets are hidden in every error message, in any of their
	// encodings (internal/redact); each request's own APIKey always is.
	// Set it before the first request.
	Secrets *redact.Set
	// sets caches, by API key, Secrets with the key (secretsOf).
	sets sync.Map
	// Sockets keeps Realtime connections open between requests (api
	// realtime); nil opens a connection for every request.
	Sockets *Sockets
	// Pages is the browser of api browser's requests (nil: none can be
	// made).
	Pages *Pages

	watch stallWatch // the client's stalls while requests are in flight
}

var (
	errStall   = errors.New("stall")
	errTimeout = errors.New("timeout")
)

// stallReader cancels the request when no byte arrives for d.
type stallReader struct {
	r     io.Reader
	timer clock.Timer
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
//
// The work is split in three: send (the HTTP request, with the transport
// times from httptrace), read (the stream cut into frames, each decoded into
// a classified event stamped with its arrival: the timeline) and derive (a
// pure function from the timeline to every stream metric).
func (p *Prober) Do(ctx context.Context, req Request) Record {
	defer p.watch.begin(clock.Or(p.Clock))()
	if req.Session != nil && !describe(req.API).whole {
		return p.hidden(p.session(ctx, req), req)
	}
	rec, _ := p.call(ctx, req)
	return p.hidden(rec, req)
}

// hidden is rec with the secrets hidden (secretsOf) in all it keeps of
// what the server said: its error, cut to MaxError bytes after; what the
// response looked like; the server's reports not trusted; a session's
// step errors. Each was hidden where it was made, before any cut (a cut
// through a secret would keep its first characters); this is the last
// word, whatever path the record came by.
func (p *Prober) hidden(rec Record, req Request) Record {
	hide := p.secretsOf(req)
	rec.Error = hide.Clip(rec.Error, MaxError)
	rec.Seen.ContentType = hide.String(rec.Seen.ContentType)
	rec.Seen.Upstream = hide.String(rec.Seen.Upstream)
	rec.Seen.Location, rec.Seen.Redirected = hide.String(rec.Seen.Location), hide.String(rec.Seen.Redirected)
	for i, why := range rec.Server.Ignored {
		rec.Server.Ignored[i] = hide.String(why)
	}
	if rec.Session != nil {
		for i := range rec.Session.Steps {
			st := &rec.Session.Steps[i]
			st.Error = hide.Clip(st.Error, MaxError)
			for j, why := range st.Server.Ignored {
				st.Server.Ignored[j] = hide.String(why)
			}
		}
	}
	return rec
}

// secretsOf is the Set of the Prober's Secrets and the request's own key.
func (p *Prober) secretsOf(req Request) *redact.Set {
	if s, ok := p.sets.Load(req.APIKey); ok {
		return s.(*redact.Set)
	}
	s := p.Secrets.With(req.APIKey)
	p.sets.Store(req.APIKey, s)
	return s
}

// call sends one request and measures it: its record, and the timeline the
// stream metrics were derived from (a session combines its calls').
func (p *Prober) call(ctx context.Context, req Request) (Record, timeline) {
	var rec Record
	var tl timeline
	if do := describe(req.API).do; do != nil {
		rec, tl = do(p, ctx, req)
	} else {
		rec, tl = p.stream(ctx, req)
	}
	return p.inTime(rec), tl
}

// inTime fails a record that ended after the timeout: a stream read out
// of buffers after the timer fired, or decoded slower than it came, is
// never an ok request past limits.timeout.
func (p *Prober) inTime(rec Record) Record {
	if rec.OK && p.Timeout > 0 && rec.Total != Missing && rec.Total > p.Timeout {
		rec.OK, rec.Failure = false, vocab.Timeout
		rec.Error = fmt.Sprintf("timeout: the stream ended after %s, beyond the timeout (%s)", rec.Total.Round(time.Millisecond), p.Timeout)
	}
	return rec
}

// stream sends one HTTP request and reads its stream.
func (p *Prober) stream(ctx context.Context, req Request) (Record, timeline) {
	clk := clock.Or(p.Clock)
	rate := p.readingRate()
	ctx, stallTimer, stop := p.bounds(ctx, clk)
	defer stop()
	w := wireOf(req)
	hide := p.secretsOf(req)

	c := &conn{clk: clk}
	rec := newRecord()
	var tl timeline
	var server func(measured) ServerTiming // how the server's report is checked, once read
	hreq, err := p.newRequest(ctx, req, w, c)
	if err != nil {
		rec.Error, rec.Failure = hide.Clip("building request: "+err.Error(), MaxError), vocab.Request
		return rec, tl
	}
	resp, err := p.send(hreq, c)
	seen := seenOf(hreq, resp, err, hide)
	if err == nil {
		defer resp.Body.Close()
		rec.Status = resp.StatusCode
		var body io.Reader = resp.Body
		if stallTimer != nil {
			body = &stallReader{r: resp.Body, timer: stallTimer, d: p.StallTimeout}
		}
		switch ct := resp.Header.Get("Content-Type"); {
		case resp.StatusCode < 200 || resp.StatusCode > 299:
			text, rerr := readText(body, MaxBody)
			// Hidden before the message is cut from it: a cut through a
			// secret would keep its first characters.
			rec.Error, rec.Failure = httpErrorMessage(resp, []byte(hide.String(text)), hide), vocab.HTTPStatus
			if rerr != nil && text == "" {
				msg, _ := p.causeMessage(ctx, rerr, "reading error body", 0)
				rec.Error += " (" + msg + ")"
			}
		case w.framing != framingText && strings.Contains(ct, "text/html"):
			// A web page (an app's, a proxy's login page) where the API's
			// stream was asked: its title says whose.
			text, _ := readText(body, MaxBody)
			rec.Error = fmt.Sprintf("expected %s, got a web page (Content-Type %q)%s", w.framing.stream(), hide.Clip(ct, 100), pageTitle(hide.String(text)))
			rec.Failure = vocab.Malformed
		case w.framing == framingSSE && strings.Contains(ct, "json") && !strings.Contains(ct, "event-stream"):
			ask, misread := askStream, false
			if f := describe(req.API).jsonInstead; f != nil {
				ask, misread = f(ct)
			}
			rec.Error = fmt.Sprintf("expected an SSE stream (text/event-stream), got Content-Type %q: %s", hide.Clip(ct, 100), ask)
			rec.Failure, rec.misread = vocab.Malformed, misread
		default:
			rec, tl, server = p.readStream(ctx, resp, body, req, w, c, hide, rate)
		}
	} else {
		rec.Error, rec.Failure = p.causeMessage(ctx, err, "sending request", 0)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	rec.Start, rec.TTFB, rec.Reused = c.t0, c.ttfb, c.reused
	if server != nil {
		// After the stream's checks: what the server said is bounded by
		// what latgate measured around it.
		rec.Server = server(measured{ttfb: rec.TTFB, ttft: rec.TTFT, total: rec.Total})
	}
	if !c.reused {
		rec.DNS, rec.Connect, rec.TLS = c.dns, c.connect, c.tls
	}
	rec.Error, rec.Seen = hide.Clip(rec.Error, MaxError), seen
	return rec, tl
}

// readStream reads a streamed answer of resp from body and derives its
// record, with how the server's own report of it is checked once read.
func (p *Prober) readStream(ctx context.Context, resp *http.Response, body io.Reader, req Request, w wire, c *conn, hide *redact.Set, rate float64) (Record, timeline, func(measured) ServerTiming) {
	report := serverReport{forms: describe(req.API).serverTiming, hide: hide}
	report.readHeaders(resp.Header)
	tl := p.read(ctx, body, w, c.since, &report, hide)
	if tl.end != Missing && tl.failure == "" {
		// Read the end of the body so the connection can be reused (Go's
		// transport reuses only fully read bodies). Bounded by the stall
		// and request timers.
		_, _ = io.Copy(io.Discard, io.LimitReader(body, 1<<20))
	}
	tl.stalls = p.watch.since(c.t0)
	rec := derive(tl, rate)
	rec.Status = resp.StatusCode
	return rec, tl, report.check
}

// seenOf is what a request saw of its response beyond its metrics: the
// content type, where a redirect pointed or led, why a connection failed;
// the secrets hidden in them.
func seenOf(hreq *http.Request, resp *http.Response, err error, hide *redact.Set) Seen {
	var s Seen
	if resp != nil {
		s.ContentType = hide.Clip(resp.Header.Get("Content-Type"), 100)
		s.Upstream = hide.Clip(resp.Header.Get(vocab.UpstreamHeader), 64)
		if loc, lerr := resp.Location(); lerr == nil && (err != nil || resp.StatusCode/100 == 3) {
			s.Location = hide.String(loc.String())
		}
		if err == nil && resp.Request != nil && resp.Request.URL.String() != hreq.URL.String() {
			s.Redirected = hide.String(resp.Request.URL.String())
		}
	}
	if err != nil {
		s.Net = netFault(err)
	}
	return s
}

// netFault is why a connection failed: its host unresolved, refused, or
// its TLS handshake; "" for another reason.
func netFault(err error) NetFault {
	var dns *net.DNSError
	var cert *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	switch {
	case errors.As(err, &dns):
		return NoHost
	case errors.Is(err, syscall.ECONNREFUSED):
		return Refused
	case errors.As(err, &cert), errors.As(err, &header), errors.As(err, &unknown), errors.As(err, &host):
		return BadTLS
	}
	return ""
}

// askStream is what a request asks when an SSE API answered JSON.
const askStream = "does the endpoint support stream: true?"

// readingRate is ReadingRate, 10 tokens/s when unset.
func (p *Prober) readingRate() float64 {
	if p.ReadingRate <= 0 {
		return 10
	}
	return p.ReadingRate
}

// bounds is ctx canceled after Timeout (errTimeout) and after StallTimeout
// (errStall) unless its timer (nil without a StallTimeout) is reset by
// each byte or message; stop releases both.
func (p *Prober) bounds(ctx context.Context, clk clock.Clock) (context.Context, clock.Timer, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	var timeout, stall clock.Timer
	if p.Timeout > 0 {
		timeout = clk.AfterFunc(p.Timeout, func() { cancel(errTimeout) })
	}
	if p.StallTimeout > 0 {
		stall = clk.AfterFunc(p.StallTimeout, func() { cancel(errStall) })
	}
	return ctx, stall, func() {
		for _, t := range []clock.Timer{timeout, stall} {
			if t != nil {
				t.Stop()
			}
		}
		cancel(nil)
	}
}

// conn is what httptrace reports about one request's connection, from t0.
type conn struct {
	clk clock.Clock
	t0  time.Time // when the request was handed to the client

	mu                         sync.Mutex
	dnsStart, connStart, tlsAt time.Duration
	dns, connect, tls, ttfb    time.Duration
	reused                     bool
}

func (c *conn) since() time.Duration { return c.clk.Now().Sub(c.t0) }

func (c *conn) trace() *httptrace.ClientTrace {
	c.ttfb = Missing
	set := func(f func()) { c.mu.Lock(); f(); c.mu.Unlock() }
	return &httptrace.ClientTrace{
		DNSStart:             func(httptrace.DNSStartInfo) { set(func() { c.dnsStart = c.since() }) },
		DNSDone:              func(httptrace.DNSDoneInfo) { set(func() { c.dns = c.since() - c.dnsStart }) },
		ConnectStart:         func(string, string) { set(func() { c.connStart = c.since() }) },
		TLSHandshakeStart:    func() { set(func() { c.tlsAt = c.since() }) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { set(func() { c.tls = c.since() - c.tlsAt }) },
		GotConn:              func(info httptrace.GotConnInfo) { set(func() { c.reused = info.Reused }) },
		GotFirstResponseByte: func() { set(func() { c.ttfb = c.since() }) },
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				set(func() { c.connect = c.since() - c.connStart })
			}
		},
	}
}

// newRequest builds the HTTP request, traced into c.
func (p *Prober) newRequest(ctx context.Context, req Request, w wire, c *conn) (*http.Request, error) {
	if check := describe(req.API).check; check != nil {
		if err := check(req); err != nil {
			return nil, err
		}
	}
	method := req.Method
	if method == "" {
		method = http.MethodPost
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, c.trace()), method, req.URL, body)
	if err != nil {
		return nil, err
	}
	setHeaders(hreq.Header, req, w)
	return hreq, nil
}

// send hands the request to the client; t0 is taken just before.
func (p *Prober) send(hreq *http.Request, c *conn) (*http.Response, error) {
	client := p.Client
	if client == nil {
		client = http.DefaultClient
	}
	c.mu.Lock()
	c.t0 = c.clk.Now()
	c.mu.Unlock()
	return client.Do(hreq)
}

// read cuts the body into frames and decodes each into an event stamped
// with its arrival, until the end of the stream, a failure or an error
// event: the request's timeline. Each event's report of the server's own
// time goes into report. What the server said that the timeline keeps
// (its error, a malformed event) has the secrets of hide hidden before it
// is cut.
func (p *Prober) read(ctx context.Context, body io.Reader, w wire, since func() time.Duration, report *serverReport, hide *redact.Set) timeline {
	return p.readFrames(ctx, newFramer(w.framing, body), w, since, report, hide)
}

// readFrames decodes the frames of fr into the timeline (read's loop, for
// any framer: a body's, or a WebSocket's messages), and the server's
// reports of its time into report (nil: none is read).
func (p *Prober) readFrames(ctx context.Context, fr framer, w wire, since func() time.Duration, report *serverReport, hide *redact.Set) (tl timeline) {
	tl = timeline{end: Missing, ends: w.ends, eofEnds: w.eofEnds}
	dec := w.newDecoder()
	if h, ok := dec.(hinter); ok {
		defer func() { tl.hint = h.hint(hide) }()
	}
	outputs := 0
	var held holding
	for {
		f, err := fr.Next()
		at := since()
		if err == io.EOF {
			tl.end = at
			return tl
		}
		if err != nil {
			if errors.Is(err, errMidLine) || errors.Is(err, errLineTooLong) || errors.Is(err, errMessageTooLong) {
				tl.failure, tl.kind = err.Error(), vocab.Malformed
			} else {
				tl.failure, tl.kind = p.causeMessage(ctx, err, "reading stream", outputs)
			}
			return tl
		}
		e, err := dec.decode(f)
		e.at = at
		if err != nil {
			tl.events = append(tl.events, event{at: at})
			tl.failure = fmt.Sprintf("malformed JSON in %s after %d output events: %s (data: %s)", w.framing.what(), outputs, hide.Clip(err.Error(), 200), hide.Clip(head(bytes.TrimSpace(f.Data)), 120))
			tl.kind = vocab.Malformed
			return tl
		}
		if e.skip {
			continue
		}
		if report != nil && (e.output() == 0 || e.done || e.finish != "" || e.usage != nil) {
			// Servers report their time on the events that end an answer
			// (a finish, usage or done event) or carry no output (a
			// metadata event): an event of output alone is not read again.
			report.readEvent(f.Data)
		}
		e.finish = bound(e.finish)
		if msg, kind := held.add(e); msg != "" {
			tl.failure, tl.kind = fmt.Sprintf("%s after %d output events", msg, outputs), kind
			return tl
		}
		tl.events = append(tl.events, e)
		if e.output() > 0 {
			outputs++
		}
		switch {
		case e.err != "":
			tl.failure, tl.kind = "error inside the stream: "+hide.Clip(e.err, 300), vocab.Provider
			return tl
		case e.done:
			tl.end = at
			return tl
		}
	}
}

// causeMessage explains why a read or send failed, and its kind.
func (p *Prober) causeMessage(ctx context.Context, err error, doing string, outputEvents int) (string, vocab.Failure) {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errStall):
		return fmt.Sprintf("stalled: no data for %s (stall_timeout) after %d output events", p.StallTimeout, outputEvents), vocab.Stall
	case errors.Is(cause, errTimeout):
		return fmt.Sprintf("timeout: request took longer than %s (timeout) after %d output events", p.Timeout, outputEvents), vocab.Timeout
	case errors.Is(cause, context.Canceled):
		return "canceled: the run was interrupted", vocab.Canceled
	}
	var closed *socketClosed
	if errors.As(err, &closed) {
		return closed.message(outputEvents), vocab.Truncated
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("connection closed unexpectedly while %s after %d output events", doing, outputEvents), vocab.Truncated
	}
	return doing + ": " + err.Error(), vocab.Connection
}

// httpErrorMessage builds "HTTP 429 Too Many Requests: <provider message>
// (Retry-After: 2)" from an error response whose body has its secrets
// hidden already (hide hides them in its headers).
func httpErrorMessage(resp *http.Response, body []byte, hide *redact.Set) string {
	msg := strings.TrimSpace(fmt.Sprintf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode)))
	if detail := providerMessage(resp.Header.Get("Content-Type"), body); detail != "" {
		msg += ": " + detail
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		msg += " (Retry-After: " + hide.Clip(ra, 40) + ")"
	}
	return msg
}

// MaxBody is the most of an error body or a web page read.
const MaxBody = 64 << 10

// readText reads at most max bytes of r; a longer text is cut there and
// marked (redact.CutMark), so a secret the cut goes through is hidden as
// a piece.
func readText(r io.Reader, max int64) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	return redact.Cut(string(b), int(max)), err
}

// head is the start of a server's bytes that a message may quote: at
// most redact.MaxClipped and one more, so that redact's Clip marks the
// cut; a whole frame (up to 16 MiB) is never copied to be quoted.
func head(b []byte) string {
	return string(b[:min(len(b), redact.MaxClipped+1)])
}

// bound is a server's string cut to redact.MaxClipped, marked: what a
// record may hold of it before its secrets are hidden and it is cut to
// what a message shows.
func bound(s string) string {
	return redact.Cut(s, redact.MaxClipped)
}

var titleRE = regexp.MustCompile(`(?is)<title>(.*?)</title>`)
var tagRE = regexp.MustCompile(`(?s)<[^>]*>`)

// pageTitle is ` titled "TITLE"` for an HTML page that has a title, ""
// for one that has none.
func pageTitle(page string) string {
	m := titleRE.FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return fmt.Sprintf(" titled %q", clip(strings.Join(strings.Fields(m[1]), " "), 120))
}

func providerMessage(contentType string, body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	if body[0] == '{' {
		return clip(errorText(nil, body), 300)
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
// {"error":{"message":...}}, {"error":"..."}, {"message":...}, {"detail":...};
// the whole text (its first redact.MaxClipped bytes) in another shape. It
// is not cut to what a message shows: the caller hides the secrets in it
// first (a cut through a secret would keep its first characters).
func errorText(errField json.RawMessage, whole []byte) string {
	var obj struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if errField == nil {
		if json.Unmarshal(whole, &obj) != nil {
			return head(whole)
		}
		errField = obj.Error
	}
	if len(errField) > 0 {
		var e openai.APIError
		if json.Unmarshal(errField, &e) == nil && e.Message != "" {
			s := bound(e.Message)
			if e.Type != "" {
				s += " [" + bound(e.Type) + "]"
			}
			return s
		}
		var s string
		if json.Unmarshal(errField, &s) == nil && s != "" {
			return bound(s)
		}
	}
	if obj.Message != "" {
		return bound(obj.Message)
	}
	if len(obj.Detail) > 0 {
		var s string
		if json.Unmarshal(obj.Detail, &s) == nil {
			return bound(s)
		}
		return head(obj.Detail)
	}
	return head(whole)
}

// clip cuts s to at most n bytes, at the start of a character and never
// inside a mask, and marks the cut (redact.Cut). A server's text is cut
// only after its secrets are hidden (redact's Clip).
func clip(s string, n int) string {
	return redact.Cut(s, n)
}

// redact hides the Prober's secrets and the request's own API key, and
// clips what a server said to MaxError bytes (a server's error text is
// its own: it could be megabytes, written into every request's record).
func (p *Prober) redact(s string, req Request) string {
	return p.secretsOf(req).Clip(s, MaxError)
}

// MaxError is the longest error a record keeps, in bytes.
const MaxError = 1000

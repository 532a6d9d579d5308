package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/vocab"
)

// The OpenAI Realtime API (api realtime) is a WebSocket: the client opens
// {base_url}/realtime?model=M (Authorization: Bearer KEY, the GA interface:
// no OpenAI-Beta header), the server says session.created, and a request
// is a few client events — session.update (the instructions, the output
// modality), one conversation.item.create per message, response.create —
// answered by server events up to response.done. The Body of a Realtime
// Request is those client events as a JSON array (realtimeBody); the probe
// sends each as one text message.
//
// The clock is the HTTP APIs': t0 is taken just before the probe opens a
// connection, or takes an idle one from Prober.Sockets. A new connection's
// set-up (DNS, TCP, TLS, the upgrade and session.created) is therefore part
// of every time, as it is of a cold HTTP request, and is recorded apart
// (DNS, Connect, TLS, Upgrade) as the Network stage; on a reused connection
// it is 0. The server's events are decoded into the same timeline as an
// SSE stream's and derive computes every metric from it.

// framingWS is a WebSocket's messages: one frame each.
const framingWS framing = "websocket"

// audioBytesPerSecond is the playback rate of the audio latgate asks for
// (24 kHz 16-bit mono PCM, the API's default format): the listener of the
// perceived latency of an audio answer.
const audioBytesPerSecond = 48000

// clientEvents splits a Realtime body into its events, and says whether
// its session asks for audio.
func clientEvents(body []byte) ([]json.RawMessage, bool, error) {
	var events []json.RawMessage
	if err := json.Unmarshal(body, &events); err != nil || len(events) == 0 {
		return nil, false, errors.New("a realtime request's body is a JSON array of client events")
	}
	var first struct {
		Session struct {
			OutputModalities []string `json:"output_modalities"`
		} `json:"session"`
	}
	_ = json.Unmarshal(events[0], &first)
	audio := len(first.Session.OutputModalities) == 1 && first.Session.OutputModalities[0] == "audio"
	return events, audio, nil
}

// socket is one request's connection: its WebSocket, whether it came from
// the pool, and when (from t0) its session was ready.
type socket struct {
	ws     *websocket.Conn
	key    string
	pooled bool
	ready  time.Duration
}

// realtime sends a request to a Realtime endpoint and measures it (call's
// counterpart for a WebSocket): connect or reuse, send the client events,
// read the server's up to response.done, and give the connection back to
// Sockets (its conversation items deleted) or close it.
func (p *Prober) realtime(ctx context.Context, req Request) (Record, timeline) {
	clk := clock.Or(p.Clock)
	ctx, stall, stop := p.bounds(ctx, clk)
	defer stop()
	rec := newRecord()
	var tl timeline
	events, audio, err := clientEvents(req.Body)
	if err != nil {
		rec.Error, rec.Failure = "building request: "+err.Error(), vocab.Request
		return rec, tl
	}
	c := &conn{clk: clk}
	s := p.connect(ctx, req, c, &rec, true)
	if s != nil {
		var dec *realtimeDecoder
		tl, dec = p.exchange(ctx, s, events, audio, stall, c.since, req)
		if s.pooled && len(tl.events) == 0 && tl.failure != "" && ctx.Err() == nil {
			// The server closed the idle connection before this request
			// (an idle timeout): once more on a new one, timed from its
			// own start, as Go's HTTP client retries a request on a
			// pooled connection that turned out to be closed.
			_ = s.ws.CloseNow()
			if s = p.connect(ctx, req, c, &rec, false); s == nil {
				return p.finish(rec, req, c, nil), tl
			}
			tl, dec = p.exchange(ctx, s, events, audio, stall, c.since, req)
		}
		tl.stalls = p.watch.since(c.t0)
		rec = derive(tl, p.readingRate())
		rec.Status = http.StatusSwitchingProtocols
		if len(tl.events) > 0 {
			rec.TTFB = tl.events[0].at
		}
		if audio {
			rec.Perceived = playback(tl)
		}
		var items []string
		reusable := true
		if dec != nil {
			rec.UnknownEvents, items, reusable = dec.unknown, dec.items, !dec.lost
		}
		p.release(ctx, s, tl, items, reusable, stall)
	}
	return p.finish(rec, req, c, s), tl
}

// finish completes a Realtime request's record with its start, its
// connection's set-up (when it made one) and its error redacted.
func (p *Prober) finish(rec Record, req Request, c *conn, s *socket) Record {
	c.mu.Lock()
	defer c.mu.Unlock()
	rec.Start = c.t0
	if s != nil {
		rec.Reused = s.pooled || c.reused
		if !c.reused && !s.pooled {
			rec.DNS, rec.Connect, rec.TLS = c.dns, c.connect, c.tls
		}
		if !s.pooled {
			rec.Upgrade = max(0, s.ready-rec.DNS-rec.Connect-rec.TLS)
		}
	}
	rec.Error = p.redact(rec.Error, req)
	return rec
}

// exchange sends the client events on s and reads the server's events
// into the timeline, each stall timer reset by a message; the decoder
// (nil when sending failed) holds what else it saw.
func (p *Prober) exchange(ctx context.Context, s *socket, events []json.RawMessage, audio bool, stall clock.Timer, since func() time.Duration, req Request) (timeline, *realtimeDecoder) {
	for _, ev := range events {
		if err := s.ws.Write(ctx, websocket.MessageText, ev); err != nil {
			tl := timeline{end: Missing}
			tl.failure, tl.kind = p.causeMessage(ctx, socketError(ctx, err), "sending the request", 0)
			return tl, nil
		}
	}
	dec := &realtimeDecoder{audio: audio}
	w := wire{framing: framingWS, newDecoder: func() decoder { return dec }, ends: "response.done"}
	return p.readFrames(ctx, &socketFramer{ctx: ctx, ws: s.ws, stall: stall, d: p.StallTimeout}, w, since, nil, p.secretsOf(req)), dec
}

// connect takes an idle connection to the request's endpoint from Sockets
// (when pool allows), or opens one (t0 is taken first) and waits for its
// session.created. A connection that cannot be made is recorded in rec,
// and nil returned.
func (p *Prober) connect(ctx context.Context, req Request, c *conn, rec *Record, pool bool) *socket {
	s := &socket{key: socketKey(req)}
	c.mu.Lock()
	c.t0 = c.clk.Now()
	c.mu.Unlock()
	if pool {
		if s.ws = p.Sockets.take(s.key); s.ws != nil {
			s.pooled = true
			return s
		}
	}
	client := p.Client
	if client == nil {
		client = http.DefaultClient
	}
	ws, resp, err := websocket.Dial(httptrace.WithClientTrace(ctx, c.trace()), req.URL,
		&websocket.DialOptions{HTTPClient: client, HTTPHeader: realtimeHeaders(req)})
	if err != nil {
		rec.Error, rec.Failure, rec.Status = p.dialFailure(ctx, req, resp, err)
		rec.Seen = Seen{Net: netFault(err)}
		if resp != nil {
			rec.Seen.ContentType = p.secretsOf(req).Clip(resp.Header.Get("Content-Type"), 100)
		}
		return nil
	}
	ws.SetReadLimit(MaxLine)
	s.ws = ws
	if msg, kind := p.awaitSession(ctx, ws, p.secretsOf(req)); msg != "" {
		rec.Error, rec.Failure, rec.Status = msg, kind, http.StatusSwitchingProtocols
		_ = ws.CloseNow()
		return nil
	}
	s.ready = c.since()
	return s
}

// realtimeHeaders are the upgrade request's headers: the key as a Bearer
// token, then the endpoint's own headers, which win.
func realtimeHeaders(req Request) http.Header {
	h := http.Header{}
	if req.APIKey != "" {
		h.Set("Authorization", "Bearer "+req.APIKey)
	}
	for k, v := range req.Headers {
		h.Set(k, v)
	}
	return h
}

// awaitSession reads until session.created: the session is ready. An
// error event before it fails the request with the server's message, its
// secrets (hide) hidden before it is cut.
func (p *Prober) awaitSession(ctx context.Context, ws *websocket.Conn, hide *redact.Set) (string, vocab.Failure) {
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return p.causeMessage(ctx, socketError(ctx, err), "waiting for session.created", 0)
		}
		var v realtimeEvent
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Sprintf("malformed JSON in WebSocket message before session.created: %s (data: %s)", hide.Clip(err.Error(), 200), hide.Clip(head(data), 120)), vocab.Malformed
		}
		switch v.Type {
		case "session.created":
			return "", ""
		case "error":
			return "error before session.created: " + hide.Clip(realtimeError(v.Error, data), 300), vocab.Provider
		}
	}
}

// dialFailure explains a connection that could not be opened, its kind
// and the HTTP status: a refused upgrade names its status and the server's
// message (its body); no response at all is a connection failure.
func (p *Prober) dialFailure(ctx context.Context, req Request, resp *http.Response, err error) (string, vocab.Failure, int) {
	if resp == nil {
		msg, kind := p.causeMessage(ctx, err, "opening the WebSocket", 0)
		return msg, kind, 0
	}
	hide := p.secretsOf(req)
	var body []byte
	if resp.Body != nil {
		text, _ := readText(resp.Body, 1024)
		body = []byte(hide.String(text)) // before the message is cut from it
	}
	code := resp.StatusCode
	head := strings.TrimSpace(fmt.Sprintf("HTTP %d %s", code, http.StatusText(code)))
	switch {
	case code == http.StatusSwitchingProtocols:
		return "WebSocket handshake failed after 101 Switching Protocols: " + err.Error(), vocab.Malformed, code
	case code >= 200 && code < 300:
		return head + " instead of 101 Switching Protocols: the server did not upgrade to a WebSocket: is base_url a Realtime API's (such as wss://api.openai.com/v1)?", vocab.HTTPStatus, code
	}
	msg := head + " (WebSocket upgrade refused)" + strings.TrimPrefix(httpErrorMessage(resp, body, hide), head)
	if (code == http.StatusUnauthorized || code == http.StatusForbidden) && realtimeHeaders(req).Get("Authorization") == "" {
		msg += " (no key was sent: set api_key_env)"
	}
	return msg, vocab.HTTPStatus, code
}

// release gives a connection whose response ended properly back to
// Sockets, once the conversation items the request added (its messages and
// the answer) are deleted, so that the next request on it starts from an
// empty conversation; any other connection is closed, and so is one whose
// items the decoder could not all keep (not reusable).
func (p *Prober) release(ctx context.Context, s *socket, tl timeline, items []string, reusable bool, stall clock.Timer) {
	switch {
	case tl.failure != "" || tl.end == Missing || !reusable:
		_ = s.ws.CloseNow()
	case p.Sockets == nil:
		closeSoon(s.ws)
	case !p.reset(ctx, s.ws, items, stall):
		_ = s.ws.CloseNow()
	case !p.Sockets.put(s.key, s.ws):
		closeSoon(s.ws)
	}
}

// closeSoon closes a connection properly without waiting for it: a close
// waits up to 5 seconds for the server's close frame, which a server may
// never send, and the worker has the next request to make.
func closeSoon(ws *websocket.Conn) {
	go func() { _ = ws.Close(websocket.StatusNormalClosure, "") }()
}

// reset deletes the conversation items ids and waits for the server to
// confirm each; false when it could not.
func (p *Prober) reset(ctx context.Context, ws *websocket.Conn, ids []string, stall clock.Timer) bool {
	pending := map[string]bool{}
	for _, id := range ids {
		b, _ := json.Marshal(map[string]string{"type": "conversation.item.delete", "item_id": id})
		if ws.Write(ctx, websocket.MessageText, b) != nil {
			return false
		}
		pending[id] = true
	}
	for len(pending) > 0 {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return false
		}
		if stall != nil {
			stall.Reset(p.StallTimeout)
		}
		var v struct {
			Type   string `json:"type"`
			ItemID string `json:"item_id"`
		}
		switch _ = json.Unmarshal(data, &v); v.Type {
		case "conversation.item.deleted":
			delete(pending, v.ItemID)
		case "error":
			return false
		}
	}
	return true
}

// socketFramer reads a WebSocket's messages as frames, resetting the stall
// timer at each.
type socketFramer struct {
	ctx   context.Context
	ws    *websocket.Conn
	stall clock.Timer
	d     time.Duration
}

func (f *socketFramer) Next() (frame, error) {
	_, data, err := f.ws.Read(f.ctx)
	if err != nil {
		return frame{}, socketError(f.ctx, err)
	}
	if f.stall != nil {
		f.stall.Reset(f.d)
	}
	return frame{Data: data}, nil
}

// socketClosed is a WebSocket that closed before the response's end: with
// the server's close frame (its code and reason), or without one (1006).
type socketClosed struct {
	code   websocket.StatusCode
	reason string
}

func (e *socketClosed) Error() string { return e.message(0) }

func (e *socketClosed) message(outputs int) string {
	if e.code == websocket.StatusAbnormalClosure || e.code < 0 {
		return fmt.Sprintf("connection closed: the WebSocket closed without a close frame (1006 abnormal closure) after %d output events", outputs)
	}
	why := fmt.Sprintf("%d %s", int(e.code), codeName(e.code))
	if e.reason != "" {
		// At most 123 bytes (a close frame's): whole, hidden with the
		// message.
		why += ": " + e.reason
	}
	return fmt.Sprintf("connection closed: the server closed the WebSocket (%s) after %d output events", why, outputs)
}

// codeName is a close code's name in words: "internal error" for 1011.
func codeName(code websocket.StatusCode) string {
	var b strings.Builder
	for i, r := range strings.TrimPrefix(code.String(), "Status") {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// socketError is a read or write error as the probe explains it: the
// request's own cancellation as it is (causeMessage says why), anything
// else as a closed socket.
func socketError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return err
	case errors.Is(err, websocket.ErrMessageTooBig):
		return errMessageTooLong
	}
	return &socketClosed{code: websocket.CloseStatus(err), reason: closeReason(err)}
}

// errMessageTooLong is a server's WebSocket message over MaxLine: latgate
// closes the connection (1009) rather than hold it.
var errMessageTooLong = errors.New("a WebSocket message longer than 16 MiB: latgate closed the connection")

func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return ""
}

// playback is the perceived latency of an audio answer: a listener starts
// at the first audio byte and hears audioBytesPerSecond, never ahead of
// what has arrived; perceived = when they finish − the audio's duration,
// the first audio plus every wait for more (the reader model of text, on
// bytes at the playback rate).
func playback(tl timeline) time.Duration {
	var outs []outputEvent
	var bytes []float64
	for _, e := range tl.events {
		if e.content > 0 {
			outs = append(outs, outputEvent{at: e.at, chars: e.content})
			bytes = append(bytes, float64(e.content))
		}
	}
	return readerModel(outs, bytes, audioBytesPerSecond)
}

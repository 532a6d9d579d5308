package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/latgate/latgate/vocab"
)

// bufSize is each stream's one buffer: a response is read into it and
// written out of it, never accumulated.
const bufSize = 32 << 10

var bufs = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// ServeHTTP answers one request: the fault that hits it, or the upstream's
// response.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !p.enter() {
		panic(http.ErrAbortHandler) // closed: no answer
	}
	defer p.wg.Done()
	id := r.Header.Get(HeaderRequest)
	if len(id) > maxID {
		id = id[:maxID]
	}
	f, hit := p.next()
	ev := Event{ID: id, Arrived: p.clk.Now()}
	if hit {
		ev.Fault = f.Kind
	}
	seq := p.log.add(ev)
	w.Header().Set(HeaderUpstream, p.name)
	switch {
	case !hit || f.Kind == vocab.SlowFirstToken || f.Kind == vocab.StallMidStream:
		p.forward(w, r, seq, f)
	case f.Kind == vocab.StallFirstToken:
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices the client leave
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	case f.Kind == vocab.HTTPError:
		p.answerFault(w, seq, f)
	case f.Kind == vocab.Reset:
		_, _ = io.Copy(io.Discard, r.Body)
		drop(w, true)
	default: // refuse, due to a request on a connection accepted before it was due
		drop(w, false)
	}
}

// drop closes the request's connection without an answer; reset sends a
// TCP RST (linger 0) rather than a FIN.
func drop(w http.ResponseWriter, reset bool) {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := c.(*net.TCPConn); ok && reset {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}

// answerFault answers an http fault without asking the upstream.
func (p *Proxy) answerFault(w http.ResponseWriter, seq int64, f Fault) {
	status := f.Status
	if status == 0 {
		status = http.StatusServiceUnavailable
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	p.answer(w, seq, status, "latgate_fault", "latgate fault proxy "+p.name+": injected HTTP "+http.StatusText(status))
}

// answer writes the proxy's own JSON error.
func (p *Proxy) answer(w http.ResponseWriter, seq int64, status int, typ, msg string) {
	body, _ := json.Marshal(map[string]any{"error": map[string]string{"type": typ, "message": p.secrets.String(msg)}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	at := p.clk.Now()
	_, _ = w.Write(append(body, '\n'))
	p.log.update(seq, func(e *Event) { e.Status, e.FirstByte = status, at })
}

// forward asks the upstream and streams its response back; f is a
// slow_first_token or stall_mid_stream fault, or none.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, seq int64, f Fault) {
	ctx := r.Context()
	if f.Kind == vocab.SlowFirstToken && !p.clk.Until(ctx, p.clk.Now().Add(f.Delay)) {
		// The upstream is asked Delay late: its whole answer, first token
		// and pace, arrives shifted by it (a slow queue or prefill), not
		// held and then released in a burst.
		panic(http.ErrAbortHandler)
	}
	resp, err := p.rt.RoundTrip(p.outRequest(r))
	if err != nil {
		if ctx.Err() != nil {
			panic(http.ErrAbortHandler) // the client left, or Close
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL: its query is the client's
		}
		p.answer(w, seq, http.StatusBadGateway, "latgate_proxy", "latgate fault proxy "+p.name+": upstream "+p.to.Scheme+"://"+p.to.Host+": "+err.Error())
		return
	}
	defer func() { _ = resp.Body.Close() }()
	s := stream{p: p, w: w, rc: http.NewResponseController(w), seq: seq, resp: resp, gotHeader: p.clk.Now(), left: -1}
	if f.Kind == vocab.StallMidStream {
		s.left = f.After
		s.sse = strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/event-stream")
	}
	bp := bufs.Get().(*[]byte)
	defer bufs.Put(bp)
	if !s.run(ctx, *bp, f) {
		panic(http.ErrAbortHandler) // the client sees the stream broken, never a proper end
	}
}

// outRequest is r as sent to the upstream: To's prefix + r's path and
// query, r's headers but the hop-by-hop ones, Host the upstream's.
func (p *Proxy) outRequest(r *http.Request) *http.Request {
	u := *p.to
	u.RawPath = ""
	u.Path = strings.TrimSuffix(p.to.Path, "/") + r.URL.Path
	if p.to.RawPath != "" || r.URL.RawPath != "" {
		u.RawPath = strings.TrimSuffix(p.to.EscapedPath(), "/") + r.URL.EscapedPath()
	}
	u.RawQuery = r.URL.RawQuery
	out := (&http.Request{Method: r.Method, Header: r.Header.Clone(), Body: r.Body, ContentLength: r.ContentLength}).WithContext(r.Context())
	out.URL, out.Host = &u, ""
	out.Proto, out.ProtoMajor, out.ProtoMinor = "HTTP/1.1", 1, 1
	if r.ContentLength == 0 {
		out.Body = http.NoBody
	}
	removeHopByHop(out.Header)
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header.Set("User-Agent", "") // Go adds none then
	}
	return out
}

// hopByHop are the headers of one connection (RFC 9110 7.6.1), never
// forwarded.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func removeHopByHop(h http.Header) {
	for _, v := range h["Connection"] {
		for _, name := range strings.Split(v, ",") {
			if name = textproto.TrimString(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopByHop {
		h.Del(name)
	}
}

// stream is one response on its way to the client.
type stream struct {
	p         *Proxy
	w         http.ResponseWriter
	rc        *http.ResponseController
	seq       int64
	resp      *http.Response
	gotHeader time.Time // when the upstream's header was read
	wrote     bool      // the header was written
	sent      bool      // a body byte was written
	left      int       // events stall_mid_stream still forwards; -1: no cut
	sse       bool
	ends      ends
}

// run streams the body through buf; false: the stream did not end
// properly (the client left, the upstream broke, a stall ended by Close).
func (s *stream) run(ctx context.Context, buf []byte, f Fault) bool {
	if s.left == 0 {
		s.header()
		<-ctx.Done()
		return false
	}
	if !s.wrote {
		s.header()
	}
	for {
		n, err := s.resp.Body.Read(buf)
		if ok, done := s.chunk(ctx, buf[:n], s.p.clk.Now(), err); done {
			return ok
		}
	}
}

// chunk forwards b, read at read, then the read's err; done when the
// stream is over (ok: it ended properly).
func (s *stream) chunk(ctx context.Context, b []byte, read time.Time, err error) (ok, done bool) {
	if !s.wrote {
		s.header()
	}
	cut := false
	if s.left > 0 && len(b) > 0 {
		var n int
		n, s.left = s.ends.find(b, s.left, s.sse)
		b, cut = b[:n], s.left == 0
	}
	if len(b) > 0 {
		if _, werr := s.w.Write(b); werr != nil {
			return false, true
		}
		if s.rc.Flush() != nil {
			return false, true
		}
		if !s.sent {
			s.sent = true
			at := s.p.clk.Now()
			s.p.log.update(s.seq, func(e *Event) { e.FirstByte, e.FirstByteAdded = at, at.Sub(read) })
		}
	}
	switch {
	case cut:
		<-ctx.Done()
		return false, true
	case err == io.EOF:
		return true, true
	case err != nil:
		return false, true
	}
	return false, false
}

// header writes the upstream's status and headers and flushes them.
func (s *stream) header() {
	s.wrote = true
	h := s.w.Header()
	for k, v := range s.resp.Header {
		h[k] = v
	}
	removeHopByHop(h)
	h.Set(HeaderUpstream, s.p.name)
	s.w.WriteHeader(s.resp.StatusCode)
	_ = s.rc.Flush()
	at := s.p.clk.Now()
	s.p.log.update(s.seq, func(e *Event) { e.Status, e.HeaderAdded = s.resp.StatusCode, at.Sub(s.gotHeader) })
}

// ends counts the ends of events across a stream's chunks: SSE events
// (a blank line after a line with content; lines end in \n, \r\n or \r)
// or non-empty lines.
type ends struct {
	lineStart bool // the last byte ended a line
	cr        bool // the last byte was \r
	content   bool // the current event (or line) has content
}

// find returns how many bytes of b to forward so that at most left more
// events are forwarded whole, and how many are left after them.
func (e *ends) find(b []byte, left int, sse bool) (int, int) {
	for i, c := range b {
		if c == '\n' && e.cr {
			e.cr = false
			continue
		}
		if c != '\n' && c != '\r' {
			e.lineStart, e.cr, e.content = false, false, true
			continue
		}
		end := e.content && (e.lineStart || !sse)
		e.lineStart, e.cr = true, c == '\r'
		if !end {
			continue
		}
		e.content = false
		if left--; left == 0 {
			if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				i++
			}
			return i + 1, 0
		}
	}
	return len(b), left
}

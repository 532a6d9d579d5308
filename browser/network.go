package browser

import (
	"mime"
	"strings"
	"sync"
)

// Bounds of what the network log keeps per turn, whatever the page does.
const (
	maxRequests   = 32       // requests followed after arm
	maxChunks     = 200000   // chunks timed per request
	maxTextBytes  = 16 << 20 // bytes read for text per request; later chunks are timed only
	maxFailedURLs = 8        // failed requests kept for a failure's message
)

// netLog follows the page's requests of one turn from the DevTools
// network events, in milliseconds on the browser's monotonic clock
// (DevTools' MonotonicTime × 1000). A chunk's bytes reach it only once the
// request's content is streamed (Network.streamResourceContent): the
// chunks before that wait for the bytes buffered until then.
type netLog struct {
	mu     sync.Mutex
	armed  bool
	reqs   []*netReq
	byID   map[string]*netReq
	failed []string
	scan   func(contentType string) TextScanner
}

// netReq is one request: its times (< 0: not seen), its chunks, how its
// text is read.
type netReq struct {
	id, url, mime        string
	status               int
	start, headers, end  float64
	conn                 Conn
	failed               string
	chunks               []Chunk
	pending              []int          // chunks whose text is not read yet, in order
	held                 map[int][]byte // the bytes of pending chunks that came with their event
	streaming, streamErr bool
	scanner              TextScanner
	read                 int
}

func newNetLog(scan func(string) TextScanner) *netLog {
	if scan == nil {
		scan = NewScanner
	}
	return &netLog{byID: map[string]*netReq{}, scan: scan}
}

// arm starts a turn: requests from now on are followed.
func (l *netLog) arm() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.armed, l.reqs, l.byID, l.failed = true, nil, map[string]*netReq{}, nil
}

// follows reports whether a request of this resource type can be a
// page's answer stream.
func follows(resourceType string) bool {
	switch resourceType {
	case "Fetch", "XHR", "EventSource", "Other":
		return true
	}
	return false
}

// sent records a request; it reports whether it is followed (then its
// content should be streamed).
func (l *netLog) sent(id, url, resourceType string, at float64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.armed || !follows(resourceType) || len(l.reqs) >= maxRequests || l.byID[id] != nil {
		return false
	}
	r := &netReq{id: id, url: url, start: at, headers: -1, end: -1}
	l.reqs = append(l.reqs, r)
	l.byID[id] = r
	return true
}

func (l *netLog) response(id string, status int, contentType string, headers float64, conn Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.byID[id]; r != nil {
		r.status, r.mime, r.headers, r.conn = status, contentType, headers, conn
		r.scanner = l.scan(contentType)
	}
}

// data records a chunk; b is its bytes, nil when they come later
// (streamed).
func (l *netLog) data(id string, at float64, n int, b []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.byID[id]
	if r == nil || len(r.chunks) >= maxChunks {
		return
	}
	r.chunks = append(r.chunks, Chunk{At: at, Bytes: n})
	i := len(r.chunks) - 1
	switch {
	case b != nil && len(r.pending) == 0:
		r.chunks[i].Text = r.text(b)
	case b != nil:
		// Earlier chunks wait for their bytes: read this one after them.
		if r.held == nil {
			r.held = map[int][]byte{}
		}
		r.held[i] = b[:min(len(b), maxTextBytes)]
		r.pending = append(r.pending, i)
	case !r.streaming && !r.streamErr:
		r.pending = append(r.pending, i)
	}
}

// buffered gives the bytes received before streaming began: they are the
// bytes of the pending chunks that came without theirs, in order. err:
// the content cannot be streamed (then those chunks carry no known text).
func (l *netLog) buffered(id string, b []byte, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.byID[id]
	if r == nil {
		return
	}
	r.streaming, r.streamErr = err == nil, err != nil
	last := -1 // the last pending chunk without bytes: it gets what is left
	for _, i := range r.pending {
		if _, ok := r.held[i]; !ok {
			last = i
		}
	}
	for _, i := range r.pending {
		own, ok := r.held[i]
		if !ok && err == nil {
			n := min(r.chunks[i].Bytes, len(b))
			if i == last {
				n = len(b) // never lose text to a length that does not add up
			}
			own, b = b[:n], b[n:]
		}
		if own != nil {
			r.chunks[i].Text = r.text(own)
		}
	}
	r.pending, r.held = nil, nil
}

// text scans b for answer text, within the request's bound.
func (r *netReq) text(b []byte) bool {
	if r.scanner == nil {
		r.scanner = NewScanner(r.mime)
	}
	if r.read >= maxTextBytes {
		return false
	}
	b = b[:min(len(b), maxTextBytes-r.read)]
	r.read += len(b)
	return r.scanner.Chunk(b)
}

func (l *netLog) finished(id string, at float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.byID[id]; r != nil {
		r.end = at
	}
}

// loadFailed records a failed request: a followed one keeps why, and any
// request of the turn is kept (bounded) for a failure's message.
func (l *netLog) loadFailed(id, url, why string, at float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.byID[id]; r != nil {
		r.end, r.failed = at, why
		url = r.url
	}
	if l.armed && len(l.failed) < maxFailedURLs && url != "" {
		l.failed = append(l.failed, safeURL(url)+": "+why)
	}
}

// streamType reports whether a Content-Type is a stream's.
func streamType(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "text/event-stream", "application/x-ndjson", "application/jsonl", "text/plain":
		return true
	}
	return false
}

// answer picks the turn's answer stream among the requests sent from t0
// on (browser milliseconds): the first whose URL holds substr when given;
// else the first that carried answer text, else the first of a stream's
// Content-Type. It returns nil when there is none.
func (l *netLog) answer(t0 float64, substr string) *netReq {
	l.mu.Lock()
	defer l.mu.Unlock()
	var typed *netReq
	for _, r := range l.reqs {
		if r.start < t0 {
			continue
		}
		if substr != "" {
			if strings.Contains(r.url, substr) {
				return r.clone()
			}
			continue
		}
		for _, c := range r.chunks {
			if c.Text {
				return r.clone()
			}
		}
		if typed == nil && streamType(r.mime) {
			typed = r
		}
	}
	if typed != nil {
		return typed.clone()
	}
	return nil
}

func (r *netReq) clone() *netReq {
	c := *r
	c.chunks = append([]Chunk(nil), r.chunks...)
	return &c
}

// failures are the failed requests of the turn.
func (l *netLog) failures() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.failed...)
}

// onPage converts r to the page's clock: page = browser − offset.
func (r *netReq) onPage(offset float64) *Wire {
	conv := func(t float64) float64 {
		if t < 0 {
			return -1
		}
		return t - offset
	}
	w := &Wire{URL: r.url, Status: r.status, Start: conv(r.start), Headers: conv(r.headers), End: conv(r.end), Failed: r.failed, Conn: r.conn}
	for _, c := range r.chunks {
		c.At = conv(c.At)
		w.Chunks = append(w.Chunks, c)
	}
	return w
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

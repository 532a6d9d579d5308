package browser

import (
	"errors"
	"strings"
	"testing"
)

const sse = "text/event-stream"

func delta(s string) string {
	return `data: {"type":"text-delta","id":"t","delta":"` + s + `"}` + "\n\n"
}

// TestNetLogBuffered: the chunks that came before the content was
// streamed get their bytes from the buffered data, split by their
// lengths, and are read in order with a chunk that came with its bytes in
// the meantime.
func TestNetLogBuffered(t *testing.T) {
	t.Parallel()
	l := newNetLog(nil)
	l.arm()
	if !l.sent("1", "http://p/api/chat", "Fetch", 1000) {
		t.Fatal("a fetch is followed")
	}
	if l.sent("2", "http://p/app.js", "Script", 1001) {
		t.Error("a script is not an answer stream")
	}
	start := `data: {"type":"start"}` + "\n\n"
	half := delta("Hel")[:20]
	l.response("1", 200, sse, 1010, Conn{Connect: 1.5})
	l.data("1", 1011, len(start), nil)
	l.data("1", 1050, len(half), nil)
	// The reply's buffered bytes are late: the next chunk already came
	// with its bytes (the rest of the line started in the chunk before).
	rest := delta("Hel")[20:]
	l.data("1", 1060, len(rest), []byte(rest))
	l.buffered("1", []byte(start+half), nil)
	l.data("1", 1070, len(delta("lo")), []byte(delta("lo")))
	l.finished("1", 1100)
	r := l.answer(999, "")
	if r == nil {
		t.Fatal("no answer stream")
	}
	var text []bool
	for _, c := range r.chunks {
		text = append(text, c.Text)
	}
	if want := []bool{false, false, true, true}; !equal(text, want) {
		t.Errorf("text per chunk %v, want %v (the line split over chunks 2 and 3 is text at 3)", text, want)
	}
	w := r.onPage(900)
	if w.Start != 100 || w.Headers != 110 || w.End != 200 || w.Chunks[2].At != 160 || w.Conn.Connect != 1.5 {
		t.Errorf("on the page's clock: %+v", w)
	}
}

func equal(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNetLogAnswer: the answer stream is the first request from t0 on
// that carried text, or the one the stream substring names; requests
// before t0 and before arm are not.
func TestNetLogAnswer(t *testing.T) {
	t.Parallel()
	l := newNetLog(nil)
	l.sent("0", "http://p/before-arm", "Fetch", 10)
	l.arm()
	l.sent("a", "http://p/early", "Fetch", 50)
	l.sent("b", "http://p/api/title", "Fetch", 120)
	l.sent("c", "http://p/api/chat?x=1", "Fetch", 130)
	for _, id := range []string{"a", "b", "c"} {
		l.response(id, 200, sse, 140, Conn{Reused: true})
		l.buffered(id, nil, nil)
	}
	l.data("a", 150, 10, []byte(delta("early")))
	l.data("b", 150, 10, []byte(`data: {"type":"start"}`+"\n\n"))
	l.data("c", 160, 10, []byte(delta("x")))
	if r := l.answer(100, ""); r == nil || r.id != "c" {
		t.Errorf("answer = %+v, want c (the first from t0 that carried text)", r)
	}
	if r := l.answer(100, "/api/title"); r == nil || r.id != "b" {
		t.Errorf("answer with stream /api/title = %+v, want b", r)
	}
	if r := l.answer(100, "/nowhere"); r != nil {
		t.Errorf("answer with a substring that matches nothing = %+v, want none", r)
	}
	l.loadFailed("c", "", "net::ERR_CONNECTION_RESET", 170)
	if r := l.answer(100, ""); r.failed == "" || r.end != 170 {
		t.Errorf("failed stream: %+v", r)
	}
	if f := l.failures(); len(f) != 1 || !strings.Contains(f[0], "ERR_CONNECTION_RESET") || strings.Contains(f[0], "x=1") {
		t.Errorf("failures %q: want the request without its query", f)
	}
}

// TestNetLogBounds: at most maxRequests requests and maxChunks chunks per
// request are kept, however many the page makes; a stream whose content
// cannot be read has its chunks timed and no text.
func TestNetLogBounds(t *testing.T) {
	t.Parallel()
	l := newNetLog(nil)
	l.arm()
	for i := range maxRequests + 10 {
		l.sent(string(rune('A'+i)), "http://p/x", "XHR", float64(i))
	}
	if len(l.reqs) != maxRequests {
		t.Errorf("%d requests kept, want %d", len(l.reqs), maxRequests)
	}
	id := l.reqs[0].id
	l.response(id, 200, sse, 1, Conn{})
	l.data(id, 2, 100, nil)
	l.buffered(id, nil, errors.New("cannot stream"))
	for range maxChunks + 5 {
		l.data(id, 3, 1, nil)
	}
	r := l.byID[id]
	if len(r.chunks) != maxChunks || r.chunks[0].Text || len(r.pending) != 0 {
		t.Errorf("%d chunks, first text %v, %d pending; want %d, false, 0", len(r.chunks), r.chunks[0].Text, len(r.pending), maxChunks)
	}
}

package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/vocab"
)

// chatEvents is a chat stream of n one-character content deltas, its
// finish and [DONE]: n+2 events.
func chatEvents(n int, delta string) string {
	var b strings.Builder
	chunk := `data: {"choices":[{"delta":{"content":"` + delta + `"}}]}` + "\n\n"
	for range n {
		b.WriteString(chunk)
	}
	b.WriteString(`data: {"choices":[{"delta":{},"finish_reason":"stop"}]}` + "\n\n" + "data: [DONE]\n\n")
	return b.String()
}

func doChat(t *testing.T, stream string) Record {
	t.Helper()
	srv := canned(t, 200, "text/event-stream", stream, nil)
	return (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: Chat, URL: srv.URL, Body: []byte(`{}`)})
}

// TestEventLimit: a call holds at most MaxEvents events; a stream with
// more fails as event_limit and is read no further (a hostile server
// sending tiny chunks as fast as loopback allows grew one request to
// gigabytes).
func TestEventLimit(t *testing.T) {
	t.Parallel()
	if rec := doChat(t, chatEvents(MaxEvents-2, "x")); !rec.OK || rec.OutputTokens != MaxEvents-2 {
		t.Fatalf("%d events: ok %v (%s), %d tokens; want the whole answer", MaxEvents, rec.OK, rec.Error, rec.OutputTokens)
	}
	rec := doChat(t, chatEvents(MaxEvents-1, "x"))
	if rec.OK || rec.Failure != vocab.EventLimit || !strings.Contains(rec.Error, fmt.Sprintf("more than %d events in one call", MaxEvents)) {
		t.Errorf("%d events: ok %v, failure %q, error %q; want event_limit", MaxEvents+1, rec.OK, rec.Failure, rec.Error)
	}
}

// TestHeldBytesLimit: the text and tool calls a call keeps are bounded
// too: few events of a megabyte each fail as event_limit.
func TestHeldBytesLimit(t *testing.T) {
	t.Parallel()
	mib := strings.Repeat("y", 1<<20)
	if rec := doChat(t, chatEvents(MaxHeldBytes>>20, mib)); !rec.OK {
		t.Fatalf("%d MiB of text: %s", MaxHeldBytes>>20, rec.Error)
	}
	rec := doChat(t, chatEvents(MaxHeldBytes>>20+1, mib))
	if rec.OK || rec.Failure != vocab.EventLimit || !strings.Contains(rec.Error, "MiB of answer text and tool calls") {
		t.Errorf("ok %v, failure %q, error %q; want event_limit", rec.OK, rec.Failure, rec.Error)
	}
}

// toolCalls is a chat answer of n tool calls with unique names, one
// chunk each.
func toolCalls(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `data: {"choices":[{"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"tool_%d","arguments":"{}"}}]}}]}`+"\n\n", i, i, i)
	}
	b.WriteString(`data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\ndata: [DONE]\n\n")
	return b.String()
}

// TestToolLimit: a step makes at most MaxToolCalls tool calls (200,000
// uniquely named calls in one answer took 53 s of CPU after the timeout,
// and were recorded ok); the session keeps at most MaxToolNames unknown
// tools, each clipped.
func TestToolLimit(t *testing.T) {
	t.Parallel()
	params := BodyParams{Messages: []Message{{Role: "user", Content: "hi"}}}
	session := func(stream string) Record {
		srv := canned(t, 200, "text/event-stream", stream, nil)
		body, _ := Body(Chat, params)
		return (&Prober{Client: srv.Client()}).Do(context.Background(),
			Request{API: Chat, URL: srv.URL, Body: body, Session: &Session{Params: params, MaxSteps: 2}})
	}
	rec := session(toolCalls(MaxToolCalls + 1))
	if rec.OK || rec.Failure != vocab.ToolLimit || !strings.Contains(rec.Error, fmt.Sprintf("more than %d tool calls in one step", MaxToolCalls)) {
		t.Errorf("%d calls: ok %v, failure %q, error %q; want tool_limit", MaxToolCalls+1, rec.OK, rec.Failure, rec.Error)
	}
	// At the limit the calls are answered (as unknown tools) and the
	// session ends at max_steps, the second step calling them again; the
	// record names 32 of them.
	rec = session(toolCalls(MaxToolCalls))
	if rec.Failure != vocab.MaxSteps || len(rec.Session.UnknownTools) != MaxToolNames || rec.Session.Steps[0].ToolCalls != MaxToolCalls {
		t.Errorf("%d calls: failure %q (%s), %d unknown tools kept, %d calls in step 1", MaxToolCalls, rec.Failure, rec.Error, len(rec.Session.UnknownTools), rec.Session.Steps[0].ToolCalls)
	}
	long := strings.Repeat("n", 10_000)
	var names toolNames
	names.add(long)
	names.add(long)
	if len(names.names) != 1 || len(names.names[0]) > MaxToolName+len("…") {
		t.Errorf("a long name twice: %d names, the first of %d bytes", len(names.names), len(names.names[0]))
	}
}

// TestNeverOKPastTheTimeout: whatever was read, a record whose stream
// ended after limits.timeout is a timeout, not an ok request.
func TestNeverOKPastTheTimeout(t *testing.T) {
	t.Parallel()
	p := &Prober{Timeout: 20 * time.Second}
	late := p.inTime(Record{OK: true, Total: 27118 * time.Millisecond})
	if late.OK || late.Failure != vocab.Timeout || !strings.Contains(late.Error, "ended after 27.118s, beyond the timeout (20s)") {
		t.Errorf("ok %v, failure %q, error %q", late.OK, late.Failure, late.Error)
	}
	if in := p.inTime(Record{OK: true, Total: 20 * time.Second}); !in.OK {
		t.Errorf("a stream that ended at the timeout failed: %s", in.Error)
	}
	if none := (&Prober{}).inTime(Record{OK: true, Total: time.Hour}); !none.OK {
		t.Error("no timeout set: failed")
	}
}

// TestRealtimeItemIDsAreBounded: a request keeps the few conversation
// items it added; a server announcing huge or countless ids (unique 8 MiB
// ids grew one request to gigabytes) gets the connection closed, not
// reset item by item, and the next request a new one.
func TestRealtimeItemIDsAreBounded(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var conns atomic.Int32
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			conns.Add(1)
			send := func(s string, args ...any) { _ = ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(s, args...))) }
			send(`{"type":"session.created"}`)
			for n := 0; ; n++ {
				_, data, err := ws.Read(ctx)
				if err != nil {
					return
				}
				var v struct {
					Type   string `json:"type"`
					ItemID string `json:"item_id"`
				}
				_ = json.Unmarshal(data, &v)
				switch v.Type {
				case "conversation.item.delete": // confirmed: a reset would succeed
					// Apart: the loopback has no buffer, and the client
					// writes its deletes before it reads a confirmation.
					go send(`{"type":"conversation.item.deleted","item_id":%q}`, v.ItemID)
				case "response.create":
					for i := range maxItems + 1 {
						send(`{"type":"conversation.item.added","item":{"id":"item_%d_%d"}}`, n, i)
					}
					send(`{"type":"conversation.item.added","item":{"id":"%s"}}`, strings.Repeat("i", 8<<10))
					send(`{"type":"response.output_text.delta","delta":"hi"}`)
					send(`{"type":"response.done","response":{"status":"completed"}}`)
				}
			}
		})
		sockets := NewSockets()
		p := realtimeProber(srv, sockets)
		for i := range 2 {
			if rec := p.Do(context.Background(), realtimeReq(t, srv, false, 0)); !rec.OK {
				t.Fatalf("request %d: %s", i, rec.Error)
			}
		}
		if n := conns.Load(); n != 2 {
			t.Errorf("%d connections for 2 requests; want 2 (one not reset is not reused)", n)
		}
		sockets.Close()
		time.Sleep(time.Second)
	})
	d := &realtimeDecoder{}
	for i := range 3 * maxItems {
		d.item(fmt.Sprintf("item_%d", i%10))
	}
	if len(d.items) != 10 || d.lost {
		t.Errorf("10 ids seen many times: kept %d, lost %v", len(d.items), d.lost)
	}
}

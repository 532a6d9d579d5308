package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/redact"
)

// cutKey is the key the hostile servers below echo.
const cutKey = "sk-proj-Zq8rT3vLw0Nc5YxKpB7mHd2FgJ9sUe4Ai6Ro1Wt"

// keepsPiece is the first piece of 12 bytes of cutKey that rec keeps
// anywhere (its error, a session's steps and tool names, what the
// response looked like), or "".
func keepsPiece(rec Record) string {
	text := fmt.Sprintf("%+v", rec)
	if rec.Session != nil {
		text += fmt.Sprintf("%+v", *rec.Session)
	}
	for i := 0; i+12 <= len(cutKey); i++ {
		if strings.Contains(text, cutKey[i:i+12]) {
			return cutKey[i : i+12]
		}
	}
	return ""
}

// pad is n bytes of padding.
func pad(n int) string { return strings.Repeat("x", n) }

// TestServerTextHiddenBeforeItIsCut: what each API's server says is
// hidden whole before it is cut to what a record shows, so a key across
// any cut (an error event's 300 bytes, a hint's example's 200, a
// malformed message's 120, an unknown event type's 60, a tool name's
// 100) leaves none of its first characters; each case's message is
// checked to be recorded, so none passes by saying nothing.
func TestServerTextHiddenBeforeItIsCut(t *testing.T) {
	t.Parallel()
	for _, n := range []int{255, 262, 270, 285, 296} {
		custom := &StreamSpec{Format: "sse", Text: "/delta", Error: "/error"}
		for name, tt := range map[string]struct {
			req  Request
			body string
			want string
		}{
			"custom error":     {Request{API: Custom, Stream: custom}, sse(`{"error":"` + pad(n) + " " + cutKey + ` refused"}`), "error inside the stream: x"},
			"custom hint":      {Request{API: Custom, Stream: custom}, sse(`{"other":"`+pad(n-100)+" "+cutKey+`"}`, `{"other":"b"}`), "matched no event"},
			"gemini error":     {Request{API: Gemini}, sse(`{"error":{"code":500,"message":"` + pad(n) + " " + cutKey + `","status":"INTERNAL"}}`), "error inside the stream: x"},
			"anthropic error":  {Request{API: Anthropic}, sse(`error|{"type":"error","error":{"type":"overloaded_error","message":"` + pad(n) + " " + cutKey + `"}}`), "error inside the stream: x"},
			"responses failed": {Request{API: Responses}, sse(`response.failed|{"type":"response.failed","response":{"error":{"code":"e","message":"` + pad(n) + " " + cutKey + `"}}}`), "error inside the stream: x"},
			"malformed":        {Request{API: Chat}, sse(pad(n-180) + " " + cutKey), "malformed JSON"},
		} {
			srv := canned(t, 200, "text/event-stream", tt.body, nil)
			req := tt.req
			req.URL, req.Body = srv.URL, []byte(`{}`)
			rec := (&Prober{Client: srv.Client(), Secrets: redact.New(cutKey)}).Do(context.Background(), req)
			if piece := keepsPiece(rec); piece != "" || !strings.Contains(rec.Error, tt.want) {
				t.Errorf("%s, key at %d: the record keeps %q of the key, or lacks %q: %q", name, n, piece, tt.want, rec.Error)
			}
		}
	}
}

// TestRealtimeTextHiddenBeforeItIsCut: a Realtime server's error before
// session.created, its malformed message, an unknown event type and its
// close reason (121 bytes: 123 is the most a close frame holds) each
// echo the key across the cut latgate makes of them:
// none of its first characters is kept.
func TestRealtimeTextHiddenBeforeItIsCut(t *testing.T) {
	t.Parallel()
	created := `{"type":"session.created"}`
	for name, tt := range map[string]struct {
		before, answer []string // sent at once, and once response.create came
		close          string   // the close reason after the answer
		want           string
	}{
		"error":     {[]string{`{"type":"error","error":{"message":"` + pad(280) + " " + cutKey + `"}}`}, nil, "", "error before session.created: x"},
		"malformed": {[]string{pad(100) + " " + cutKey}, nil, "", "malformed JSON in WebSocket message"},
		"unknown type": {[]string{created}, []string{`{"type":"` + pad(40) + cutKey + `"}`, `{"type":"response.done","response":{"status":"completed"}}`},
			"", "events of types latgate does not know (the first: x"},
		"close reason": {[]string{created}, nil, pad(75) + " " + cutKey, "the server closed the WebSocket"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { realtimeEcho(t, tt.before, tt.answer, tt.close, tt.want) })
		})
	}
}

// realtimeEcho makes a Realtime request with cutKey to a server that
// sends before at once and answer (then closes with reason close, when
// not empty) once response.create came: the record must say want, and
// keep no piece of the key.
func realtimeEcho(t *testing.T, before, answer []string, close, want string) {
	t.Helper()
	srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
		for _, m := range before {
			_ = ws.Write(ctx, websocket.MessageText, []byte(m))
		}
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				return
			}
			if !strings.Contains(string(b), `"response.create"`) {
				continue
			}
			for _, m := range answer {
				_ = ws.Write(ctx, websocket.MessageText, []byte(m))
			}
			if close != "" {
				_ = ws.Close(websocket.StatusInternalError, close)
				return
			}
		}
	})
	req := realtimeReq(t, srv, false, 0)
	req.APIKey = cutKey
	rec := realtimeProber(srv, nil).Do(context.Background(), req)
	if piece := keepsPiece(rec); piece != "" || !strings.Contains(rec.Error, want) {
		t.Errorf("the record keeps %q of the key, or lacks %q: %q", piece, want, rec.Error)
	}
}

// TestToolNamesHidden: a model that names its tool call with the key
// (after 60 bytes, across the 100-byte cut of a tool name) leaves none of
// it in the session's tool names, its steps' or its unknown tools.
func TestToolNamesHidden(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := &agentServer{toolSteps: 1, tool: pad(60) + cutKey}
		srv := clocktest.NewServer(t, a)
		rec := (&Prober{Client: srv.Client()}).Do(context.Background(), Request{API: Chat, URL: srv.URL, APIKey: cutKey, Session: orderSession(5)})
		if piece := keepsPiece(rec); piece != "" || !rec.OK || len(rec.Session.UnknownTools) != 1 || !strings.HasPrefix(rec.Session.UnknownTools[0], pad(60)) {
			b, _ := json.Marshal(rec.Session)
			t.Errorf("ok %v (%s): the record keeps %q of the key: %s", rec.OK, rec.Error, piece, b)
		}
	})
}

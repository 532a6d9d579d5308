package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

// realtimeReq is a Realtime request to srv for model, in text or audio.
func realtimeReq(t *testing.T, srv *clocktest.Server, audio bool, maxTokens int) Request {
	t.Helper()
	body, err := Body(Realtime, BodyParams{Model: "m", MaxTokens: maxTokens, Audio: audio,
		Messages: []Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "hello there"}}})
	if err != nil {
		t.Fatal(err)
	}
	base := strings.Replace(srv.URL, "http://", "ws://", 1) + "/v1"
	return Request{API: Realtime, URL: URL(Realtime, Target{BaseURL: base, Model: "m"}), Body: body, APIKey: "sk-test-123456"}
}

func realtimeProber(srv *clocktest.Server, sockets *Sockets) *Prober {
	return &Prober{Client: srv.Client(), StallTimeout: 2 * time.Second, Timeout: 30 * time.Second, Sockets: sockets}
}

var rtProfile = sim.Profile{
	HeaderDelay: 5 * time.Millisecond,
	TTFT:        sim.Fixed(150 * time.Millisecond),
	ITL:         sim.Fixed(10 * time.Millisecond),
	Tokens:      20,
}

// On a new connection every time includes its set-up, recorded apart:
// connect 3 ms (the loopback's dial), then the upgrade's 5 ms header delay
// and session.created; the simulator's TTFT runs from response.create.
func TestRealtimeNewConnection(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, rtProfile)
		srv.Connect = 3 * time.Millisecond
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		if !rec.OK {
			t.Fatalf("failed: %s", rec.Error)
		}
		exactly(t, "connect", rec.Connect, 3*time.Millisecond)
		exactly(t, "upgrade", rec.Upgrade, 5*time.Millisecond)
		exactly(t, "ttfb", rec.TTFB, 8*time.Millisecond)
		exactly(t, "ttft", rec.TTFT, 158*time.Millisecond)
		exactly(t, "ttfc", rec.TTFC, 158*time.Millisecond)
		exactly(t, "total", rec.Total, 158*time.Millisecond+19*10*time.Millisecond)
		for _, g := range rec.ITL {
			exactly(t, "itl", g, 10*time.Millisecond)
		}
		if rec.Reused || rec.Status != 101 || rec.OutputTokens != 20 || rec.TokensSource != "usage" || rec.PromptTokens == 0 || len(rec.ITL) != 19 {
			t.Errorf("reused %v, status %d, tokens %d (%s), prompt %d, %d gaps", rec.Reused, rec.Status, rec.OutputTokens, rec.TokensSource, rec.PromptTokens, len(rec.ITL))
		}
	})
}

// A reused connection has no set-up: TTFT is the server's 150 ms, and the
// conversation is empty again (the same prompt tokens each time).
func TestRealtimeReusedConnection(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := serve(t, rtProfile)
		srv.Connect = 3 * time.Millisecond
		sockets := NewSockets()
		defer sockets.Close()
		p := realtimeProber(srv, sockets)
		var recs []Record
		for range 3 {
			recs = append(recs, p.Do(context.Background(), realtimeReq(t, srv, false, 0)))
		}
		for i, rec := range recs {
			if !rec.OK {
				t.Fatalf("request %d failed: %s", i, rec.Error)
			}
			if rec.PromptTokens != recs[0].PromptTokens {
				t.Errorf("request %d: %d prompt tokens, the first %d: the conversation was not emptied", i, rec.PromptTokens, recs[0].PromptTokens)
			}
		}
		exactly(t, "first ttft", recs[0].TTFT, 158*time.Millisecond)
		for _, rec := range recs[1:] {
			exactly(t, "reused ttft", rec.TTFT, 150*time.Millisecond)
			exactly(t, "reused upgrade", rec.Upgrade, 0)
			exactly(t, "reused connect", rec.Connect, 0)
			if !rec.Reused {
				t.Error("a pooled connection is not marked reused")
			}
		}
	})
}

// With audio, TTFT is the first audio delta; perceived is playback: 50 ms
// of audio a delta arriving every 80 ms leaves the listener waiting 30 ms
// before each of the 19 later deltas.
func TestRealtimeAudio(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := rtProfile
		p.ITL = sim.Fixed(80 * time.Millisecond)
		srv := serve(t, p)
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, true, 0))
		if !rec.OK {
			t.Fatalf("failed: %s", rec.Error)
		}
		exactly(t, "ttft", rec.TTFT, 155*time.Millisecond)
		exactly(t, "perceived", rec.Perceived, 155*time.Millisecond+19*30*time.Millisecond)
		if rec.OutputTokens != 20 || rec.UnknownEvents != 0 {
			t.Errorf("tokens %d, unknown events %d", rec.OutputTokens, rec.UnknownEvents)
		}
	})
}

func TestRealtimeFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		faults sim.Faults
		kind   vocab.Failure
		want   string
	}{
		{"closed", sim.Faults{TruncateRate: 1}, vocab.Truncated, "connection closed: the server closed the WebSocket (1011 internal error: simulated: the server closed the session mid-response) after 10 output events"},
		{"dropped", sim.Faults{MidLineRate: 1}, vocab.Truncated, "connection closed: the WebSocket closed without a close frame (1006 abnormal closure) after 10 output events"},
		{"error event", sim.Faults{StreamErrRate: 1}, vocab.Provider, "error inside the stream: The server had an error while processing your request. Sorry about that! [server_error]"},
		{"overloaded", sim.Faults{ErrorRate: 1, ErrorStatus: 503}, vocab.Provider, "error inside the stream: The server is overloaded (simulated 503). [server_error]"},
		{"malformed", sim.Faults{MalformedRate: 1}, vocab.Malformed, "malformed JSON in WebSocket message after 10 output events"},
		{"stall", sim.Faults{StallRate: 1, StallAfter: 5, StallFor: 5 * time.Second}, vocab.Stall, "stalled: no data for 2s (stall_timeout) after 5 output events"},
		{"no output", sim.Faults{ZeroTokens: true}, vocab.NoOutput, "no output tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				p := rtProfile
				p.Faults = tt.faults
				srv := serve(t, p)
				sockets := NewSockets()
				defer sockets.Close()
				rec := realtimeProber(srv, sockets).Do(context.Background(), realtimeReq(t, srv, false, 0))
				if rec.OK || rec.Failure != tt.kind || !strings.HasPrefix(rec.Error, tt.want) {
					t.Errorf("ok %v, %s: %q, want %s: %q…", rec.OK, rec.Failure, rec.Error, tt.kind, tt.want)
				}
			})
		})
	}
}

// A refused upgrade names its status and the server's message, the key
// masked; without a key it says to set one.
func TestRealtimeRefused(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := sim.New(rtProfile, 1)
		s.APIKey = "sk-right-key"
		srv := clocktest.NewServer(t, s)
		req := realtimeReq(t, srv, false, 0)
		rec := realtimeProber(srv, nil).Do(context.Background(), req)
		want := "HTTP 401 Unauthorized (WebSocket upgrade refused): Incorrect API key provided: ***. [invalid_request_error]"
		if rec.OK || rec.Status != 401 || rec.Failure != vocab.HTTPStatus || rec.Error != want {
			t.Errorf("status %d, %s: %q, want %q", rec.Status, rec.Failure, rec.Error, want)
		}
		req.APIKey = ""
		rec = realtimeProber(srv, nil).Do(context.Background(), req)
		if !strings.HasSuffix(rec.Error, "(no key was sent: set api_key_env)") {
			t.Errorf("without a key: %q", rec.Error)
		}
	})
}

// A server that answers the upgrade with a page, not a WebSocket.
func TestRealtimeNotAWebSocket(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte("<html><title>Welcome</title></html>"))
		}))
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		if rec.Status != 200 || rec.Failure != vocab.HTTPStatus || !strings.Contains(rec.Error, "HTTP 200 OK instead of 101 Switching Protocols") {
			t.Errorf("status %d, %s: %q", rec.Status, rec.Failure, rec.Error)
		}
	})
}

// Events of types the probe does not know are ignored, and counted.
func TestRealtimeUnknownEvents(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			say := func(v map[string]any) { b, _ := json.Marshal(v); _ = ws.Write(ctx, websocket.MessageText, b) }
			say(map[string]any{"type": "session.created"})
			for {
				_, b, err := ws.Read(ctx)
				if err != nil {
					return
				}
				if !strings.Contains(string(b), `"response.create"`) {
					continue
				}
				say(map[string]any{"type": "response.sparkles", "glitter": 1})
				time.Sleep(40 * time.Millisecond)
				say(map[string]any{"type": "response.output_text.delta", "delta": "Hi"})
				say(map[string]any{"type": "response.sparkles"})
				say(map[string]any{"type": "response.done", "response": map[string]any{"status": "completed",
					"usage": map[string]any{"input_tokens": 7, "output_tokens": 1, "input_token_details": map[string]any{"cached_tokens": 3}}}})
			}
		})
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		if !rec.OK || rec.UnknownEvents != 2 || rec.PromptTokens != 7 || rec.CachedTokens != 3 {
			t.Errorf("ok %v (%s), %d unknown events, prompt %d, cached %d", rec.OK, rec.Error, rec.UnknownEvents, rec.PromptTokens, rec.CachedTokens)
		}
		exactly(t, "ttft", rec.TTFT, 40*time.Millisecond)
	})
}

// An answer in the other modality fails with a hint naming it, and stops
// the run (every request would fail the same way); an error event after
// unknown events is the provider's error, not a misread stream.
func TestRealtimeHints(t *testing.T) {
	t.Parallel()
	d := &realtimeDecoder{audio: true}
	for _, ev := range []string{`{"type":"response.output_text.delta","delta":"Hi"}`, `{"type":"response.glitter"}`, `{"type":"response.done","response":{"status":"completed"}}`} {
		if _, err := d.decode(frame{Data: []byte(ev)}); err != nil {
			t.Fatal(err)
		}
	}
	want := "latgate asked for audio (response.output_audio.delta) and the server sent 1 deltas of text (response.output_text.delta); 1 events of types latgate does not know (the first: response.glitter)"
	if h := d.hint(nil); h != want {
		t.Errorf("hint %q,\nwant %q", h, want)
	}
	e := &realtimeDecoder{}
	_, _ = e.decode(frame{Data: []byte(`{"type":"response.glitter"}`)})
	ev, _ := e.decode(frame{Data: []byte(`{"type":"error","error":{"type":"invalid_request_error","code":"rate_limit_exceeded","message":"Slow down."}}`)})
	if e.hint(nil) != "" || ev.err != "Slow down. [rate_limit_exceeded]" {
		t.Errorf("hint %q after an error event %q", e.hint(nil), ev.err)
	}
	for in, want := range map[string]int{"": 0, "AAAA": 3, "AAAAAA==": 4, "AAAAAAA=": 5, "AAAAAA": 4} {
		if n := base64Len(in); n != want {
			t.Errorf("base64Len(%q) = %d, want %d", in, n, want)
		}
	}
}

// response.done's statuses: incomplete is a proper end, failed and
// cancelled are the provider's errors.
func TestRealtimeDone(t *testing.T) {
	t.Parallel()
	for ev, want := range map[string]string{
		`{"type":"response.done","response":{"status":"incomplete","status_details":{"type":"incomplete","reason":"max_output_tokens"}}}`:              "finish max_output_tokens",
		`{"type":"response.done","response":{"status":"failed","status_details":{"type":"failed","error":{"type":"server_error","code":"internal"}}}}`: "error response.done with status failed: server_error [internal]",
		`{"type":"response.done","response":{"status":"cancelled","status_details":{"type":"cancelled","reason":"turn_detected"}}}`:                    "error response.done with status cancelled (turn_detected)",
	} {
		e, err := (&realtimeDecoder{}).decode(frame{Data: []byte(ev)})
		got := "finish " + e.finish
		if e.err != "" {
			got = "error " + e.err
		}
		if err != nil || !e.done || got != want {
			t.Errorf("%s: %q, want %q", ev, got, want)
		}
	}
}

// A session the server refuses after the upgrade: its error event names it.
func TestRealtimeErrorBeforeSession(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			b := []byte(`{"type":"error","error":{"type":"invalid_request_error","code":"model_not_found","message":"The model 'm' does not exist."}}`)
			_ = ws.Write(context.Background(), websocket.MessageText, b)
			_ = ws.Close(websocket.StatusPolicyViolation, "bye")
		})
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		want := "error before session.created: The model 'm' does not exist. [model_not_found]"
		if rec.OK || rec.Failure != vocab.Provider || rec.Error != want || rec.Status != 101 {
			t.Errorf("status %d, %s: %q, want %q", rec.Status, rec.Failure, rec.Error, want)
		}
	})
}

// TestRealtimeIdleClosedConnection: a pooled connection the server closed
// while it was idle (an idle timeout) is not a failure of the next
// request: it is made again on a new connection, timed from that one's
// start (set-up included).
func TestRealtimeIdleClosedConnection(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		conns := 0
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			conns++
			answerEach(ctx, ws, func(int) bool {
				time.Sleep(100 * time.Millisecond)
				_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"response.output_text.delta","delta":"hello"}`))
				_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"response.done","response":{"status":"completed"}}`))
				go func() { time.Sleep(200 * time.Millisecond); _ = ws.Close(websocket.StatusGoingAway, "idle timeout") }()
				return true
			})
		})
		sockets := NewSockets()
		p := realtimeProber(srv, sockets)
		first := p.Do(context.Background(), realtimeReq(t, srv, false, 0))
		time.Sleep(time.Second)
		second := p.Do(context.Background(), realtimeReq(t, srv, false, 0))
		if !first.OK || !second.OK {
			t.Fatalf("first ok %v (%s), second ok %v (%s)", first.OK, first.Error, second.OK, second.Error)
		}
		if second.Reused || conns != 2 {
			t.Errorf("second request reused %v, %d connections; want a new connection", second.Reused, conns)
		}
		exactly(t, "second ttft", second.TTFT, first.TTFT)
		sockets.Close()
		time.Sleep(time.Second) // the server's idle timers end
	})
}

// TestRealtimeLeftoverEvents: events of an earlier response that arrive on
// a reused connection after its response.done (a duplicate done, a late
// delta) are not the next request's: it is measured from its own
// response's events.
func TestRealtimeLeftoverEvents(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			send := func(s string, args ...any) { _ = ws.Write(ctx, websocket.MessageText, []byte(fmt.Sprintf(s, args...))) }
			answerEach(ctx, ws, func(n int) bool {
				send(`{"type":"response.created","response":{"id":"resp_%d","status":"in_progress"}}`, n)
				time.Sleep(100 * time.Millisecond)
				for range 3 {
					send(`{"type":"response.output_text.delta","response_id":"resp_%d","delta":"hi"}`, n)
					time.Sleep(10 * time.Millisecond)
				}
				send(`{"type":"response.done","response":{"id":"resp_%d","status":"completed"}}`, n)
				// Left over: a duplicate done and a late delta, written
				// as the client reads on (the test's loopback has no
				// buffer), so they reach the next request.
				go func() {
					send(`{"type":"response.done","response":{"id":"resp_%d","status":"completed"}}`, n)
					send(`{"type":"response.output_text.delta","response_id":"resp_%d","delta":"late"}`, n)
				}()
				return true
			})
		})
		sockets := NewSockets()
		p := realtimeProber(srv, sockets)
		for i := range 3 {
			rec := p.Do(context.Background(), realtimeReq(t, srv, false, 0))
			if !rec.OK || rec.OutputTokens != 3 {
				t.Fatalf("request %d: ok %v (%s), %d tokens; want its own 3", i, rec.OK, rec.Error, rec.OutputTokens)
			}
			exactly(t, fmt.Sprintf("request %d ttft", i), rec.TTFT-rec.TTFB, 100*time.Millisecond)
		}
		sockets.Close()
		time.Sleep(time.Second)
	})
}

// wsServer serves each WebSocket it accepts with handle (ctx: the
// connection's), closing it when handle returns.
func wsServer(t *testing.T, handle func(ctx context.Context, ws *websocket.Conn)) *clocktest.Server {
	return clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		handle(context.Background(), ws)
	}))
}

// TestRealtimeMessageTooLong: a server message over MaxLine fails the
// request saying so (it read as an abnormal closure).
func TestRealtimeMessageTooLong(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			answerEach(ctx, ws, func(int) bool {
				// Written while the loop reads on (the test's loopback has
				// no buffer for the client's close frame).
				huge := `{"type":"response.output_text.delta","delta":"` + strings.Repeat("x", MaxLine) + `"}`
				go func() { _ = ws.Write(ctx, websocket.MessageText, []byte(huge)) }()
				return true
			})
		})
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		if rec.OK || rec.Failure != vocab.Malformed || !strings.Contains(rec.Error, "longer than 16 MiB") {
			t.Errorf("ok %v, %s: %q", rec.OK, rec.Failure, rec.Error)
		}
	})
}

// TestRealtimeCloseDoesNotWait: a connection used once is closed without
// waiting for the server's close frame, which a server may never send (the
// worker waited 5 s per request for it).
func TestRealtimeCloseDoesNotWait(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := wsServer(t, func(ctx context.Context, ws *websocket.Conn) {
			answerEach(ctx, ws, func(int) bool {
				_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"response.output_text.delta","delta":"hi"}`))
				_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"response.done","response":{"status":"completed"}}`))
				time.Sleep(30 * time.Second) // reads nothing more: no close frame back
				return false
			})
		})
		start := time.Now()
		rec := realtimeProber(srv, nil).Do(context.Background(), realtimeReq(t, srv, false, 0))
		if took := time.Since(start); !rec.OK || took > time.Second {
			t.Errorf("ok %v (%s), Do took %v; want it back at the response's end", rec.OK, rec.Error, took)
		}
		time.Sleep(time.Minute) // the server and the close end
	})
}

// answerEach sends session.created, then calls respond for the n-th
// response.create it reads (from 1), until the connection ends or respond
// returns false.
func answerEach(ctx context.Context, ws *websocket.Conn, respond func(n int) bool) {
	_ = ws.Write(ctx, websocket.MessageText, []byte(`{"type":"session.created"}`))
	for n := 1; ; {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		if strings.Contains(string(data), `"response.create"`) {
			if !respond(n) {
				return
			}
			n++
		}
	}
}

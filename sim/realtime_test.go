package sim

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func rtServer(t *testing.T, key string) string {
	t.Helper()
	s := New(Profile{TTFT: Fixed(0), ITL: Fixed(0), Tokens: 3}, 1)
	s.APIKey = key
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/realtime"
}

// rtClient is a test's Realtime session.
type rtClient struct {
	t  *testing.T
	ws *websocket.Conn
}

// dialRT connects and reads session.created. Real clock: a dial and each
// read have 10 s, which the sessions of these tests meet at load average
// 28 on 2 cores in at most 0.01 s a test (8 of 8 runs, 3 with -race,
// 2026-12-04).
func dialRT(t *testing.T, url string, opts *websocket.DialOptions) *rtClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.CloseNow() })
	c := &rtClient{t: t, ws: ws}
	if ev := c.next(); ev["type"] != "session.created" {
		t.Fatalf("first event %v", ev)
	}
	return c
}

func (c *rtClient) say(v map[string]any) {
	b, _ := json.Marshal(v)
	if err := c.ws.Write(context.Background(), websocket.MessageText, b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rtClient) next() map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		c.t.Fatalf("%v: %s", err, b)
	}
	return v
}

// until reads events up to one of type typ, and returns their types and
// the last event.
func (c *rtClient) until(typ string) ([]string, map[string]any) {
	var types []string
	for {
		ev := c.next()
		types = append(types, ev["type"].(string))
		if ev["type"] == typ {
			return types, ev
		}
	}
}

func TestRealtimeRefusals(t *testing.T) {
	t.Parallel()
	url := rtServer(t, "sk-right")
	httpURL := "http" + strings.TrimPrefix(url, "ws")
	for _, tt := range []struct {
		name, url string
		header    http.Header
		status    int
		want      string
	}{
		{"not an upgrade", httpURL + "?model=m", http.Header{"Authorization": {"Bearer sk-right"}}, 426, "connect with Upgrade: websocket"},
		{"no model", httpURL, http.Header{"Authorization": {"Bearer sk-right"}}, 400, "Missing required parameter: 'model'."},
		{"wrong key", httpURL + "?model=m", http.Header{"Authorization": {"Bearer sk-wrong"}}, 401, "Incorrect API key provided: sk-wrong."},
	} {
		req, _ := http.NewRequest("GET", tt.url, nil)
		req.Header = tt.header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error struct{ Message string } `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || !strings.Contains(body.Error.Message, tt.want) {
			t.Errorf("%s: %d %q, want %d %q", tt.name, resp.StatusCode, body.Error.Message, tt.status, tt.want)
		}
	}
	// A browser's key travels as a subprotocol; "realtime" is chosen.
	ctx := context.Background()
	ws, resp, err := websocket.Dial(ctx, url+"?model=m", &websocket.DialOptions{Subprotocols: []string{"realtime", "openai-insecure-api-key.sk-right"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if got := resp.Header.Get("Sec-WebSocket-Protocol"); got != "realtime" {
		t.Errorf("subprotocol %q, want realtime", got)
	}
}

// A session's events in the API's order; the answer joins the
// conversation until the client deletes it.
func TestRealtimeSession(t *testing.T) {
	t.Parallel()
	c := dialRT(t, rtServer(t, "")+"?model=m", nil)
	c.say(map[string]any{"type": "session.update", "session": map[string]any{"type": "realtime", "instructions": "Be brief.", "output_modalities": []string{"text"}}})
	if _, ev := c.until("session.updated"); ev["session"].(map[string]any)["instructions"] != "Be brief." {
		t.Errorf("session.updated %v", ev)
	}
	c.say(map[string]any{"type": "conversation.item.create", "item": map[string]any{"type": "message", "role": "user",
		"content": []any{map[string]any{"type": "input_text", "text": "hello there"}}}})
	_, added := c.until("conversation.item.added")
	user := added["item"].(map[string]any)["id"].(string)
	c.until("conversation.item.done")
	c.say(map[string]any{"type": "response.create", "response": map[string]any{}})
	types, done := c.until("response.done")
	want := []string{"response.created", "rate_limits.updated", "response.output_item.added", "conversation.item.added", "response.content_part.added",
		"response.output_text.delta", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done", "conversation.item.done", "response.done"}
	if !slices.Equal(types, want) {
		t.Errorf("events %v,\nwant %v", types, want)
	}
	prompt := func(done map[string]any) float64 {
		return done["response"].(map[string]any)["usage"].(map[string]any)["input_tokens"].(float64)
	}
	first := prompt(done)
	c.say(map[string]any{"type": "response.create"})
	if _, again := c.until("response.done"); prompt(again) <= first {
		t.Errorf("the second answer's input %v, the first's %v: the answer did not join the conversation", prompt(again), first)
	}
	c.say(map[string]any{"type": "conversation.item.delete", "item_id": user})
	if _, ev := c.until("conversation.item.deleted"); ev["item_id"] != user {
		t.Errorf("deleted %v", ev)
	}
	c.say(map[string]any{"type": "conversation.item.delete", "item_id": user, "event_id": "ev-1"})
	c.say(map[string]any{"type": "input_audio_buffer.append", "audio": "AAAA", "event_id": "ev-2"})
	for _, id := range []string{"ev-1", "ev-2"} {
		if _, ev := c.until("error"); ev["error"].(map[string]any)["event_id"] != id {
			t.Errorf("error %v, want one about %s", ev, id)
		}
	}
}

// An audio answer streams 50 ms of audio a delta, each with its transcript.
func TestRealtimeAudioSession(t *testing.T) {
	t.Parallel()
	c := dialRT(t, rtServer(t, "")+"?model=m", nil)
	c.say(map[string]any{"type": "session.update", "session": map[string]any{"output_modalities": []string{"audio"}}})
	c.say(map[string]any{"type": "response.create"})
	types, done := c.until("response.done")
	deltas := 0
	for _, typ := range types {
		if typ == "response.output_audio.delta" {
			deltas++
		}
	}
	usage := done["response"].(map[string]any)["usage"].(map[string]any)
	if deltas != 3 || !slices.Contains(types, "response.output_audio_transcript.delta") || usage["output_token_details"].(map[string]any)["audio_tokens"] != 3.0 {
		t.Errorf("%d audio deltas, events %v, usage %v", deltas, types, usage)
	}
	if len(audioChunk) != 3200 {
		t.Errorf("an audio delta is %d base64 characters, want 3200 (2400 bytes, 50 ms)", len(audioChunk))
	}
}

package sim

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/internal/clock"
)

// The OpenAI Realtime API (GA) over WebSocket, on GET /v1/realtime?model=M.
// The upgrade takes the profile's header delay and answers 101 with the
// subprotocol "realtime" when the client offers it; a missing model, a
// request that is not an upgrade, or a wrong key (Authorization: Bearer, or
// the browser's "openai-insecure-api-key." subprotocol) is refused with the
// API's JSON error. Then session.created, and per client event: session.update
// (instructions, output_modalities text or audio) → session.updated;
// conversation.item.create → conversation.item.added and .done;
// conversation.item.delete → conversation.item.deleted; response.create → a
// response drawn from the profile, like every API's: response.created,
// rate_limits.updated, response.output_item.added, conversation.item.added,
// response.content_part.added, the deltas (text; or audio, 50 ms of silence
// each, with its transcript), their .done events and response.done with
// the usage. Its TTFT is from the arrival of response.create. Faults: an
// HTTP error is an error event instead of the response; truncation closes
// the WebSocket mid-response (1011), a mid-line cut drops the connection
// without a close frame, a malformed event is a message of invalid JSON, an
// in-stream error an error event. The answer joins the conversation, as
// the API's does; a client that wants an empty conversation deletes it.

const apiRealtime api = "realtime"

func init() {
	registerAPI(simAPI{
		name: apiRealtime, order: 80, about: "OpenAI Realtime API, WebSocket", at: "base_url %[3]s://%[1]s/v1",
		match: isRealtime,
		serve: (*Server).realtime,
	})
}

// audioChunk is the audio of one delta: 50 ms of silence, 24 kHz 16-bit
// mono PCM, base64.
var audioChunk = base64.StdEncoding.EncodeToString(make([]byte, 2400))

func isRealtime(r *http.Request) bool { return r.URL.Path == "/v1/realtime" }

// realtime serves one Realtime connection.
func (s *Server) realtime(w http.ResponseWriter, r *http.Request) {
	clk := clock.Or(s.Clock)
	start := clk.Now()
	model := r.URL.Query().Get("model")
	p := s.served(w, model)
	if !clk.Until(r.Context(), start.Add(time.Duration(float64(p.HeaderDelay)*p.Speed.FactorAt(start)))) {
		return
	}
	switch got := realtimeKey(r); {
	case s.APIKey != "" && got != s.APIKey:
		writeAPIError(w, apiRealtime, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided: "+got+".", "")
		return
	case model == "":
		writeAPIError(w, apiRealtime, http.StatusBadRequest, "invalid_request_error", "Missing required parameter: 'model'.", "")
		return
	case !strings.EqualFold(r.Header.Get("Upgrade"), "websocket"):
		writeAPIError(w, apiRealtime, http.StatusUpgradeRequired, "invalid_request_error", "The Realtime API is a WebSocket: connect with Upgrade: websocket to wss://HOST/v1/realtime?model=MODEL.", "")
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"realtime"}, InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ws.SetReadLimit(16 << 20)
	c := &rtConn{s: s, clk: clk, ws: ws, model: model, id: s.sessions.Add(1)}
	c.run()
}

// realtimeKey is the key a Realtime connection carries: a Bearer token, or
// a browser's "openai-insecure-api-key.KEY" subprotocol.
func realtimeKey(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		return strings.TrimPrefix(h, "Bearer ")
	}
	for _, p := range strings.Split(r.Header.Get("Sec-WebSocket-Protocol"), ",") {
		if k, ok := strings.CutPrefix(strings.TrimSpace(p), "openai-insecure-api-key."); ok {
			return k
		}
	}
	return ""
}

// rtConn is one Realtime session: its settings and conversation.
type rtConn struct {
	s     *Server
	clk   clock.Clock
	ws    *websocket.Conn
	ctx   context.Context
	model string
	id    uint64
	seq   int // server events sent
	items int // items created

	instructions string
	audio        bool
	conv         []rtItem
	err          error
	hold         [][]byte // a buffered response's messages, until its end
}

// rtItem is a message of the conversation.
type rtItem struct {
	id   string
	raw  json.RawMessage
	text string
}

// clientEvent is a message from the client and when it arrived.
type clientEvent struct {
	at   time.Time
	data []byte
}

// run says session.created, then handles the client's events in order
// until the connection ends; a reader keeps reading meanwhile, so that a
// client gone mid-response stops the response at its next wait.
func (c *rtConn) run() {
	ctx, cancel := context.WithCancel(context.Background())
	c.ctx = ctx
	in := make(chan clientEvent, 64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(in)
		defer cancel()
		for {
			_, data, err := c.ws.Read(ctx)
			if err != nil {
				return
			}
			select {
			case in <- clientEvent{at: c.clk.Now(), data: data}:
			case <-ctx.Done():
				return
			}
		}
	}()
	c.send(map[string]any{"type": "session.created", "session": c.session()})
	for ev := range in {
		if !c.handle(ev) {
			break
		}
	}
	_ = c.ws.CloseNow()
	cancel()
	<-done
}

func (c *rtConn) session() map[string]any {
	modality := "text"
	if c.audio {
		modality = "audio"
	}
	return map[string]any{"type": "realtime", "object": "realtime.session", "id": fmt.Sprintf("sess_sim_%d", c.id), "model": c.model,
		"output_modalities": []string{modality}, "instructions": c.instructions, "max_output_tokens": "inf"}
}

// handle answers one client event; false ends the connection.
func (c *rtConn) handle(ev clientEvent) bool {
	var v struct {
		Type     string          `json:"type"`
		EventID  string          `json:"event_id"`
		Session  json.RawMessage `json:"session"`
		Item     json.RawMessage `json:"item"`
		ItemID   string          `json:"item_id"`
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal(ev.data, &v); err != nil {
		c.fail("invalid_json", "We could not parse the JSON body of your message: "+err.Error(), "")
		return c.err == nil
	}
	switch v.Type {
	case "session.update":
		c.update(v.Session, v.EventID)
	case "conversation.item.create":
		c.create(v.Item, v.EventID)
	case "conversation.item.delete":
		c.remove(v.ItemID, v.EventID)
	case "response.create":
		return c.respond(ev.at, v.Response, v.EventID)
	case "response.cancel":
		c.fail("response_cancel_not_active", "Cancellation failed: no active response found.", v.EventID)
	default:
		c.fail("invalid_value", fmt.Sprintf("Invalid value: '%s'. The simulator takes session.update, conversation.item.create, conversation.item.delete, response.create and response.cancel (no audio input).", v.Type), v.EventID)
	}
	return c.err == nil
}

// send writes a server event, numbered.
func (c *rtConn) send(ev map[string]any) bool {
	c.seq++
	ev["event_id"] = fmt.Sprintf("event_sim_%d_%d", c.id, c.seq)
	b, _ := json.Marshal(ev)
	return c.write(b)
}

// write sends one message (or holds it, in a buffered response).
func (c *rtConn) write(b []byte) bool {
	switch {
	case c.err != nil:
	case c.hold != nil:
		c.hold = append(c.hold, b)
	default:
		c.err = c.ws.Write(c.ctx, websocket.MessageText, b)
	}
	return c.err == nil
}

// fail sends an error event about the client's event eventID.
func (c *rtConn) fail(code, msg, eventID string) {
	e := map[string]any{"type": "invalid_request_error", "code": code, "message": msg, "param": nil, "event_id": nil}
	if eventID != "" {
		e["event_id"] = eventID
	}
	c.send(map[string]any{"type": "error", "error": e})
}

// update applies session.update: instructions and the output modality.
func (c *rtConn) update(raw json.RawMessage, eventID string) {
	var v struct {
		Instructions     *string  `json:"instructions"`
		OutputModalities []string `json:"output_modalities"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		c.fail("invalid_value", "Invalid session: "+err.Error(), eventID)
		return
	}
	if v.OutputModalities != nil {
		audio, ok := modality(v.OutputModalities)
		if !ok {
			c.fail("invalid_value", fmt.Sprintf("Invalid output_modalities %q: ['text'] or ['audio'] (audio comes with its transcript).", v.OutputModalities), eventID)
			return
		}
		c.audio = audio
	}
	if v.Instructions != nil {
		c.instructions = *v.Instructions
	}
	c.send(map[string]any{"type": "session.updated", "session": c.session()})
}

// modality reads output_modalities: audio or text, one of them.
func modality(m []string) (audio, ok bool) {
	if len(m) != 1 || m[0] != "text" && m[0] != "audio" {
		return false, false
	}
	return m[0] == "audio", true
}

// create adds a message to the conversation.
func (c *rtConn) create(raw json.RawMessage, eventID string) {
	var it struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Role    string `json:"role"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &it); err != nil || it.Type != "message" || (it.Role != "user" && it.Role != "assistant" && it.Role != "system") {
		c.fail("invalid_value", "Invalid item: the simulator takes messages {type: message, role: user|assistant|system, content: [{type: input_text|output_text, text}]}.", eventID)
		return
	}
	c.items++
	if it.ID == "" {
		it.ID = fmt.Sprintf("item_sim_%d_%d", c.id, c.items)
	}
	var text []string
	for _, part := range it.Content {
		text = append(text, part.Text)
	}
	item := map[string]any{"id": it.ID, "object": "realtime.item", "type": "message", "role": it.Role, "status": "completed", "content": it.Content}
	c.add(rtItem{id: it.ID, raw: raw, text: strings.Join(text, " ")}, item)
}

// add appends an item to the conversation and says so.
func (c *rtConn) add(it rtItem, item map[string]any) {
	var prev any
	if n := len(c.conv); n > 0 {
		prev = c.conv[n-1].id
	}
	c.conv = append(c.conv, it)
	c.send(map[string]any{"type": "conversation.item.added", "previous_item_id": prev, "item": item})
	c.send(map[string]any{"type": "conversation.item.done", "previous_item_id": prev, "item": item})
}

// remove deletes an item of the conversation.
func (c *rtConn) remove(id, eventID string) {
	for i, it := range c.conv {
		if it.id == id {
			c.conv = append(c.conv[:i], c.conv[i+1:]...)
			c.send(map[string]any{"type": "conversation.item.deleted", "item_id": id})
			return
		}
	}
	c.fail("item_not_found", fmt.Sprintf("Error deleting item: the item with id '%s' does not exist.", id), eventID)
}

// respond plans a response to the conversation, as every API's request is
// planned (one step, text only: no reasoning, no tool calls), and streams
// it; false ends the connection (a fault closed it, or the client left).
func (c *rtConn) respond(at time.Time, raw json.RawMessage, eventID string) bool {
	var v struct {
		MaxOutputTokens  any      `json:"max_output_tokens"`
		OutputModalities []string `json:"output_modalities"`
	}
	_ = json.Unmarshal(raw, &v)
	audio := c.audio
	if v.OutputModalities != nil {
		var ok bool
		if audio, ok = modality(v.OutputModalities); !ok {
			c.fail("invalid_value", fmt.Sprintf("Invalid output_modalities %q: ['text'] or ['audio'].", v.OutputModalities), eventID)
			return c.err == nil
		}
	}
	q := request{model: c.model, includeUsage: true}
	if n, ok := v.MaxOutputTokens.(float64); ok {
		q.maxTokens = int(n)
	}
	cv := newConvo(&q, apiRealtime, nil)
	if c.instructions != "" {
		cv.add(jsonOf(c.instructions), c.instructions, false)
	}
	for _, it := range c.conv {
		cv.add(it.raw, it.text, false)
	}
	p := c.s.profileFor(c.model)
	p.Quirks.ReasoningTokens, p.Quirks.ToolCall, p.Quirks.TokensPerEvent = 0, false, max(p.Quirks.TokensPerEvent, 1)
	n := c.s.requests.Add(1)
	pl := p.draw(rand.New(rand.NewPCG(c.s.Seed, n)), q, p.Speed.FactorAt(at))
	rs := response{start: at, api: apiRealtime, p: p, q: q, n: n, steps: []step{{}}}
	rs.u.prompt = q.promptTokens
	rs.u.cached, rs.remember = c.s.cacheOf(p, q)
	pl.ttft = p.promptTTFT(&pl, rs.u.prompt, rs.u.cached)
	rs.pl = pl
	rs.events = pl.timeline(p, rs.steps, false)
	rs.finish, rs.u.output = p.outcome(q, pl, step{})
	return (&rtResponse{c: c, rs: rs, audio: audio, id: fmt.Sprintf("resp_sim_%d", n), item: fmt.Sprintf("item_sim_%d_a%d", c.id, n)}).stream()
}

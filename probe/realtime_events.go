package probe

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/coder/websocket"

	"github.com/latgate/latgate/internal/redact"
)

// realtimeDecoder decodes the Realtime API's server events (GA names, and
// the beta names of the deltas). Output is response.output_text.delta, or
// with audio response.output_audio.delta, whose size is its audio bytes
// (counted from the base64 length, never decoded); the other kind of delta
// and the audio transcript are not output. response.done ends the answer
// with its status and usage; an error event is the provider's error. It
// remembers the conversation items the request added (its messages and
// the answer, to delete them before the connection is reused) and counts
// the events of types it does not know, which it ignores.
type realtimeDecoder struct {
	audio bool
	// items are the ids of the conversation items the request added, at
	// most maxItems of at most maxItemID bytes; lost: an id was not kept
	// (too many, too long), so the connection cannot be reset for reuse.
	items []string
	seen  map[string]struct{}
	lost  bool
	// unknown counts the events of unknown types, first names one;
	// other counts the deltas of the modality not asked for.
	unknown, other int
	first          string
	// ended: response.done came (a hint explains only a finished answer).
	ended bool
	// response is this request's response id, from response.created; an
	// event of another response (left over on a reused connection) is not
	// this request's, and stale counts them.
	response string
	stale    int
}

// A request adds its messages and its answer to the conversation: a few
// items, with ids such as "item_CmBJnVy2bWbZgnHcVXJKn" (OpenAI's are 26
// bytes). A server that announces more, or longer ones, gets the
// connection closed rather than reset.
const (
	maxItems  = 64
	maxItemID = 256
)

// item keeps the id of a conversation item the request added.
func (d *realtimeDecoder) item(id string) {
	if _, ok := d.seen[id]; ok {
		return
	}
	if len(id) > maxItemID || len(d.items) == maxItems {
		d.lost = true
		return
	}
	if d.seen == nil {
		d.seen = map[string]struct{}{}
	}
	d.seen[id] = struct{}{}
	d.items = append(d.items, id)
}

// realtimeEvent is the part of any server event the decoder reads.
type realtimeEvent struct {
	Type       string `json:"type"`
	Delta      string `json:"delta"`
	ResponseID string `json:"response_id"`
	Item       *struct {
		ID string `json:"id"`
	} `json:"item"`
	Error    *realtimeErr `json:"error"`
	Response *struct {
		ID            string `json:"id"`
		Status        string `json:"status"`
		StatusDetails *struct {
			Reason string       `json:"reason"`
			Error  *realtimeErr `json:"error"`
		} `json:"status_details"`
		Usage *struct {
			InputTokens       int `json:"input_tokens"`
			OutputTokens      int `json:"output_tokens"`
			InputTokenDetails struct {
				CachedTokens int `json:"cached_tokens"`
			} `json:"input_token_details"`
		} `json:"usage"`
	} `json:"response"`
}

// realtimeErr is an error event's error, or a failed response's.
type realtimeErr struct {
	Type    string `json:"type"`
	Code    any    `json:"code"`
	Message string `json:"message"`
}

func (d *realtimeDecoder) decode(f frame) (event, error) {
	var e event
	var v realtimeEvent
	if err := json.Unmarshal(f.Data, &v); err != nil {
		return e, err
	}
	if d.stranger(v) {
		d.stale++
		e.skip = true
		return e, nil
	}
	switch v.Type {
	case "response.output_text.delta", "response.text.delta":
		if d.audio {
			d.other++
			break
		}
		e.content = len(v.Delta) // its text is not kept: a Realtime request is no session
	case "response.output_audio.delta", "response.audio.delta":
		if !d.audio {
			d.other++
			break
		}
		e.content = base64Len(v.Delta)
	case "response.done":
		d.done(v, &e)
	case "error":
		e.err = realtimeError(v.Error, f.Data)
	case "conversation.item.added", "conversation.item.created", "response.output_item.added":
		if v.Item != nil && v.Item.ID != "" {
			d.item(v.Item.ID)
		}
	default:
		if !knownRealtime[v.Type] {
			e.skip = true // counted, not kept: a server can send them without end
			d.unknown++
			if d.first == "" {
				d.first = bound(v.Type)
			}
		}
	}
	return e, nil
}

// stranger reports whether an event belongs to a response other than
// this request's: it names a response (deltas by response_id,
// response.created and response.done by response.id) that is not the one
// response.created announced, or names one before that. An event that
// names none is taken as this request's (servers that send no ids).
func (d *realtimeDecoder) stranger(v realtimeEvent) bool {
	id := v.ResponseID
	if v.Response != nil && v.Response.ID != "" {
		id = v.Response.ID
	}
	if v.Type == "response.created" && d.response == "" {
		d.response = id
		return false
	}
	return id != "" && id != d.response
}

// done reads response.done: the end, its status (completed; incomplete
// with a reason such as max_output_tokens, a proper end; failed and
// cancelled, the provider's error) and the usage.
func (d *realtimeDecoder) done(v realtimeEvent, e *event) {
	e.done, e.finish, d.ended = true, "completed", true
	r := v.Response
	if r == nil {
		return
	}
	var reason string
	var rerr *realtimeErr
	if sd := r.StatusDetails; sd != nil {
		reason, rerr = sd.Reason, sd.Error
	}
	switch r.Status {
	case "failed":
		e.err = "response.done with status failed"
		if rerr != nil {
			e.err += ": " + realtimeError(rerr, nil)
		}
	case "cancelled":
		e.err = "response.done with status cancelled"
		if reason != "" {
			e.err += " (" + reason + ")"
		}
	case "incomplete":
		e.finish = "incomplete"
		if reason != "" {
			e.finish = reason
		}
	}
	if u := r.Usage; u != nil {
		e.usage = &usage{prompt: u.InputTokens, output: u.OutputTokens, cached: u.InputTokenDetails.CachedTokens}
	}
}

// hint explains a finished answer without output: deltas of the other
// modality, or events of unknown types.
func (d *realtimeDecoder) hint(hide *redact.Set) string {
	if !d.ended {
		return ""
	}
	var parts []string
	if d.other > 0 {
		asked, got := "text (response.output_text.delta)", "audio (response.output_audio.delta)"
		if d.audio {
			asked, got = got, asked
		}
		parts = append(parts, fmt.Sprintf("latgate asked for %s and the server sent %d deltas of %s", asked, d.other, got))
	}
	if d.unknown > 0 {
		parts = append(parts, fmt.Sprintf("%d events of types latgate does not know (the first: %s)", d.unknown, hide.Clip(d.first, 60)))
	}
	return strings.Join(parts, "; ")
}

// realtimeError is the message of an error object: "message [code]", or
// its type; the raw event when it has neither.
func realtimeError(e *realtimeErr, raw []byte) string {
	if e == nil {
		return errorText(nil, raw)
	}
	msg := e.Message
	if msg == "" {
		msg = e.Type
	}
	if c, ok := e.Code.(string); ok && c != "" {
		msg += " [" + c + "]"
	} else if e.Type != "" && e.Message != "" {
		msg += " [" + e.Type + "]"
	}
	return bound(msg)
}

// base64Len is the number of bytes base64 text s encodes, without decoding
// it.
func base64Len(s string) int {
	pad := len(s) - len(strings.TrimRight(s, "="))
	return max(0, len(s)*3/4-pad)
}

// knownRealtime are the server events of the Realtime API (GA, and the
// beta's renamed ones) that carry no output.
var knownRealtime = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range strings.Fields(`session.created session.updated conversation.created
		conversation.item.done conversation.item.deleted conversation.item.retrieved conversation.item.truncated
		conversation.item.input_audio_transcription.completed conversation.item.input_audio_transcription.delta
		conversation.item.input_audio_transcription.failed conversation.item.input_audio_transcription.segment
		input_audio_buffer.cleared input_audio_buffer.committed input_audio_buffer.speech_started
		input_audio_buffer.speech_stopped input_audio_buffer.timeout_triggered input_audio_buffer.dtmf_event_received
		output_audio_buffer.started output_audio_buffer.stopped output_audio_buffer.cleared rate_limits.updated
		response.created response.output_item.done response.content_part.added response.content_part.done
		response.output_text.done response.output_audio.done response.output_audio_transcript.delta
		response.output_audio_transcript.done response.function_call_arguments.delta response.function_call_arguments.done
		response.mcp_call_arguments.delta response.mcp_call_arguments.done response.mcp_call.in_progress
		response.mcp_call.completed response.mcp_call.failed mcp_list_tools.in_progress mcp_list_tools.completed
		mcp_list_tools.failed response.text.done response.audio.done response.audio_transcript.delta
		response.audio_transcript.done transcription_session.updated`) {
		m[t] = true
	}
	return m
}()

// Sockets keeps open Realtime connections between requests, as an HTTP
// transport keeps idle keep-alive connections: a request takes an idle
// connection to its endpoint (the same URL, key and headers) when there is
// one, and gives it back after a proper response.done, once the items it
// added to the conversation are deleted. A Prober without Sockets opens a
// connection for every request (cold connections). Close it after the run.
type Sockets struct {
	mu     sync.Mutex
	idle   map[string][]*websocket.Conn
	closed bool
}

// NewSockets returns an empty pool.
func NewSockets() *Sockets { return &Sockets{idle: map[string][]*websocket.Conn{}} }

// take returns an idle connection for key, or nil.
func (s *Sockets) take(key string) *websocket.Conn {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.idle[key]
	if len(list) == 0 {
		return nil
	}
	ws := list[len(list)-1]
	s.idle[key] = list[:len(list)-1]
	return ws
}

// put keeps ws for key; false when the pool is closed.
func (s *Sockets) put(key string, ws *websocket.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.idle[key] = append(s.idle[key], ws)
	return true
}

// Close closes every idle connection; a connection given back later is
// closed instead of kept.
func (s *Sockets) Close() {
	s.mu.Lock()
	s.closed = true
	idle := s.idle
	s.idle = map[string][]*websocket.Conn{}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, list := range idle {
		for _, ws := range list {
			wg.Go(func() { _ = ws.Close(websocket.StatusNormalClosure, "") })
		}
	}
	wg.Wait()
}

// socketKey is what a connection is shared by: the URL, the key and the
// headers (it stays in memory, never written).
func socketKey(req Request) string {
	h := realtimeHeaders(req)
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(req.URL)
	for _, k := range keys {
		b.WriteString("\x00" + k + "\x00" + strings.Join(h[k], "\x00"))
	}
	return b.String()
}

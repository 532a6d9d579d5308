package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// rtResponse is one Realtime response being streamed.
type rtResponse struct {
	c     *rtConn
	rs    response
	audio bool
	id    string // the response's
	item  string // its message item's
	text  []string
}

// stream writes the response: its preamble, each output event at its
// time (with the plan's faults and stall), its end. It reports whether
// the connection goes on.
func (r *rtResponse) stream() bool {
	c, rs := r.c, r.rs
	if rs.pl.httpError {
		if !c.clk.Until(c.ctx, rs.start.Add(rs.pl.header)) {
			return false
		}
		status := rs.p.Faults.ErrorStatus
		if status == 0 {
			status = 500
		}
		c.send(map[string]any{"type": "error", "error": map[string]any{"type": "server_error", "code": "server_error",
			"message": fmt.Sprintf("The server is overloaded (simulated %d).", status), "param": nil, "event_id": nil}})
		return c.err == nil
	}
	if rs.p.Quirks.Buffered {
		c.hold = [][]byte{}
		defer r.release()
	}
	r.preamble()
	n := 0
	for _, e := range rs.events {
		if e.output {
			n++
		}
	}
	var stall time.Duration
	for i, e := range rs.events {
		if rs.pl.stall && i == rs.p.Faults.StallAfter {
			stall = rs.p.Faults.StallFor
		}
		if !c.clk.Until(c.ctx, rs.start.Add(e.at+stall)) {
			return false
		}
		if goOn, fault := r.fault(i, n); fault {
			return goOn
		}
		rs.prefilled()
		r.output(i, e)
	}
	rs.prefilled()
	r.end()
	return c.err == nil
}

// release sends a buffered response's messages at once.
func (r *rtResponse) release() {
	held := r.c.hold
	r.c.hold = nil
	for _, b := range held {
		r.c.write(b)
	}
}

func (r *rtResponse) kind() string {
	if r.audio {
		return "audio"
	}
	return "text"
}

func (r *rtResponse) object(status string, output []any) map[string]any {
	return map[string]any{"id": r.id, "object": "realtime.response", "status": status, "output": output,
		"conversation_id": fmt.Sprintf("conv_sim_%d", r.c.id), "output_modalities": []string{r.kind()}, "max_output_tokens": "inf"}
}

func (r *rtResponse) message(status string) map[string]any {
	content := []any{}
	if status == "completed" {
		part := map[string]any{"type": "output_text", "text": strings.Join(r.text, "")}
		if r.audio {
			part = map[string]any{"type": "output_audio", "transcript": strings.Join(r.text, "")}
		}
		content = append(content, part)
	}
	return map[string]any{"id": r.item, "object": "realtime.item", "type": "message", "role": "assistant", "status": status, "content": content}
}

// ofPart adds the part of every event about the message's content.
func (r *rtResponse) ofPart(ev map[string]any) map[string]any {
	ev["response_id"], ev["item_id"], ev["output_index"], ev["content_index"] = r.id, r.item, 0, 0
	return ev
}

// preamble is what comes before the first output: the response, the rate
// limits, the message item and its content part.
func (r *rtResponse) preamble() {
	c := r.c
	c.send(map[string]any{"type": "response.created", "response": r.object("in_progress", []any{})})
	c.send(map[string]any{"type": "rate_limits.updated", "rate_limits": []any{
		map[string]any{"name": "requests", "limit": 5000, "remaining": 4999, "reset_seconds": 0.012},
		map[string]any{"name": "tokens", "limit": 400000, "remaining": 399000, "reset_seconds": 0.15}}})
	c.send(map[string]any{"type": "response.output_item.added", "response_id": r.id, "output_index": 0, "item": r.message("in_progress")})
	var prev any
	if n := len(c.conv); n > 0 {
		prev = c.conv[n-1].id
	}
	c.send(map[string]any{"type": "conversation.item.added", "previous_item_id": prev, "item": r.message("in_progress")})
	part := map[string]any{"type": "text", "text": ""}
	if r.audio {
		part = map[string]any{"type": "audio", "transcript": ""}
	}
	c.send(r.ofPart(map[string]any{"type": "response.content_part.added", "part": part}))
}

// fault is the plan's fault at the i-th of n output events (halfway):
// whether it struck, and whether the connection goes on after it.
func (r *rtResponse) fault(i, n int) (goOn, struck bool) {
	c, pl := r.c, r.rs.pl
	if i != n/2 {
		return true, false
	}
	switch {
	case pl.truncate:
		r.release()
		_ = c.ws.Close(websocket.StatusInternalError, "simulated: the server closed the session mid-response")
		return false, true
	case pl.midLine:
		r.release()
		_ = c.ws.CloseNow()
		return false, true
	case pl.streamErr:
		c.send(map[string]any{"type": "error", "error": map[string]any{"type": "server_error", "code": "server_error",
			"message": "The server had an error while processing your request. Sorry about that!", "param": nil, "event_id": nil}})
		return c.err == nil, true
	case pl.malformed:
		c.write([]byte(`{"type":"response.output_text.delta","delta":`))
	}
	return true, false
}

// output writes one delta (and an audio delta's transcript), the first
// stamped with its send time when the profile says so.
func (r *rtResponse) output(i int, e outputEvent) {
	c := r.c
	r.text = append(r.text, e.text)
	ev := r.ofPart(map[string]any{"type": "response.output_text.delta", "delta": e.text})
	if r.audio {
		ev = r.ofPart(map[string]any{"type": "response.output_audio.delta", "delta": audioChunk})
	}
	if i == 0 && r.rs.p.Quirks.StampFirstOutput {
		ev["x_sim_first_output_unix_ns"] = c.clk.Now().UnixNano()
	}
	c.send(ev)
	if r.audio {
		c.send(r.ofPart(map[string]any{"type": "response.output_audio_transcript.delta", "delta": e.text}))
	}
}

// end closes the content part and the item, says response.done with the
// status and usage, and adds the answer to the conversation.
func (r *rtResponse) end() {
	c, rs := r.c, r.rs
	text := strings.Join(r.text, "")
	if r.audio {
		c.send(r.ofPart(map[string]any{"type": "response.output_audio.done"}))
		c.send(r.ofPart(map[string]any{"type": "response.output_audio_transcript.done", "transcript": text}))
		c.send(r.ofPart(map[string]any{"type": "response.content_part.done", "part": map[string]any{"type": "audio", "transcript": text}}))
	} else {
		c.send(r.ofPart(map[string]any{"type": "response.output_text.done", "text": text}))
		c.send(r.ofPart(map[string]any{"type": "response.content_part.done", "part": map[string]any{"type": "text", "text": text}}))
	}
	item := r.message("completed")
	c.send(map[string]any{"type": "response.output_item.done", "response_id": r.id, "output_index": 0, "item": item})
	c.conv = append(c.conv, rtItem{id: r.item, raw: jsonOf(item), text: text})
	status, details := "completed", any(nil)
	if rs.finish == "length" {
		status, details = "incomplete", map[string]any{"type": "incomplete", "reason": "max_output_tokens"}
	}
	resp := r.object(status, []any{item})
	resp["status_details"] = details
	if !rs.p.Quirks.NoUsage {
		resp["usage"] = r.usage()
	}
	c.send(map[string]any{"type": "conversation.item.done", "item": item})
	c.send(map[string]any{"type": "response.done", "response": resp})
}

// usage is the response's: its output tokens are audio tokens in an audio
// answer, text tokens otherwise.
func (r *rtResponse) usage() map[string]any {
	u := r.rs.u
	out := map[string]any{"text_tokens": u.output, "audio_tokens": 0}
	if r.audio {
		out = map[string]any{"text_tokens": 0, "audio_tokens": u.output}
	}
	return map[string]any{"total_tokens": u.prompt + u.output, "input_tokens": u.prompt, "output_tokens": u.output,
		"input_token_details":  map[string]any{"cached_tokens": u.cached, "text_tokens": u.prompt, "audio_tokens": 0, "image_tokens": 0},
		"output_token_details": out}
}

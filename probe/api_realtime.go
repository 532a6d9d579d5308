package probe

import (
	"context"
	"net/url"
	"strings"

	"github.com/latgate/latgate/apis"
)

// Realtime is the OpenAI Realtime API over WebSocket (realtime.go makes
// its requests).
const Realtime API = "realtime"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Realtime), Order: 80, Title: "the Realtime API",
			Keys: []string{apis.BaseURL, "audio"},
			Address: apis.Address{Key: apis.BaseURL, Example: "wss://api.openai.com/v1", Schemes: []string{"wss", "ws", "https", "http"},
				Said: "a ws(s) or http(s)", Path: "/realtime?model={model}", Ends: []string{"/realtime"}},
			NeedsModel: true, Auth: bearer,
			// No sessions: latgate does not drive tools or turns over a
			// WebSocket. The GA interface has no temperature.
			NoTemperature: true, MaxTokens: 4096,
		},
		url: func(t Target) string {
			return t.BaseURL + "/realtime?model=" + url.QueryEscape(t.Model)
		},
		body: func(p BodyParams) any { return realtimeBody(p) },
		do:   func(p *Prober, ctx context.Context, req Request) (Record, timeline) { return p.realtime(ctx, req) },
	})
}

// realtimeBody is a Realtime request's client events: session.update with
// the system and developer messages as its instructions (empty when there
// are none, so that a reused connection keeps no other scenario's) and the
// output modality, one conversation.item.create per other message, and
// response.create with the output-token limit.
func realtimeBody(p BodyParams) []any {
	var instructions []string
	var items []any
	for _, m := range p.Messages {
		if m.Role == "system" || m.Role == "developer" {
			instructions = append(instructions, m.Content)
			continue
		}
		part := "input_text"
		if m.Role == "assistant" {
			part = "output_text"
		}
		items = append(items, map[string]any{"type": "conversation.item.create", "item": map[string]any{
			"type": "message", "role": m.Role, "content": []any{map[string]any{"type": part, "text": m.Content}}}})
	}
	session := map[string]any{"type": "realtime", "instructions": strings.Join(instructions, "\n\n"), "output_modalities": []string{"text"}}
	if p.Audio {
		session["output_modalities"] = []string{"audio"}
		session["audio"] = map[string]any{"output": map[string]any{"format": map[string]any{"type": "audio/pcm", "rate": 24000}}}
	}
	response := map[string]any{}
	if p.MaxTokens > 0 {
		response["max_output_tokens"] = p.MaxTokens
	}
	events := append([]any{map[string]any{"type": "session.update", "session": session}}, items...)
	return append(events, map[string]any{"type": "response.create", "response": response})
}

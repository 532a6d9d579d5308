package probe

import (
	"encoding/json"
	"testing"
)

// TestToolConversationBodies: a session's second step carries the tools
// offered, the assistant's tool calls and each tool's result, in each
// API's own format (the formats of the providers' API references).
func TestToolConversationBodies(t *testing.T) {
	p := BodyParams{Model: "m", MaxTokens: 64,
		Tools: []ToolSpec{{Name: "lookup_order", Description: "Look an order up", Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)}},
		Messages: []Message{
			{Role: "system", Content: "Be brief."},
			{Role: "user", Content: "Where is order 42?"},
			{Role: "assistant", ToolCalls: []ToolCall{{ID: "call_1", Name: "lookup_order", Arguments: `{"id":"42"}`}}},
			{Role: "tool", ToolCallID: "call_1", Name: "lookup_order", Content: `{"status":"shipped"}`},
		}}
	for _, c := range []struct {
		api  API
		want string
	}{
		{Chat, `{"max_tokens":64,"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Where is order 42?"},` +
			`{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"id\":\"42\"}","name":"lookup_order"},"id":"call_1","type":"function"}]},` +
			`{"content":"{\"status\":\"shipped\"}","role":"tool","tool_call_id":"call_1"}],"model":"m","stream":true,"stream_options":{"include_usage":true},` +
			`"tools":[{"function":{"description":"Look an order up","name":"lookup_order","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},"type":"function"}]}`},
		{Responses, `{"input":[{"role":"system","content":"Be brief."},{"role":"user","content":"Where is order 42?"},` +
			`{"arguments":"{\"id\":\"42\"}","call_id":"call_1","name":"lookup_order","type":"function_call"},` +
			`{"call_id":"call_1","output":"{\"status\":\"shipped\"}","type":"function_call_output"}],"max_output_tokens":64,"model":"m","stream":true,` +
			`"tools":[{"description":"Look an order up","name":"lookup_order","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"type":"function"}]}`},
		{Anthropic, `{"max_tokens":64,"messages":[{"role":"user","content":"Where is order 42?"},` +
			`{"content":[{"id":"call_1","input":{"id":"42"},"name":"lookup_order","type":"tool_use"}],"role":"assistant"},` +
			`{"content":[{"content":"{\"status\":\"shipped\"}","tool_use_id":"call_1","type":"tool_result"}],"role":"user"}],"model":"m","stream":true,"system":"Be brief.",` +
			`"tools":[{"description":"Look an order up","input_schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]},"name":"lookup_order"}]}`},
		{Gemini, `{"contents":[{"role":"user","parts":[{"text":"Where is order 42?"}]},{"role":"model","parts":[{"functionCall":{"args":{"id":"42"},"name":"lookup_order"}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"lookup_order","response":{"status":"shipped"}}}]}],"generationConfig":{"maxOutputTokens":64},` +
			`"systemInstruction":{"parts":[{"text":"Be brief."}]},` +
			`"tools":[{"functionDeclarations":[{"description":"Look an order up","name":"lookup_order","parameters":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}}]}]}`},
		{AISDK, `{"messages":[{"id":"m1","parts":[{"text":"Be brief.","type":"text"}],"role":"system"},{"id":"m2","parts":[{"text":"Where is order 42?","type":"text"}],"role":"user"}]}`},
	} {
		got, err := Body(c.api, p)
		if err != nil || string(got) != c.want {
			t.Errorf("Body(%s):\n got %s (%v)\nwant %s", c.api, got, err, c.want)
		}
	}
	// An AI SDK route's own body: {{messages}} holds UI messages, as
	// useChat sends them, not the chat form a custom body's holds.
	tp := p
	tp.Template = map[string]any{"model": "agent", "messages": "{{messages}}"}
	if got, err := Body(AISDK, tp); err != nil || string(got) != `{"messages":[{"id":"m1","parts":[{"text":"Be brief.","type":"text"}],"role":"system"},{"id":"m2","parts":[{"text":"Where is order 42?","type":"text"}],"role":"user"}],"model":"agent"}` {
		t.Errorf("Body(ai-sdk) with a body: %s (%v)", got, err)
	}
	// Two results of one step share Anthropic's user message and Gemini's
	// content; a text result is wrapped for Gemini's object response.
	two := BodyParams{Model: "m", Messages: []Message{{Role: "user", Content: "q"},
		{Role: "assistant", Content: "Looking.", ToolCalls: []ToolCall{{ID: "a", Name: "x", Arguments: "{}"}, {ID: "b", Name: "y", Arguments: "not json"}}},
		{Role: "tool", ToolCallID: "a", Name: "x", Content: "plain"}, {Role: "tool", ToolCallID: "b", Name: "y", Content: "{}"}}}
	for api, want := range map[API]string{
		Anthropic: `{"max_tokens":1024,"messages":[{"role":"user","content":"q"},{"content":[{"text":"Looking.","type":"text"},{"id":"a","input":{},"name":"x","type":"tool_use"},{"id":"b","input":{},"name":"y","type":"tool_use"}],"role":"assistant"},` +
			`{"content":[{"content":"plain","tool_use_id":"a","type":"tool_result"},{"content":"{}","tool_use_id":"b","type":"tool_result"}],"role":"user"}],"model":"m","stream":true}`,
		Gemini: `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"Looking."},{"functionCall":{"args":{},"name":"x"}},{"functionCall":{"args":{},"name":"y"}}]},` +
			`{"role":"user","parts":[{"functionResponse":{"name":"x","response":{"result":"plain"}}},{"functionResponse":{"name":"y","response":{}}}]}]}`,
	} {
		if got, err := Body(api, two); err != nil || string(got) != want {
			t.Errorf("Body(%s), two calls:\n got %s (%v)\nwant %s", api, got, err, want)
		}
	}
}

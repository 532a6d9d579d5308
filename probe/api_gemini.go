package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/latgate/latgate/apis"
)

// Gemini is Google Gemini's streamGenerateContent, read as SSE.
const Gemini API = "gemini"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Gemini), Order: 40,
			Keys: []string{apis.BaseURL},
			Address: apis.Address{Key: apis.BaseURL, Default: "https://generativelanguage.googleapis.com/v1beta",
				Path: "/models/{model}:streamGenerateContent?alt=sse", Ends: []string{":streamGenerateContent", ":generateContent"}, Cut: "/models", Models: "/models"},
			NeedsModel: true, Auth: apis.Auth{Header: "x-goog-api-key"},
			Tools: apis.ClientTools, Turns: true,
			OTel: apis.OTel{Operation: "generate_content", Provider: "gcp.gemini"},
			Init: &apis.Init{KeyEnv: "GEMINI_API_KEY", Model: "gemini-2.0-flash"},
		},
		url: func(t Target) string {
			return t.BaseURL + "/models/" + url.PathEscape(t.Model) + ":streamGenerateContent?alt=sse"
		},
		body: func(p BodyParams) any { return geminiBody(p) },
		wire: func(Request) wire { return geminiWire },
		jsonInstead: func(string) (string, bool) {
			return "does the URL end in :streamGenerateContent?alt=sse?", false
		},
	})
}

// geminiWire is Gemini streamGenerateContent?alt=sse: every event is a
// GenerateContentResponse. Output is a part with non-empty text (thought
// or not; visible only without thought: true) or a function call; parts
// that carry only a thought signature are not output. usageMetadata holds
// the counts (output = candidates + thoughts). The stream ends at EOF after
// a finishReason; an error object is the provider's error.
var geminiWire = wire{framing: framingSSE, newDecoder: func() decoder { return &geminiDecoder{} }, ends: "a finishReason"}

// geminiDecoder numbers the function calls of an answer: each arrives
// whole, its arguments complete.
type geminiDecoder struct{ calls int }

func (d *geminiDecoder) decode(f frame) (event, error) {
	var e event
	data := bytes.TrimSpace(f.Data)
	if len(data) == 0 {
		return e, nil
	}
	var v struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					Text         string          `json:"text"`
					Thought      bool            `json:"thought"`
					FunctionCall json.RawMessage `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
		UsageMetadata *struct {
			PromptTokenCount        int `json:"promptTokenCount"`
			CandidatesTokenCount    int `json:"candidatesTokenCount"`
			ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
			CachedContentTokenCount int `json:"cachedContentTokenCount"`
		} `json:"usageMetadata"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return e, err
	}
	if len(v.Error) > 0 && string(v.Error) != "null" {
		e.err = geminiError(v.Error, data)
		return e, nil
	}
	for _, c := range v.Candidates {
		for _, p := range c.Content.Parts {
			switch {
			case p.Thought:
				e.reasoning += len(p.Text)
			default:
				e.content += len(p.Text)
				e.text += p.Text
			}
			if len(p.FunctionCall) > 0 && string(p.FunctionCall) != "null" {
				e.tool += len(p.FunctionCall)
				e.calls = append(e.calls, d.call(p.FunctionCall))
				e.callsDone++
			}
		}
		if c.FinishReason != "" && c.FinishReason != "FINISH_REASON_UNSPECIFIED" {
			e.finish = c.FinishReason
		}
	}
	if u := v.UsageMetadata; u != nil {
		e.usage = &usage{prompt: u.PromptTokenCount, output: u.CandidatesTokenCount + u.ThoughtsTokenCount,
			cached: u.CachedContentTokenCount, reasoning: u.ThoughtsTokenCount}
	}
	return e, nil
}

// call reads a functionCall part ({"name", "args", and an "id" in newer
// versions); a call without id gets one by its position.
func (d *geminiDecoder) call(raw json.RawMessage) callPart {
	var fc struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	}
	_ = json.Unmarshal(raw, &fc)
	c := callPart{index: d.calls, id: fc.ID, name: fc.Name, args: string(fc.Args)}
	if c.id == "" {
		c.id = fmt.Sprintf("call_%d", d.calls+1)
	}
	if c.args == "" || c.args == "null" {
		c.args = "{}"
	}
	d.calls++
	return c
}

// geminiError reads {"code":403,"message":…,"status":"PERMISSION_DENIED"}.
func geminiError(raw json.RawMessage, whole []byte) string {
	var g struct {
		Message string `json:"message"`
		Status  string `json:"status"`
	}
	if json.Unmarshal(raw, &g) == nil && g.Message != "" {
		if g.Status != "" {
			return bound(g.Message) + " [" + bound(g.Status) + "]"
		}
		return bound(g.Message)
	}
	return errorText(raw, whole)
}

// geminiBody is Gemini generateContent: roles user and model, a call as a
// functionCall part, its result as a functionResponse part (an object).
func geminiBody(p BodyParams) map[string]any {
	type content struct {
		Role  string           `json:"role,omitempty"`
		Parts []map[string]any `json:"parts"`
	}
	var system []map[string]any
	var contents []content
	for _, m := range p.Messages {
		switch {
		case m.Role == "system":
			system = append(system, map[string]any{"text": m.Content})
		case m.Role == "tool":
			part := map[string]any{"functionResponse": map[string]any{"name": m.Name, "response": responseObject(m.Content)}}
			if n := len(contents); n > 0 && contents[n-1].Role == "user" && isFunctionResponse(contents[n-1].Parts) {
				contents[n-1].Parts = append(contents[n-1].Parts, part)
				continue
			}
			contents = append(contents, content{Role: "user", Parts: []map[string]any{part}})
		case m.Role == "assistant":
			var parts []map[string]any
			if m.Content != "" || len(m.ToolCalls) == 0 {
				parts = append(parts, map[string]any{"text": m.Content})
			}
			for _, c := range m.ToolCalls {
				parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": argsObject(c.Arguments)}})
			}
			contents = append(contents, content{Role: "model", Parts: parts})
		default:
			contents = append(contents, content{Role: "user", Parts: []map[string]any{{"text": m.Content}}})
		}
	}
	b := map[string]any{"contents": contents}
	if len(system) > 0 {
		b["systemInstruction"] = content{Parts: system}
	}
	if len(p.Tools) > 0 {
		decls := make([]map[string]any, len(p.Tools))
		for i, t := range p.Tools {
			decls[i] = map[string]any{"name": t.Name, "description": t.Description, "parameters": schemaOf(t)}
		}
		b["tools"] = []map[string]any{{"functionDeclarations": decls}}
	}
	gen := map[string]any{}
	if p.MaxTokens > 0 {
		gen["maxOutputTokens"] = p.MaxTokens
	}
	putTemperature(gen, p.Temperature)
	if len(gen) > 0 {
		b["generationConfig"] = gen
	}
	return b
}

// responseObject is a tool result as Gemini's functionResponse.response, an
// object: the result itself when it is a JSON object, else {"result": …}.
func responseObject(result string) json.RawMessage {
	var m map[string]any
	if json.Unmarshal([]byte(result), &m) == nil && m != nil {
		return json.RawMessage(result)
	}
	b, _ := json.Marshal(map[string]any{"result": result})
	return b
}

func isFunctionResponse(parts []map[string]any) bool {
	if len(parts) == 0 {
		return false
	}
	_, ok := parts[len(parts)-1]["functionResponse"]
	return ok
}

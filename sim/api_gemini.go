package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

const apiGemini api = "gemini"

func init() {
	registerAPI(simAPI{
		name: apiGemini, order: 40, at: "base_url %[2]s://%[1]s/v1beta",
		match: func(r *http.Request) bool {
			return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1beta/models/") && strings.HasSuffix(r.URL.Path, ":streamGenerateContent")
		},
		key: func(r *http.Request) string {
			if k := r.Header.Get("x-goog-api-key"); k != "" {
				return k
			}
			return r.URL.Query().Get("key")
		},
		parse:   parseGemini,
		encoder: func(response) encoder { return &geminiEnc{} },
		errorBody: func(status int, _, msg string) any {
			return map[string]any{"error": map[string]any{"code": status, "message": msg, "status": strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))}}
		},
		wholeCalls: true,
	})
}

// parseGemini reads a Gemini body; the model is in the path and streaming
// is ?alt=sse. Contents hold text, functionCall and functionResponse parts;
// tools are [{functionDeclarations: [{name}]}] (snake_case accepted too).
func parseGemini(r *http.Request, body io.Reader) (request, error) {
	var q request
	var v struct {
		Contents          []json.RawMessage `json:"contents"`
		SystemInstruction json.RawMessage   `json:"systemInstruction"`
		GenerationConfig  struct {
			MaxOutputTokens int `json:"maxOutputTokens"`
		} `json:"generationConfig"`
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/v1beta/models/"), ":streamGenerateContent")
	q.maxTokens, q.includeUsage = v.GenerationConfig.MaxOutputTokens, true
	q.stream = r.URL.Query().Get("alt") == "sse"
	var tools []struct {
		Decls []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
		SnakeDecls []struct {
			Name string `json:"name"`
		} `json:"function_declarations"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		for _, d := range append(t.Decls, t.SnakeDecls...) {
			q.tools = appendName(q.tools, d.Name)
		}
	}
	c := newConvo(&q, apiGemini, v.Tools)
	if len(v.SystemInstruction) > 0 && string(v.SystemInstruction) != "null" {
		c.add(v.SystemInstruction, textOf(v.SystemInstruction), false)
	}
	for _, raw := range v.Contents {
		var m struct {
			Parts []map[string]json.RawMessage `json:"parts"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return q, err
		}
		results := false
		for _, part := range m.Parts {
			_, camel := part["functionResponse"]
			_, snake := part["function_response"]
			results = results || camel || snake
		}
		c.add(raw, textOf(raw), results)
	}
	return q, nil
}

// geminiEnc writes Gemini GenerateContentResponse chunks (alt=sse). Its
// preamble is a part carrying only a thought signature.
type geminiEnc struct{}

func geminiChunk(parts []map[string]any, finish string) map[string]any {
	c := map[string]any{"content": map[string]any{"parts": parts, "role": "model"}, "index": 0}
	if finish != "" {
		c["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{c}, "modelVersion": "sim"}
}

func (e *geminiEnc) preamble(sw *sseWriter) {
	sw.data(jsonOf(geminiChunk([]map[string]any{{"thoughtSignature": "CiQB0e2Kb3sim"}}, "")))
}

func (e *geminiEnc) output(sw *sseWriter, ev outputEvent) {
	part := map[string]any{"text": ev.text}
	switch ev.kind {
	case kindReasoning:
		part["thought"] = true
	case kindTool:
		// A call comes whole: its name and its arguments as an object.
		part = map[string]any{"functionCall": map[string]any{"name": ev.call.name, "args": argsObject(ev.text)}}
	}
	sw.data(jsonOf(geminiChunk([]map[string]any{part}, "")))
}

func (e *geminiEnc) end(sw *sseWriter, finish string, u counts, _ bool) {
	reason := map[string]string{"stop": "STOP", "length": "MAX_TOKENS", "tool_calls": "STOP"}[finish]
	c := geminiChunk([]map[string]any{{"text": ""}}, reason)
	c["usageMetadata"] = map[string]any{"promptTokenCount": u.prompt, "candidatesTokenCount": u.output - u.reasoning,
		"thoughtsTokenCount": u.reasoning, "cachedContentTokenCount": u.cached, "totalTokenCount": u.prompt + u.output}
	sw.data(jsonOf(c))
}

func (e *geminiEnc) fail(sw *sseWriter) {
	sw.data([]byte(`{"error":{"code":500,"message":"An internal error has occurred (simulated).","status":"INTERNAL"}}`))
}

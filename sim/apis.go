package sim

import (
	"bytes"
	"encoding/json"
	"hash"
	"hash/fnv"
	"io"
	"net/http"
	"strings"
)

// api is a wire API the simulator speaks.
type api string

const (
	apiChat      api = "chat"
	apiAzure     api = "azure"
	apiResponses api = "responses"
	apiAnthropic api = "anthropic"
	apiGemini    api = "gemini"
	apiOllama    api = "ollama" // Ollama's native /api/chat (NDJSON), for api: custom
	apiAISDK     api = "ai-sdk" // a Vercel AI SDK chat route (UI message stream), also on /api/chat
)

// route picks the API of a request from its method and path.
func route(r *http.Request) (api, bool) {
	if r.Method != http.MethodPost {
		return "", false
	}
	p := r.URL.Path
	switch {
	case p == "/v1/chat/completions":
		return apiChat, true
	case p == "/v1/responses":
		return apiResponses, true
	case p == "/v1/messages":
		return apiAnthropic, true
	case p == "/api/chat":
		return apiOllama, true
	case strings.HasPrefix(p, "/v1beta/models/") && strings.HasSuffix(p, ":streamGenerateContent"):
		return apiGemini, true
	case strings.HasPrefix(p, "/openai/deployments/") && strings.HasSuffix(p, "/chat/completions"):
		return apiAzure, true
	}
	return "", false
}

// request is what the simulator needs from any API's request body.
type request struct {
	model        string
	maxTokens    int
	stream       bool
	includeUsage bool
	promptTokens int
	// tools are the names of the function tools the request offers, in
	// order.
	tools []string
	// toolSteps is how many tool steps the conversation has answered: its
	// runs of consecutive tool results (one run per step, however many
	// calls the step made).
	toolSteps int
	// prefixes are, per message, the hash of the conversation up to and
	// including it, and its prompt tokens (PrefixCache).
	prefixes []prefix
	// aiSDK: a body of the AI SDK's useChat on /api/chat (UI messages with
	// parts), not Ollama's.
	aiSDK bool
}

// prefix is the start of a conversation: its hash and prompt tokens.
type prefix struct {
	hash   uint64
	tokens int
}

// convo reads a conversation message by message into a request: prompt
// tokens, tool steps answered, prefixes.
type convo struct {
	q         *request
	h         hash.Hash64
	inResults bool
}

// newConvo starts the conversation of q: what a prompt cache keys on before
// the messages (the API, the model, the tools offered).
func newConvo(q *request, a api, tools json.RawMessage) *convo {
	c := &convo{q: q, h: fnv.New64a()}
	_, _ = io.WriteString(c.h, string(a)+"\x00"+q.model+"\x00")
	c.h.Write(compact(tools))
	return c
}

// add reads one message: raw is its JSON, text what it says (its prompt
// tokens), toolResult whether it holds tool results.
func (c *convo) add(raw json.RawMessage, text string, toolResult bool) {
	c.q.promptTokens += promptWords(text)
	if toolResult && !c.inResults {
		c.q.toolSteps++
	}
	c.inResults = toolResult
	c.h.Write([]byte{0})
	c.h.Write(compact(raw))
	c.q.prefixes = append(c.q.prefixes, prefix{hash: c.h.Sum64(), tokens: c.q.promptTokens})
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// key is the API key the request carries in its API's header.
func key(a api, r *http.Request) string {
	switch a {
	case apiAnthropic:
		return r.Header.Get("x-api-key")
	case apiGemini:
		if k := r.Header.Get("x-goog-api-key"); k != "" {
			return k
		}
		return r.URL.Query().Get("key")
	case apiAzure:
		return r.Header.Get("api-key")
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// promptWords counts prompt tokens the simulator's way: words + 4 per
// message.
func promptWords(s string) int { return len(strings.Fields(s)) + 4 }

// textOf is what a message's content says, whatever its API's shape: a
// string, or blocks and parts with text, tool inputs and arguments (as
// JSON) and tool results.
func textOf(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	collectText(&b, v)
	return b.String()
}

func collectText(b *strings.Builder, v any) {
	switch t := v.(type) {
	case string:
		b.WriteString(t + " ")
	case []any:
		for _, x := range t {
			collectText(b, x)
		}
	case map[string]any:
		for _, k := range []string{"text", "content", "output", "arguments", "function", "parts", "functionCall", "function_call", "functionResponse", "function_response"} {
			if x, ok := t[k]; ok {
				collectText(b, x)
			}
		}
		for _, k := range []string{"input", "args", "response"} { // objects: their JSON
			if x, ok := t[k]; ok {
				b.WriteString(string(jsonOf(x)) + " ")
			}
		}
	}
}

// parse reads the request body of any API; a body on /api/chat is
// Ollama's or, with UI messages, the AI SDK's.
func parse(a api, r *http.Request) (request, error) {
	body := io.LimitReader(r.Body, 8<<20)
	switch a {
	case apiChat, apiAzure:
		return parseChat(a, r, body)
	case apiResponses:
		return parseResponses(body)
	case apiAnthropic:
		return parseAnthropic(body)
	case apiGemini:
		return parseGemini(r, body)
	case apiOllama:
		return parseLocalChat(body)
	}
	return request{}, nil
}

// chatBody is the part of an OpenAI chat completions (or Azure OpenAI)
// body the simulator reads. Both token limits are read: max_tokens, which
// most OpenAI-compatible servers still take, and max_completion_tokens.
type chatBody struct {
	Model         string `json:"model"`
	Stream        bool   `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
	Messages            []json.RawMessage `json:"messages"`
	Tools               json.RawMessage   `json:"tools"`
}

// parseChat reads an OpenAI chat completions (or Azure OpenAI) body: tools
// offered as {type: function, function: {name}}, an assistant's calls in
// tool_calls, their results as role tool messages.
func parseChat(a api, r *http.Request, body io.Reader) (request, error) {
	var q request
	var v chatBody
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream = v.Model, v.MaxCompletionTokens, v.Stream
	if q.maxTokens == 0 {
		q.maxTokens = v.MaxTokens
	}
	q.includeUsage = v.StreamOptions != nil && v.StreamOptions.IncludeUsage
	if a == apiAzure {
		// The deployment names the model.
		q.model = strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/openai/deployments/"), "/chat/completions")
	}
	var tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		q.tools = appendName(q.tools, t.Function.Name)
	}
	c := newConvo(&q, a, v.Tools)
	for _, raw := range v.Messages {
		var m struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls json.RawMessage `json:"tool_calls"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return q, err
		}
		c.add(raw, textOf(m.Content)+" "+textOf(m.ToolCalls), m.Role == "tool" || m.Role == "function")
	}
	return q, nil
}

func appendName(names []string, name string) []string {
	if name == "" {
		return names
	}
	return append(names, name)
}

// parseResponses reads an OpenAI Responses API body: instructions, an
// input that is a string or a list of items (messages, function_call and
// function_call_output items), function tools {type: function, name}.
func parseResponses(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model           string          `json:"model"`
		Instructions    json.RawMessage `json:"instructions"`
		Input           json.RawMessage `json:"input"`
		MaxOutputTokens int             `json:"max_output_tokens"`
		Stream          bool            `json:"stream"`
		Tools           json.RawMessage `json:"tools"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxOutputTokens, v.Stream, true
	var tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		if t.Type == "function" {
			q.tools = appendName(q.tools, t.Name)
		}
	}
	c := newConvo(&q, apiResponses, v.Tools)
	if len(v.Instructions) > 0 && string(v.Instructions) != "null" {
		c.add(v.Instructions, textOf(v.Instructions), false)
	}
	var items []json.RawMessage
	if json.Unmarshal(v.Input, &items) != nil {
		c.add(v.Input, textOf(v.Input), false)
		return q, nil
	}
	for _, raw := range items {
		var it struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(raw, &it)
		c.add(raw, textOf(raw), it.Type == "function_call_output")
	}
	return q, nil
}

// parseAnthropic reads an Anthropic Messages body: the system prompt,
// messages whose content is a string or blocks (text, tool_use, and
// tool_result in a user message), tools {name, input_schema}.
func parseAnthropic(body io.Reader) (request, error) {
	var q request
	var v struct {
		Model     string            `json:"model"`
		MaxTokens int               `json:"max_tokens"`
		Stream    bool              `json:"stream"`
		System    json.RawMessage   `json:"system"`
		Messages  []json.RawMessage `json:"messages"`
		Tools     json.RawMessage   `json:"tools"`
	}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.stream, q.includeUsage = v.Model, v.MaxTokens, v.Stream, true
	var tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(v.Tools, &tools)
	for _, t := range tools {
		if t.Type == "" || t.Type == "custom" { // not a server tool (web search, …)
			q.tools = appendName(q.tools, t.Name)
		}
	}
	c := newConvo(&q, apiAnthropic, v.Tools)
	if len(v.System) > 0 && string(v.System) != "null" {
		c.add(v.System, textOf(v.System), false)
	}
	for _, raw := range v.Messages {
		var m struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return q, err
		}
		var blocks []struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(m.Content, &blocks)
		results := false
		for _, b := range blocks {
			results = results || b.Type == "tool_result"
		}
		c.add(raw, textOf(m.Content), results)
	}
	return q, nil
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

// parseLocalChat reads a body on /api/chat: Ollama's (messages with
// content; it streams by default) or the AI SDK's useChat (UI messages
// with parts; useChat also sends a trigger).
func parseLocalChat(body io.Reader) (request, error) {
	var q request
	v := struct {
		Model    string            `json:"model"`
		Stream   *bool             `json:"stream"`
		Trigger  string            `json:"trigger"` // useChat's: submit-message, regenerate-message
		Messages []json.RawMessage `json:"messages"`
		Options  struct {
			NumPredict int `json:"num_predict"`
		} `json:"options"`
	}{}
	if err := json.NewDecoder(body).Decode(&v); err != nil {
		return q, err
	}
	q.model, q.maxTokens, q.includeUsage = v.Model, v.Options.NumPredict, true
	q.stream = v.Stream == nil || *v.Stream // Ollama streams by default; the AI SDK always does
	q.aiSDK = v.Trigger != ""
	a := apiOllama
	for _, raw := range v.Messages {
		var m struct {
			Parts json.RawMessage `json:"parts"`
		}
		_ = json.Unmarshal(raw, &m)
		q.aiSDK = q.aiSDK || len(m.Parts) > 0
	}
	if q.aiSDK {
		a, q.stream = apiAISDK, true
	}
	c := newConvo(&q, a, nil)
	for _, raw := range v.Messages {
		c.add(raw, textOf(raw), false)
	}
	return q, nil
}

// writeAPIError answers with status and the API's error body.
func writeAPIError(w http.ResponseWriter, a api, status int, typ, msg, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body any
	switch a {
	case apiAnthropic:
		body = map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	case apiGemini:
		body = map[string]any{"error": map[string]any{"code": status, "message": msg, "status": strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))}}
	case apiOllama:
		body = map[string]any{"error": msg}
	default:
		body = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	_ = json.NewEncoder(w).Encode(body)
}

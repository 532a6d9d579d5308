package suite

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// apiFields lists, per API, the endpoint keys beyond the common ones (name,
// api, model, api_key_env, headers). A key of another API is an error.
var apiFields = map[string][]string{
	"chat":      {"base_url"},
	"responses": {"base_url"},
	"anthropic": {"base_url"},
	"gemini":    {"base_url"},
	"azure":     {"base_url", "deployment", "api_version"},
	"custom":    {"url", "method", "body", "stream"},
	"ai-sdk":    {"url", "body"},
	"realtime":  {"base_url", "audio"},
}

// defaultBaseURL is the base URL of an API with one public host.
var defaultBaseURL = map[string]string{
	"anthropic": "https://api.anthropic.com",
	"gemini":    "https://generativelanguage.googleapis.com/v1beta",
}

// apiPath is what the prober appends to base_url, for the hint of a
// base_url that already ends in it.
var apiPath = map[string]string{
	"chat":      "/chat/completions",
	"responses": "/responses",
	"anthropic": "/v1/messages",
	"gemini":    "/models/{model}:streamGenerateContent?alt=sse",
	"azure":     "/chat/completions",
	"realtime":  "/realtime?model={model}",
}

func (p *parser) endpoint(i int, re rawEndpoint, seen map[string]bool, n int) Endpoint {
	ip := fmt.Sprintf("endpoints[%d]", i)
	line := p.line(ip)
	e := Endpoint{Name: re.Name, API: re.API, Model: re.Model, APIKeyEnv: re.APIKeyEnv, Line: line,
		Deployment: re.Deployment, APIVersion: re.APIVersion, Method: re.Method, Audio: re.Audio != nil && *re.Audio}
	if e.Name == "" {
		e.Name = fmt.Sprintf("endpoint-%d", i+1)
		if n == 1 {
			e.Name = "default"
		}
	}
	if seen[e.Name] {
		p.errf(line, "endpoint name %q is used twice", e.Name)
	}
	seen[e.Name] = true
	if e.API == "" {
		e.API = "chat"
	}
	allowed, ok := apiFields[e.API]
	if !ok {
		msg := fmt.Sprintf("endpoint %q: api: unknown API %q (valid: %s)", e.Name, e.API, strings.Join(APIs, ", "))
		if s := suggest(e.API, APIs); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		p.errf(p.line(ip+".api"), "%s", msg)
		return e
	}
	given := map[string]bool{"base_url": re.BaseURL != "", "deployment": re.Deployment != "", "api_version": re.APIVersion != "",
		"url": re.URL != "", "method": re.Method != "", "body": re.Body != nil, "stream": re.Stream != nil, "audio": re.Audio != nil}
	for _, k := range []string{"base_url", "deployment", "api_version", "url", "method", "body", "stream", "audio"} {
		if given[k] && !slices.Contains(allowed, k) {
			p.errf(p.line(ip+"."+k), "endpoint %q: %s is not a key of api %s (%s takes %s)", e.Name, k, e.API, e.API, strings.Join(allowed, ", "))
		}
	}
	switch e.API {
	case "custom":
		p.custom(ip, &e, re)
	case "ai-sdk":
		p.aiSDK(ip, &e, re)
	default:
		p.baseURL(ip, &e, re.BaseURL)
	}
	p.endpointModel(line, &e)
	p.endpointAuth(ip, &e, re)
	return e
}

// endpointModel checks what names the model: azure's deployment and API
// version (the deployment is the model), the model of the other APIs but
// custom (whose body names it).
func (p *parser) endpointModel(line int, e *Endpoint) {
	switch e.API {
	case "azure":
		if e.Deployment == "" {
			p.errf(line, "endpoint %q: api azure needs deployment (the model deployment's name)", e.Name)
		}
		if e.APIVersion == "" {
			p.errf(line, "endpoint %q: api azure needs api_version (such as 2024-10-21)", e.Name)
		}
		if e.Model == "" {
			e.Model = e.Deployment
		}
	case "custom", "ai-sdk": // the body (or the route itself) names the model
	default:
		if e.Model == "" {
			p.errf(line, "endpoint %q: model is required", e.Name)
		}
	}
}

// endpointAuth resolves an endpoint's key (api_key_env) and headers, with
// their ${VAR} references; header values from the environment are secrets.
func (p *parser) endpointAuth(ip string, e *Endpoint, re rawEndpoint) {
	if e.APIKeyEnv != "" && !envNameRE.MatchString(e.APIKeyEnv) {
		// Never echo it: it is often the key itself pasted in.
		p.errf(p.line(ip+".api_key_env"), "endpoint %q: api_key_env names the environment variable that holds the key (such as OPENAI_API_KEY), not the key itself", e.Name)
	} else if e.APIKeyEnv != "" && !p.opt.SkipKeys {
		e.APIKey = p.getenv(e.APIKeyEnv)
		if e.APIKey == "" {
			p.errf(p.line(ip+".api_key_env"), "endpoint %q: environment variable %s (api_key_env) is not set or is empty", e.Name, e.APIKeyEnv)
		}
	}
	if len(re.Headers) > 0 {
		e.Headers = map[string]string{}
		for k, v := range re.Headers {
			hp := ip + ".headers." + k
			if e.APIKeyEnv != "" && isAuthHeader(k) {
				p.errf(p.line(hp), "endpoint %q: set either api_key_env or a %s header, not both", e.Name, k)
			}
			val, secrets := p.expand(hp, e.Name, "headers."+k, v)
			e.Headers[k] = val
			if len(secrets) > 0 && val != "" {
				// The whole value ("Bearer …") and each variable's own
				// value (a server may echo the token alone) unless it is
				// too short to be a token (masking "7" would hide every 7
				// in the log).
				e.envSecrets = append(e.envSecrets, val)
				for _, v := range secrets {
					if len(v) >= minTokenLen {
						e.envSecrets = append(e.envSecrets, v)
					}
				}
			}
		}
	}
}

// minTokenLen is the shortest variable value inside a header that is
// masked on its own (the whole header value always is).
const minTokenLen = 8

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// isAuthHeader reports the headers that carry an API key in one of the APIs.
func isAuthHeader(k string) bool {
	switch strings.ToLower(k) {
	case "authorization", "x-api-key", "api-key", "x-goog-api-key":
		return true
	}
	return false
}

// checkURL validates a URL of one of schemes (http or https when none are
// given); with SkipKeys a ${VAR} stands for a placeholder so the rest can
// still be checked.
func checkURL(v string, schemes ...string) bool {
	if len(schemes) == 0 {
		schemes = []string{"http", "https"}
	}
	v = envRE.ReplaceAllString(v, "var")
	u, err := url.Parse(v)
	return err == nil && slices.Contains(schemes, u.Scheme) && u.Host != ""
}

// urlOK checks a URL as written, or — when it takes its scheme and host
// from the environment (${APP_URL}/api) — as expanded; without the
// environment (SkipKeys) such a URL cannot be checked and passes.
func urlOK(raw, expanded string, skip bool, schemes ...string) bool {
	if checkURL(raw, schemes...) {
		return true
	}
	if !envRE.MatchString(raw) {
		return false
	}
	return skip || checkURL(expanded, schemes...)
}

func (p *parser) baseURL(ip string, e *Endpoint, raw string) {
	kl := p.line(ip + ".base_url")
	if raw == "" {
		if d, ok := defaultBaseURL[e.API]; ok {
			e.BaseURL = d
			return
		}
		ex := "https://api.openai.com/v1"
		switch e.API {
		case "azure":
			ex = "https://RESOURCE.openai.azure.com"
		case "realtime":
			ex = "wss://api.openai.com/v1"
		}
		p.errf(e.Line, "endpoint %q: base_url is required (for example %s)", e.Name, ex)
		return
	}
	v, secrets := p.expand(ip+".base_url", e.Name, "base_url", raw)
	e.envSecrets = append(e.envSecrets, secrets...)
	e.BaseURL = strings.TrimRight(v, "/")
	// Checks and hints use the value as written, never a value from the
	// environment.
	shown := strings.TrimRight(raw, "/")
	schemes, kind := []string{"http", "https"}, "an http(s)"
	if e.API == "realtime" {
		schemes, kind = []string{"wss", "ws", "https", "http"}, "a ws(s) or http(s)"
	}
	if !urlOK(shown, e.BaseURL, p.opt.SkipKeys, schemes...) {
		p.errf(kl, "endpoint %q: base_url %q is not %s URL", e.Name, raw, kind)
		return
	}
	if msg := BaseURLProblem(e.API, "base_url", shown); msg != "" {
		p.errf(kl, "endpoint %q: %s", e.Name, msg)
		return
	}
	if e.API == "azure" {
		path := ""
		if u, err := url.Parse(envRE.ReplaceAllString(shown, "var")); err == nil {
			path = u.Path
		}
		p.azureURL(kl, e, raw, path)
	}
}

// BaseURLProblem says what is wrong with a base URL written for an API
// (key names it in the message: "base_url", or the flag that set it): one
// that already ends in the path latgate appends. Empty when nothing is.
func BaseURLProblem(api, key, shown string) string {
	path := ""
	if u, err := url.Parse(envRE.ReplaceAllString(shown, "var")); err == nil {
		path = u.Path
	}
	write := "write "
	if key == "base_url" {
		write = "write base_url: "
	}
	for _, suffix := range apiPaths {
		if strings.HasSuffix(path, suffix) || strings.Contains(path, suffix) && strings.HasPrefix(suffix, ":") {
			cut := shown[:strings.LastIndex(shown, suffix)]
			if api == "gemini" {
				cut = shown[:max(0, strings.Index(shown, "/models"))]
			}
			if api == "anthropic" {
				cut = strings.TrimSuffix(cut, "/v1")
			}
			return fmt.Sprintf("%s %q already ends in the API path: latgate appends %s itself; %s%s", key, shown, apiPath[api], write, cut)
		}
	}
	if api == "anthropic" && strings.HasSuffix(path, "/v1") {
		return fmt.Sprintf("%s %q ends in /v1, but api anthropic appends /v1/messages itself; %s%s", key, shown, write, strings.TrimSuffix(shown, "/v1"))
	}
	return ""
}

// azureURL makes BaseURL the deployment's URL, to which the prober appends
// /chat/completions: base_url is the resource
// (https://R.openai.azure.com), or already that deployment's URL.
func (p *parser) azureURL(kl int, e *Endpoint, raw, path string) {
	const seg = "/openai/deployments/"
	i := strings.Index(path, seg)
	if i < 0 {
		if e.Deployment != "" {
			e.BaseURL += seg + url.PathEscape(e.Deployment)
		}
		return
	}
	dep, _, _ := strings.Cut(path[i+len(seg):], "/")
	switch {
	case e.Deployment == "":
		e.Deployment = dep
	case e.Deployment != dep:
		p.errf(kl, "endpoint %q: base_url %q names deployment %q but deployment is %q: give base_url up to .openai.azure.com and deployment: NAME", e.Name, raw, dep, e.Deployment)
	}
}

var streamFormats = []string{"sse", "ndjson", "text"}

// aiSDK reads a Vercel AI SDK chat route: its url (such as
// http://127.0.0.1:3000/api/chat) and an optional body replacing the one
// useChat sends.
func (p *parser) aiSDK(ip string, e *Endpoint, re rawEndpoint) {
	p.endpointURL(ip, e, re, "http://127.0.0.1:3000/api/chat")
	e.Method = "POST"
	p.endpointBody(ip, e, re)
}

// endpointURL reads the full URL of a custom or AI SDK endpoint.
func (p *parser) endpointURL(ip string, e *Endpoint, re rawEndpoint, example string) {
	if re.URL == "" {
		p.errf(e.Line, "endpoint %q: api %s needs url (the full URL to request, such as %s)", e.Name, e.API, example)
		return
	}
	v, secrets := p.expand(ip+".url", e.Name, "url", re.URL)
	e.envSecrets = append(e.envSecrets, secrets...)
	e.URL = v
	if !urlOK(re.URL, v, p.opt.SkipKeys) {
		p.errf(p.line(ip+".url"), "endpoint %q: url %q is not an http(s) URL", e.Name, re.URL)
	}
}

// endpointBody reads a body template (any YAML value).
func (p *parser) endpointBody(ip string, e *Endpoint, re rawEndpoint) {
	if re.Body == nil {
		return
	}
	var body any
	if err := re.Body.Node.Decode(&body); err != nil {
		p.errf(p.line(ip+".body"), "endpoint %q: body: %v", e.Name, err)
	}
	e.Body = body
}

func (p *parser) custom(ip string, e *Endpoint, re rawEndpoint) {
	p.endpointURL(ip, e, re, "http://127.0.0.1:11434/api/chat")
	switch strings.ToUpper(e.Method) {
	case "":
		e.Method = "POST"
	case "GET", "POST", "PUT", "PATCH":
		e.Method = strings.ToUpper(e.Method)
	default:
		p.errf(p.line(ip+".method"), "endpoint %q: method: want GET, POST, PUT or PATCH, got %q", e.Name, e.Method)
	}
	p.endpointBody(ip, e, re)
	if re.Stream == nil {
		p.errf(e.Line, "endpoint %q: api custom needs stream: {format: sse, text: /pointer/to/text}", e.Name)
		return
	}
	p.stream(ip+".stream", e, *re.Stream)
}

// stream reads how a custom endpoint's stream is read: its format, the
// JSON pointers into each event and, for a server-driven agent, which
// event types play which role.
func (p *parser) stream(sp string, e *Endpoint, rs rawStream) {
	st := &Stream{Format: rs.Format, Text: rs.Text, Reasoning: rs.Reasoning, Done: rs.Done, Error: rs.Error,
		OutputTokens: rs.OutputTokens, InputTokens: rs.InputTokens, CachedTokens: rs.CachedTokens, Type: rs.Type, ToolCall: rs.ToolCall}
	if rs.Types != nil {
		t := rs.Types
		st.Types = StreamTypes{Text: t.Text, Reasoning: t.Reasoning, ToolCall: t.ToolCall, ToolCallDone: t.ToolCallDone, ToolResult: t.ToolResult, Step: t.Step}
	}
	e.Stream = st
	if st.Format == "" {
		st.Format = "sse"
	}
	if !slices.Contains(streamFormats, st.Format) {
		p.errf(p.line(sp+".format"), "endpoint %q: stream.format: want sse, ndjson or text, got %q", e.Name, st.Format)
		return
	}
	pointers := []struct{ key, v string }{{"text", st.Text}, {"reasoning", st.Reasoning}, {"done", st.Done}, {"error", st.Error},
		{"output_tokens", st.OutputTokens}, {"input_tokens", st.InputTokens}, {"cached_tokens", st.CachedTokens}, {"type", st.Type}, {"tool_call", st.ToolCall}}
	for _, ptr := range pointers {
		if ptr.v == "" {
			continue
		}
		if st.Format == "text" {
			p.errf(p.line(sp+"."+ptr.key), "endpoint %q: stream.%s: format text has no JSON events to point into (every chunk is output text); remove it or use sse or ndjson", e.Name, ptr.key)
			continue
		}
		if err := checkPointer(ptr.v); err != nil {
			p.errf(p.line(sp+"."+ptr.key), "endpoint %q: stream.%s: %v", e.Name, ptr.key, err)
		}
	}
	if st.Format != "text" && st.Text == "" {
		p.errf(p.line(sp), "endpoint %q: stream.text is required: the JSON pointer (RFC 6901) to each event's output text, such as /message/content", e.Name)
	}
	p.streamTypes(sp, e, st, rs.Types != nil)
}

// streamTypes checks stream.type and stream.types: together or not at all,
// and the visible text's types among them.
func (p *parser) streamTypes(sp string, e *Endpoint, st *Stream, given bool) {
	switch {
	case given && st.Type == "":
		p.errf(p.line(sp+".types"), "endpoint %q: stream.types needs stream.type, the JSON pointer to each event's type (such as /type)", e.Name)
	case st.Type != "" && !given:
		p.errf(p.line(sp+".type"), "endpoint %q: stream.type says where an event's type is; stream.types says which types are text, reasoning, tool_call, tool_call_done, tool_result and step", e.Name)
	case given && len(st.Types.Text) == 0:
		p.errf(p.line(sp+".types"), "endpoint %q: stream.types.text: which event types carry the visible text is required (such as [text-delta])", e.Name)
	case st.ToolCall != "" && len(st.Types.ToolCall) == 0:
		p.errf(p.line(sp+".tool_call"), "endpoint %q: stream.tool_call points into the events of stream.types.tool_call: list them", e.Name)
	}
}

// checkPointer validates an RFC 6901 JSON pointer: "/a/b", with "~0" for
// "~" and "~1" for "/". The whole document ("") is not useful here.
func checkPointer(s string) error {
	if !strings.HasPrefix(s, "/") {
		return fmt.Errorf("%q is not a JSON pointer (RFC 6901): it must start with /, such as /message/content", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return fmt.Errorf("%q is not a JSON pointer (RFC 6901): ~ must be written ~0, and / inside a key ~1", s)
		}
	}
	return nil
}

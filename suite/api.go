package suite

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/internal/didyoumean"
)

// optionalKeys are the endpoint keys beyond the common ones (name, api,
// model, api_key_env, headers): each API takes some of them (apis.Spec's
// Keys); a key of another API is an error.
var optionalKeys = []string{apis.BaseURL, "deployment", "api_version", apis.URL, "method", "body", "stream", "audio", browserKey}

// browserKey is the key of a page's browser block.
const browserKey = "browser"

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
		e.API = apis.Default().Name
	}
	spec, ok := apis.Lookup(e.API)
	if !ok {
		names := apis.Names()
		msg := fmt.Sprintf("endpoint %q: api: unknown API %q (valid: %s)", e.Name, e.API, strings.Join(names, ", "))
		if s := didyoumean.Suggest(e.API, names); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		p.errf(p.line(ip+".api"), "%s", msg)
		return e
	}
	given := map[string]bool{apis.BaseURL: re.BaseURL != "", "deployment": re.Deployment != "", "api_version": re.APIVersion != "",
		apis.URL: re.URL != "", "method": re.Method != "", "body": re.Body != nil, "stream": re.Stream != nil, "audio": re.Audio != nil,
		browserKey: re.Browser != nil}
	for _, k := range optionalKeys {
		if given[k] && !slices.Contains(spec.Keys, k) {
			p.errf(p.line(ip+"."+k), "endpoint %q: %s is not a key of api %s (%s takes %s)", e.Name, k, e.API, e.API, strings.Join(spec.Keys, ", "))
		}
	}
	if spec.Address.Key == apis.URL {
		p.endpointURL(ip, &e, re, spec.Address.Example)
	} else {
		p.baseURL(ip, &e, re, spec)
	}
	p.endpointKeys(ip, &e, re, spec)
	p.endpointModel(line, &e, spec)
	p.endpointCost(ip, &e, re)
	if spec.NoKey && (re.APIKeyEnv != "" || len(re.Headers) > 0) {
		p.errf(line, "endpoint %q: api %s sends no key and no header (the page makes its own requests): give the page a cookie in browser.cookies if it needs one", e.Name, e.API)
		return e
	}
	p.endpointAuth(ip, &e, re)
	p.endpointMetrics(ip, &e, re)
	return e
}

// endpointKeys reads the keys an API takes beyond its address (method,
// body, stream) and checks those it needs.
func (p *parser) endpointKeys(ip string, e *Endpoint, re rawEndpoint, spec apis.Spec) {
	takes := func(k string) bool { return slices.Contains(spec.Keys, k) }
	switch {
	case takes("method"):
		p.endpointMethod(ip, e)
	case spec.Address.Key == apis.URL:
		e.Method = "POST"
	}
	if takes("body") {
		p.endpointBody(ip, e, re)
	}
	if takes("stream") && re.Stream != nil {
		p.stream(ip+".stream", e, *re.Stream)
	}
	if takes(browserKey) {
		p.browser(ip, e, re)
	}
	for _, need := range spec.Needs {
		if !e.has(need.Key) {
			p.errf(e.Line, "endpoint %q: api %s needs %s", e.Name, e.API, need.Says)
		}
	}
}

// endpointModel checks what names the model: the model, or the key an API
// takes it from (azure's deployment); an API whose body or route names it
// needs none.
func (p *parser) endpointModel(line int, e *Endpoint, spec apis.Spec) {
	if e.Model == "" && spec.ModelFrom != "" {
		e.Model = *e.key(spec.ModelFrom)
	}
	if e.Model == "" && spec.NeedsModel {
		p.errf(line, "endpoint %q: model is required", e.Name)
	}
}

// key is the field of one of an endpoint's string keys.
func (e *Endpoint) key(k string) *string {
	switch k {
	case apis.BaseURL:
		return &e.BaseURL
	case apis.URL:
		return &e.URL
	case "deployment":
		return &e.Deployment
	case "api_version":
		return &e.APIVersion
	case "method":
		return &e.Method
	}
	return &e.Model
}

// has reports whether an endpoint has a value for key.
func (e *Endpoint) has(k string) bool {
	switch k {
	case "stream":
		return e.Stream != nil
	case "body":
		return e.Body != nil
	case "audio":
		return e.Audio
	case browserKey:
		return e.Browser != nil
	}
	return *e.key(k) != ""
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
	return slices.ContainsFunc(apis.All(), func(s apis.Spec) bool { return strings.EqualFold(s.Auth.Header, k) })
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

func (p *parser) baseURL(ip string, e *Endpoint, re rawEndpoint, spec apis.Spec) {
	kl := p.line(ip + ".base_url")
	raw, a := re.BaseURL, spec.Address
	if raw == "" {
		if a.Default != "" {
			e.BaseURL = a.Default
			return
		}
		p.errf(e.Line, "endpoint %q: base_url is required (for example %s)", e.Name, a.Example)
		return
	}
	v, secrets := p.expand(ip+".base_url", e.Name, "base_url", raw)
	e.envSecrets = append(e.envSecrets, secrets...)
	e.BaseURL = strings.TrimRight(v, "/")
	// Checks and hints use the value as written, never a value from the
	// environment.
	shown := strings.TrimRight(raw, "/")
	kind := a.Said
	if kind == "" {
		kind = "an http(s)"
	}
	if !urlOK(shown, e.BaseURL, p.opt.SkipKeys, a.Schemes...) {
		p.errf(kl, "endpoint %q: base_url %q is not %s URL", e.Name, raw, kind)
		return
	}
	if msg := BaseURLProblem(e.API, "base_url", shown); msg != "" {
		p.errf(kl, "endpoint %q: %s", e.Name, msg)
		return
	}
	if spec.Check != nil {
		p.checkKeys(ip, e, re, spec, pathOf(shown))
	}
}

// checkKeys runs an API's Check on the keys as written: it sets the keys
// the base URL names and says what is wrong at each key's line.
func (p *parser) checkKeys(ip string, e *Endpoint, re rawEndpoint, spec apis.Spec, path string) {
	keys := map[string]string{}
	for k, v := range map[string]string{apis.BaseURL: re.BaseURL, "deployment": re.Deployment, "api_version": re.APIVersion,
		apis.URL: re.URL, "method": re.Method, "model": re.Model} {
		if v != "" {
			keys[k] = v
		}
	}
	set, problems := spec.Check(keys, path)
	for k, v := range set {
		*e.key(k) = v
	}
	for _, pr := range problems {
		p.errf(p.line(ip+"."+pr.Key), "endpoint %q: %s", e.Name, pr.Msg)
	}
}

// pathOf is the path of a URL as written, each ${VAR} read as a
// placeholder ("" when it does not parse).
func pathOf(shown string) string {
	if u, err := url.Parse(envRE.ReplaceAllString(shown, "var")); err == nil {
		return u.Path
	}
	return ""
}

// apiPaths are the ends of a path that hold an API's path: every API's,
// in the registry's order.
func apiPaths() []string {
	var out []string
	for _, s := range apis.All() {
		for _, end := range s.Address.Ends {
			if !slices.Contains(out, end) {
				out = append(out, end)
			}
		}
	}
	return out
}

// BaseURLProblem says what is wrong with a base URL written for an API
// (key names it in the message: "base_url", or the flag that set it): one
// that already ends in the path latgate appends. Empty when nothing is.
func BaseURLProblem(api, key, shown string) string {
	spec, _ := apis.Lookup(api)
	a := spec.Address
	path := pathOf(shown)
	write := "write "
	if key == "base_url" {
		write = "write base_url: "
	}
	for _, suffix := range apiPaths() {
		if strings.HasSuffix(path, suffix) || strings.Contains(path, suffix) && strings.HasPrefix(suffix, ":") {
			cut := shown[:strings.LastIndex(shown, suffix)]
			if a.Cut != "" {
				cut = shown[:max(0, strings.Index(shown, a.Cut))]
			}
			cut = strings.TrimSuffix(cut, a.Prefix)
			return fmt.Sprintf("%s %q already ends in the API path: latgate appends %s itself; %s%s", key, shown, a.Path, write, cut)
		}
	}
	if a.Prefix != "" && strings.HasSuffix(path, a.Prefix) {
		return fmt.Sprintf("%s %q ends in %s, but api %s appends %s itself; %s%s", key, shown, a.Prefix, api, a.Path, write, strings.TrimSuffix(shown, a.Prefix))
	}
	return ""
}

var streamFormats = []string{"sse", "ndjson", "text"}

// endpointURL reads the full URL of an endpoint called at its url.
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

// endpointMethod reads the HTTP method of an endpoint that takes one.
func (p *parser) endpointMethod(ip string, e *Endpoint) {
	switch strings.ToUpper(e.Method) {
	case "":
		e.Method = "POST"
	case "GET", "POST", "PUT", "PATCH":
		e.Method = strings.ToUpper(e.Method)
	default:
		p.errf(p.line(ip+".method"), "endpoint %q: method: want GET, POST, PUT or PATCH, got %q", e.Name, e.Method)
	}
}

// stream reads how an endpoint's stream is read: its format, the
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

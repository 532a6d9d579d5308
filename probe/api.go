package probe

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/latgate/latgate/apis"
)

// API is a wire API the probe speaks: how a request is made and how its
// stream is read (docs/metrics.md has a table per API of which event sets
// each metric). The zero value "" is the default API (Chat). Each API is
// one file, api_NAME.go, that registers its description; APIs lists them.
type API string

// description is one API as the probe speaks it. Its file registers it
// (register, from an init function): the Spec that suite, gate, report and
// init read through package apis, and how a request of the API is made and
// read. A field left nil takes the default its comment says.
type description struct {
	apis.Spec
	// url is the request URL of an endpoint.
	url func(t Target) string
	// headers are sent besides the key (anthropic-version); a request's
	// own Headers win over them.
	headers map[string]string
	// body builds a request's body from its plain values, as the value
	// that is marshaled to JSON (nil: no body). It writes the assistant's
	// tool calls and the tools' results in the API's own format (its
	// tool-call format), which the wire's decoder reads back.
	body func(p BodyParams) any
	// minTokens: body sends BodyParams.MinTokens (as min_tokens and
	// ignore_eos, which vLLM and SGLang accept on chat completions).
	minTokens bool
	// wire is how a request's stream is read: its framing, its decoder
	// and its proper end.
	wire func(req Request) wire
	// check refuses a request that cannot be sent (nil: none is).
	check func(req Request) error
	// jsonInstead says what to ask when the server answered JSON where an
	// SSE stream was expected (nil: whether it supports stream: true), and
	// whether every request is misread the same way (the config's stream
	// spec is wrong, so the run fails fast).
	jsonInstead func(contentType string) (ask string, misread bool)
	// marksSteps says whether a request's stream marks a server-driven
	// agent's steps, on an API whose Tools are apis.ServerTools (nil: it
	// always does).
	marksSteps func(req Request) bool
	// do makes a request that is not an HTTP stream (the Realtime API's
	// WebSocket): its record and the timeline its metrics were derived
	// from. nil: Prober.call's HTTP stream (send, read, derive).
	do func(p *Prober, ctx context.Context, req Request) (Record, timeline)
	// whole: do makes a session's request whole, its turns included (a
	// browser types each turn into one page), not one call per step.
	whole bool
	// serverTiming lists the forms in which the API's servers report
	// their own time on a request (server_timing.go: response headers such
	// as openai-processing-ms, fields of the stream's last event); nil:
	// none is read.
	serverTiming []*timingForm
}

// Target is what a request's URL is built from: the endpoint's keys as
// the suite parsed them.
type Target struct {
	BaseURL, URL, Model, Deployment, APIVersion string
}

// descriptions are the registered APIs by name; defaultAPI is the one
// whose Spec is the default.
var (
	descriptions = map[API]*description{}
	defaultAPI   *description
)

// register adds an API: its Spec to package apis, its description here.
func register(d description) {
	if d.url == nil || d.body == nil || d.wire == nil && d.do == nil {
		panic(fmt.Sprintf("probe: api %q needs url, body and wire (or do)", d.Name))
	}
	apis.Register(d.Spec)
	descriptions[API(d.Name)] = &d
	if d.Default {
		defaultAPI = &d
	}
}

// describe is api's description; "" and an unknown name are the default
// API's (ParseAPI refuses unknown names first). It is read several times
// per request, so it copies nothing.
func describe(api API) *description {
	if d, ok := descriptions[api]; ok {
		return d
	}
	return defaultAPI
}

// APIs lists every API, in the order of the documentation.
func APIs() []API {
	var out []API
	for _, n := range apis.Names() {
		out = append(out, API(n))
	}
	return out
}

// ParseAPI checks an api name ("" is the default API).
func ParseAPI(s string) (API, error) {
	if spec, ok := apis.Lookup(s); ok {
		return API(spec.Name), nil
	}
	return "", fmt.Errorf("unknown api %q (known: %s)", s, strings.Join(apis.Names(), ", "))
}

// URL is the request URL of an endpoint of api (docs/config.md: each API's
// base_url and what it appends, or the url called as it is).
func URL(api API, t Target) string {
	t.BaseURL = strings.TrimSuffix(t.BaseURL, "/")
	return describe(api).url(t)
}

// ServerDriven reports whether req streams a server-driven agent's steps
// (an AI SDK route, a custom stream with step types): it is measured as a
// session, its steps, tool calls and tool time read from the stream.
func ServerDriven(req Request) bool {
	d := describe(req.API)
	return d.Tools == apis.ServerTools && (d.marksSteps == nil || d.marksSteps(req))
}

// clientDriven reports whether the API returns tool calls to the client.
func clientDriven(api API) bool { return describe(api).Tools == apis.ClientTools }

// wireOf is how req's stream is read.
func wireOf(req Request) wire { return describe(req.API).wire(req) }

// setHeaders sets the API's content, accept and auth headers; req.Headers
// come last and win.
func setHeaders(h http.Header, req Request, w wire) {
	h.Set("Content-Type", "application/json")
	switch w.framing {
	case framingSSE:
		h.Set("Accept", "text/event-stream")
	case framingNDJSON:
		h.Set("Accept", "application/x-ndjson")
	}
	d := describe(req.API)
	if req.APIKey != "" {
		h.Set(d.Auth.Header, d.Auth.Value(req.APIKey))
	}
	for k, v := range d.headers {
		h.Set(k, v)
	}
	for k, v := range req.Headers {
		h.Set(k, v)
	}
}

// bearer is the auth of the APIs that take the key as a Bearer token.
var bearer = apis.Auth{Header: "Authorization", Scheme: "Bearer"}

// fixedURL is the url of an API that appends path to the base URL.
func fixedURL(path string) func(Target) string {
	return func(t Target) string { return t.BaseURL + path }
}

// AsksMinTokens reports whether api's body can ask for an output length
// exactly (BodyParams.MinTokens): min_tokens and ignore_eos, the
// extensions of vLLM's and SGLang's chat completions.
func AsksMinTokens(api API) bool { return describe(api).minTokens }

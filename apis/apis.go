// Package apis is the registry of the wire APIs an endpoint can speak: what
// each one is, as plain data, for the packages that validate and describe
// endpoints without sending anything (suite, gate, report, init).
//
// Each API is one file of package probe (probe/api_NAME.go) that registers
// its Spec here with its request machinery (database/sql style): the
// registry is filled when probe is linked, which every program that parses
// a suite does through gate. A program that reads the registry without
// linking probe has no API at all, and All, Default and Names panic saying
// so rather than letting a suite be checked against nothing.
package apis

import (
	"fmt"
	"slices"
	"sync"
)

// ToolLoop is who runs a session's tools on an API.
type ToolLoop string

const (
	// NoTools: the API takes no tools from latgate (a session's tools are
	// refused).
	NoTools ToolLoop = ""
	// ClientTools: the model's tool calls come back to the client, and
	// latgate runs the loop (waits each tool's latency, sends its result).
	ClientTools ToolLoop = "client"
	// ServerTools: the endpoint runs its own tools and streams its steps
	// (a server-driven agent); latgate reads them.
	ServerTools ToolLoop = "server"
)

// The keys an endpoint's address is given by.
const (
	BaseURL = "base_url" // the API's path is appended to it
	URL     = "url"      // the full URL, called as written
)

// BodyKind is what an endpoint's body key is to an API.
type BodyKind string

const (
	// BodyBuilt: the API builds its own body (no body key).
	BodyBuilt BodyKind = ""
	// BodyTemplate: the body template is the body; without one no body is
	// sent, and only a "{{messages}}" in it carries a conversation.
	BodyTemplate BodyKind = "template"
	// BodyOverride: a template replaces the API's own body, which holds
	// the conversation.
	BodyOverride BodyKind = "override"
)

// Spec is what one API is to the packages that validate and describe an
// endpoint. Every field is data but Check, a hook for the one thing an
// API's keys say together that data cannot.
type Spec struct {
	// Name is the value of the endpoint's api key.
	Name string
	// Order places the API in every list of them (docs/config.md's order):
	// lower first.
	Order int
	// Default marks the API of an endpoint that names none (one API has it).
	Default bool
	// Title is how a message names the API where "api NAME" is not enough
	// ("the Realtime API"); "" when no message needs it.
	Title string

	// Keys are the endpoint keys the API takes beyond the common ones
	// (name, api, model, api_key_env, headers); any other key is an error.
	Keys []string
	// Needs are keys that must be given (beyond the address), checked in
	// this order, with what an error says of each after "api NAME needs ".
	Needs []Need
	// Address says how the endpoint's URL is given.
	Address Address
	// NeedsModel: model is required. ModelFrom names the key whose value is
	// the model when model is not given (azure's deployment).
	NeedsModel bool
	ModelFrom  string
	// Body is what the body key is to the API (with body in Keys).
	Body BodyKind
	// Auth is where the endpoint's key is sent. NoKey: the API sends no
	// key and no header of latgate's (a page in a browser makes its own
	// requests): api_key_env and headers are refused.
	Auth  Auth
	NoKey bool

	// Tools is who runs a session's tools; Turns whether a conversation's
	// further turns can be sent. An API with neither takes no sessions.
	Tools ToolLoop
	Turns bool
	// NoTemperature: the API takes no temperature. MaxTokens: the most
	// output tokens it takes (0: no limit of latgate's).
	NoTemperature bool
	MaxTokens     int

	// OTel names the API in OpenTelemetry's GenAI conventions.
	OTel OTel
	// Init is the key `latgate init` looks for in the environment to write
	// a suite for this API, nil when none.
	Init *Init

	// Check, when set, checks and completes what an endpoint's keys say
	// together, once its base URL is read and valid: keys holds every
	// string key given (base_url, deployment, …) as written, path the base
	// URL's path with each ${VAR} read as a placeholder. It returns the
	// keys to set (a value the base URL names) and what is wrong.
	Check func(keys map[string]string, path string) (set map[string]string, problems []Problem)
}

// Need is a key an API requires, and what an error says of it.
type Need struct {
	Key  string
	Says string // such as "deployment (the model deployment's name)"
}

// Problem is what is wrong with one key of an endpoint: Msg follows
// `endpoint "NAME": ` at the line of Key.
type Problem struct {
	Key, Msg string
}

// Address is how an API's endpoint URL is given.
type Address struct {
	// Key is BaseURL or URL.
	Key string
	// Default is the base URL when none is given (an API with one public
	// host); Example what an error suggests when one is required.
	Default, Example string
	// Schemes are the URL schemes accepted (nil: http and https); Said how
	// a message names them ("a ws(s) or http(s)"; "": "an http(s)").
	Schemes []string
	Said    string
	// Path is what the probe appends to the base URL, as the hint of a
	// base URL that already ends in it says it.
	Path string
	// Ends are the ends of a URL path that mean it already holds this
	// API's path (":" ones anywhere in the path); Cut, when set, is where a
	// base URL that holds one is cut instead (gemini's /models); Prefix is
	// the start of Path a base URL must not end in (anthropic's /v1).
	Ends        []string
	Cut, Prefix string
	// Root is the path a base URL of the API usually ends in (the /v1 of
	// OpenAI-compatible servers): a 404 at a base URL without it is said
	// with it. Models is the path, after the base URL, where a server
	// lists the models it serves ("" when the API has none).
	Root, Models string
}

// Accepts reports whether the address takes a URL of scheme.
func (a Address) Accepts(scheme string) bool {
	if a.Schemes == nil {
		return scheme == "http" || scheme == "https"
	}
	return slices.Contains(a.Schemes, scheme)
}

// Auth is the header an API's key is sent in: "Authorization" with Scheme
// "Bearer" sends "Bearer KEY".
type Auth struct {
	Header, Scheme string
}

// Value is the header's value for key.
func (a Auth) Value(key string) string {
	if a.Scheme == "" {
		return key
	}
	return a.Scheme + " " + key
}

// OTel is the API in OpenTelemetry's GenAI semantic conventions:
// gen_ai.operation.name ("" for the default API's) and
// gen_ai.provider.name ("" when the host tells it).
type OTel struct {
	Operation, Provider string
}

// Init is what `latgate init` writes when KeyEnv is set: an endpoint of
// this API for Model (at BaseURL, "" for the API's default).
type Init struct {
	KeyEnv, BaseURL, Model string
}

var (
	mu    sync.RWMutex
	specs []Spec
)

// Register adds an API. It panics on a spec without a name, a name
// registered twice and a second default: they are the program's mistakes.
func Register(s Spec) {
	mu.Lock()
	defer mu.Unlock()
	switch {
	case s.Name == "":
		panic("apis: a spec without a name")
	case slices.ContainsFunc(specs, func(o Spec) bool { return o.Name == s.Name }):
		panic(fmt.Sprintf("apis: api %q registered twice", s.Name))
	case s.Default && slices.ContainsFunc(specs, func(o Spec) bool { return o.Default }):
		panic(fmt.Sprintf("apis: api %q is a second default", s.Name))
	}
	specs = append(specs, s)
	slices.SortStableFunc(specs, func(a, b Spec) int { return a.Order - b.Order })
}

// All is every registered API, in Order.
func All() []Spec {
	mu.RLock()
	defer mu.RUnlock()
	if len(specs) == 0 {
		panic("apis: no API is registered: the program must link package probe, whose files register them")
	}
	return slices.Clone(specs)
}

// Names are the registered APIs' names, in Order.
func Names() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	return out
}

// Lookup is the API of that name; "" is the default API.
func Lookup(name string) (Spec, bool) {
	for _, s := range All() {
		if s.Name == name || name == "" && s.Default {
			return s, true
		}
	}
	return Spec{}, false
}

// Default is the API of an endpoint that names none.
func Default() Spec {
	for _, s := range All() {
		if s.Default {
			return s
		}
	}
	panic("apis: no default API is registered")
}

package sim

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// api is a wire API the simulator speaks.
type api string

// simAPI is one API the simulator speaks: where it is served, how its
// requests are read and answered. Each is one file, api_NAME.go, that
// registers it (registerAPI, from an init function). A field left nil
// takes the default its comment says.
type simAPI struct {
	name api
	// order places it in Routes; shown is the api a client writes for it
	// ("" = name), about what Routes says of it besides; at is where a
	// client finds it on the simulator (%[1]s the address, %[2]s http or
	// https, %[3]s ws or wss).
	order        int
	shown, about string
	at           string
	// match picks the API's requests by method and path (nil: it is
	// reached only through another API's parse, as the AI SDK route is
	// through /api/chat's).
	match func(r *http.Request) bool
	// serve answers the request itself (the Realtime API's WebSocket);
	// nil: Server.serve, with the fields below.
	serve func(s *Server, w http.ResponseWriter, r *http.Request)
	// key is the API key a request carries (nil: a Bearer token).
	key func(r *http.Request) string
	// parse reads a request's body.
	parse func(r *http.Request, body io.Reader) (request, error)
	// encoder renders one answer's stream.
	encoder func(rs response) encoder
	// errorBody is the API's error response (nil: OpenAI's).
	errorBody func(status int, typ, msg string) any
	// unstreamed: it answers without a stream too (chat completions).
	unstreamed bool
	// ndjson: its stream is NDJSON lines, not SSE.
	ndjson bool
	// wholeCalls: a tool call comes in one event, its arguments complete.
	wholeCalls bool
	// headers are set on a stream's response.
	headers map[string]string
}

// simAPIs are the registered APIs, in order.
var simAPIs []*simAPI

// registerAPI adds an API to the simulator.
func registerAPI(a simAPI) {
	if a.serve == nil && (a.parse == nil || a.encoder == nil) {
		panic(fmt.Sprintf("sim: api %q needs parse and encoder, or serve", a.name))
	}
	simAPIs = append(simAPIs, &a)
	slices.SortStableFunc(simAPIs, func(x, y *simAPI) int { return x.order - y.order })
}

// apiOf is the registered API of that name (nil when none is).
func apiOf(a api) *simAPI {
	for _, s := range simAPIs {
		if s.name == a {
			return s
		}
	}
	return nil
}

// route picks the API of a request from its method and path.
func route(r *http.Request) (api, bool) {
	for _, s := range simAPIs {
		if s.match != nil && s.match(r) {
			return s.name, true
		}
	}
	return "", false
}

// key is the API key the request carries in its API's header.
func key(a api, r *http.Request) string {
	if s := apiOf(a); s != nil && s.key != nil {
		return s.key(r)
	}
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// parse reads the request body of any API.
func parse(a api, r *http.Request) (request, error) {
	s := apiOf(a)
	if s == nil || s.parse == nil {
		return request{}, nil
	}
	return s.parse(r, io.LimitReader(r.Body, 8<<20))
}

func encoderFor(rs response) encoder { return apiOf(rs.api).encoder(rs) }

// writeAPIError answers with status and the API's error body.
func writeAPIError(w http.ResponseWriter, a api, status int, typ, msg, retryAfter string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	var body any = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	if s := apiOf(a); s != nil && s.errorBody != nil {
		body = s.errorBody(status, typ, msg)
	}
	_ = json.NewEncoder(w).Encode(body)
}

// schemes are the URL schemes of the simulator's HTTP and WebSocket APIs.
func schemes(secure bool) (http, ws string) {
	if secure {
		return "https", "wss"
	}
	return "http", "ws"
}

// label is how Routes names an API: as a suite names it, and what it is.
func (s *simAPI) label() string {
	name := cmp.Or(s.shown, string(s.name))
	if s.about != "" {
		name += " (" + s.about + ")"
	}
	return name
}

// Routes says where each API is served on addr, over TLS when secure: one
// line per address, an API described on a line of its own.
func Routes(addr string, secure bool) string {
	http, ws := schemes(secure)
	var b strings.Builder
	joins := func(s, o *simAPI) bool { return s.at == o.at && s.about == "" && o.about == "" }
	for i, s := range simAPIs {
		if s.at == "" {
			continue
		}
		if i > 0 && joins(simAPIs[i-1], s) {
			b.WriteString(", " + s.label())
		} else {
			b.WriteString("  " + s.label())
		}
		if i+1 == len(simAPIs) || !joins(s, simAPIs[i+1]) {
			b.WriteString(": " + fmt.Sprintf(s.at, addr, http, ws) + "\n")
		}
	}
	return b.String()
}

// Where is what a suite's endpoint of api (as a suite names it: custom
// for Ollama's NDJSON route) writes to reach the simulator on addr: its
// base_url or url. false when the simulator does not speak the API.
func Where(api, addr string, secure bool) (string, bool) {
	http, ws := schemes(secure)
	for _, s := range simAPIs {
		if cmp.Or(s.shown, string(s.name)) == api && s.at != "" {
			_, u, _ := strings.Cut(fmt.Sprintf(s.at, addr, http, ws), " ")
			return u, true
		}
	}
	return "", false
}

// badRequest is a request the simulator refuses as its API would (a 400
// with this message), though its body is valid JSON.
type badRequest string

func (b badRequest) Error() string { return string(b) }

// parseErrorMessage is what a 400 says of a body parse refused.
func parseErrorMessage(err error) string {
	if b, ok := err.(badRequest); ok {
		return string(b)
	}
	return "We could not parse the JSON body of your request: " + err.Error()
}

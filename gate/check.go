package gate

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Diagnosis is what one request to an endpoint said of it: usable, with
// what it saw, or a finding with what to change (docs/config.md, "latgate
// check").
type Diagnosis struct {
	Endpoint string
	// Side is the endpoint's side in an A/B run ("" otherwise).
	Side    vocab.Side
	Finding vocab.Finding
	// Says is what the request saw (usable), or what is wrong and the fix.
	Says string
	// models: the server's list of models may tell an unknown model
	// (a 404, 400 or 422 at an API that has a list).
	models bool
}

// CheckError is a run stopped at its first request: the request found its
// endpoint unusable (CannotRun, exit 3), before anything was measured.
type CheckError struct{ Diagnosis Diagnosis }

func (e *CheckError) Error() string {
	d := e.Diagnosis
	side := ""
	if d.Side != "" {
		side = " (" + string(d.Side) + ")"
	}
	return fmt.Sprintf("the first request to endpoint %q%s stopped the run before measuring: %s: %s (latgate check diagnoses every endpoint)", d.Endpoint, side, d.Finding, d.Says)
}

// diagnose says what one request to ep (at url) found: a pure function of
// its record.
func diagnose(ep suite.Endpoint, url string, rec probe.Record) Diagnosis {
	d := Diagnosis{Endpoint: ep.Name}
	spec, _ := apis.Lookup(ep.API)
	seen := rec.Seen
	switch {
	case seen.Location != "" || seen.Redirected != "":
		d.Finding, d.Says = vocab.Redirect, redirectSays(ep, spec, url, rec)
	case seen.Net != "":
		d.Finding, d.Says = netSays(spec, url, rec)
	case rec.Status == http.StatusUnauthorized || rec.Status == http.StatusForbidden:
		d.Finding, d.Says = vocab.KeyRefused, keySays(ep, rec)
	case rec.Status == http.StatusNotFound:
		d = notFound(d, ep, spec, url, rec)
	case rec.Status == http.StatusBadRequest || rec.Status == http.StatusUnprocessableEntity:
		d.Finding, d.Says, d.models = vocab.Unusable, rec.Error+": the server refused the request", spec.Address.Models != ""
	case rec.Status == http.StatusTooManyRequests || rec.Status >= 500 || rec.Failure == vocab.Timeout || rec.Failure == vocab.Stall:
		d.Finding, d.Says = vocab.ServerError, rec.Error+": the server's state, not the endpoint's configuration (a run measures it as its error rate)"
	case !rec.OK && strings.Contains(seen.ContentType, "text/html"):
		d.Finding, d.Says = vocab.WebPage, rec.Error+": "+rootAsk(ep, spec)
	case !rec.OK && rec.Failure == vocab.Malformed && rec.Status/100 == 2 && strings.Contains(seen.ContentType, "json"):
		d.Finding, d.Says = vocab.JSONBody, rec.Error+` (the server sent one JSON body where a stream was asked: it ignores "stream": true, and a first token cannot be timed in one body)`
	case rec.Failure == vocab.NoOutput:
		d.Finding, d.Says = vocab.EmptyAnswer, rec.Error+": does the model answer this prompt (and max_tokens leave it room)?"
	case !rec.OK:
		d.Finding, d.Says = vocab.Unusable, rec.Error
	case rec.Buffered() && rec.TTFT >= bufferedWait && rec.Page == nil:
		// A page that shows its answer only at the end is the page's own
		// behaviour, which its client stage measures (the demo's head).
		d.Finding, d.Says = vocab.NotStreamed, fmt.Sprintf("the answer's %d tokens arrived in one piece, %s after the request: %s", rec.OutputTokens, ms3(rec.TTFT), bufferedFix)
	default:
		d.Finding, d.Says = vocab.Usable, sawSays(rec)
	}
	return d
}

// address is how an endpoint's URL is named in a fix: "base_url" or "url",
// and its value.
func address(ep suite.Endpoint, spec apis.Spec) (key, value string) {
	if spec.Address.Key == apis.URL {
		return apis.URL, ep.URL
	}
	return apis.BaseURL, ep.BaseURL
}

// rootAsk asks whether the address is the API's, with an example.
func rootAsk(ep suite.Endpoint, spec apis.Spec) string {
	key, value := address(ep, spec)
	if key == apis.URL {
		return "is url the API's own address (one that takes the POST and streams), not a page of the app?"
	}
	example := spec.Address.Example
	if spec.Address.Root != "" && !hasSegment(pathOf(value), spec.Address.Root) {
		example = value + spec.Address.Root
	}
	if example == "" {
		example = spec.Address.Default
	}
	return fmt.Sprintf("is base_url your API's root, such as %s?", example)
}

func notFound(d Diagnosis, ep suite.Endpoint, spec apis.Spec, at string, rec probe.Record) Diagnosis {
	if u := rec.Seen.Upstream; u != "" {
		// latgate's fault proxy answered: the endpoint's address is right
		// as far as the proxy; the upstream behind it did not know the path.
		d.Finding, d.models = vocab.NotFound, false
		d.Says = fmt.Sprintf("%s: the upstream %q behind latgate's fault proxy does not serve %s: its upstreams.%s.to is its address without the API's path (http://host:port, not …/v1)", rec.Error, u, pathOf(at), u)
		return d
	}
	key, value := address(ep, spec)
	path, root := pathOf(at), spec.Address.Root
	switch {
	case root != "" && strings.Contains(path, root+root):
		fixed := strings.Replace(value, root+root, root, 1)
		if fixed == value { // the API's path doubled it: its base must not end in it
			fixed = strings.TrimSuffix(value, root)
		}
		d.Finding, d.Says = vocab.DoubledV1, fmt.Sprintf("%s: the path holds %s twice: set %s: %s", rec.Error, root, key, fixed)
	case root != "" && key == apis.BaseURL && !hasSegment(pathOf(value), root):
		d.Finding, d.Says = vocab.MissingV1, fmt.Sprintf("%s: base_url %s has no %s, under which OpenAI-compatible servers serve this API: set base_url: %s", rec.Error, value, root, value+root)
	default:
		d.Finding, d.models = vocab.NotFound, spec.Address.Models != ""
		d.Says = fmt.Sprintf("%s: is %s the API's address? (%s is what latgate called)", rec.Error, key, at)
	}
	return d
}

func hasSegment(path, seg string) bool { return strings.Contains(path+"/", seg+"/") }

func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Path
}

func redirectSays(ep suite.Endpoint, spec apis.Spec, at string, rec probe.Record) string {
	key, value := address(ep, spec)
	to := rec.Seen.Location
	if to == "" {
		to = rec.Seen.Redirected
	}
	says := fmt.Sprintf("the server redirects %s to %s: latgate sends a key to no other origin, and a redirect followed would add its round trip to every measurement", at, to)
	from, err1 := url.Parse(at)
	dest, err2 := url.Parse(to)
	if err1 != nil || err2 != nil {
		return says + ": set " + key + " to where it leads"
	}
	moved := dest.String()
	if key == apis.BaseURL {
		moved = movedBase(from, dest, value)
	}
	return says + ": set " + key + ": " + moved
}

func netSays(spec apis.Spec, at string, rec probe.Record) (vocab.Finding, string) {
	host := at
	if u, err := url.Parse(at); err == nil {
		host = u.Host
	}
	key := spec.Address.Key
	switch rec.Seen.Net {
	case probe.NoHost:
		return vocab.NoDNS, fmt.Sprintf("the host of %s does not resolve (DNS: %s): is %s's host right, and reachable from this machine?", host, rec.Error, key)
	case probe.Refused:
		return vocab.ConnRefused, fmt.Sprintf("nothing listens at %s (connection refused): is the server running, and %s's port right?", host, key)
	}
	return vocab.BadTLS, fmt.Sprintf("the TLS handshake with %s failed (%s): an https:// %s needs a server that speaks TLS with a certificate this machine trusts (a server without TLS is http://)", host, rec.Error, key)
}

func keySays(ep suite.Endpoint, rec probe.Record) string {
	if ep.APIKeyEnv == "" {
		return rec.Error + ": no key was sent: set api_key_env to the variable that holds this server's key"
	}
	return fmt.Sprintf("%s: the server refused the key in $%s: is it set to this server's key (and one that may use model %q)?", rec.Error, ep.APIKeyEnv, ep.Model)
}

// bufferedWait is the shortest wait before an answer that arrived in one
// piece for it to be said buffered: a fast stream read by a loaded client
// arrives in one piece too (seen: 16 tokens in one read after 24 ms, at
// load average 24 on 2 cores), and to a reader an answer within a quarter
// second is as good as streamed.
const bufferedWait = 250 * time.Millisecond

// bufferedFix is what buffered says to change.
const bufferedFix = "a proxy or gateway in front of the server holds the stream and releases it at once, so TTFT would be the whole answer's time: turn its buffering off (nginx: proxy_buffering off, or the response header X-Accel-Buffering: no)"

// confirmBuffered is the diagnosis of an endpoint whose first answer
// arrived buffered (first), from a second request sent after the first
// had ended (second). A buffering proxy holds every answer; a client
// that could not read in time (a browser starting beside it, a CPU hog)
// gets one answer in one piece and the next streamed. So buffered stands
// only when the second arrived in one piece too; otherwise the second's
// own diagnosis stands, saying what became of the first.
func confirmBuffered(ep suite.Endpoint, url string, first, second probe.Record) Diagnosis {
	d := diagnose(ep, url, second)
	switch d.Finding {
	case vocab.NotStreamed:
		d.Says = fmt.Sprintf("the answers of two requests, the second sent after the first had ended, each arrived in one piece: %d tokens %s after the request, then %d tokens %s after it: %s",
			first.OutputTokens, ms3(first.TTFT), second.OutputTokens, ms3(second.TTFT), bufferedFix)
	case vocab.Usable:
		d.Says += fmt.Sprintf("; a first request's %d tokens had arrived in one piece, %s after it, but this second one's did not: a late read on a busy machine, not a buffering proxy (which holds every answer)",
			first.OutputTokens, ms3(first.TTFT))
	}
	return d
}

// sawSays is what a usable endpoint's request saw.
func sawSays(rec probe.Record) string {
	var b strings.Builder
	if rec.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", rec.Status)
	}
	if rec.Seen.ContentType != "" {
		fmt.Fprintf(&b, " %s", rec.Seen.ContentType)
	}
	if rec.FirstEvent != probe.Missing {
		fmt.Fprintf(&b, ", first event %s", ms3(rec.FirstEvent))
	}
	if rec.TTFT != probe.Missing {
		fmt.Fprintf(&b, ", TTFT %s", ms3(rec.TTFT))
	}
	events := len(rec.ITL) + 1
	fmt.Fprintf(&b, ", %d tokens in %d events", rec.OutputTokens, events)
	if rec.Buffered() {
		fmt.Fprintf(&b, ", in one piece, but within %s: as good as streamed to a reader", ms3(bufferedWait))
	} else if events >= probe.BufferedEvents {
		b.WriteString(", streamed")
	} else {
		fmt.Fprintf(&b, " (too few to tell whether it streams: %d are needed)", probe.BufferedEvents)
	}
	return strings.TrimPrefix(b.String(), ", ")
}

func ms3(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

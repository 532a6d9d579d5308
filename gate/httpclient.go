package gate

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
)

// newHTTPClient keeps at least as many idle connections per host as the
// suite has requests in flight (on all its lanes) (Go keeps 2 by default, which would turn
// every burst into new connections), and room for every endpoint of both
// suites of an A/B run in the pool (sized for one suite's, a switch
// between two hosts dropped the other's connections); none for
// cold-connection suites.
func newHTTPClient(cfg, baseCfg *suite.Config) *http.Client {
	inFlight, endpoints := 1, 0
	for _, c := range []*suite.Config{cfg, baseCfg} {
		if c == nil {
			continue
		}
		for _, s := range c.Scenarios {
			n := s.Concurrency
			if s.Rate > 0 {
				n = s.MaxInFlight
			}
			inFlight = max(inFlight, n*max(cfg.Lanes, 1)) // the head's lanes run both suites
		}
		endpoints += len(c.Endpoints)
	}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          inFlight * max(endpoints, 1),
		MaxIdleConnsPerHost:   inFlight,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableKeepAlives:     cfg.Limits.ColdConnections,
	}
	return &http.Client{Transport: tr, CheckRedirect: sameOriginRedirects(endpointBases(cfg, baseCfg))}
}

// endpointBases maps each endpoint's request URL (without its query) to
// the key that configures it: its base_url, or url for a custom endpoint.
func endpointBases(cfgs ...*suite.Config) map[string]endpointBase {
	out := map[string]endpointBase{}
	for _, c := range cfgs {
		if c == nil {
			continue
		}
		for _, ep := range c.Endpoints {
			api := apiOf(ep)
			u := stripQuery(probe.URL(api, targetOf(ep)))
			if spec, _ := apis.Lookup(string(api)); spec.Address.Key == apis.URL {
				out[u] = endpointBase{key: apis.URL}
				continue
			}
			out[u] = endpointBase{key: apis.BaseURL, base: ep.BaseURL}
		}
	}
	return out
}

// endpointBase is how an endpoint's URL is configured.
type endpointBase struct{ key, base string }

func stripQuery(u string) string {
	before, _, _ := strings.Cut(u, "?")
	return before
}

// sameOriginRedirects follows a redirect only to the same scheme, host and
// port: the request carries the endpoint's key (in Authorization, x-api-key,
// x-goog-api-key, api-key or a header of the suite's) and the prompt, and
// Go's client would send most of them on to another host. A redirect
// elsewhere fails the request with the URL to configure instead.
func sameOriginRedirects(bases map[string]endpointBase) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		from := via[0].URL
		if req.URL.Scheme == from.Scheme && req.URL.Host == from.Host {
			return nil
		}
		to := *req.URL
		to.RawQuery, to.Fragment = "", ""
		eb, ok := bases[stripQuery(from.String())]
		set := "url to " + to.String()
		if !ok || eb.key == "base_url" {
			set = "base_url to " + movedBase(from, &to, eb.base)
		}
		return fmt.Errorf("the server redirects to %s://%s, another origin, and latgate never sends a key or prompt to another origin: set %s", to.Scheme, to.Host, set)
	}
}

// movedBase is the base URL a redirect points to: the new URL less the API
// path the request appended to its base (/chat/completions, …), when the
// new URL ends with it; else the new URL's origin.
func movedBase(from, to *url.URL, base string) string {
	b, err := url.Parse(base)
	if err != nil || base == "" {
		return to.Scheme + "://" + to.Host
	}
	api := strings.TrimPrefix(from.Path, strings.TrimSuffix(b.Path, "/"))
	if api == from.Path && b.Path != "" && b.Path != "/" || !strings.HasSuffix(to.Path, api) {
		return to.Scheme + "://" + to.Host
	}
	moved := *to
	moved.Path = strings.TrimSuffix(to.Path, api)
	return moved.String()
}

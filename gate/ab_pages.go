package gate

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/latgate/latgate/scrape"
	"github.com/latgate/latgate/suite"
)

// movePages moves an endpoint's metrics_url pages with its address when
// --base-url or --head-url moved it from old to now: a page on the old
// address's origin (the engine's own /metrics) is read on the new one,
// its path and query kept, so each variant's scrapes are its own server's;
// a page on another origin (a GPU exporter's) is read as written, which
// the returned warnings say, naming the page by its place in the list
// (its URL may hold a secret).
func movePages(ep *suite.Endpoint, flag, old, now string) []string {
	from, to := httpOrigin(old), httpOrigin(now)
	if from == nil || to == nil {
		return nil
	}
	side := "base"
	if strings.Contains(flag, "head") {
		side = "head"
	}
	var warnings []string
	for i, page := range ep.MetricsURLs {
		u, err := url.Parse(page)
		if err != nil {
			continue
		}
		if !scrape.SameOrigin(page, from.String()) {
			if !scrape.SameOrigin(page, to.String()) {
				warnings = append(warnings, fmt.Sprintf("endpoint %q: %s moves it to another server, but its metrics_url[%d] is not on its address's origin and is read for the %s as written: its figures are the %s's only if that page serves both servers (else give the %s a suite of its own, with its own metrics_url)",
					ep.Name, flag, i, side, side, side))
			}
			continue
		}
		u.Scheme, u.Host = to.Scheme, to.Host
		ep.MetricsURLs[i] = u.String()
	}
	return warnings
}

// httpOrigin is an address's origin as its metrics page is served: a
// WebSocket's on http or https; nil for no URL.
func httpOrigin(addr string) *url.URL {
	u, err := url.Parse(addr)
	if err != nil || u.Host == "" {
		return nil
	}
	scheme := map[string]string{"ws": "http", "wss": "https"}[strings.ToLower(u.Scheme)]
	if scheme == "" {
		scheme = strings.ToLower(u.Scheme)
	}
	return &url.URL{Scheme: scheme, Host: u.Host}
}

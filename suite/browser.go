package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Browser is how an endpoint drives a chat page in a real browser (api
// browser, docs/config.md): the page's selectors, how each request starts
// clean, the CPU throttling and viewport, and what the page is given.
type Browser struct {
	// Input, Submit (a selector, or "Enter") and Output are required;
	// Done, Stream and Reset ("reload" or a selector) are optional.
	Input, Submit, Output, Done, Reset, Stream string
	// CPUThrottle is Chrome's CPU throttling rate (1: none).
	CPUThrottle float64
	// Width and Height are the viewport in CSS pixels (0: the default).
	Width, Height int
	// Cookies are set for the page's origin; a value taken from the
	// environment is a secret.
	Cookies map[string]string
	// Screenshots: keep screenshots of the page in the results (the
	// default); they show whatever the page shows.
	Screenshots bool
}

// rawBrowser is the endpoint's browser block as written.
type rawBrowser struct {
	Path        string   `yaml:"path"`
	Input       string   `yaml:"input"`
	Submit      string   `yaml:"submit"`
	Output      string   `yaml:"output"`
	Done        string   `yaml:"done"`
	Reset       string   `yaml:"reset"`
	Stream      string   `yaml:"stream"`
	CPUThrottle *float64 `yaml:"cpu_throttle"`
	Viewport    *struct {
		Width  int `yaml:"width"`
		Height int `yaml:"height"`
	} `yaml:"viewport"`
	Cookies     map[string]string `yaml:"cookies"`
	Screenshots *bool             `yaml:"screenshots"`
}

// cookieName is a cookie's name: an RFC 6265 token.
var cookieName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// browser reads an endpoint's browser block: the selectors it needs, the
// bounds of cpu_throttle and viewport, the cookies (with their ${VAR}
// values, secrets).
func (p *parser) browser(ip string, e *Endpoint, re rawEndpoint) {
	bp := ip + ".browser"
	rb := re.Browser
	if rb == nil {
		return // the API's Needs say it is required
	}
	b := &Browser{Input: rb.Input, Submit: rb.Submit, Output: rb.Output, Done: rb.Done, Reset: rb.Reset, Stream: rb.Stream, CPUThrottle: 1,
		Screenshots: rb.Screenshots == nil || *rb.Screenshots}
	e.Browser = b
	if rb.Path != "" {
		// A pull request controls the suite: the program it would name
		// would run with the job's keys in its environment.
		p.errf(p.line(bp+".path"), "endpoint %q: browser.path is not read from a suite (a pull request can change the suite, and latgate would run the program it names in a job that holds the keys): set $CHROME_PATH where latgate runs (a workflow's env), or leave it unset to use the browser on PATH", e.Name)
	}
	for _, k := range []struct{ key, v, says string }{{"input", b.Input, "the prompt box"}, {"submit", b.Submit, `the send button, or "Enter"`}, {"output", b.Output, "where the answer appears: the text of its last match"}} {
		if strings.TrimSpace(k.v) == "" {
			p.errf(p.line(bp), "endpoint %q: browser.%s is required: the CSS selector of %s", e.Name, k.key, k.says)
		}
	}
	if rb.CPUThrottle != nil {
		b.CPUThrottle = *rb.CPUThrottle
		if !(b.CPUThrottle >= 1 && b.CPUThrottle <= 20) {
			p.errf(p.line(bp+".cpu_throttle"), "endpoint %q: browser.cpu_throttle %g: Chrome's CPU throttling rate, from 1 (none) to 20 (4 is DevTools' mid-tier mobile)", e.Name, b.CPUThrottle)
		}
	}
	if v := rb.Viewport; v != nil {
		b.Width, b.Height = v.Width, v.Height
		if v.Width < 100 || v.Height < 100 || v.Width > 7680 || v.Height > 4320 {
			p.errf(p.line(bp+".viewport"), "endpoint %q: browser.viewport %dx%d: width and height in CSS pixels, from 100 to 7680×4320", e.Name, v.Width, v.Height)
		}
	}
	p.browserCookies(bp, e, rb.Cookies)
}

// browserCookies reads the cookies the page gets, their values expanded.
func (p *parser) browserCookies(bp string, e *Endpoint, raw map[string]string) {
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		key := bp + ".cookies." + n
		if !cookieName.MatchString(n) {
			p.errf(p.line(key), "endpoint %q: browser.cookies: %q is not a cookie name (letters, digits and !#$%%&'*+-.^_`|~)", e.Name, n)
			continue
		}
		v, secrets := p.expand(key, e.Name, "browser.cookies."+n, raw[n])
		e.envSecrets = append(e.envSecrets, secrets...)
		if strings.ContainsAny(v, ";\r\n") {
			// Never echo it: it is usually a session's token.
			p.errf(p.line(key), "endpoint %q: browser.cookies.%s: a cookie's value holds no ';' and no line break", e.Name, n)
			continue
		}
		if e.Browser.Cookies == nil {
			e.Browser.Cookies = map[string]string{}
		}
		e.Browser.Cookies[n] = v
	}
}

// browserParts are what changes a page's latency in its fingerprint: the
// page (its path and query, where not the host's root), CPU throttling and
// viewport.
func browserParts(e Endpoint, parts map[string]string) {
	b := e.Browser
	if b == nil {
		return
	}
	if u, err := url.Parse(e.URL); err == nil && (strings.Trim(u.Path, "/") != "" || u.RawQuery != "") {
		// The page itself: two builds on one host differ by path or query
		// (hashed: a query may carry a token).
		h := sha256.Sum256([]byte(u.EscapedPath() + "?" + u.RawQuery))
		parts["page"] = hex.EncodeToString(h[:8])
	}
	if b.CPUThrottle != 1 {
		parts["cpu_throttle"] = fmt.Sprintf("%g", b.CPUThrottle)
	}
	if b.Width > 0 {
		parts["viewport"] = fmt.Sprintf("%dx%d", b.Width, b.Height)
	}
}

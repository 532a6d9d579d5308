// Package browser measures a chat page in a real browser: it drives
// Chromium or Chrome over the DevTools protocol (chromedp), types a prompt
// into the page, clicks send and measures what the page paints (the first
// frame that shows answer text, the last that changed it, the gaps
// between, long frames) and the page's own answer stream as the browser
// received it (DevTools network events), from t0 = the click as the
// page's event loop saw it. The client stage is what the page adds between
// the wire and the screen. docs/metrics.md defines every figure.
//
// The page is hostile input: it gets a fresh profile, no API key and no
// cookie unless Options name them; downloads, permission prompts, popups
// and navigation away from its origin are blocked; its console errors and
// failed requests are kept for a failure's message. Every wait is bounded
// by Options.Timeout, and the browser is closed on every exit path.
package browser

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Options say how to drive one chat page.
type Options struct {
	// URL is the chat page (http or https).
	URL string
	// Input is the CSS selector of the prompt box; Submit the selector of
	// the send button, or "Enter" to press Enter in the prompt box; Output
	// the selector of the answer (the text of its last match).
	Input, Submit, Output string
	// Done, when set, is a selector shown when the answer is complete; by
	// default a turn ends when the page's answer stream ended and the
	// answer has not changed for Quiet.
	Done string
	// Reset is how each request starts clean: "reload" (the default) or a
	// selector to click (a "new chat" button).
	Reset string
	// Stream, when set, is a substring of the answer stream's URL; by
	// default the first request after the click whose response carries
	// answer text.
	Stream string
	// CPUThrottle is Chrome's CPU throttling rate (1: none; 4: DevTools'
	// mid-tier mobile).
	CPUThrottle float64
	// Viewport is the page's size in CSS pixels (default 1280×800).
	Viewport Viewport
	// Cookies are set for the page's origin before it loads, HttpOnly
	// (the page's scripts cannot read them) and sent to that origin only
	// (cookieParams); the page gets no other.
	Cookies []Cookie
	// Timeout bounds every turn: waiting for the page, its elements, its
	// answer.
	Timeout time.Duration
	// Quiet is how long the answer must stay unchanged after the stream
	// ended for the turn to end (default 500 ms).
	Quiet time.Duration
	// Shots: take screenshots at the first turn's first paint and at the
	// end of each ok request (Result.FirstPaint, Result.End), and where a
	// request failed on the page (Result.Screenshot); none without it. A
	// screenshot shows whatever the page shows.
	Shots bool
}

// Viewport is a page size in CSS pixels.
type Viewport struct{ Width, Height int }

// Cookie is a cookie the page gets for its origin.
type Cookie struct{ Name, Value string }

// SubmitEnter is the Submit that presses Enter in the prompt box.
const SubmitEnter = "Enter"

// ResetReload is the Reset that reloads the page.
const ResetReload = "reload"

// Defaults.
const (
	DefaultQuiet   = 500 * time.Millisecond
	DefaultTimeout = 60 * time.Second
)

// DefaultViewport is the page size when Options give none.
var DefaultViewport = Viewport{Width: 1280, Height: 800}

// ErrOptions wraps every error of Options.Check.
var ErrOptions = errors.New("browser options")

// withDefaults fills what o leaves unset.
func (o Options) withDefaults() Options {
	if o.Reset == "" {
		o.Reset = ResetReload
	}
	if o.CPUThrottle == 0 {
		o.CPUThrottle = 1
	}
	if o.Viewport == (Viewport{}) {
		o.Viewport = DefaultViewport
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Quiet <= 0 {
		o.Quiet = DefaultQuiet
	}
	return o
}

// Check reports what is wrong with o before any browser starts: the URL,
// the selectors given, the throttling rate and the viewport. Whether a
// selector is valid CSS is checked in the page (Page.Check).
func (o Options) Check() error {
	var errs []string
	u, err := url.Parse(o.URL)
	switch {
	case o.URL == "":
		errs = append(errs, "url: missing (the chat page)")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		errs = append(errs, fmt.Sprintf("url %q: want an http:// or https:// URL of the chat page", o.URL))
	}
	for _, s := range []struct{ key, val string }{{"input", o.Input}, {"submit", o.Submit}, {"output", o.Output}} {
		if strings.TrimSpace(s.val) == "" {
			errs = append(errs, s.key+": missing (a CSS selector)")
		}
	}
	if o.CPUThrottle != 0 && (o.CPUThrottle < 1 || o.CPUThrottle > 20) {
		errs = append(errs, fmt.Sprintf("cpu_throttle %g: between 1 (none) and 20", o.CPUThrottle))
	}
	v := o.Viewport
	if v != (Viewport{}) && (v.Width < 100 || v.Height < 100 || v.Width > 7680 || v.Height > 4320) {
		errs = append(errs, fmt.Sprintf("viewport %dx%d: width and height between 100 and 7680×4320", v.Width, v.Height))
	}
	for _, c := range o.Cookies {
		if c.Name == "" || strings.ContainsAny(c.Name+c.Value, ";\r\n") {
			errs = append(errs, fmt.Sprintf("cookie %q: a name, and no ';' or line break in the name or value", c.Name))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s", ErrOptions, strings.Join(errs, "; "))
	}
	return nil
}

// selectors are the CSS selectors o gives, by key.
func (o Options) selectors() [][2]string {
	out := [][2]string{{"input", o.Input}, {"output", o.Output}}
	if o.Submit != SubmitEnter {
		out = append(out, [2]string{"submit", o.Submit})
	}
	if o.Done != "" {
		out = append(out, [2]string{"done", o.Done})
	}
	if o.Reset != "" && o.Reset != ResetReload {
		out = append(out, [2]string{"reset", o.Reset})
	}
	return out
}

package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// world is the name of the instrument's isolated world.
const world = "latgate"

//go:embed instrument.js
var instrument string

// maxConsole bounds the console lines a page keeps for a failure's message.
const maxConsole = 8

// Page is one tab driving the chat page. A Page is used by one goroutine
// at a time; pages of one Browser run side by side.
type Page struct {
	o      Options
	ctx    context.Context
	cancel context.CancelFunc
	frame  cdp.FrameID
	target string
	origin string
	net    *netLog
	loaded bool
	first  *Shot // the screenshot at the first paint of the turn running

	mu        sync.Mutex
	world     string                  // the instrument's context (its unique id); "" when none
	doc       *network.ResourceTiming // the main document's timing (browser clock)
	docStatus int                     // and its HTTP status
	loads     map[cdp.LoaderID]bool   // the main frame's documents that fired load
	console   []string                // since the request began
	blocked   []string                // what the page was stopped from doing
	offset    float64                 // browser − page milliseconds; NaN when not known
}

// NewPage opens a tab in a browser context of its own and prepares it for
// o: the instrument, the network log (scan reads the answer stream's text;
// nil: NewScanner), blocked navigation, downloads and popups, the
// viewport, CPU throttling and the cookies. The page is loaded by Open.
func (b *Browser) NewPage(o Options, scan func(string) TextScanner) (*Page, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	u, _ := url.Parse(o.URL)
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &Page{o: o, ctx: ctx, cancel: cancel, origin: u.Scheme + "://" + u.Host, net: newNetLog(scan)}
	if err := p.setup(); err != nil {
		cancel()
		return nil, fmt.Errorf("cannot open a tab: %w", err)
	}
	return p, nil
}

// Close closes the tab and its browser context.
func (p *Page) Close() { p.cancel() }

func (p *Page) setup() error {
	// The tab's loop lives as long as the context of its first call: the
	// page's own, bounded by a timer.
	late := time.AfterFunc(StartTimeout, p.cancel)
	err := chromedp.Do(p.ctx)
	if !late.Stop() {
		return fmt.Errorf("no tab within %v", StartTimeout)
	}
	if err != nil {
		return err
	}
	sctx, cancel := context.WithTimeout(p.ctx, StartTimeout)
	defer cancel()
	c := chromedp.FromContext(p.ctx)
	p.target = string(c.Target.TargetID)
	if err := chromedp.Listen(p.ctx, p.event); err != nil {
		return err
	}
	if err := chromedp.ListenBrowser(p.ctx, p.browserEvent); err != nil {
		return err
	}
	tree, err := chromedp.Call(sctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	p.frame = tree.FrameTree.Frame.ID
	return p.configure(sctx, c.BrowserContextID)
}

// configure sends the commands that make the tab what o describes.
func (p *Page) configure(ctx context.Context, bc cdp.BrowserContextID) error {
	o := p.o
	calls := []func() error{
		func() error {
			_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: instrument, WorldName: world})
			return err
		},
		func() error {
			_, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
			return err
		},
		func() error {
			_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*", ResourceType: network.ResourceTypeDocument}}})
			return err
		},
		func() error {
			_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: bc, EventsEnabled: ptr(true)})
			return err
		},
		func() error {
			_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: int64(o.Viewport.Width), Height: int64(o.Viewport.Height), DeviceScaleFactor: 1})
			return err
		},
		func() error {
			_, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: o.CPUThrottle})
			return err
		},
	}
	for _, c := range o.Cookies {
		calls = append(calls, func() error {
			_, err := chromedp.Call(ctx, network.SetCookie, cookieParams(c, o.URL))
			return err
		})
	}
	for _, call := range calls {
		if err := call(); err != nil {
			return err
		}
	}
	return nil
}

// cookieParams set c for the exact origin of page (a URL Check
// accepted): host-only (no Domain), bound to the origin's scheme and port
// (the browser runs with origin-bound cookies: see flags), for every path,
// HttpOnly so that the page's scripts cannot read it (nor show it in a
// screenshot), Secure on https, and never sent on a request another site
// starts.
func cookieParams(c Cookie, page string) network.SetCookieParams {
	u, _ := url.Parse(page)
	port, _ := strconv.Atoi(u.Port())
	scheme := network.CookieSourceSchemeNonSecure
	if u.Scheme == "https" {
		scheme = network.CookieSourceSchemeSecure
	}
	if port == 0 {
		port = map[network.CookieSourceScheme]int{network.CookieSourceSchemeNonSecure: 80, network.CookieSourceSchemeSecure: 443}[scheme]
	}
	return network.SetCookieParams{Name: c.Name, Value: c.Value, URL: u.Scheme + "://" + u.Host + "/", Path: "/",
		HTTPOnly: ptr(true), Secure: ptr(u.Scheme == "https"), SameSite: network.CookieSameSiteStrict,
		SourceScheme: scheme, SourcePort: int64(port)}
}

func ptr[T any](v T) *T { return &v }

// note keeps a console line (bounded) for a failure's message.
func (p *Page) note(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.console) < maxConsole {
		p.console = append(p.console, clip(line, 300))
	}
}

// block records what the page was stopped from doing: the request fails.
func (p *Page) block(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.blocked) < maxConsole {
		p.blocked = append(p.blocked, clip(what, 300))
	}
}

// event handles the tab's events in the order they came; it runs in the
// tab's loop and sends no command (those go to their own goroutine).
func (p *Page) event(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExecutionContextCreated:
		p.contextCreated(ev.Context)
	case *runtime.EventExecutionContextsCleared:
		p.mu.Lock()
		p.world = ""
		p.mu.Unlock()
	case *runtime.EventExecutionContextDestroyed:
		p.mu.Lock()
		if p.world == ev.ExecutionContextUniqueID {
			p.world = ""
		}
		p.mu.Unlock()
	case *runtime.EventExceptionThrown:
		p.note("uncaught " + exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			p.note("console." + string(ev.Type) + ": " + argsText(ev.Args))
		}
	case *page.EventJavascriptDialogOpening:
		p.note("dialog (" + string(ev.Type) + "): " + ev.Message)
		go func() {
			_, _ = chromedp.Call(p.after(), page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}()
	case *fetch.EventRequestPaused:
		go p.guard(ev)
	case *page.EventLifecycleEvent:
		if ev.FrameID == p.frame && ev.Name == "load" {
			p.mu.Lock()
			if p.loads != nil {
				p.loads[ev.LoaderID] = true
			}
			p.mu.Unlock()
		}
	default:
		p.networkEvent(ev)
	}
}

func (p *Page) contextCreated(c *runtime.ExecutionContextDescription) {
	if c.Name != world {
		return
	}
	var aux struct {
		FrameID cdp.FrameID `json:"frameId"`
	}
	if json.Unmarshal(c.AuxData, &aux) == nil && aux.FrameID == p.frame {
		p.mu.Lock()
		p.world = c.UniqueID
		p.mu.Unlock()
	}
}

// networkEvent feeds the network log; the main document's response gives
// the clock's pairing.
func (p *Page) networkEvent(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if p.net.sent(string(ev.RequestID), ev.Request.URL, string(ev.Type), float64(ev.Timestamp)*1000) {
			go p.streamContent(ev.RequestID)
		}
	case *network.EventResponseReceived:
		r := ev.Response
		if ev.Type == network.ResourceTypeDocument && ev.FrameID == p.frame {
			p.mu.Lock()
			p.doc, p.docStatus = r.Timing, int(r.Status)
			p.mu.Unlock()
		}
		headers := float64(ev.Timestamp) * 1000
		if r.Timing != nil {
			headers = r.Timing.RequestTime*1000 + r.Timing.ReceiveHeadersEnd
		}
		p.net.response(string(ev.RequestID), int(r.Status), r.MimeType, headers, connOf(r.Timing))
	case *network.EventDataReceived:
		p.net.data(string(ev.RequestID), float64(ev.Timestamp)*1000, int(ev.DataLength), ev.Data)
	case *network.EventLoadingFinished:
		p.net.finished(string(ev.RequestID), float64(ev.Timestamp)*1000)
	case *network.EventLoadingFailed:
		if ev.Canceled {
			// The page stopped reading: the stream ends there.
			p.net.finished(string(ev.RequestID), float64(ev.Timestamp)*1000)
			return
		}
		p.net.loadFailed(string(ev.RequestID), "", ev.ErrorText, float64(ev.Timestamp)*1000)
	}
}

// connOf is a request's connection set-up from its resource timing (-1:
// a phase that did not happen, as on a kept-open connection).
func connOf(t *network.ResourceTiming) Conn {
	if t == nil || t.ConnectStart < 0 {
		return Conn{Reused: true}
	}
	span := func(a, b float64) float64 { return max(0, b-a) }
	c := Conn{Connect: span(t.ConnectStart, t.ConnectEnd)}
	if t.DNSStart >= 0 {
		c.DNS = span(t.DNSStart, t.DNSEnd)
	}
	if t.SslStart >= 0 {
		c.TLS = span(t.SslStart, t.SslEnd)
		c.Connect -= c.TLS // DevTools' connect span holds the TLS handshake
	}
	return c
}

// streamContent asks for a followed request's bytes as they arrive.
func (p *Page) streamContent(id network.RequestID) {
	ctx := p.after()
	res, err := chromedp.Call(ctx, network.StreamResourceContent, network.StreamResourceContentParams{RequestID: id})
	p.net.buffered(string(id), res.BufferedData, err)
}

// browserEvent closes the page's popups (noted) and blocks its downloads.
func (p *Page) browserEvent(ev any) {
	switch ev := ev.(type) {
	case *cdpbrowser.EventDownloadWillBegin:
		if ev.FrameID == p.frame {
			p.block("the page started a download of " + safeURL(ev.URL) + " (blocked)")
		}
	case *target.EventTargetCreated:
		if i := ev.TargetInfo; i.Type == "page" && string(i.OpenerID) == p.target {
			what := "the page opened a window"
			if i.URL != "" && i.URL != "about:blank" {
				what += " " + safeURL(i.URL)
			}
			p.note(what + " (closed)")
			go func() {
				_, _ = chromedp.CallBrowser(p.after(), target.CloseTarget, target.CloseTargetParams{TargetID: i.TargetID})
			}()
		}
	}
}

// guard lets the page's documents load from its own origin only: a main
// frame navigating elsewhere is stopped, and the request fails.
func (p *Page) guard(ev *fetch.EventRequestPaused) {
	ctx := p.after()
	if ev.FrameID == p.frame && originOf(ev.Request.URL) != p.origin {
		p.block("the page navigated to " + safeURL(ev.Request.URL) + ", away from " + p.origin + " (blocked)")
		_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		return
	}
	_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// safeURL is a URL without its query and fragment (which may hold a
// token), for messages.
func safeURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL)"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return clip(u.String(), 120)
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		text = strings.SplitN(d.Exception.Description, "\n", 2)[0]
	}
	return text
}

func argsText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		var s string
		if json.Unmarshal(a.Value, &s) != nil {
			s = a.Description
			if s == "" {
				s = string(a.Value)
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// ErrNavigated is the error of an evaluation whose document went away.
var ErrNavigated = errors.New("the page reloaded or navigated away during the request")

package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/latgate/latgate/internal/clock"
)

// poll is how often the driver looks at the page while it waits.
const poll = 40 * time.Millisecond

// js is v as a JavaScript literal (Go's JSON escapes U+2028 and U+2029).
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// eval calls window.__latgate.<call> in the instrument's world of the
// current document and decodes its value into out (nil: ignored).
func (p *Page) eval(ctx context.Context, call string, out any) error {
	p.mu.Lock()
	id := p.world
	p.mu.Unlock()
	if id == "" {
		return ErrNavigated
	}
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{
		Expression: "window.__latgate." + call, UniqueContextID: id, ReturnByValue: ptr(true), Silent: ptr(true)})
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil && strings.Contains(err.Error(), "context"):
		return ErrNavigated
	case err != nil:
		return err
	case res.ExceptionDetails != nil:
		return fmt.Errorf("the instrument failed: %s", exceptionText(res.ExceptionDetails))
	case out == nil:
		return nil
	}
	return json.Unmarshal(res.Result.Value, out)
}

// bound is a context of the tab (what chromedp's calls need) that ends
// after d, or when ctx (the caller's) ends.
func (p *Page) bound(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	tctx, cancel := context.WithTimeout(p.ctx, d)
	stop := context.AfterFunc(ctx, cancel)
	return tctx, func() { stop(); cancel() }
}

// sleep waits d or until ctx is done; it reports whether ctx is live.
func sleep(ctx context.Context, d time.Duration) bool {
	var c clock.Real
	return c.Until(ctx, c.Now().Add(d))
}

// Open loads the page and checks that every selector of the options is
// valid CSS in it: an error here is bad input or a page that cannot be
// measured, before any request.
func (p *Page) Open(ctx context.Context) error {
	ctx, cancel := p.bound(ctx, p.o.Timeout)
	defer cancel()
	if err := p.load(ctx); err != nil {
		return err
	}
	var names []string
	var sels []string
	for _, s := range p.o.selectors() {
		names, sels = append(names, s[0]), append(sels, s[1])
	}
	var bad []string
	if err := p.eval(ctx, "check("+js(sels)+")", &bad); err != nil {
		return fmt.Errorf("%s: %w", safeURL(p.o.URL), err)
	}
	if len(bad) > 0 {
		var msgs []string
		for _, b := range bad {
			for i, s := range sels {
				if s == b {
					msgs = append(msgs, fmt.Sprintf("%s %q", names[i], b))
				}
			}
		}
		return fmt.Errorf("%w: not valid CSS selectors: %s", ErrOptions, strings.Join(msgs, ", "))
	}
	return nil
}

// load (re)loads the page and waits for its instrument; then pairs its
// clock with the browser's.
func (p *Page) load(ctx context.Context) error {
	p.mu.Lock()
	p.world, p.doc, p.docStatus, p.blocked, p.offset = "", nil, 0, nil, math.NaN()
	p.loads = map[cdp.LoaderID]bool{}
	p.mu.Unlock()
	nav, err := chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: p.o.URL})
	if err == nil && nav.ErrorText != "" {
		err = errors.New(nav.ErrorText)
	}
	if err != nil {
		if b := p.blockedNow(); b != "" {
			return errors.New(b)
		}
		return fmt.Errorf("cannot load %s: %w", safeURL(p.o.URL), err)
	}
	for {
		p.mu.Lock()
		loaded, status := p.loads[nav.LoaderID], p.docStatus
		p.mu.Unlock()
		if loaded {
			if status >= 400 {
				return fmt.Errorf("cannot load %s: it answered HTTP %d", safeURL(p.o.URL), status)
			}
			break
		}
		if !sleep(ctx, 5*time.Millisecond) {
			return fmt.Errorf("%s did not load within %v", safeURL(p.o.URL), p.o.Timeout)
		}
	}
	for {
		p.mu.Lock()
		ready := p.world != ""
		p.mu.Unlock()
		if ready {
			break
		}
		if !sleep(ctx, 5*time.Millisecond) {
			return fmt.Errorf("%s loaded, but latgate's instrument did not start in it", safeURL(p.o.URL))
		}
	}
	p.loaded = true
	return p.pairClock(ctx)
}

// pairClock finds the offset between the browser's clock (DevTools
// network events) and the page's (performance.now()): the main document's
// request start on both (DevTools' requestTime + sendStart, the Navigation
// Timing entry's requestStart, the same instant).
func (p *Page) pairClock(ctx context.Context) error {
	var c *struct{ RequestStart, ResponseStart float64 }
	if err := p.eval(ctx, "clock()", &c); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c != nil && p.doc != nil && p.doc.SendStart >= 0 {
		p.offset = p.doc.RequestTime*1000 + p.doc.SendStart - c.RequestStart
	}
	return nil
}

func (p *Page) blockedNow() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.blocked) == 0 {
		return ""
	}
	return p.blocked[0]
}

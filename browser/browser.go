package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// StartTimeout bounds how long a browser may take to start.
const StartTimeout = 30 * time.Second

// closeTimeout bounds a graceful close; the process is killed after it.
const closeTimeout = 5 * time.Second

// Browser is one running browser with a fresh profile (a temporary
// directory removed at Close). Each Page is a tab in a browser context of
// its own (no cookie or storage shared between pages). Close it on every
// exit path; a canceled parent context closes it too, and on Linux the
// kernel kills it when the program dies.
type Browser struct {
	Path, Version string

	ctx         context.Context // the first tab's: it holds the browser
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	once        sync.Once
}

// flags are the browser's switches: chromedp's defaults (headless, no
// first run, no background networking, no throttling of background
// pages) and no permission prompt.
func flags(path string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
	)
}

// discard drops chromedp's own log lines (the events it does not know).
func discard(string, ...any) {}

// Start starts the browser at path (see Find) with a fresh profile. It
// fails when the browser does not start within StartTimeout.
func Start(ctx context.Context, path string) (*Browser, error) {
	actx, acancel := chromedp.NewExecAllocator(ctx, flags(path)...)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(discard), chromedp.WithErrorf(discard))
	b := &Browser{Path: path, ctx: bctx, cancel: bcancel, allocCancel: acancel}
	late := time.AfterFunc(StartTimeout, bcancel)
	err := chromedp.Do(bctx)
	timedOut := !late.Stop()
	if err == nil {
		var v cdpbrowser.GetVersionResult
		v, err = chromedp.CallBrowser(bctx, cdpbrowser.GetVersion, cdp.Empty{})
		b.Version = v.Product
	}
	if err != nil {
		b.Close()
		if timedOut {
			return nil, fmt.Errorf("browser %s did not start within %v", path, StartTimeout)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("cannot start the browser %s: %w", path, err)
	}
	return b, nil
}

// Process is the browser's process (nil once closed).
func (b *Browser) Process() *os.Process {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		return c.Browser.Process()
	}
	return nil
}

// Close closes the browser: gracefully within closeTimeout, then killed;
// it waits for its processes and removes its profile. It is safe to call
// more than once.
func (b *Browser) Close() {
	b.once.Do(func() {
		ctx, cancel := context.WithTimeout(b.ctx, closeTimeout)
		if err := chromedp.Cancel(ctx); err != nil && !errors.Is(err, context.Canceled) {
			b.cancel()
		}
		cancel()
		b.cancel()
		b.allocCancel()
	})
}

package gate

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// pageOf is how the probe drives an endpoint's chat page (api browser);
// nil for an endpoint that is no page.
func pageOf(ep suite.Endpoint) *browser.Options {
	b := ep.Browser
	if b == nil {
		return nil
	}
	o := &browser.Options{URL: ep.URL, Input: b.Input, Submit: b.Submit, Output: b.Output, Done: b.Done, Reset: b.Reset,
		Stream: b.Stream, CPUThrottle: b.CPUThrottle, Viewport: browser.Viewport{Width: b.Width, Height: b.Height}}
	names := make([]string, 0, len(b.Cookies))
	for n := range b.Cookies {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		o.Cookies = append(o.Cookies, browser.Cookie{Name: n, Value: b.Cookies[n]})
	}
	return o
}

// pages finds the browser the suites' pages need, before any request (an
// error that says how to install one when there is none), and returns
// the pool that starts it at the first page's request; nil when no
// endpoint is a page. Every page runs in one browser: the first's.
func pages(ctx context.Context, env browser.Env, cfgs ...*suite.Config) (*probe.Pages, error) {
	for _, cfg := range cfgs {
		if cfg == nil {
			continue
		}
		for _, ep := range cfg.Endpoints {
			if ep.Browser == nil {
				continue
			}
			path, err := browser.Find(ep.Browser.Path, env)
			if err != nil {
				return nil, BadInputf("endpoint %q (a chat page in a browser): %v", ep.Name, err)
			}
			return probe.NewPages(ctx, path), nil
		}
	}
	return nil, nil
}

// optSigned is a difference of times (negative allowed), null when it was
// not observed.
func optSigned(d time.Duration) *float64 {
	if d == probe.Missing {
		return nil
	}
	v := ms(d)
	return &v
}

// pageOfRecord fills a page's stream and client stage in its file form.
func pageOfRecord(q *results.Request, r probe.Record) {
	p := r.Page
	q.Stream = &results.PageStream{TTFBMs: optMs(p.StreamTTFB), FirstTextMs: optMs(p.FirstText), EndMs: optMs(p.StreamEnd)}
	q.ClientMs, q.ClientEndMs = optSigned(p.Client), optSigned(p.ClientEnd)
	long, chars := p.LongFrames, p.PaintedChars
	q.LongFrames, q.MaxFrameMs, q.PaintedChars = &long, optMs(p.MaxFrame), &chars
}

// pageWarning is a note for a run whose pages' answer stream was not
// found (the client stage is then null).
func pageWarning(name string, noStream, ok int) string {
	return fmt.Sprintf("%s: %d of %d pages showed an answer but latgate saw no answer stream: the client stage is null; set browser.stream to a substring of the stream's URL (a page on a WebSocket has none latgate reads)", name, noStream, ok)
}

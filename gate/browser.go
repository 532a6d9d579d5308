package gate

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// AbortBrowsers kills every browser a run started and removes its
// temporary folders at once: for a process about to exit without its
// cleanup (a second signal, a stop past its grace).
func AbortBrowsers() { browser.Abort() }

// pageOf is how the probe drives an endpoint's chat page (api browser);
// nil for an endpoint that is no page.
func pageOf(ep suite.Endpoint) *browser.Options {
	b := ep.Browser
	if b == nil {
		return nil
	}
	o := &browser.Options{URL: ep.URL, Input: b.Input, Submit: b.Submit, Output: b.Output, Done: b.Done, Reset: b.Reset,
		Stream: b.Stream, CPUThrottle: b.CPUThrottle, Viewport: browser.Viewport{Width: b.Width, Height: b.Height}, Shots: b.Screenshots}
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

// pages finds the browser the suites' pages need and how it runs, before
// any request: the one $CHROME_PATH names, else one on PATH (a suite never
// names a program: a pull request controls it), sandboxed unless the
// environment allows otherwise ($LATGATE_BROWSER_NO_SANDBOX, said on w);
// own, when set, is the browser of latgate's own page (the demo's). Either
// error says how to fix it. It returns the pool that starts the browser at
// the first page's request; nil when no endpoint is a page.
func pages(ctx context.Context, env browser.Env, own *browser.Config, w io.Writer, cfgs ...*suite.Config) (*probe.Pages, error) {
	ep := firstPage(cfgs)
	if ep == nil {
		return nil, nil
	}
	if own != nil {
		return probe.NewPages(ctx, *own), nil
	}
	path, err := browser.Find(env)
	if err != nil {
		return nil, BadInputf("endpoint %q (a chat page in a browser): %v", ep.Name, err)
	}
	noSandbox, err := browser.Sandbox(env)
	if err != nil {
		return nil, BadInputf("endpoint %q (a chat page in a browser): %v", ep.Name, err)
	}
	if noSandbox && w != nil {
		fmt.Fprintln(w, "latgate: "+browser.NoSandboxNote)
	}
	return probe.NewPages(ctx, browser.Config{Path: path, NoSandbox: noSandbox}), nil
}

// firstPage is the suites' first endpoint that is a chat page; nil when
// none is.
func firstPage(cfgs []*suite.Config) *suite.Endpoint {
	for _, cfg := range cfgs {
		if cfg == nil {
			continue
		}
		for i := range cfg.Endpoints {
			if cfg.Endpoints[i].Browser != nil {
				return &cfg.Endpoints[i]
			}
		}
	}
	return nil
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
	if len(p.Painted) > 0 || len(p.Received) > 0 {
		q.PageTimeline = &results.PageTimeline{Painted: pointsOf(p.Painted), Received: pointsOf(p.Received)}
	}
}

// pointsOf is a page timeline's file form: [ms, count] pairs.
func pointsOf(pts []probe.PagePoint) [][2]float64 {
	out := make([][2]float64, len(pts))
	for i, pt := range pts {
		out[i] = [2]float64{ms(pt.At), float64(pt.N)}
	}
	return out
}

// shotsOf is a page's screenshots in their file form (standard base64).
func shotsOf(shots []probe.PageShot) []results.Screenshot {
	out := make([]results.Screenshot, len(shots))
	for i, s := range shots {
		out[i] = results.Screenshot{At: s.Kind, Ms: optMs(s.At), JPEG: base64.StdEncoding.EncodeToString(s.JPEG)}
	}
	return out
}

// keepShown keeps a browser run's page timelines and screenshots where the
// report shows them: on the median and the p95 request by TTFT
// (report.PageShown), and the screenshots of its first
// report.MaxFailureShots failures; a screenshot is 3–6 KB, and every
// request's would make a results file several times larger.
func keepShown(run *results.Run) {
	shown := report.PageShown(run.Requests)
	fails := 0
	for i := range run.Requests {
		q := &run.Requests[i]
		if slices.Contains(shown, i) || (q.PageTimeline == nil && len(q.Screenshots) == 0) {
			continue
		}
		q.PageTimeline = nil
		var keep []results.Screenshot
		for _, s := range q.Screenshots {
			if s.At == vocab.AtFailure && fails < report.MaxFailureShots {
				keep, fails = append(keep, s), fails+1
			}
		}
		q.Screenshots = keep
	}
}

// pageWarning is a note for a run whose pages' answer stream was not
// found (the client stage is then null).
func pageWarning(name string, noStream, ok int) string {
	return fmt.Sprintf("%s: %d of %d pages showed an answer but latgate saw no answer stream: the client stage is null; set browser.stream to a substring of the stream's URL (a page on a WebSocket has none latgate reads)", name, noStream, ok)
}

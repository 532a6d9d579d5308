package probe

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/latgate/latgate/browser"
)

// Pages are the tabs of one browser for api browser: the browser starts
// (a fresh profile) at the first request that needs it and lives until
// Close; each request takes a tab of its endpoint's page (loaded once,
// then reset by each request) and gives it back, so that concurrent
// requests run in tabs of their own.
type Pages struct {
	cfg browser.Config
	ctx context.Context // the browser's life: the run's

	mu     sync.Mutex
	b      *browser.Browser
	err    error // why the browser did not start
	idle   map[string][]*browser.Page
	open   []*browser.Page
	closed bool
}

// NewPages returns the pool of the browser cfg names (browser.Find,
// browser.Sandbox), which lives as long as ctx or until Close.
func NewPages(ctx context.Context, cfg browser.Config) *Pages {
	return &Pages{cfg: cfg, ctx: ctx, idle: map[string][]*browser.Page{}}
}

// errClosed is take's error once Pages is closed.
var errClosed = errors.New("the browser is closed")

// pageKey identifies a page's options among the idle tabs.
func pageKey(o browser.Options) string { return fmt.Sprintf("%#v", o) }

// take gives a tab of o's page: an idle one, or a new one, loaded and its
// selectors checked (an error of browser.ErrOptions: every request would
// fail the same way).
func (ps *Pages) take(ctx context.Context, o browser.Options) (*browser.Page, error) {
	b, pg, err := ps.reuse(o)
	if err != nil || pg != nil {
		return pg, err
	}
	pg, err = b.NewPage(o, nil)
	if err != nil {
		return nil, err
	}
	if err := pg.Open(ctx); err != nil {
		pg.Close()
		return nil, err
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed {
		pg.Close()
		return nil, errClosed
	}
	ps.open = append(ps.open, pg)
	return pg, nil
}

// reuse is an idle tab of o's page, or the browser to open one in
// (started now when it was not).
func (ps *Pages) reuse(o browser.Options) (*browser.Browser, *browser.Page, error) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed {
		return nil, nil, errClosed
	}
	k := pageKey(o)
	if n := len(ps.idle[k]); n > 0 {
		pg := ps.idle[k][n-1]
		ps.idle[k] = ps.idle[k][:n-1]
		return nil, pg, nil
	}
	if ps.b == nil && ps.err == nil {
		ps.b, ps.err = browser.Start(ps.ctx, ps.cfg)
	}
	return ps.b, nil, ps.err
}

// put gives a tab back after its request; a tab whose page went away
// (the request failed) is closed, and the next request opens another.
func (ps *Pages) put(o browser.Options, pg *browser.Page, res browser.Result) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.closed || !res.OK {
		pg.Close()
		return
	}
	k := pageKey(o)
	ps.idle[k] = append(ps.idle[k], pg)
}

// Close closes every tab and the browser (its processes and profile).
func (ps *Pages) Close() {
	ps.mu.Lock()
	ps.closed = true
	open, b := ps.open, ps.b
	ps.open, ps.idle = nil, nil
	ps.mu.Unlock()
	for _, pg := range open {
		pg.Close()
	}
	if b != nil {
		b.Close()
	}
}

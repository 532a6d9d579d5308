package scrape

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/latgate/latgate/internal/clock"
)

// Scraper reads one server's metrics page.
type Scraper struct {
	// URL is the page (e.g. http://127.0.0.1:8000/metrics).
	URL   string
	Names Names
	// Client sends the scrapes (http.DefaultClient when nil); redirects
	// are not followed.
	Client *http.Client
	// Clock times the samples and each scrape's timeout (clock.Real when
	// nil).
	Clock clock.Clock
	// Interval is the time between samples during a run (default 1 s);
	// Timeout bounds one scrape (default 5 s).
	Interval, Timeout time.Duration
	// Endpoint is the URL of the endpoint the page describes and Auth its
	// authentication headers: they are sent with the scrape only when the
	// page is on the endpoint's origin (same scheme, host and port).
	Endpoint string
	Auth     http.Header
}

// MaxSamples bounds the samples of one run (at 1 s, over two hours).
const MaxSamples = 10000

// MaxWarnings is the number of warnings a Summary keeps.
const MaxWarnings = 8

// SameOrigin reports whether a and b are on one origin: scheme, host and
// port (the scheme's default when none is given), compared without case.
func SameOrigin(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || ua.Host == "" {
		return false
	}
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		return map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Hostname(), ub.Hostname()) && port(ua) == port(ub)
}

// Scrape reads the page once.
func (s *Scraper) Scrape(ctx context.Context) (Page, []string, error) {
	clk := clock.Or(s.Clock)
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	t := clk.AfterFunc(timeout, func() { cancel(fmt.Errorf("no page within %s", timeout)) })
	defer t.Stop()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return Page{}, nil, err
	}
	if SameOrigin(s.URL, s.Endpoint) {
		for k, v := range s.Auth {
			req.Header[k] = slices.Clone(v)
		}
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4;q=1, application/openmetrics-text;version=1.0.0;q=0.5")
	resp, err := s.client().Do(req)
	if err != nil {
		if c := context.Cause(ctx); c != nil && !errors.Is(c, context.Canceled) {
			err = c
		}
		return Page{}, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Page{}, nil, fmt.Errorf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	p, warnings, err := Read(resp.Body, resp.Header.Get("Content-Type"), s.Names)
	if err != nil && context.Cause(ctx) != nil && !errors.Is(context.Cause(ctx), context.Canceled) {
		err = context.Cause(ctx)
	}
	return p, warnings, err
}

func (s *Scraper) client() *http.Client {
	c := http.DefaultClient
	if s.Client != nil {
		c = s.Client
	}
	cc := *c
	cc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cc
}

// Run is a run's scrapes: the page before it, samples while it lasts.
type Run struct {
	s      *Scraper
	before Page
	ok     bool // before was read
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	samples  []Page // their GPUs folded into gpu
	gpu      gpuRun
	scrapes  int
	failed   int
	warnings []string
}

// Start scrapes the page before a run, then samples it every Interval
// until Stop. It never fails: a scrape that fails is a warning.
func (s *Scraper) Start(ctx context.Context) *Run {
	r := &Run{s: s, done: make(chan struct{})}
	r.before, r.ok = r.scrape(ctx, "before the run")
	ctx, r.cancel = context.WithCancel(ctx)
	go r.sample(ctx)
	return r
}

func (r *Run) sample(ctx context.Context) {
	defer close(r.done)
	clk := clock.Or(r.s.Clock)
	interval := r.s.Interval
	if interval <= 0 {
		interval = time.Second
	}
	next := clk.Now()
	for n := 0; ; n++ {
		next = next.Add(interval)
		if !clk.Until(ctx, next) {
			return
		}
		if n == MaxSamples {
			r.warn(fmt.Sprintf("sampling stopped at %d samples", MaxSamples))
			return
		}
		if p, ok := r.scrape(ctx, "during the run"); ok {
			r.mu.Lock()
			r.foldGPUs(&p)
			r.samples = append(r.samples, p)
			r.mu.Unlock()
		}
	}
}

// scrape reads the page once, counting it and warning of a failure.
func (r *Run) scrape(ctx context.Context, when string) (Page, bool) {
	p, warnings, err := r.s.Scrape(ctx)
	if err != nil && ctx.Err() != nil {
		return Page{}, false // the run ended during a sample
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scrapes++
	for _, w := range warnings {
		r.warnLocked(w)
	}
	if err != nil {
		r.failed++
		r.warnLocked(fmt.Sprintf("scraping %s %s failed: %v", r.s.URL, when, err))
		return Page{}, false
	}
	return p, true
}

func (r *Run) warn(w string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnLocked(w)
}

func (r *Run) warnLocked(w string) {
	if len(r.warnings) < MaxWarnings && !slices.Contains(r.warnings, w) {
		r.warnings = append(r.warnings, w)
	}
}

// Stop ends the sampling, scrapes the page after the run and sums up.
func (r *Run) Stop(ctx context.Context) Summary {
	r.cancel()
	<-r.done
	after, ok := r.scrape(ctx, "after the run")
	sum := Summary{URL: r.s.URL}
	if r.ok && ok {
		sum.Stages = r.stages(after)
		sum.Cache = r.cache(after)
		sum.Spec = r.spec(after)
	}
	sum.Gauges = r.gauges()
	sum.GPUs, sum.GPUsLeftOut = r.gpus()
	r.mu.Lock()
	defer r.mu.Unlock()
	sum.Scrapes, sum.Failed, sum.Warnings = r.scrapes, r.failed, r.warnings
	return sum
}

package gate

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// CheckOptions say what latgate check checks.
type CheckOptions struct {
	Config string
	// Browser is a browser of the caller's own for the chat pages (tests);
	// nil: found from the environment, as run finds it.
	Browser *browser.Config
}

// checkTarget is one endpoint and the request check sends it: its first
// scenario's.
type checkTarget struct {
	ep  suite.Endpoint
	req probe.Request
}

// Check is latgate check: every check run makes before its first request
// (checkSuite), then one request to each endpoint of the suite — its first
// scenario's, redirects not followed — and a diagnosis of each, printed
// one line an endpoint. The error is CannotRun when an endpoint is not
// usable, BadInput for a suite run would refuse.
func Check(ctx context.Context, env Env, o CheckOptions) error {
	cfg, _, err := checkSuite(env, ValidateOptions{Config: o.Config})
	if err != nil {
		return err
	}
	ConfigWarnings(env.Stderr, cfg)
	targets, err := checkTargets(cfg)
	if err != nil {
		return err
	}
	client := env.ProbeClient
	if client == nil {
		client = newHTTPClient(cfg, nil)
	}
	client = noRedirects(client)
	benv := browser.OSEnv
	if env.Getenv != nil {
		benv.Getenv = env.Getenv
	}
	pages, err := pages(ctx, benv, o.Browser, env.Stderr, cfg)
	if err != nil {
		return err
	}
	if pages != nil {
		defer pages.Close()
	}
	hide := redact.New(cfg.Secrets()...)
	prober := &probe.Prober{Client: client, Timeout: cfg.Limits.Timeout, StallTimeout: cfg.Limits.StallTimeout,
		ReadingRate: cfg.ReadingRate, Secrets: hide, Pages: pages}
	fmt.Fprintf(env.Stdout, "latgate check: %s: %s, one request each\n", o.Config, count(len(targets), "endpoint"))
	bad := 0
	for _, t := range targets {
		d := checkOne(ctx, prober, client, t)
		if ctx.Err() != nil {
			return AsCannotRun(errors.New("interrupted: the check was stopped"))
		}
		word, finding := "ok    ", ""
		if d.Finding != vocab.Usable {
			word, finding, bad = "FAILED", string(d.Finding)+": ", bad+1
		}
		fmt.Fprintf(env.Stdout, "%s  %s (%s): %s%s\n", word, d.Endpoint, hide.String(t.req.URL), finding, hide.String(d.Says))
	}
	if bad > 0 {
		if len(targets) == 1 {
			return AsCannotRun(errors.New("the endpoint is not usable (above)"))
		}
		return AsCannotRun(fmt.Errorf("%d of %d endpoints not usable (above)", bad, len(targets)))
	}
	return nil
}

// checkOne sends a target's request and diagnoses what it got; an answer
// that arrived in one piece is confirmed by a second request
// (confirmBuffered).
func checkOne(ctx context.Context, prober *probe.Prober, client *http.Client, t checkTarget) Diagnosis {
	rec := prober.Do(ctx, t.req)
	d := diagnose(t.ep, t.req.URL, rec)
	if d.Finding == vocab.NotStreamed && ctx.Err() == nil {
		d = confirmBuffered(t.ep, t.req.URL, rec, prober.Do(ctx, t.req))
	}
	return withModels(ctx, client, t.ep, d)
}

// checkTargets is each endpoint the suite's scenarios use, in the suite's
// order, with its first scenario's request.
func checkTargets(cfg *suite.Config) ([]checkTarget, error) {
	var out []checkTarget
	seen := map[string]bool{}
	for _, s := range cfg.Scenarios {
		for _, ep := range cfg.EndpointsFor(s) {
			if seen[ep.Name] {
				continue
			}
			seen[ep.Name] = true
			req, prepare, err := groupOf(s, ep)
			if err != nil {
				return nil, AsBadInput(err)
			}
			if prepare != nil {
				prepare(0, &req)
			}
			out = append(out, checkTarget{ep: ep, req: req})
		}
	}
	return out, nil
}

// firstRequests diagnoses the first request of each group and side of a
// run (its warmup's first, when it has one): the first that finds its
// endpoint unusable stops the run before it measures (vocab.Finding's
// Stops). A first answer that arrived buffered waits for the group and
// side's first request sent after it ended, which confirms it or not
// (confirmBuffered); those in flight with it met the same moment's load.
// It runs on the runner's aggregator; a diagnosis that asks the server's
// list of models waits for it there, once.
type firstRequests struct {
	ctx    context.Context
	client *http.Client
	m      *measurement
	stop   context.CancelCauseFunc
	hide   *redact.Set // the suites' secrets: a URL or a Location may hold one
	seen   map[firstKey]bool
	// held are the first records that arrived buffered, waiting for a
	// second request to confirm them.
	held  map[firstKey]probe.Record
	found *Diagnosis
}

type firstKey struct {
	group int
	side  vocab.Side
}

// errStopped is the cause a run's context is canceled with when a first
// request found its endpoint unusable.
var errStopped = errors.New("the first request found its endpoint unusable")

func (f *firstRequests) see(g int, rec probe.Record) {
	k := firstKey{g, rec.Variant}
	first, held := f.held[k]
	if f.found != nil || (f.seen[k] && !held) || g >= len(f.m.plan) || rec.Failure == vocab.Canceled {
		return
	}
	if held && rec.Start.Before(first.Start.Add(first.Total)) {
		return // sent while the first was in flight: it cannot confirm it
	}
	f.seen[k] = true
	pl := f.m.plan[g]
	ep := pl.endpoint
	if rec.Variant == vocab.Base && pl.base != nil {
		ep = pl.base.endpoint
	}
	url := probe.URL(apiOf(ep), targetOf(ep))
	d := diagnose(ep, url, rec)
	switch {
	case held:
		delete(f.held, k)
		d = confirmBuffered(ep, url, first, rec)
	case d.Finding == vocab.NotStreamed:
		if f.held == nil {
			f.held = map[firstKey]probe.Record{}
		}
		f.held[k] = rec
		return
	}
	d = withModels(f.ctx, f.client, ep, d)
	if d.Finding.Stops() {
		d.Side, d.Says = rec.Variant, f.hide.String(d.Says)
		f.found = &d
		f.stop(errStopped)
	}
}

// err is the run's stop: nil when no first request stopped it.
func (f *firstRequests) err() error {
	if f.found == nil {
		return nil
	}
	return AsCannotRun(&CheckError{Diagnosis: *f.found})
}

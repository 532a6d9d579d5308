package gate

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/scrape"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// serverScrapes reads the endpoints' own Prometheus pages (metrics_url)
// during each group's measured requests, and keeps what each run's scrapes
// said. A scrape that fails is a warning in the run's server_metrics,
// never a failed run.
type serverScrapes struct {
	ctx      context.Context
	m        *measurement // its plan: a capacity level is planned as it comes
	client   *http.Client
	secrets  *redact.Set
	interval time.Duration // between samples (0: scrape's default, 1 s)

	mu  sync.Mutex
	got map[scrapeKey]*results.ServerMetrics
}

// scrapeKey is a run of the file: its group and its records' variant.
type scrapeKey struct {
	group int
	side  vocab.Side
}

// scrapedPage is one page scraped during a group, and the variants whose
// endpoint names it (both, in an A/B group against one server).
type scrapedPage struct {
	s     *scrape.Scraper
	sides []vocab.Side
}

// measuring is the runner's Measuring hook: it starts the scrapes of group
// g's pages (each of an endpoint's metrics_url) and returns what stops
// them and keeps, per variant, its pages' summaries as one.
func (ss *serverScrapes) measuring(g int) func() {
	pl := ss.m.plan[g]
	var pages []*scrapedPage
	var sides []vocab.Side
	add := func(ep suite.Endpoint, side vocab.Side) {
		sides = append(sides, side)
	next:
		for _, u := range ep.MetricsURLs {
			for _, p := range pages {
				if p.s.URL == u {
					p.sides = append(p.sides, side)
					continue next
				}
			}
			pages = append(pages, &scrapedPage{s: ss.scraperOf(ep, u), sides: []vocab.Side{side}})
		}
	}
	if pl.base != nil {
		add(pl.base.endpoint, vocab.Base)
		add(pl.endpoint, vocab.Head)
	} else {
		add(pl.endpoint, "")
	}
	runs := make([]*scrape.Run, len(pages))
	for i, p := range pages {
		runs[i] = p.s.Start(ss.ctx)
	}
	return func() {
		sums := make([]scrape.Summary, len(pages))
		for i, r := range runs {
			sums[i] = r.Stop(ss.ctx)
		}
		made := map[string]*results.ServerMetrics{} // by the pages: variants of the same pages share one
		for _, side := range sides {
			var mine []scrape.Summary
			var which []string
			shared := false
			for i, p := range pages {
				if slices.Contains(p.sides, side) {
					mine, which = append(mine, sums[i]), append(which, p.s.URL)
					shared = shared || len(p.sides) > 1
				}
			}
			if len(mine) == 0 {
				continue
			}
			key := strings.Join(which, "\n")
			m := made[key]
			if m == nil {
				m = ss.fileForm(scrape.Combine(mine), shared)
				made[key] = m
			}
			ss.mu.Lock()
			ss.got[scrapeKey{g, side}] = m
			ss.mu.Unlock()
		}
	}
}

// of is the server metrics of group g's run of records of variant side;
// nil without a metrics_url.
func (ss *serverScrapes) of(g int, side vocab.Side) *results.ServerMetrics {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.got[scrapeKey{g, side}]
}

// scraperOf is the scraper of an endpoint's page: the engines' known names
// after the suite's own, and the endpoint's key and headers, which it
// sends only to a page on the endpoint's origin.
func (ss *serverScrapes) scraperOf(ep suite.Endpoint, page string) *scrape.Scraper {
	names := scrape.AnyEngine()
	if n := ep.MetricsNames; n != nil {
		names = scrape.Names{Queue: n.Queue, Prefill: n.Prefill, Decode: n.Decode, TTFT: n.TTFT, Waiting: n.Waiting, KVCache: n.KVCache}.Then(names)
	}
	auth := http.Header{}
	for k, v := range ep.Headers {
		auth.Set(k, v)
	}
	if spec, ok := apis.Lookup(ep.API); ok && ep.APIKey != "" {
		auth.Set(spec.Auth.Header, spec.Auth.Value(ep.APIKey))
	}
	return &scrape.Scraper{URL: page, Names: names, Client: ss.client, Interval: ss.interval,
		Endpoint: probe.URL(apiOf(ep), targetOf(ep)), Auth: auth}
}

// fileForm is a run's scrapes in the results file, its warnings without
// the suite's secrets (a page's URL may hold a token).
func (ss *serverScrapes) fileForm(sum scrape.Summary, shared bool) *results.ServerMetrics {
	m := &results.ServerMetrics{Scrapes: sum.Scrapes, Failed: sum.Failed, Shared: shared}
	for _, st := range sum.Stages {
		ms := results.MetricStage{Stage: st.Name, Family: st.Family, Count: st.Count, MeanMs: optMs(st.Mean), Quantiles: []results.MetricQuantile{}}
		for _, q := range st.Quantiles {
			ms.Quantiles = append(ms.Quantiles, results.MetricQuantile{Q: q.Q, Ms: optMs(q.Value), LowerMs: optMs(q.Lower), UpperMs: optMs(q.Upper), AboveTop: q.AboveTop})
		}
		if err := (&results.ServerMetrics{Stages: []results.MetricStage{ms}}).Check(); err != nil {
			// A page's absurd values (a bucket of days, billions of
			// observations) are not written for every read to refuse.
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("%s: values no measurement gives (%s), left out", st.Family, strings.TrimPrefix(err.Error(), "server_metrics.stages[0].")))
			continue
		}
		m.Stages = append(m.Stages, ms)
	}
	for _, g := range sum.Gauges {
		mg := results.MetricGauge{Gauge: g.Name, Family: g.Family, Samples: g.Samples, Median: g.Median, Max: g.Max}
		if err := (&results.ServerMetrics{Gauges: []results.MetricGauge{mg}}).Check(); err != nil {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("%s: %s, left out", g.Family, strings.TrimPrefix(err.Error(), "server_metrics.gauges[0].")))
			continue
		}
		m.Gauges = append(m.Gauges, mg)
	}
	m.GPUs, m.GPUsLeftOut, sum.Warnings = gpusForm(sum, sum.Warnings)
	if s := sum.Spec; s != nil {
		sd := &results.MetricSpec{DraftsFamily: s.DraftsFamily, DraftTokensFamily: s.DraftTokensFamily, AcceptedFamily: s.AcceptedFamily,
			Drafts: s.Drafts, DraftTokens: s.DraftTokens, Accepted: s.Accepted}
		if err := sd.Check(); err != nil {
			sum.Warnings = append(sum.Warnings, strings.TrimPrefix(err.Error(), "server_metrics.")+", left out")
		} else {
			m.Spec = sd
		}
	}
	if c := sum.Cache; c != nil {
		pc := &results.MetricCache{QueriesFamily: c.QueriesFamily, HitsFamily: c.HitsFamily, Queries: c.Queries, Hits: c.Hits}
		if err := pc.Check(); err != nil {
			sum.Warnings = append(sum.Warnings, strings.TrimPrefix(err.Error(), "server_metrics.")+", left out")
		} else {
			m.PrefixCache = pc
		}
	}
	for _, w := range sum.Warnings {
		m.Warnings = append(m.Warnings, clipWords(plainLine(ss.secrets.String(w)), results.MaxReason))
	}
	return m
}

// plainLine is s as one line of printable text: a page's or an error's
// control characters (an escape sequence, a line break) and invalid UTF-8
// become U+FFFD, so that the file's read accepts what its write kept.
func plainLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// gpusForm is a run's GPUs in the results file, their names plain lines
// within the file's bound: a GPU whose gauges the file would refuse is
// left out, said in a warning.
func gpusForm(sum scrape.Summary, warnings []string) ([]results.MetricGPU, int, []string) {
	stats := func(g *scrape.Gauge) *results.GaugeStats {
		if g == nil {
			return nil
		}
		return &results.GaugeStats{Family: g.Family, Samples: g.Samples, Median: g.Median, Max: g.Max}
	}
	var out []results.MetricGPU
	for _, g := range sum.GPUs {
		// A name of control characters grows threefold as plain text
		// (U+FFFD each): cut to the file's bound, not left out.
		mg := results.MetricGPU{GPU: clipWords(plainLine(g.ID), results.MaxReason), Model: clipWords(plainLine(g.Model), results.MaxReason),
			Util: stats(g.Util), MemoryMiB: stats(g.Memory), PowerW: stats(g.Power)}
		if err := (&results.ServerMetrics{GPUs: []results.MetricGPU{mg}}).Check(); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s, left out", strings.TrimPrefix(err.Error(), "server_metrics.")))
			continue
		}
		out = append(out, mg)
	}
	return out, sum.GPUsLeftOut, warnings
}

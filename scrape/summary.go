package scrape

import (
	"fmt"
	"sort"
	"time"
)

// Summary is what a run's scrapes say about the server.
type Summary struct {
	URL string
	// Stages are the histograms the page has, in the order queue, prefill,
	// decode, ttft: the observations made during the run (the page after
	// minus the page before), their count, mean and bucket-based quantiles.
	Stages []Stage
	// Gauges are the gauges sampled during the run.
	Gauges []Gauge
	// Cache is the prefix cache's counters over the run (nil when the
	// page has none, or they went back: a restart).
	Cache *Cache
	// GPUs are each GPU's gauges over the run (at most MaxGPUs, in the
	// order of their hosts and indexes), GPUsLeftOut those beyond.
	GPUs        []GPU
	GPUsLeftOut int
	// Spec is the speculative-decoding counters over the run (nil when
	// the page has none, or they went back).
	Spec *Spec
	// Scrapes counts the scrapes made and Failed those that failed.
	Scrapes, Failed int
	// Warnings say what went wrong (at most MaxWarnings).
	Warnings []string
}

// Quantiles are the quantiles a Stage estimates.
var Quantiles = []float64{0.5, 0.9, 0.95, 0.99}

// Stage is one histogram's delta over a run.
type Stage struct {
	Name, Family string
	Count        float64
	Mean         time.Duration
	Quantiles    []Quantile // empty when Count is 0
}

// Gauge is one gauge over the samples taken during a run.
type Gauge struct {
	Name, Family string
	Samples      int
	Median, Max  float64
}

// stages are the histogram deltas between the page before and after.
func (r *Run) stages(after Page) []Stage {
	var out []Stage
	for _, st := range r.s.Names.stages() {
		fam, h, ok := after.hist(st.families)
		if !ok {
			continue
		}
		b, ok := r.before.hists[fam]
		if !ok {
			b = Histogram{Bounds: h.Bounds, Counts: make([]float64, len(h.Counts))} // the family began during the run
		}
		d, err := h.Sub(b)
		if err != nil {
			r.warn(fmt.Sprintf("%s: %v", fam, err))
			continue
		}
		s := Stage{Name: st.name, Family: fam, Count: d.Count, Mean: d.Mean()}
		for _, q := range Quantiles {
			if v, ok := d.Quantile(q); ok {
				s.Quantiles = append(s.Quantiles, v)
			}
		}
		out = append(out, s)
	}
	return out
}

// Cache is a prefix cache's counters over a run: the prompt tokens looked
// up in it (Queries) and those it held (Hits), the page after the run
// minus the page before, and their families.
type Cache struct {
	QueriesFamily, HitsFamily string
	Queries, Hits             float64
}

// cache is the prefix cache's counters' deltas between the page before
// and after; nil when the page lacks one, or one went back (a restart,
// said in a warning).
func (r *Run) cache(after Page) *Cache {
	qf, q, ok1 := r.delta(after, r.s.Names.CacheQueries)
	hf, h, ok2 := r.delta(after, r.s.Names.CacheHits)
	if !ok1 || !ok2 {
		return nil
	}
	c := &Cache{QueriesFamily: qf, HitsFamily: hf, Queries: q, Hits: h}
	if c.Queries < 0 || c.Hits < 0 || c.Hits > c.Queries {
		r.warn(fmt.Sprintf("%s and %s went back or disagree during the run (the server restarted?): no prefix-cache hit rate", qf, hf))
		return nil
	}
	return c
}

// delta is a counter's change over the run: the first of names the page
// after has, and its sum (over the page's series) less the page before's
// (zero when the counter began during the run); false when the page
// after has none.
func (r *Run) delta(after Page, names []string) (family string, v float64, ok bool) {
	family, a, ok := after.gauge(names)
	if !ok {
		return "", 0, false
	}
	return family, a.sum - r.before.gauges[family].sum, true
}

// gauges are the median and maximum of each gauge over the samples.
func (r *Run) gauges() []Gauge {
	r.mu.Lock()
	samples := r.samples
	r.mu.Unlock()
	var out []Gauge
	n := r.s.Names
	for _, g := range []struct {
		name     string
		families []string
		of       func(gaugeValue) float64 // a sample of the page's series
	}{{GaugeWaiting, n.Waiting, sumOf}, {GaugeKVCache, n.KVCache, maxOf}, {GaugeCacheHit, n.CacheHitRate, maxOf},
		{GaugeSpecRate, n.SpecAcceptRate, meanOf}, {GaugeSpecLength, n.SpecAcceptLength, meanOf}} {
		var vals []float64
		fam := ""
		for _, p := range samples {
			f, v, ok := p.gauge(g.families)
			if !ok {
				continue
			}
			fam = f
			vals = append(vals, g.of(v))
		}
		if len(vals) == 0 {
			continue
		}
		sort.Float64s(vals)
		out = append(out, Gauge{Name: g.name, Family: fam, Samples: len(vals), Median: median(vals), Max: vals[len(vals)-1]})
	}
	return out
}

// sumOf, maxOf and meanOf are a gauge's series summed (requests waiting
// on every engine), the fullest, and their mean (an engine's rate).
func sumOf(v gaugeValue) float64 { return v.sum }
func maxOf(v gaugeValue) float64 { return v.max }
func meanOf(v gaugeValue) float64 {
	if v.n == 0 {
		return 0
	}
	return v.sum / float64(v.n)
}

// median of sorted values.
func median(v []float64) float64 {
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return v[n/2-1]/2 + v[n/2]/2 // no overflow of their sum
}

// Combine is one run's summaries of several pages (an engine's and a GPU
// exporter's) as one: each stage, gauge and counter from the first page
// that has it (another page's of the same name said in a warning), the
// GPUs of every page (at most MaxGPUs), the scrapes and warnings of all.
func Combine(sums []Summary) Summary {
	if len(sums) == 1 {
		return sums[0]
	}
	var out Summary
	stages, gauges := map[string]bool{}, map[string]bool{}
	gpus := map[string]bool{}
	for i, s := range sums {
		if i == 0 {
			out.URL = s.URL
		}
		out.Scrapes += s.Scrapes
		out.Failed += s.Failed
		out.Warnings = append(out.Warnings, s.Warnings...)
		for _, st := range s.Stages {
			if stages[st.Name] {
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s is also on %s: the first page's %s kept", st.Family, s.URL, st.Name))
				continue
			}
			stages[st.Name] = true
			out.Stages = append(out.Stages, st)
		}
		for _, g := range s.Gauges {
			if gauges[g.Name] {
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s is also on %s: the first page's %s kept", g.Family, s.URL, g.Name))
				continue
			}
			gauges[g.Name] = true
			out.Gauges = append(out.Gauges, g)
		}
		out.Cache = cmpOr(out.Cache, s.Cache)
		out.Spec = cmpOr(out.Spec, s.Spec)
		out.GPUsLeftOut += s.GPUsLeftOut
		for _, g := range s.GPUs {
			switch {
			case gpus[g.ID]:
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s is also on %s: the first page's kept", g.ID, s.URL))
			case len(out.GPUs) == MaxGPUs:
				out.GPUsLeftOut++
			default:
				gpus[g.ID] = true
				out.GPUs = append(out.GPUs, g)
			}
		}
	}
	if n := MaxWarnings * len(sums); len(out.Warnings) > n {
		out.Warnings = out.Warnings[:n]
	}
	return out
}

// cmpOr is a unless it is nil, else b.
func cmpOr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

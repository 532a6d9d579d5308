package scrape

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"github.com/latgate/latgate/internal/clocktest"
)

// vllmCachePage is vLLM's prefix-cache counters as prometheus_client's
// text exposition writes them (two engines), in form "text", or as its
// OpenMetrics (the family without _total, its sample with it, a _created
// series), in form "openmetrics".
func vllmCachePage(form string, queries, hits [2]float64) string {
	var b strings.Builder
	for _, c := range []struct {
		name string
		v    [2]float64
	}{{"vllm:prefix_cache_queries", queries}, {"vllm:prefix_cache_hits", hits}} {
		family := c.name + "_total"
		if form == "openmetrics" {
			family = c.name
		}
		fmt.Fprintf(&b, "# HELP %s Prefix cache, in terms of number of tokens.\n# TYPE %s counter\n", family, family)
		for e, v := range c.v {
			fmt.Fprintf(&b, "%s_total{engine=\"%d\",model_name=\"m\"} %v\n", c.name, e, v)
			if form == "openmetrics" {
				fmt.Fprintf(&b, "%s_created{engine=\"%d\",model_name=\"m\"} 1.7e+09\n", c.name, e)
			}
		}
	}
	if form == "openmetrics" {
		b.WriteString("# EOF\n")
	}
	return b.String()
}

// TestReadPrefixCacheCounters: vLLM's prefix-cache counters read summed
// over their engines, in the text exposition, in OpenMetrics (where the
// family is named without _total) and in protobuf.
func TestReadPrefixCacheCounters(t *testing.T) {
	t.Parallel()
	var pb bytes.Buffer
	for _, mf := range []*dto.MetricFamily{
		{Name: proto.String("vllm:prefix_cache_queries_total"), Type: dto.MetricType_COUNTER.Enum(), Metric: []*dto.Metric{{Counter: &dto.Counter{Value: proto.Float64(900)}}, {Counter: &dto.Counter{Value: proto.Float64(100)}}}},
		{Name: proto.String("vllm:prefix_cache_hits_total"), Type: dto.MetricType_COUNTER.Enum(), Metric: []*dto.Metric{{Counter: &dto.Counter{Value: proto.Float64(250)}}, {Counter: &dto.Counter{Value: proto.Float64(50)}}}},
	} {
		if _, err := protodelim.MarshalTo(&pb, mf); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ name, page, contentType string }{
		{"text", vllmCachePage("text", [2]float64{900, 100}, [2]float64{250, 50}), "text/plain; version=0.0.4; charset=utf-8"},
		{"openmetrics", vllmCachePage("openmetrics", [2]float64{900, 100}, [2]float64{250, 50}), "application/openmetrics-text; version=1.0.0; charset=utf-8"},
		{"protobuf", pb.String(), protoDelim},
	} {
		p, warnings, err := Read(strings.NewReader(c.page), c.contentType, vllm)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%s: err %v, warnings %v", c.name, err, warnings)
		}
		_, q, okq := p.gauge(vllm.CacheQueries)
		_, h, okh := p.gauge(vllm.CacheHits)
		if !okq || !okh || q.sum != 1000 || h.sum != 300 {
			t.Errorf("%s: queries %+v (%v), hits %+v (%v): want 1000 and 300 over the two engines", c.name, q, okq, h, okh)
		}
	}
}

// TestReadCounterOfAnotherType: a family named as the counters but given
// as a gauge is left out with a warning, not read as a counter.
func TestReadCounterOfAnotherType(t *testing.T) {
	t.Parallel()
	page := "# TYPE vllm:prefix_cache_hits_total gauge\nvllm:prefix_cache_hits_total 3\n# TYPE vllm:prefix_cache_queries_total counter\nvllm:prefix_cache_queries_total -4\n"
	p, warnings, err := Read(strings.NewReader(page), "text/plain; version=0.0.4", vllm)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.gauges) != 0 || !strings.Contains(strings.Join(warnings, "\n"), "vllm:prefix_cache_hits_total is a GAUGE, not a counter") ||
		!strings.Contains(strings.Join(warnings, "\n"), "below 0") {
		t.Errorf("kept %v, warnings %q", p.gauges, warnings)
	}
}

// cacheEngine serves vLLM's prefix-cache counters, or SGLang's gauge.
type cacheEngine struct {
	mu            sync.Mutex
	queries, hits float64
	rate          float64 // SGLang's gauge
	sglang        bool
}

func (e *cacheEngine) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	if e.sglang {
		fmt.Fprintf(w, "# TYPE sglang:cache_hit_rate gauge\nsglang:cache_hit_rate{tp_rank=\"0\"} %v\n", e.rate)
		return
	}
	fmt.Fprint(w, vllmCachePage("text", [2]float64{e.queries, 0}, [2]float64{e.hits, 0}))
}

func (e *cacheEngine) set(f func()) { e.mu.Lock(); f(); e.mu.Unlock() }

// TestRunPrefixCache: a run's prefix-cache hit rate is its counters'
// deltas (the tokens looked up and found during the run, not since the
// server started); counters that went back (a restart) give none and a
// warning; SGLang's gauge is sampled as the gauges are.
func TestRunPrefixCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &cacheEngine{queries: 5000, hits: 4900} // a warm cache before the run
		srv := clocktest.NewServer(t, e)
		s := &Scraper{URL: srv.URL + "/metrics", Names: AnyEngine(), Client: srv.Client(), Interval: time.Second}
		run := s.Start(context.Background())
		e.set(func() { e.queries, e.hits = 6000, 5150 })
		time.Sleep(1500 * time.Millisecond)
		sum := run.Stop(context.Background())
		want := &Cache{QueriesFamily: "vllm:prefix_cache_queries_total", HitsFamily: "vllm:prefix_cache_hits_total", Queries: 1000, Hits: 250}
		if sum.Cache == nil || *sum.Cache != *want {
			t.Errorf("cache %+v, want %+v: the run's 250 of 1000 tokens", sum.Cache, want)
		}

		run = s.Start(context.Background())
		e.set(func() { e.queries, e.hits = 10, 2 }) // restarted
		sum = run.Stop(context.Background())
		if sum.Cache != nil || !strings.Contains(strings.Join(sum.Warnings, "\n"), "went back") {
			t.Errorf("cache %+v, warnings %q: counters that went back give no hit rate", sum.Cache, sum.Warnings)
		}

		e.set(func() { e.sglang, e.rate = true, 0.5 })
		run = s.Start(context.Background())
		time.Sleep(500 * time.Millisecond) // between samples
		for _, r := range []float64{0.2, 0.9, 0.4} {
			e.set(func() { e.rate = r })
			time.Sleep(time.Second)
		}
		sum = run.Stop(context.Background())
		if g := sum.Gauges; sum.Cache != nil || len(g) != 1 || g[0].Name != GaugeCacheHit || g[0].Family != "sglang:cache_hit_rate" || g[0].Median != 0.4 || g[0].Max != 0.9 {
			t.Errorf("cache %+v, gauges %+v: SGLang's gauge sampled", sum.Cache, g)
		}
	})
}

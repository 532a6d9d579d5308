package gate

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/scrape"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

// TestAbsurdMetricsPageKeepsTheFileReadable: a server whose metrics page
// counts absurd observations between the scrapes (a bucket of 10^7 s, ten
// billion observations) leaves the run whole and its results file
// readable: the stage no measurement gives is left out with a warning,
// never written for every later read to refuse.
func TestAbsurdMetricsPageKeepsTheFileReadable(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, bound, count, sum string }{
		{"a bucket of 10^7 s", "1e7", "10", "1e8"},
		{"ten billion observations", "1", "1e10", "1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				var scrapes atomic.Int32
				chat := sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 4}, 3)
				srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if r.URL.Path != "/metrics" {
						chat.ServeHTTP(w, r)
						return
					}
					count, sum := "0", "0"
					if scrapes.Add(1) > 1 {
						count, sum = tt.count, tt.sum
					}
					w.Header().Set("Content-Type", "text/plain; version=0.0.4")
					fmt.Fprintf(w, "# TYPE vllm:request_queue_time_seconds histogram\n"+
						"vllm:request_queue_time_seconds_bucket{le=\"%s\"} %s\nvllm:request_queue_time_seconds_bucket{le=\"+Inf\"} %s\n"+
						"vllm:request_queue_time_seconds_count %s\nvllm:request_queue_time_seconds_sum %s\n", tt.bound, count, count, count, sum)
				}))
				cfg, err := suite.Parse("latgate.yaml", []byte(`endpoints:
  - {name: e, base_url: "`+srv.URL+`/v1", model: m, metrics_url: "`+srv.URL+`/metrics"}
scenarios:
  - {name: s, prompt: hi, max_tokens: 8, requests: 3, warmup: 0}
`), suite.Options{Getenv: func(string) string { return "" }})
				if err != nil {
					t.Fatal(err)
				}
				f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), ScrapeEvery: time.Hour})
				if err != nil {
					t.Fatal(err)
				}
				m := f.Runs[0].ServerMetrics
				if m == nil || m.Scrapes < 2 {
					t.Fatalf("server metrics %+v", m)
				}
				if err := f.Validate(); err != nil {
					t.Fatalf("the file written is refused on read: %v", err)
				}
				if w := strings.Join(m.Warnings, "\n"); len(m.Stages) != 0 || !strings.Contains(w, "vllm:request_queue_time_seconds: values no measurement gives (") {
					t.Errorf("stages %+v, warnings %q: want the absurd stage left out and said", m.Stages, m.Warnings)
				}
			})
		})
	}
}

// TestScrapeFileFormIsReadable: every stage and gauge a scrape names is
// one the results file accepts, and a warning carrying a page's control
// characters (an escape sequence, a line break) or a secret is written as
// one plain line without it, so that the file's read accepts what its
// write kept.
func TestScrapeFileFormIsReadable(t *testing.T) {
	t.Parallel()
	ms := 12 * time.Millisecond
	sum := scrape.Summary{Scrapes: 2, Warnings: []string{"line 3: bad name \"\x1b[31mred\x1b[0m\"\nnext sk-secret-1", "\xff\xfe invalid"}}
	for _, name := range []string{scrape.StageQueue, scrape.StagePrefill, scrape.StageDecode, scrape.StageTTFT} {
		sum.Stages = append(sum.Stages, scrape.Stage{Name: name, Family: "f_" + name, Count: 3, Mean: ms, Quantiles: []scrape.Quantile{{Q: 0.5, Value: ms, Lower: ms / 2, Upper: ms}}})
	}
	for _, name := range []string{scrape.GaugeWaiting, scrape.GaugeKVCache} {
		sum.Gauges = append(sum.Gauges, scrape.Gauge{Name: name, Family: "g_" + name, Samples: 2, Median: 0.5, Max: 1})
	}
	sum.Gauges = append(sum.Gauges, scrape.Gauge{Name: scrape.GaugeWaiting, Family: "bad\x07family", Samples: 1})
	ss := &serverScrapes{secrets: redact.New("sk-secret-1")}
	m := ss.fileForm(sum, false)
	if err := m.Check(); err != nil {
		t.Fatalf("the file form is refused on read: %v", err)
	}
	if len(m.Stages) != 4 || len(m.Gauges) != 2 {
		t.Errorf("%d stages, %d gauges: want 4 and 2 (the gauge with a bell in its family left out)", len(m.Stages), len(m.Gauges))
	}
	w := strings.Join(m.Warnings, "|")
	if strings.ContainsAny(w, "\x1b\n\x07") || strings.Contains(w, "sk-secret-1") || !strings.Contains(w, "left out") {
		t.Errorf("warnings %q: want plain lines, no secret, the bad gauge said", m.Warnings)
	}
}

// TestScrapeFileFormKeepsHostileGPUs: a GPU exporter's page whose 64 GPUs
// each have a UUID and a MIG instance of 80 control bytes (each written
// as U+FFFD, three bytes) beside four pages' worth of warnings leaves a
// file its read accepts (with absurd stages and gauges left out): each GPU kept under its name cut to the file's
// bound, not left out with one more warning each, past the 100 warnings
// the file holds.
func TestScrapeFileFormKeepsHostileGPUs(t *testing.T) {
	t.Parallel()
	var sum scrape.Summary
	for i := range scrape.MaxWarnings * 4 {
		sum.Warnings = append(sum.Warnings, fmt.Sprintf("page warning %d", i))
	}
	ms := time.Millisecond
	for _, name := range []string{scrape.StageQueue, scrape.StagePrefill, scrape.StageDecode, scrape.StageTTFT} { // a bucket of days: left out
		sum.Stages = append(sum.Stages, scrape.Stage{Name: name, Family: "f_" + name, Count: 3, Mean: ms, Quantiles: []scrape.Quantile{{Q: 0.5, Value: 1e7 * time.Second, Lower: ms, Upper: 1e7 * time.Second}}})
	}
	for _, name := range []string{scrape.GaugeSpecRate, scrape.GaugeSpecLength} { // beyond a rate's and a length's bounds: left out
		sum.Gauges = append(sum.Gauges, scrape.Gauge{Name: name, Family: "sglang:" + name, Samples: 2, Median: 1e6, Max: 1e6})
	}
	ctl := strings.Repeat("\x01", 76)
	for i := range scrape.MaxGPUs {
		util := &scrape.Gauge{Name: "util", Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 3, Median: 50, Max: 60}
		sum.GPUs = append(sum.GPUs, scrape.GPU{ID: fmt.Sprintf("%s%04d MIG %s", ctl, i, ctl), Model: ctl, Util: util})
	}
	m := (&serverScrapes{secrets: redact.New()}).fileForm(sum, false)
	if err := m.Check(); err != nil {
		t.Fatalf("the file form is refused on read: %v", err)
	}
	if len(m.GPUs) != scrape.MaxGPUs {
		t.Errorf("%d GPUs kept, want %d", len(m.GPUs), scrape.MaxGPUs)
	}
}

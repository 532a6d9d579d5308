package scrape

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
)

var vllm, _ = Known("vllm")

const textPage = `# HELP vllm:request_queue_time_seconds Histogram of time spent in WAITING phase for request.
# TYPE vllm:request_queue_time_seconds histogram
vllm:request_queue_time_seconds_bucket{engine="0",le="0.3",model_name="m"} 4
vllm:request_queue_time_seconds_bucket{engine="0",le="0.5",model_name="m"} 6
vllm:request_queue_time_seconds_bucket{engine="0",le="+Inf",model_name="m"} 6
vllm:request_queue_time_seconds_sum{engine="0",model_name="m"} 1.2
vllm:request_queue_time_seconds_count{engine="0",model_name="m"} 6
vllm:request_queue_time_seconds_bucket{engine="1",le="0.3",model_name="m"} 0
vllm:request_queue_time_seconds_bucket{engine="1",le="0.5",model_name="m"} 2
vllm:request_queue_time_seconds_bucket{engine="1",le="+Inf",model_name="m"} 4
vllm:request_queue_time_seconds_sum{engine="1",model_name="m"} 3
vllm:request_queue_time_seconds_count{engine="1",model_name="m"} 4
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{engine="0",model_name="m"} 3
vllm:num_requests_waiting{engine="1",model_name="m"} 2
# TYPE vllm:kv_cache_usage_perc gauge
vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.25
vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.75
# TYPE python_gc_objects_collected_total counter
python_gc_objects_collected_total{generation="0"} 1234
`

func TestReadTextPage(t *testing.T) {
	t.Parallel()
	p, warnings, err := Read(strings.NewReader(textPage), "text/plain; version=0.0.4; charset=utf-8", vllm)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	h := p.hists["vllm:request_queue_time_seconds"]
	want := Histogram{Bounds: []float64{0.3, 0.5, math.Inf(1)}, Counts: []float64{4, 8, 10}, Count: 10, Sum: 4.2}
	if fmt.Sprint(h) != fmt.Sprint(want) {
		t.Errorf("queue = %v, want the two engines summed %v", h, want)
	}
	if g := p.gauges["vllm:num_requests_waiting"]; g.sum != 5 || g.max != 3 {
		t.Errorf("waiting = %+v", g)
	}
	if g := p.gauges["vllm:kv_cache_usage_perc"]; g.max != 0.75 {
		t.Errorf("kv cache = %+v", g)
	}
	if len(p.hists)+len(p.gauges) != 3 {
		t.Errorf("kept %v %v: only the wanted families", p.hists, p.gauges)
	}
}

// TestReadOpenMetrics: the same page in OpenMetrics (_created series, UNIT
// lines, # EOF), as prometheus_client serves it when asked, reads the same.
func TestReadOpenMetrics(t *testing.T) {
	t.Parallel()
	om := `# TYPE vllm:request_queue_time_seconds histogram
# UNIT vllm:request_queue_time_seconds seconds
vllm:request_queue_time_seconds_bucket{le="0.3"} 4.0
vllm:request_queue_time_seconds_bucket{le="+Inf"} 6.0
vllm:request_queue_time_seconds_count 6.0
vllm:request_queue_time_seconds_sum 1.5
vllm:request_queue_time_seconds_created 1.7e+09
# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting 2.0
# TYPE vllm:prompt_tokens counter
vllm:prompt_tokens_total 7.0
vllm:prompt_tokens_created 1.7e+09
# EOF
`
	p, warnings, err := Read(strings.NewReader(om), "application/openmetrics-text; version=1.0.0; charset=utf-8", vllm)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	if h := p.hists["vllm:request_queue_time_seconds"]; h.Count != 6 || h.Counts[0] != 4 {
		t.Errorf("queue = %+v", h)
	}
	if p.gauges["vllm:num_requests_waiting"].sum != 2 {
		t.Errorf("waiting = %+v", p.gauges)
	}
}

func TestReadBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("# a comment line to pad the page out\n", MaxPage/30)
	if _, _, err := Read(strings.NewReader(big), "text/plain", vllm); err == nil || !strings.Contains(err.Error(), "over 4 MiB") {
		t.Errorf("a page over the bound: %v", err)
	}
	var b strings.Builder
	b.WriteString("# TYPE vllm:num_requests_waiting gauge\n")
	for i := range MaxSeries + 1 {
		fmt.Fprintf(&b, "vllm:num_requests_waiting{engine=\"%d\"} 1\n", i)
	}
	p, warnings, err := Read(strings.NewReader(b.String()), "text/plain", vllm)
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0], "4097 series") || len(p.gauges) != 0 {
		t.Errorf("too many series: %v %v %v", err, warnings, p.gauges)
	}
}

func TestReadRefusals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, page, want string }{
		{"not a page", "<html>oops</html>", "not a Prometheus metrics page"},
		{"a histogram typed gauge", "# TYPE vllm:request_queue_time_seconds gauge\nvllm:request_queue_time_seconds 1\n", "is a GAUGE, not a histogram"},
		{"series with different buckets", `# TYPE vllm:request_queue_time_seconds histogram
vllm:request_queue_time_seconds_bucket{e="0",le="1"} 1
vllm:request_queue_time_seconds_bucket{e="0",le="+Inf"} 1
vllm:request_queue_time_seconds_count{e="0"} 1
vllm:request_queue_time_seconds_sum{e="0"} 1
vllm:request_queue_time_seconds_bucket{e="1",le="2"} 1
vllm:request_queue_time_seconds_bucket{e="1",le="+Inf"} 1
vllm:request_queue_time_seconds_count{e="1"} 1
vllm:request_queue_time_seconds_sum{e="1"} 1
`, "different buckets"},
		{"a gauge of NaN", "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting NaN\n", "has the value NaN"},
	} {
		_, warnings, err := Read(strings.NewReader(tt.page), "text/plain", vllm)
		got := fmt.Sprint(err, warnings)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %s, want %q", tt.name, got, tt.want)
		}
	}
}

func TestQuantile(t *testing.T) {
	t.Parallel()
	h := Histogram{Bounds: []float64{0.1, 0.5, 1, math.Inf(1)}, Counts: []float64{50, 90, 99, 100}, Count: 100, Sum: 30}
	for _, tt := range []struct {
		q            float64
		value, lo, u time.Duration
		above        bool
	}{
		{0.5, 100 * time.Millisecond, 0, 100 * time.Millisecond, false},
		{0.7, 300 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, false},
		{0.95, time.Duration(math.Round((0.5 + 0.5*5/9) * 1e9)), 500 * time.Millisecond, time.Second, false},
		{0.995, time.Second, time.Second, Missing, true},
	} {
		got, ok := h.Quantile(tt.q)
		if !ok || got.Value != tt.value || got.Lower != tt.lo || got.Upper != tt.u || got.AboveTop != tt.above {
			t.Errorf("q%v = %+v, want %v in [%v, %v] above %v", tt.q, got, tt.value, tt.lo, tt.u, tt.above)
		}
	}
	if h.Mean() != 300*time.Millisecond {
		t.Errorf("mean = %v", h.Mean())
	}
	if _, ok := (Histogram{Bounds: h.Bounds, Counts: make([]float64, 4)}).Quantile(0.5); ok {
		t.Error("a quantile of no observations")
	}
}

func TestSub(t *testing.T) {
	t.Parallel()
	b := Histogram{Bounds: []float64{1, math.Inf(1)}, Counts: []float64{2, 3}, Count: 3, Sum: 2}
	a := Histogram{Bounds: []float64{1, math.Inf(1)}, Counts: []float64{5, 7}, Count: 7, Sum: 6}
	d, err := a.Sub(b)
	if err != nil || fmt.Sprint(d.Counts) != "[3 4]" || d.Count != 4 || d.Sum != 4 {
		t.Errorf("delta %+v %v", d, err)
	}
	if _, err := b.Sub(a); err != errReset {
		t.Errorf("a reset: %v", err)
	}
}

func TestSameOrigin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/metrics", true},
		{"https://API.example.com/v1", "https://api.example.com:443/metrics", true},
		{"http://127.0.0.1:8000/v1", "http://127.0.0.1:8001/metrics", false},
		{"http://127.0.0.1:8000/v1", "https://127.0.0.1:8000/metrics", false},
		{"http://localhost:8000/v1", "http://127.0.0.1:8000/metrics", false},
		{"http://127.0.0.1:8000/v1", "http://127.0.0.1:8000.evil.example/metrics", false},
		{"", "http://127.0.0.1/metrics", false},
	} {
		if got := SameOrigin(tt.a, tt.b); got != tt.same {
			t.Errorf("SameOrigin(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

// engine serves a vLLM-style page whose queue histogram counts the
// observations observe adds, and whose waiting gauge is set by waiting.
type engine struct {
	mu       sync.Mutex
	queue    []float64 // observations in seconds
	waiting  float64
	auth     []string // the Authorization header of each scrape
	status   int
	pageSize int // pad the page to this many bytes
}

func (e *engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.auth = append(e.auth, r.Header.Get("Authorization"))
	if e.status != 0 {
		w.WriteHeader(e.status)
		return
	}
	var le03, sum float64
	for _, v := range e.queue {
		if v <= 0.3 {
			le03++
		}
		sum += v
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	fmt.Fprintf(w, "# TYPE vllm:request_queue_time_seconds histogram\nvllm:request_queue_time_seconds_bucket{le=\"0.3\"} %v\nvllm:request_queue_time_seconds_bucket{le=\"+Inf\"} %d\nvllm:request_queue_time_seconds_sum %v\nvllm:request_queue_time_seconds_count %d\n", le03, len(e.queue), sum, len(e.queue))
	fmt.Fprintf(w, "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting %v\n", e.waiting)
	if e.pageSize > 0 {
		fmt.Fprint(w, strings.Repeat("#\n", e.pageSize/2))
	}
}

func (e *engine) set(f func()) { e.mu.Lock(); f(); e.mu.Unlock() }

// TestRun: a run's scrapes on virtual time: the histogram's delta is the
// run's own observations, the gauge's median and max come from the
// samples taken during the run, and the key goes to the endpoint's origin
// only.
func TestRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &engine{queue: []float64{0.1, 0.1, 5}} // before the run
		srv := clocktest.NewServer(t, e)
		other := clocktest.NewServer(t, e)
		s := &Scraper{URL: srv.URL + "/metrics", Names: vllm, Client: srv.Client(), Interval: time.Second,
			Endpoint: srv.URL + "/v1", Auth: http.Header{"Authorization": {"Bearer sk-test"}}}
		run := s.Start(context.Background())
		time.Sleep(500 * time.Millisecond) // between samples: the values below are set half a second before each
		for i, w := range []float64{4, 8, 2, 6} {
			e.set(func() { e.waiting = w; e.queue = append(e.queue, 0.2, 0.4+float64(i)/10) })
			time.Sleep(time.Second) // virtual: one sample a second
		}
		sum := run.Stop(context.Background())
		if len(sum.Stages) != 1 || sum.Stages[0].Count != 8 || sum.Stages[0].Name != StageQueue {
			t.Fatalf("stages %+v", sum.Stages)
		}
		if q := sum.Stages[0].Quantiles[0]; q.Q != 0.5 || q.Value != 300*time.Millisecond || q.AboveTop {
			t.Errorf("p50 %+v: half of the run's 8 observations are at most 0.3 s", q)
		}
		if g := sum.Gauges; len(g) != 1 || g[0].Samples != 4 || g[0].Median != 5 || g[0].Max != 8 {
			t.Errorf("gauges %+v", g)
		}
		if sum.Scrapes != 6 || sum.Failed != 0 || len(sum.Warnings) != 0 {
			t.Errorf("scrapes %d failed %d warnings %v", sum.Scrapes, sum.Failed, sum.Warnings)
		}
		for _, a := range e.auth {
			if a != "Bearer sk-test" {
				t.Errorf("a scrape of the endpoint's origin without its key: %q", a)
			}
		}
		e.set(func() { e.auth = nil })
		s2 := *s
		s2.URL = other.URL + "/metrics"
		s2.Start(context.Background()).Stop(context.Background())
		for _, a := range e.auth {
			if a != "" {
				t.Errorf("a page on another origin was sent the key: %q", a)
			}
		}
	})
}

// TestRunFailures: a server that fails, stalls or sends a page too large
// gives warnings, never a failed run or a hang.
func TestRunFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &engine{status: http.StatusServiceUnavailable}
		srv := clocktest.NewServer(t, e)
		s := &Scraper{URL: srv.URL + "/metrics", Names: vllm, Client: srv.Client()}
		run := s.Start(context.Background())
		time.Sleep(1500 * time.Millisecond)
		e.set(func() { e.status, e.pageSize = 0, MaxPage })
		time.Sleep(time.Second)
		sum := run.Stop(context.Background())
		if sum.Failed != 4 || len(sum.Stages) != 0 || len(sum.Warnings) != 4 {
			t.Errorf("failed %d of %d, stages %v, warnings %q", sum.Failed, sum.Scrapes, sum.Stages, sum.Warnings)
		}
		if !strings.Contains(sum.Warnings[0], "before the run failed: HTTP 503") || !strings.Contains(sum.Warnings[2], "over 4 MiB") {
			t.Errorf("warnings %q", sum.Warnings)
		}

		stall := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		start := time.Now()
		st := &Scraper{URL: stall.URL, Names: vllm, Client: stall.Client(), Timeout: 2 * time.Second, Interval: time.Hour}
		sum = st.Start(context.Background()).Stop(context.Background())
		if d := time.Since(start); d != 4*time.Second || sum.Failed != 2 || !strings.Contains(sum.Warnings[0], "no page within 2s") {
			t.Errorf("a stalled page: %v, %+v", d, sum)
		}
	})
}

package gate

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

// keysSeen records the Authorization header of each request to a
// metrics page, by page.
type keysSeen struct {
	mu   sync.Mutex
	keys map[string][]string
}

func (k *keysSeen) wrap(name string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			k.mu.Lock()
			k.keys[name] = append(k.keys[name], r.Header.Get("Authorization"))
			k.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

// TestServerTimingAndMetrics: a run against a simulated engine writes what
// the server reported per request (chat with vLLM's metrics, api ollama's
// durations, each turn of a conversation its own), the outside of each
// TTFT, and its metrics page scraped over the measured requests; the key
// goes to the page on the endpoint's origin, never to one elsewhere. The
// file conforms to its schema.
func TestServerTimingAndMetrics(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testServerTimingAndMetrics)
}

func testServerTimingAndMetrics(t *testing.T) {
	s := sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 4,
		Quirks:   sim.Quirks{RoleChunk: true, PrefixCache: true},
		Capacity: sim.Capacity{Slots: 1}, Engine: &sim.Engine{Front: 2 * time.Millisecond, Report: []string{sim.ReportVLLM}}}, 3)
	seen := &keysSeen{keys: map[string][]string{}}
	srv := clocktest.NewServer(t, seen.wrap("same origin", s))
	other := clocktest.NewServer(t, seen.wrap("other origin", s))
	yaml := `endpoints:
  - {name: vllm, base_url: "` + srv.URL + `/v1", model: m, api_key_env: KEY, metrics_url: "` + srv.URL + `/metrics"}
  - {name: native, api: ollama, base_url: "` + srv.URL + `", model: m, api_key_env: KEY, metrics_url: "` + other.URL + `/metrics"}
scenarios:
  - {name: short, prompt: "Say hello.", max_tokens: 8, requests: 10, warmup: 2, endpoints: [vllm]}
  - {name: talk, prompt: "Say hello.", max_tokens: 8, requests: 4, warmup: 0, turns: ["and then?", "why?"], endpoints: [native]}
budgets:
  queue: {p95: 5s}
limits: {timeout: 10s}
`
	cfg, err := suite.Parse("latgate.yaml", []byte(yaml), suite.Options{Getenv: func(k string) string { return map[string]string{"KEY": "sk-the-key"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), ScrapeEvery: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := fileio.Write(path, f); err != nil {
		t.Fatal(err)
	}
	mustValidate(t, compileSchema(t, "results.schema.json"), "the results file", readFile(t, path))
	short, talk := runNamed(t, f, "short"), runNamed(t, f, "talk")
	for i, q := range short.Requests {
		if q.Server == nil || q.Server.Source != "vllm" || q.Server.PrefillMs == nil || q.OutsideMs == nil || *q.OutsideMs != 2 || *q.Server.QueueMs != 0 || *q.Server.PrefillMs != 3 {
			t.Fatalf("short request %d: server %+v, outside %v (want a queue of 0, a prefill of 3 ms: its prompt cached but one of 6 tokens, and 2 ms outside)", i, q.Server, q.OutsideMs)
		}
	}
	for i, q := range talk.Requests {
		if len(q.Steps) != 3 || q.Server == nil || q.Server.Source != "ollama" {
			t.Fatalf("talk request %d: %d steps, server %+v", i, len(q.Steps), q.Server)
		}
		for j, st := range q.Steps {
			if st.Server == nil || st.Server.PrefillMs == nil {
				t.Fatalf("talk request %d step %d: server %+v", i, j, st.Server)
			}
		}
		// The first conversation's turn 1 is new to the cache (18 ms of
		// prefill); the next ones start as it did, so their turn 1 is
		// cached whole (3 ms: one of 6 prompt tokens evaluated). Turn 2
		// evaluates all but the first turn's prompt.
		p1, p2 := *q.Steps[0].Server.PrefillMs, *q.Steps[1].Server.PrefillMs
		if want := 18.0; i > 0 {
			want = 3
			if p1 != want {
				t.Errorf("talk request %d: turn 1's prefill %v ms, want %v", i, p1, want)
			}
		} else if p1 != want || p2 >= p1 {
			t.Errorf("talk request %d: turn 1's prefill %v ms, want %v, and turn 2's %v below it", i, p1, want, p2)
		}
	}
	checkScraped(t, short.ServerMetrics, len(short.Requests))
	checkScraped(t, talk.ServerMetrics, 3*len(talk.Requests))
	seen.mu.Lock()
	defer seen.mu.Unlock()
	if k := seen.keys["same origin"]; len(k) < 2 || k[0] != "Bearer sk-the-key" {
		t.Errorf("the page on the endpoint's origin got %q, want the key", k)
	}
	for _, k := range seen.keys["other origin"] {
		if k != "" {
			t.Fatalf("a page on another origin got %q", k)
		}
	}
}

// checkScraped: the page's histograms count exactly the measured model
// calls (the warmup requests came before the first scrape).
func checkScraped(t *testing.T, m *results.ServerMetrics, calls int) {
	t.Helper()
	if m == nil || m.Failed != 0 || len(m.Warnings) != 0 || m.Scrapes < 2 {
		t.Fatalf("server metrics %+v", m)
	}
	stages := map[string]results.MetricStage{}
	for _, st := range m.Stages {
		stages[st.Stage] = st
	}
	for _, name := range []string{"queue", "prefill", "decode", "ttft"} {
		if st, ok := stages[name]; !ok || int(st.Count) != calls || len(st.Quantiles) != 4 || !strings.HasPrefix(st.Family, "vllm:") {
			t.Errorf("stage %s: %+v, want %d observations", name, st, calls)
		}
	}
}

func runNamed(t *testing.T, f *results.File, scenario string) *results.Run {
	t.Helper()
	for i := range f.Runs {
		if f.Runs[i].Scenario == scenario {
			return &f.Runs[i]
		}
	}
	t.Fatalf("no run of %s", scenario)
	return nil
}

// TestFailedScrapeIsAWarning: a metrics page that cannot be read leaves
// the run whole; the run's warnings say so.
func TestFailedScrapeIsAWarning(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 4}, 3))
		cfg, err := suite.Parse("latgate.yaml", []byte(`endpoints:
  - {name: e, base_url: "`+srv.URL+`/v1", model: m, metrics_url: "`+srv.URL+`/no-metrics-here"}
scenarios:
  - {name: s, prompt: hi, max_tokens: 8, requests: 5, warmup: 0}
`), suite.Options{Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), ScrapeEvery: 20 * time.Millisecond})
		if err != nil {
			t.Fatalf("a failed scrape failed the run: %v", err)
		}
		m := f.Runs[0].ServerMetrics
		if m == nil || m.Failed == 0 || m.Failed != m.Scrapes || len(m.Stages) != 0 || f.Runs[0].OKCount() != 5 {
			t.Fatalf("server metrics %+v, %d ok", m, f.Runs[0].OKCount())
		}
		w := strings.Join(RunWarnings(f), "\n")
		if !strings.Contains(w, "s @ e: metrics_url: ") || !strings.Contains(w, "HTTP 404 Not Found") {
			t.Errorf("warnings:\n%s", w)
		}
	})
}

// TestUntrustedServerTimingIsAWarning: an Ollama that reports a negative
// duration and one longer than the request: both dropped, counted in the
// file and said once in the run's warnings, the rest kept.
func TestUntrustedServerTimingIsAWarning(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-ndjson")
			_, _ = w.Write([]byte(`{"message":{"role":"assistant","content":"Hi"},"done":false}` + "\n" +
				`{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":1,"prompt_eval_duration":-5,"total_duration":9000000000,"eval_duration":1000}` + "\n"))
		}))
		cfg, err := suite.Parse("latgate.yaml", []byte(`endpoints:
  - {name: e, api: ollama, base_url: "`+srv.URL+`", model: m}
scenarios:
  - {name: s, prompt: hi, max_tokens: 8, requests: 3, warmup: 0}
`), suite.Options{Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		q := f.Runs[0].Requests[0]
		if q.Server == nil || q.Server.Ignored != 2 || q.Server.PrefillMs != nil || q.Server.ProcessingMs != nil || q.Server.DecodeMs == nil ||
			!strings.Contains(q.Server.IgnoredReason, "-5 ns is negative") || q.OutsideMs != nil {
			t.Fatalf("server %+v, outside %v", q.Server, q.OutsideMs)
		}
		if w := strings.Join(RunWarnings(f), "\n"); !strings.Contains(w, "s @ e: the server reported 6 values of its own time that latgate did not trust, ignored (the first: ollama prompt_eval_duration: -5 ns is negative)") {
			t.Errorf("warnings:\n%s", w)
		}
	})
}

// TestScrapesInAB: in an A/B run the two variants' pages are scraped
// apart when they differ, and once when both variants measure one server:
// then both runs hold the same page, said to be shared, its histograms
// counting both variants' requests.
func TestScrapesInAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		engine := func() *clocktest.Server {
			return clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 4,
				Capacity: sim.Capacity{Slots: 4}, Engine: &sim.Engine{Report: []string{sim.ReportVLLM}}}, 3))
		}
		one, two := engine(), engine()
		parse := func(api, page string) *suite.Config {
			cfg, err := suite.Parse("l.yaml", []byte(`endpoints:
  - {name: e, base_url: "`+api+`/v1", model: m, metrics_url: "`+page+`/metrics"}
scenarios:
  - {name: s, prompt: hi, max_tokens: 8, requests: 8, warmup: 0}
`), suite.Options{Getenv: func(string) string { return "" }})
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		}
		for _, tt := range []struct {
			name      string
			base      *suite.Config
			shared    bool
			perRun    int
			samePages bool
		}{{"two servers", parse(one.URL, one.URL), false, 8, false}, {"one server", parse(two.URL, two.URL), true, 16, true}} {
			head := parse(two.URL, two.URL)
			f, err := MeasureAB(context.Background(), tt.base, head, MeasureOptions{Client: one.Client()})
			if err != nil {
				t.Fatal(err)
			}
			var pages []*results.ServerMetrics
			for _, r := range f.Runs {
				m := r.ServerMetrics
				if m == nil || m.Shared != tt.shared || len(m.Stages) == 0 {
					t.Fatalf("%s, %s run: server metrics %+v", tt.name, r.Variant, m)
				}
				pages = append(pages, m)
			}
			if q := pages[0].Stages[0]; int(q.Count) != tt.perRun {
				t.Errorf("%s: the base run's page counts %v requests, want %d", tt.name, q.Count, tt.perRun)
			}
			if (pages[0] == pages[1]) != tt.samePages {
				t.Errorf("%s: the two runs hold one page: %v", tt.name, pages[0] == pages[1])
			}
		}
	})
}

package results

import (
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// TestCheckDoesNotAllocate: every request of every file read is checked,
// 200,000 in a large file; a sound one costs no allocation.
func TestCheckDoesNotAllocate(t *testing.T) {
	v, n := 120.5, 2
	q := &Request{OK: true, TTFTMs: &v, TotalMs: &v, TPOTMs: &v, ITLMs: make([]float64, 31), StepCount: &n,
		Steps:  []Step{{TTFTMs: &v, TotalMs: &v, Server: &ServerTiming{PrefillMs: &v, Source: "ollama"}}, {StartMs: v, ToolMs: 3}},
		Server: &ServerTiming{QueueMs: &v, PrefillMs: &v, Source: "vllm", Ignored: 1}, OutsideMs: &v}
	if allocs := testing.AllocsPerRun(100, func() {
		if err := q.Check(); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("Check allocates %v times per request, want 0", allocs)
	}
	bad := -1.0
	q.Steps[1].TTFCMs = &bad
	if err := q.Check(); err == nil || err.Error() != "steps[1].ttfc_ms is -1: a time is from 0 to 1e+09 ms" {
		t.Errorf("a step's bad time: %v", err)
	}
	q.Steps[1].TTFCMs = nil
	q.Steps[0].Server.DecodeMs = &bad
	if err := q.Check(); err == nil || err.Error() != "steps[0].server.decode_ms is -1: a time is from 0 to 1e+09 ms" {
		t.Errorf("a step's bad server time: %v", err)
	}
	q.Steps[0].Server.DecodeMs = nil
	q.Server.Ignored = -3
	if err := q.Check(); err == nil || err.Error() != "server.ignored is -3: a count is from 0 to 1e+09" {
		t.Errorf("a bad count of ignored values: %v", err)
	}
	q.Server.Ignored, q.OutsideMs = 0, &bad
	if err := q.Check(); err == nil || err.Error() != "outside_ms is -1: a time is from 0 to 1e+09 ms" {
		t.Errorf("a bad outside: %v", err)
	}
}

// TestServerMetricsCheck: a results file's server metrics are bounded
// like its times, and hold only the stages and gauges a scrape writes,
// their names and warnings plain lines of text.
func TestServerMetricsCheck(t *testing.T) {
	ms, huge := 12.5, 2e9
	good := ServerMetrics{Scrapes: 3, Stages: []MetricStage{{Stage: "queue", Count: 4, MeanMs: &ms, Quantiles: []MetricQuantile{{Q: 0.5, Ms: &ms, LowerMs: &ms}}}},
		Gauges: []MetricGauge{{Gauge: "waiting", Samples: 2, Median: 1, Max: 2}}}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		bad  func(m *ServerMetrics)
		want string
	}{
		{func(m *ServerMetrics) { m.Failed = 4 }, "4 of 3 scrapes failed"},
		{func(m *ServerMetrics) { m.Stages[0].Quantiles[0].Q = 1.5 }, "quantile 1.5 is not between 0 and 1"},
		{func(m *ServerMetrics) { m.Stages[0].Quantiles[0].UpperMs = &huge }, "stages[0].upper_ms is 2e+09"},
		{func(m *ServerMetrics) { m.Stages[0].Count = -1 }, "stages[0].count is -1"},
		{func(m *ServerMetrics) { m.Stages[0].Stage = "\x1b[2Jqueue" }, `stages[0].stage is "\x1b[2Jqueue", want one of queue, prefill, decode, ttft`},
		{func(m *ServerMetrics) { m.Stages[0].Family = "vllm\x1b[31m" }, "stages[0].family: over 300 bytes or not printable text"},
		{func(m *ServerMetrics) { m.Gauges[0].Gauge = "temperature" }, `gauges[0].gauge is "temperature"`},
		{func(m *ServerMetrics) { m.Gauges[0].Family = strings.Repeat("g", 301) }, "gauges[0].family: over 300 bytes"},
		{func(m *ServerMetrics) { m.Warnings = []string{"two\nlines"} }, "warnings[0]: over 300 bytes or not printable text"},
		{func(m *ServerMetrics) { m.Gauges = make([]MetricGauge, 9) }, "1 stages and 9 gauges, at most 8 each"},
		{func(m *ServerMetrics) { m.Stages[0].Quantiles = make([]MetricQuantile, 17) }, "17 quantiles, at most 16"},
	} {
		m := good
		m.Gauges = []MetricGauge{good.Gauges[0]}
		m.Stages = []MetricStage{good.Stages[0]}
		m.Stages[0].Quantiles = []MetricQuantile{good.Stages[0].Quantiles[0]}
		tt.bad(&m)
		if err := m.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}

// TestValidateChecked: the checks of a reader that did not keep the
// requests give Validate's errors, with the run and request named.
func TestValidateChecked(t *testing.T) {
	v, bad := 100.0, 2e9
	good := Request{OK: true, TTFTMs: &v, TotalMs: &v}
	f := &File{Schema: Schema, MetricsVersion: MetricsVersion, Runs: []Run{
		{Endpoint: "e", Scenario: "a", Requests: []Request{good}},
		{Endpoint: "e", Scenario: "b", Requests: []Request{good, good, {OK: true, TTFTMs: &v, TotalMs: &bad}, {OK: true}}},
	}}
	want := f.Validate()
	if want == nil || want.Error() != "runs[1].requests[2]: total_ms is 2e+09: a time is from 0 to 1e+09 ms" {
		t.Fatalf("Validate: %v", want)
	}
	checks := make([]RunCheck, 2)
	for i := range f.Runs {
		for j := range f.Runs[i].Requests {
			checks[i].Add(&f.Runs[i].Requests[j])
		}
		f.Runs[i].Requests = nil
	}
	if err := f.ValidateChecked(checks); err == nil || err.Error() != want.Error() {
		t.Errorf("ValidateChecked: %v, want %v", err, want)
	}
	if err := f.ValidateChecked(checks[:1]); err == nil || !strings.Contains(err.Error(), "the checks of 1") {
		t.Errorf("checks of fewer runs: %v", err)
	}
	if err := f.ValidateChecked(make([]RunCheck, 2)); err == nil || !strings.Contains(err.Error(), "runs[0] (endpoint \"e\", scenario \"a\"): no requests") {
		t.Errorf("no request checked: %v", err)
	}
}

// TestCheckFailure: a failed request's kind is one of vocab's or none (a
// file from before failures were typed); an ok request has none.
func TestCheckFailure(t *testing.T) {
	v := 10.0
	for _, tt := range []struct {
		q    Request
		want string
	}{
		{Request{Error: "HTTP 429 Too Many Requests", Failure: vocab.HTTPStatus, Status: 429}, ""},
		{Request{Error: "stalled: …"}, ""},
		{Request{Error: "?", Failure: "<b>guess</b>"}, `failure is "<b>guess</b>": not a kind of failure (http, connection,`},
		{Request{OK: true, TTFTMs: &v, TotalMs: &v, Failure: vocab.Stall}, `an ok request has no failure, got "stall"`},
	} {
		err := tt.q.Check()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want %q", tt.q, err, tt.want)
		}
	}
}

// TestCheckPage: a browser request's stream times are times; its client
// stage may be negative (a page that paints before its stream ended) but
// not beyond ±MaxMs; its counts are counts.
func TestCheckPage(t *testing.T) {
	v, neg, huge, n, bad := 120.5, -40.0, -2e9, 3, -1
	ok := Request{OK: true, TTFTMs: &v, TotalMs: &v, Stream: &PageStream{TTFBMs: &v, FirstTextMs: &v}, ClientMs: &v, ClientEndMs: &neg,
		LongFrames: &n, MaxFrameMs: &v, PaintedChars: &n}
	if err := ok.Check(); err != nil {
		t.Fatalf("a sound browser request: %v", err)
	}
	for _, tt := range []struct {
		edit func(*Request)
		want string
	}{
		{func(q *Request) { q.Stream = &PageStream{EndMs: &neg} }, "stream.end_ms is -40: a time is from 0 to 1e+09 ms"},
		{func(q *Request) { q.ClientEndMs = &huge }, "client_end_ms is -2e+09: a client stage is from -1e+09 to 1e+09 ms"},
		{func(q *Request) { q.MaxFrameMs = &neg }, "max_frame_ms is -40: a time is from 0 to 1e+09 ms"},
		{func(q *Request) { q.LongFrames = &bad }, "long_frames is -1: a count is from 0 to 1e+09"},
	} {
		q := ok
		tt.edit(&q)
		if err := q.Check(); err == nil || err.Error() != tt.want {
			t.Errorf("Check() = %v, want %q", err, tt.want)
		}
	}
}

// TestScreenshotsOnlyOnBrowserRuns: a request may carry screenshots only
// in a run of a chat page in a browser (fingerprint_parts.api "browser");
// on any other run, or one whose parts name no API, the file is refused
// naming the request, by Validate and alike by ValidateChecked (a
// streamed file may give the run's parts after its requests).
func TestScreenshotsOnlyOnBrowserRuns(t *testing.T) {
	t.Parallel()
	v := 100.0
	plain := Request{OK: true, TTFTMs: &v, TotalMs: &v}
	shot := plain
	shot.Screenshots = []Screenshot{{At: vocab.End, JPEG: b64(encodeJPEG(t, 64, 40))}}
	for _, tt := range []struct {
		parts map[string]string
		want  string
	}{
		{map[string]string{"api": BrowserAPI}, ""},
		{map[string]string{"api": "realtime"}, `runs[0].requests[1]: screenshots on a run of fingerprint_parts.api "realtime": only a chat page in a browser ("browser") has screenshots`},
		{map[string]string{"model": "m"}, `runs[0].requests[1]: screenshots on a run of no fingerprint_parts.api: only a chat page in a browser ("browser") has screenshots`},
		{nil, `runs[0].requests[1]: screenshots on a run of no fingerprint_parts.api`},
	} {
		f := &File{Schema: Schema, MetricsVersion: MetricsVersion, Runs: []Run{
			{Endpoint: "e", Scenario: "s", FingerprintParts: tt.parts, Requests: []Request{plain, shot, shot}}}}
		err := f.Validate()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)) {
			t.Errorf("parts %v: %v, want %q", tt.parts, err, tt.want)
			continue
		}
		checks := make([]RunCheck, 1)
		for j := range f.Runs[0].Requests {
			checks[0].Add(&f.Runs[0].Requests[j])
		}
		f.Runs[0].Requests = nil
		if got := f.ValidateChecked(checks); (got == nil) != (err == nil) || got != nil && got.Error() != err.Error() {
			t.Errorf("parts %v: ValidateChecked %v, Validate %v", tt.parts, got, err)
		}
	}
}

// TestIDChecked: a file's ID is one NewID draws (32 lowercase hex digits),
// or none; each drawn is another.
func TestIDChecked(t *testing.T) {
	t.Parallel()
	f := file(run("e", "s", "fp", nil))
	for _, id := range []string{"", NewID()} {
		f.ID = id
		if err := f.Validate(); err != nil {
			t.Errorf("id %q: %v", id, err)
		}
	}
	for _, id := range []string{"x", strings.Repeat("A", 32), strings.Repeat("0", 33), "<script>" + strings.Repeat("0", 24)} {
		f.ID = id
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), "an id is 32 lowercase hexadecimal digits") {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if NewID() == NewID() {
		t.Error("two IDs drawn alike")
	}
}

package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/workload"
)

// writeMooncake writes a Mooncake trace of n entries into dir: one every
// 100 ms, inputs from 40 to 40+30(n−1) tokens, outputs 3 to 7, and
// hash_ids that share block 1 among every entry.
func writeMooncake(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		input := 40 + 30*i
		hashes := []int{1}
		for j := 1; j*16 < input; j++ {
			hashes = append(hashes, 1000*i+j)
		}
		h, _ := json.Marshal(hashes)
		fmt.Fprintf(&b, `{"timestamp": %d, "input_length": %d, "output_length": %d, "hash_ids": %s}`+"\n", 1000+100*i, input, 3+i%5, h)
	}
	path := filepath.Join(dir, "trace.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// workloadSuite is a suite of one workload scenario against srv, its
// trace trace.jsonl beside it in dir.
func workloadSuite(t *testing.T, srv *clocktest.Server, dir, workloadYAML string) *suite.Config {
	t.Helper()
	text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
		"scenarios:\n  - name: prod\n    warmup: 1\n    workload: " + workloadYAML + "\n"
	cfg, err := suite.Parse(filepath.Join(dir, "latgate.yaml"), []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestReplayThroughThePipeline: a Mooncake trace replayed at 4× against
// the simulator (which counts a prompt's words and 4 for its message, and
// prefills 0.1 ms a token its block cache does not hold):
// the token count is learned exactly (a word a token, 4 more), so every
// request's prompt_tokens is its entry's input length; each is sent at
// its entry's time over the speedup, exactly, on virtual time; its
// output is the entry's output length; the block every entry shares is
// cached, exactly, from the second entry on; the run records the draw.
func TestReplayThroughThePipeline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		writeMooncake(t, dir, 30)
		prof := sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(5 * time.Millisecond), Tokens: 50,
			PrefillPerToken: 100 * time.Microsecond, Quirks: sim.Quirks{BlockCache: 16}}
		srv := clocktest.NewServer(t, sim.New(prof, 1))
		cfg := workloadSuite(t, srv, dir, "{trace: trace.jsonl, sample: 30, timing: replay, speedup: 4, block_tokens: 16}")
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		run := f.Runs[0]
		w := run.Workload
		if w == nil || w.Format != "mooncake" || w.Lines != 30 || w.Sample != 30 || w.Timing != "replay" || w.Speedup != 4 ||
			w.Tokens != (results.TokenModel{PerWord: 1, Overhead: 4, Source: "prompt_tokens"}) || len(w.Strata) == 0 {
			t.Fatalf("workload %+v", w)
		}
		if len(run.Requests) != 30 {
			t.Fatalf("%d requests, want 30", len(run.Requests))
		}
		lines := map[int]bool{}
		for _, q := range run.Requests {
			tr := q.Trace
			if tr == nil || !q.OK {
				t.Fatalf("request %+v", q)
			}
			lines[tr.Line] = true
			i := tr.Line - 1
			if tr.Input != 40+30*i || q.PromptTokens != tr.Input || q.OutputTokens != 3+i%5 || tr.Output != q.OutputTokens {
				t.Errorf("line %d: input %d, prompt_tokens %d, output %d (asked %d)", tr.Line, tr.Input, q.PromptTokens, q.OutputTokens, tr.Output)
			}
			want := float64(100*i) / 4
			if tr.ScheduledMs == nil || *tr.ScheduledMs != want || q.SentMs != want || q.LagMs == nil || *q.LagMs != 0 {
				t.Errorf("line %d: scheduled %v, sent %v, lag %v; want all at %v ms", tr.Line, tr.ScheduledMs, q.SentMs, q.LagMs, want)
			}
			// Block 1 (16 tokens) is every entry's: the first one's prefill
			// puts it in the cache, and every later one finds it there,
			// its TTFT the prefill of the rest.
			cached, ttftUs := 16, 20000+100*(tr.Input-16)
			if tr.Line == 1 {
				cached, ttftUs = 0, 20000+100*tr.Input
			}
			if q.CachedTokens != cached || int(math.Round(*q.TTFTMs*1000)) != ttftUs {
				t.Errorf("line %d: %d tokens cached, TTFT %v ms; want %d and %d µs", tr.Line, q.CachedTokens, *q.TTFTMs, cached, ttftUs)
			}
			if tr.Stratum < 1 || tr.Stratum > len(w.Strata) || (tr.Stratum > 1 && tr.Input <= w.Strata[tr.Stratum-2]) || tr.Input > w.Strata[tr.Stratum-1] {
				t.Errorf("line %d: input %d in stratum %d of %v", tr.Line, tr.Input, tr.Stratum, w.Strata)
			}
		}
		if len(lines) != 30 {
			t.Errorf("%d distinct lines replayed, want 30", len(lines))
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		mustValidate(t, compileSchema(t, "results.schema.json"), "a replay's results", b)
	})
}

// TestReplayRefusedBeforeAnyRequest: a bad line of the trace, a replay
// longer than limits.max_duration and exact_output on an API without it
// are bad input, before any request.
func TestReplayRefusedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeMooncake(t, dir, 5)
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 2, \"hash_ids\": [1]}\n{\"timestamp\": 5, \"input_length\": -3, \"output_length\": 2, \"hash_ids\": [1]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer ts.Close()
	srv := ts.URL
	for _, tt := range []struct{ name, yaml, extra, want string }{
		{"bad line", "{trace: bad.jsonl}", "", `latgate.yaml:5: scenario "prod": workload: ` + filepath.Join(dir, "bad.jsonl") + ":2: input_length"},
		{"too long", "{trace: trace.jsonl, timing: replay}", "limits: {max_duration: 100ms}\n", "the replay of 5 entries of trace.jsonl at speedup 1 takes 0s, longer than limits.max_duration"},
		{"missing", "{trace: nothere.jsonl}", "", "nothere.jsonl"},
		{"exact output on anthropic", "{trace: trace.jsonl, exact_output: true}", "", "has no way to ask for an output length exactly"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ep := "base_url: " + srv + "/v1"
			if strings.Contains(tt.name, "anthropic") {
				ep = "base_url: " + srv + ", api: anthropic"
			}
			text := "endpoints:\n  - {name: e, " + ep + ", model: m}\n" +
				"scenarios:\n  - name: prod\n    workload: " + tt.yaml + "\n" + tt.extra
			cfg, err := suite.Parse(filepath.Join(dir, "latgate.yaml"), []byte(text), suite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Measure(context.Background(), cfg, MeasureOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || KindOf(err) != BadInput {
				t.Errorf("error %v (kind %v), want bad input containing %q", err, KindOf(err), tt.want)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestReplayAB: latgate ab replays the head's draw on both sides, entry
// k of the base in the block of entry k of the head, and both runs
// record the same draw.
func TestReplayAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		writeMooncake(t, dir, 16)
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(5 * time.Millisecond), Tokens: 50}, 1))
		cfg := workloadSuite(t, srv, dir, "{trace: trace.jsonl, sample: 16}")
		f, err := MeasureAB(context.Background(), cfg, cfg, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		block := map[int]map[string]int{}
		for _, r := range f.Runs {
			if r.Workload == nil || r.Workload.Seed != f.Runs[0].Workload.Seed || len(r.Requests) != 16 {
				t.Fatalf("%s run: workload %+v, %d requests", r.Variant, r.Workload, len(r.Requests))
			}
			for _, q := range r.Requests {
				if block[q.Trace.Line] == nil {
					block[q.Trace.Line] = map[string]int{}
				}
				block[q.Trace.Line][string(r.Variant)] = q.Block
			}
		}
		for line, b := range block {
			if len(b) != 2 || b["base"] == 0 || b["base"] != b["head"] {
				t.Errorf("line %d: blocks %v, want base and head in one", line, b)
			}
		}
	})
}

// TestReplayOwnSpans: a run exported as OTLP spans (--format
// otlp-traces) is a trace latgate replays: the otlp reader finds each
// request's span, its input tokens the prompt_tokens the server counted.
func TestReplayOwnSpans(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var f *results.File
	synctest.Test(t, func(t *testing.T) {
		writeMooncake(t, dir, 12)
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(5 * time.Millisecond), Tokens: 50}, 1))
		var err error
		if f, err = Measure(context.Background(), workloadSuite(t, srv, dir, "{trace: trace.jsonl, sample: 12}"), MeasureOptions{Client: srv.Client()}); err != nil {
			t.Fatal(err)
		}
	})
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run.json")
	if err := os.WriteFile(run, b, 0o644); err != nil {
		t.Fatal(err)
	}
	format, err := report.ReportFormats.Lookup("otlp-traces")
	if err != nil {
		t.Fatal(err)
	}
	rep, _, err := ComparePaths([]string{run}, format, testThresholds(t), 0, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var spans bytes.Buffer
	if err := format.Write(&spans, rep, report.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	want := map[int]int{}
	for _, q := range f.Runs[0].Requests {
		want[q.PromptTokens]++
	}
	got := map[int]int{}
	name, err := workload.Read(&spans, "spans.json", "", func(e workload.Entry) error { got[e.Input]++; return nil })
	if err != nil || name != "otlp" || !maps.Equal(got, want) {
		t.Errorf("read %q (%v): input lengths %v, want the requests' prompt_tokens %v", name, err, got, want)
	}
}

// TestTraceOutsideRepositoryRefused: a pull request's workload.trace
// that leads out of its repository (../, or a symbolic link committed in
// it) is refused before it is read: a file of the runner's (its
// environment in /proc/self/environ, a key) never reaches an error, a
// log or a request. The azure reader quotes a bad header whole.
func TestTraceOutsideRepositoryRefused(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	secret := filepath.Join(outside, "credentials")
	if err := os.WriteFile(secret, []byte("API_KEY=sk-hunter2-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(repo, "trace.csv")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(repo, secret)
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer ts.Close()
	for _, trace := range []string{rel, "trace.csv"} {
		text := "endpoints:\n  - {name: e, base_url: " + ts.URL + "/v1, model: m}\n" +
			"scenarios:\n  - name: prod\n    workload: {trace: " + trace + ", format: azure}\n"
		cfg, err := suite.Parse(filepath.Join(repo, "latgate.yaml"), []byte(text), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Measure(context.Background(), cfg, MeasureOptions{})
		if err == nil || KindOf(err) != BadInput || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "outside the repository") {
			t.Errorf("trace %s: error %v (kind %v), want bad input saying the trace is outside the repository, without its content", trace, err, KindOf(err))
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestReplayLagWarned: a replay whose sends fell behind the trace's
// times by more than 5 ms at p95 says that latgate did not send the
// trace's load, and why it may not have; one on time says nothing of it.
func TestReplayLagWarned(t *testing.T) {
	t.Parallel()
	file := func(lag float64) *results.File {
		r := results.Run{Endpoint: "e", Scenario: "prod", Workload: &results.Workload{Trace: "t.jsonl", Format: "mooncake", Lines: 40, Sample: 40, Seed: "ab",
			Timing: "replay", Speedup: 20, Strata: []int{1000}, Tokens: results.TokenModel{PerWord: 1, Source: "prompt_tokens"}}}
		for i := range 40 {
			v, l := 100.0, lag*float64(i)/39
			r.Requests = append(r.Requests, results.Request{OK: true, TTFTMs: &v, TotalMs: &v, LagMs: &l, Trace: &results.TraceRef{Line: i + 1, Input: 10, Stratum: 1}})
		}
		return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: []results.Run{r}}
	}
	late := strings.Join(RunWarnings(file(20)), "\n")
	if !strings.Contains(late, "prod @ e: the replay fell behind the trace's times: its sends' lag p95 is 19 ms (more than 5 ms)") || !strings.Contains(late, "latgate did not send the trace's load") {
		t.Errorf("lag up to 20 ms: %q", late)
	}
	if w := strings.Join(RunWarnings(file(4)), "\n"); strings.Contains(w, "replay") {
		t.Errorf("lag up to 4 ms: %q", w)
	}
}

// TestReplayPlanLine: a replay's plan says it is one and how long the
// trace's times take (its last send and an answer), not a closed loop's
// waves.
func TestReplayPlanLine(t *testing.T) {
	t.Parallel()
	g := probe.Group{Requests: 3, Concurrency: 1, MaxInFlight: 64, At: []time.Duration{0, 2 * time.Second, 10 * time.Second}}
	line := planLine([]planned{{}}, []probe.Group{g}, time.Second, func(int) (int, bool) { return 0, false })
	if !strings.Contains(line, "1 lane of a replay at the trace's times") || !strings.HasSuffix(line, ": about 11s") {
		t.Errorf("plan line %q", line)
	}
}

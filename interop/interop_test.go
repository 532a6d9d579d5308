package interop

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/goldenfile"
	"github.com/latgate/latgate/results"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// The fixtures under testdata/ are small files written for these tests in
// the shape of what each tool writes (its own field names, units and
// layouts, failures included); none is a copy of a real run.

var testOptions = Options{
	Source:      results.Source{GitSHA: "0123abcd", GitRef: "refs/heads/main", Runner: "test"},
	ToolVersion: "v0.0.0-test",
	Now:         time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC),
}

// input reads a fixture as the command hands it over: with its folder for
// the files beside it.
func input(t *testing.T, name string) Input {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: name, Data: b, Sibling: func(base string) ([]byte, error) {
		return os.ReadFile(filepath.Join("testdata", base))
	}}
}

func importFiles(t *testing.T, tool Tool, names ...string) *results.File {
	t.Helper()
	var ins []Input
	for _, n := range names {
		ins = append(ins, input(t, n))
	}
	f, err := Import(tool, ins, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// golden compares got with testdata/golden/name, showing where they
// differ; -update rewrites it.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), got, *update)
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		tool   Tool
		files  []string
	}{
		{"vllm-2024.json", VLLM, []string{"vllm-2024.json"}},
		{"vllm-0.25.json", VLLM, []string{"vllm-0.25.json"}},
		{"aiperf.json", AIPerf, []string{"aiperf-profile_export.jsonl"}},
		{"guidellm.json", GuideLLM, []string{"guidellm-0.5.json", "guidellm-pre0.3.json"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			f := importFiles(t, c.tool, c.files...)
			b, err := json.MarshalIndent(f, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, c.golden, append(b, '\n'))
		})
	}
}

// near: equal to the microsecond the import keeps.
func near(a *float64, want float64) bool { return a != nil && math.Abs(*a-want) <= 0.0005 }

func TestVLLMDetailedBefore2025(t *testing.T) {
	f := importFiles(t, VLLM, "vllm-2024.json")
	r := f.Runs[0]
	if r.Endpoint != "example/llama-8b" || r.Scenario != "rate=inf" || r.Config.Concurrency != 0 || r.Config.Rate != 0 {
		t.Errorf("run %q @ %q, config %+v", r.Scenario, r.Endpoint, r.Config)
	}
	q := r.Requests[0]
	// Seconds become milliseconds; total is derived from the gaps and the
	// run says so.
	if !q.OK || !near(q.TTFTMs, 64.6) || !near(q.TotalMs, 64.6+50.3+51+51.2) || len(q.ITLMs) != 3 || math.Abs(q.ITLMs[0]-50.3) > 1e-9 {
		t.Errorf("request 0: %+v", q)
	}
	if !near(q.TPOTMs, (50.3+51+51.2)/3) || q.OutputTokens != 4 || q.PromptTokens != 13 || q.TokensSource != "imported" {
		t.Errorf("request 0 tpot %v, tokens %d/%d", q.TPOTMs, q.OutputTokens, q.PromptTokens)
	}
	if !strings.HasPrefix(r.Imported.Derived["total_ms"], "ttft_ms + sum(itl_ms)") || r.Imported.Derived["tpot_ms"] == "" {
		t.Errorf("derived %v", r.Imported.Derived)
	}
	// Not recorded stays null: no first byte, no perceived, no stall.
	if q.TTFBMs != nil || q.PerceivedMs != nil || q.MaxStallMs != nil || q.TTFCMs != nil {
		t.Errorf("invented values: %+v", q)
	}
	// One output token: ok, no tpot.
	if q := r.Requests[1]; !q.OK || q.TPOTMs != nil || !near(q.TotalMs, 63.8) {
		t.Errorf("request 1: %+v", q)
	}
	// vLLM counts an empty answer as completed; latgate fails it.
	for i, want := range map[int]string{2: "no output: vLLM recorded no first token", 4: "ValueError: Bad Gateway", 5: "no output tokens"} {
		if q := r.Requests[i]; q.OK || !strings.HasPrefix(q.Error, want) {
			t.Errorf("request %d: ok %v, error %q, want %q", i, q.OK, q.Error, want)
		}
	}
	if q := r.Requests[5]; !near(q.TTFTMs, 61.2) || q.TotalMs != nil {
		t.Errorf("a failed request keeps the times it reached and no more: %+v", q)
	}
	if r.Imported.Date != "2024-09-07T08:26:34" || !f.CreatedAt.Equal(testOptions.Now) {
		t.Errorf("date %q, created_at %v (vLLM's date has no zone: the import's time)", r.Imported.Date, f.CreatedAt)
	}
}

func TestVLLMAppendedResults(t *testing.T) {
	f := importFiles(t, VLLM, "vllm-0.25.json")
	if len(f.Runs) != 2 {
		t.Fatalf("%d runs, want one per appended result", len(f.Runs))
	}
	r := f.Runs[0]
	if r.Scenario != "nightly rate=8 concurrency=4" || r.Config.Rate != 8 || r.Config.Concurrency != 0 || r.Imported.ToolVersion != "0.25.1" {
		t.Errorf("run %q, config %+v, version %q", r.Scenario, r.Config, r.Imported.ToolVersion)
	}
	// The file has end-to-end latencies: total is read, not derived.
	if q := r.Requests[1]; !near(q.TotalMs, 320) || math.Abs(q.SentMs-100) > 1e-6 {
		t.Errorf("request 1: total %v, sent %v", *q.TotalMs, q.SentMs)
	}
	if _, ok := r.Imported.Derived["total_ms"]; ok {
		t.Errorf("total_ms marked derived though the file has latencies: %v", r.Imported.Derived)
	}
	if q := r.Requests[4]; q.OK || q.Error != "HTTP 503 Service Unavailable: engine overloaded" || q.TTFTMs != nil {
		t.Errorf("failed request %+v", q)
	}
	if f.Runs[1].Scenario != "nightly rate=inf concurrency=1" || f.Runs[1].Config.Concurrency != 1 {
		t.Errorf("second run %q %+v", f.Runs[1].Scenario, f.Runs[1].Config)
	}
}

func TestAIPerfRecords(t *testing.T) {
	f := importFiles(t, AIPerf, "aiperf-profile_export.jsonl")
	r := f.Runs[0]
	if r.Endpoint != "example/gpt-oss-20b" || r.Scenario != "concurrency=4" || r.Config.Concurrency != 4 {
		t.Errorf("run %q @ %q %+v (model and load from the summary beside it)", r.Scenario, r.Endpoint, r.Config)
	}
	if len(r.Requests) != 3 || len(r.Imported.Notes) != 1 || !strings.Contains(r.Imported.Notes[0], "1 warmup") {
		t.Fatalf("%d requests, notes %q: the warmup record is left out and counted", len(r.Requests), r.Imported.Notes)
	}
	if q := r.Requests[0]; q.OK || q.Status != 499 || q.Error != "RequestCancellationError (499): Request was cancelled after 0.000 seconds" {
		t.Errorf("cancelled record: %+v", q)
	}
	q := r.Requests[1]
	if !q.OK || !near(q.TTFTMs, 1680.543782) || !near(q.TotalMs, 1936.968269) || len(q.ITLMs) != 4 || !near(q.TPOTMs, 64.1) {
		t.Errorf("ms record: %+v", q)
	}
	if q.OutputTokens != 5 || q.ReasoningTokens != 2 || q.PromptTokens != 550 || q.TTFCMs != nil {
		t.Errorf("tokens %d (reasoning %d), prompt %d, ttfc %v", q.OutputTokens, q.ReasoningTokens, q.PromptTokens, q.TTFCMs)
	}
	// Each record's own units: nanoseconds and seconds become ms.
	q = r.Requests[2]
	if !near(q.TTFTMs, 1200) || !near(q.TTFCMs, 1300) || len(q.ITLMs) != 2 || math.Abs(q.ITLMs[1]-0.3) > 1e-9 {
		t.Errorf("ns/s record: ttft %v ttfc %v gaps %v", q.TTFTMs, q.TTFCMs, q.ITLMs)
	}
	if math.Abs(q.SentMs-(1759522419200000000-1759522419154829652)/1e6) > 1e-3 || r.Imported.Date != "2025-10-03T20:13:39.154829652Z" {
		t.Errorf("sent %v, date %q", q.SentMs, r.Imported.Date)
	}
	if !f.CreatedAt.Equal(time.Date(2025, 10, 3, 20, 13, 39, 0, time.UTC)) {
		t.Errorf("created_at %v: want the records' start", f.CreatedAt)
	}
}

func TestAIPerfWithoutSummary(t *testing.T) {
	in := input(t, "aiperf-profile_export.jsonl")
	in.Sibling = nil
	f, err := Import(AIPerf, []Input{in}, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	r := f.Runs[0]
	if r.Endpoint != "aiperf" || r.Model != "" || r.Scenario != "profile" || !strings.Contains(strings.Join(r.Imported.Notes, "; "), "the model and the load are unknown") {
		t.Errorf("run %q @ %q, notes %q", r.Scenario, r.Endpoint, r.Imported.Notes)
	}
}

func TestGuideLLMBenchmarks(t *testing.T) {
	f := importFiles(t, GuideLLM, "guidellm-0.5.json", "guidellm-pre0.3.json")
	if len(f.Runs) != 3 {
		t.Fatalf("%d runs, want one per benchmark", len(f.Runs))
	}
	sync := f.Runs[0]
	// Warmup and cooldown requests (outside the measured window) and the
	// incomplete one are left out, as GuideLLM's own metrics do.
	if sync.Scenario != "synchronous" || len(sync.Requests) != 5 || sync.OKCount() != 4 || len(sync.Imported.Notes) != 2 {
		t.Errorf("synchronous: %d requests (%d ok), notes %q", len(sync.Requests), sync.OKCount(), sync.Imported.Notes)
	}
	q := sync.Requests[0]
	if !q.OK || !near(q.TTFTMs, 58) || !near(q.TotalMs, 1100) || !near(q.TPOTMs, (1100-58)/31.0) || len(q.ITLMs) != 0 || q.PromptTokens != 90 {
		t.Errorf("request 0: %+v", q)
	}
	if q := sync.Requests[4]; q.OK || !strings.HasPrefix(q.Error, "HTTPStatusError: Server error '500") {
		t.Errorf("errored request: %+v", q)
	}
	if c := f.Runs[1]; c.Scenario != "constant rate=2.5" || c.Config.Rate != 2.5 || c.Requests[2].TPOTMs != nil || c.Imported.ToolVersion != "0.5.0" {
		t.Errorf("constant: %q %+v", c.Scenario, c.Config)
	}
	old := f.Runs[2]
	if old.Endpoint != "example_model" || old.Scenario != "synchronous" || old.OKCount() != 2 || old.Requests[2].Error != "ReadTimeout: timed out" {
		t.Errorf("before 0.3: %q @ %q, %+v", old.Scenario, old.Endpoint, old.Requests)
	}
	if sync.Imported.Date != "2026-03-02T17:42:39.55Z" {
		t.Errorf("date %q", sync.Imported.Date)
	}
}

func TestRefused(t *testing.T) {
	vllm := string(input(t, "vllm-2024.json").Data)
	guide := string(input(t, "guidellm-0.5.json").Data)
	for _, c := range []struct {
		name string
		tool Tool
		data string
		want string
	}{
		{"vLLM summary", VLLM, string(input(t, "vllm-summary.json").Data), `f.json: a summary without per-request data (no "ttfts", "itls" or "errors"): vLLM writes them with --save-detailed`},
		{"AIPerf summary", AIPerf, string(input(t, "aiperf-profile_export_aiperf.json").Data), "holds no per-request data: import profile_export.jsonl"},
		{"GuideLLM sampled out", GuideLLM, `{"benchmarks": [{"config": {"strategy": {"type_": "synchronous"}}, "metrics": {"request_totals": {"successful": 46, "errored": 1}}, "requests": {"successful": [], "errored": [], "incomplete": []}}]}`, "benchmark 1: no per-request data (47 requests counted, none listed)"},
		{"GuideLLM file given as vLLM", VLLM, guide, "not a vLLM bench serve result"},
		{"vLLM file given as GuideLLM", GuideLLM, vllm, `not a GuideLLM benchmarks.json (no "benchmarks" key)`},
		{"vLLM file given as AIPerf", AIPerf, vllm, "successful record without ttft or request_latency"},
		{"invalid JSON", VLLM, "{\"model_id\": \"m\",\n  \"ttfts\": [0.1,, 0.2]}", "f.json:2:17: invalid JSON"},
		{"truncated", GuideLLM, `{"benchmarks": [{"requests": {"successful": [`, "not a complete JSON document"},
		{"empty", VLLM, "  \n", "f.json: empty file"},
		{"negative time", VLLM, `{"model_id": "m", "ttfts": [-0.1], "itls": [[]], "errors": [""], "output_lens": [3]}`, "ttfts[0] is -0.1: a time cannot be negative"},
		{"arrays not parallel", VLLM, `{"model_id": "m", "ttfts": [0.1, 0.2], "itls": [[]], "errors": ["", ""], "output_lens": [3, 3]}`, `"itls" has 1 entries and "ttfts" 2`},
		{"a string where a number goes", VLLM, "{\"model_id\": \"m\",\n \"ttfts\": [\"0.1\"]}", `f.json:2:17: "ttfts" is a JSON string, not the float64 the tool writes`},
		{"unknown unit", AIPerf, "\n" + `{"metadata": {}, "metrics": {"ttft": {"value": 3, "unit": "fortnights"}, "request_latency": {"value": 5, "unit": "ms"}}, "error": null}`, `f.json:2: metrics.ttft has unit "fortnights": want ns, us, ms or s`},
		{"bad JSON line", AIPerf, "\n" + `{"metadata": {"x": }}`, "f.json:2:20: invalid JSON"},
		{"rate not a number", VLLM, `{"model_id": "m", "request_rate": "fast", "ttfts": [0.1], "itls": [[]], "errors": [""], "output_lens": [1]}`, `request_rate is "fast"`},
		{"rate NaN", VLLM, `{"model_id": "m", "request_rate": "NaN", "ttfts": [0.1], "itls": [[]], "errors": [""], "output_lens": [1]}`, `f.json: request_rate is "NaN": want a number above 0`},
		{"rate Infinity", VLLM, `{"model_id": "m", "request_rate": "-Infinity", "ttfts": [0.1], "itls": [[]], "errors": [""], "output_lens": [1]}`, `request_rate is "-Infinity"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Import(c.tool, []Input{{Name: "f.json", Data: []byte(c.data)}}, testOptions)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a message of several lines: %q", err)
			}
		})
	}
}

func TestSameBenchmarkTwice(t *testing.T) {
	in := input(t, "vllm-2024.json")
	other := in
	other.Name = "again.json"
	_, err := Import(VLLM, []Input{in, other}, testOptions)
	if err == nil || !strings.Contains(err.Error(), `vllm-2024.json and again.json both hold model "example/llama-8b" at "rate=inf"`) {
		t.Fatalf("got %v", err)
	}
}

func TestParseTool(t *testing.T) {
	if tool, err := ParseTool("vLLM"); err != nil || tool != VLLM {
		t.Errorf("vLLM: %v %v", tool, err)
	}
	if _, err := ParseTool("locust"); err == nil || !strings.Contains(err.Error(), "want one of vllm, aiperf, guidellm") {
		t.Errorf("locust: %v", err)
	}
	if _, err := ParseTool(""); err == nil || !strings.Contains(err.Error(), "name the tool") {
		t.Errorf("empty: %v", err)
	}
}

func TestErrorText(t *testing.T) {
	for in, want := range map[string]string{
		"Traceback (most recent call last):\n  File \"x.py\", line 1\naiohttp.ClientError: boom\n\n": "aiohttp.ClientError: boom",
		"  two\n lines  ":        "two lines",
		strings.Repeat("é", 600): strings.Repeat("é", 499) + "…",
	} {
		if got := errorText(in); got != want {
			t.Errorf("errorText(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDecoders: no input makes a decoder panic or produce a file that
// fails validation; an error is one line.
func FuzzDecoders(f *testing.F) {
	for _, name := range []string{"vllm-2024.json", "vllm-0.25.json", "vllm-summary.json", "aiperf-profile_export.jsonl", "guidellm-0.5.json", "guidellm-pre0.3.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, tool := range Tools {
			file, err := Import(tool, []Input{{Name: "f", Data: data}}, testOptions)
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("%s: a message of several lines: %q", tool, err)
				}
				continue
			}
			if err := file.Validate(); err != nil {
				t.Fatalf("%s: an invalid file: %v", tool, err)
			}
		}
	})
}

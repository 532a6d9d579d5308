package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// The JSON Schemas of docs/schema are the written contract of the two
// formats latgate produces; these tests hold every file the pipeline
// writes to them, and show that the schemas reject real mistakes.

var schemaDir = filepath.Join("..", "docs", "schema")

// compileSchema compiles one schema of docs/schema (draft 2020-12), with
// "format" asserted (created_at must be a date-time).
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join(schemaDir, name))
	if err != nil {
		t.Fatalf("compiling %s: %v", name, err)
	}
	return sch
}

// instance decodes JSON as the validator wants it (numbers kept exact).
func instance(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decoding JSON: %v", err)
	}
	return v
}

// mustValidate fails the test with the schema's explanation when the
// document at name does not conform.
func mustValidate(t *testing.T, sch *jsonschema.Schema, name string, b []byte) {
	t.Helper()
	if err := sch.Validate(instance(t, b)); err != nil {
		t.Errorf("%s does not conform to its schema:\n%v", name, err)
	}
}

// schemaSuite is a small suite against a simulator whose "steady" model
// fails some requests (HTTP errors and truncated streams) and whose
// "tools" model streams a single tool-call event without usage, so the
// written file holds failed requests, null times (ttfc_ms, tpot_ms),
// both tokens sources, a closed-loop and an open-loop run.
func schemaSuite(t *testing.T, extra string) *suite.Config {
	t.Helper()
	s := sim.New(sim.Profile{
		TTFT: sim.Fixed(3 * time.Millisecond), ITL: sim.Fixed(time.Millisecond), Tokens: 4,
		Quirks: sim.Quirks{RoleChunk: true}, ToolSteps: 1, ToolLatency: 2 * time.Millisecond,
		Faults: sim.Faults{ErrorRate: 0.2, TruncateRate: 0.2},
	}, 11)
	s.SetModelProfile("tools", sim.Profile{
		TTFT: sim.Fixed(3 * time.Millisecond), ITL: sim.Fixed(time.Millisecond), Tokens: 1,
		Quirks: sim.Quirks{ToolCall: true, NoUsage: true},
	})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	yaml := `endpoints:
  - name: main
    base_url: ` + srv.URL + `/v1
    model: steady
  - name: tools
    base_url: ` + srv.URL + `/v1
    model: tools
  - name: web
    api: ai-sdk
    url: ` + srv.URL + `/api/chat
scenarios:
  - name: chat
    prompt: "Say hello."
    max_tokens: 8
    requests: 12
    concurrency: 2
    warmup: 0
    endpoints: [main]
  - name: agent
    prompt: "Where is order 42?"
    max_tokens: 8
    requests: 8
    concurrency: 2
    warmup: 0
    endpoints: [main]
    tools:
      - {name: lookup_order, result: {status: shipped}, latency: 2ms}
  - name: paced
    prompt: "Call the tool."
    max_tokens: 8
    requests: 6
    rate: 500/s
    warmup: 0
budgets:
  ttft: {p95: 800}
  errors: {rate: 50%}
limits:
  timeout: 5s
  stall_timeout: 2s
` + extra
	cfg, err := suite.Parse("latgate.yaml", []byte(yaml), suite.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// measureTo runs the suite and writes its results file as latgate does.
func measureTo(t *testing.T, cfg *suite.Config, path string) (*results.File, error) {
	t.Helper()
	f, err := Measure(context.Background(), cfg, MeasureOptions{
		Source:      results.Source{GitSHA: "0123abcd", GitRef: "refs/heads/main", Runner: "test", Region: ""},
		ToolVersion: "v0.0.0-test",
		Now:         func() time.Time { return time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC) },
	})
	if f != nil && len(f.Runs) > 0 {
		if werr := fileio.Write(path, f); werr != nil {
			t.Fatal(werr)
		}
	}
	return f, err
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSchemaProducedFiles(t *testing.T) {
	t.Parallel()
	resSchema := compileSchema(t, "results.schema.json")
	verSchema := compileSchema(t, "verdict.schema.json")
	dir := t.TempDir()
	cfg := schemaSuite(t, "")

	basePath, curPath := filepath.Join(dir, "baseline.json"), filepath.Join(dir, "current.json")
	for _, p := range []string{basePath, curPath} {
		if _, err := measureTo(t, cfg, p); err != nil {
			t.Fatalf("measuring %s: %v", filepath.Base(p), err)
		}
		mustValidate(t, resSchema, filepath.Base(p), readFile(t, p))
	}

	// The files must hold what makes the validation meaningful: failed
	// requests, null times and both token sources.
	cur, err := fileio.Read(curPath)
	if err != nil {
		t.Fatal(err)
	}
	var failed, nullTTFC, nullTPOT int
	sources, ends := map[string]bool{}, map[string]bool{}
	for _, r := range cur.Runs {
		for _, q := range r.Requests {
			ends[q.SessionEnd] = true
			if !q.OK {
				failed++
			}
			if q.TTFCMs == nil {
				nullTTFC++
			}
			if q.TPOTMs == nil {
				nullTPOT++
			}
			sources[q.TokensSource] = true
		}
	}
	if failed == 0 || nullTTFC == 0 || nullTPOT == 0 || !sources["usage"] || !sources["events"] {
		t.Fatalf("the measured file lacks a case the schema must cover: %d failed, %d null ttfc_ms, %d null tpot_ms, tokens sources %v", failed, nullTTFC, nullTPOT, sources)
	}
	if !ends[""] || !ends["answer"] || !ends["error"] {
		t.Fatalf("session ends %v: want single calls, sessions that answered and sessions with a failed step", ends)
	}

	// The verdict: the baseline lacks the tools endpoint, so its checks
	// are no_baseline next to tested ones.
	base, err := fileio.Read(basePath)
	if err != nil {
		t.Fatal(err)
	}
	kept := base.Runs[:0]
	for _, r := range base.Runs {
		if r.Endpoint != "tools" {
			kept = append(kept, r)
		}
	}
	base.Runs = kept
	th, err := CompareConfig(cfg, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := CompareFiles(base, cur, "baseline.json", "current.json", th)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report.JSON(&out, rep); err != nil {
		t.Fatal(err)
	}
	mustValidate(t, verSchema, "the verdict", out.Bytes())
	statuses := map[string]bool{}
	for _, c := range rep.Result.Checks {
		statuses[string(c.Status)] = true
	}
	if !statuses["no_baseline"] || len(statuses) < 2 {
		t.Errorf("verdict statuses %v, want no_baseline and at least one other", statuses)
	}

	// An interleaved A/B file: the same runs as variants, each request
	// with its block.
	ab := *cur
	ab.Runs = nil
	for _, side := range []struct {
		f       *results.File
		variant vocab.Side
	}{{base, vocab.Base}, {cur, vocab.Head}} {
		for _, r := range side.f.Runs {
			r.Variant = side.variant
			r.Requests = append([]results.Request(nil), r.Requests...)
			for i := range r.Requests {
				r.Requests[i].Block = i/2 + 1
			}
			ab.Runs = append(ab.Runs, r)
		}
	}
	abPath := filepath.Join(dir, "ab.json")
	if err := fileio.Write(abPath, &ab); err != nil {
		t.Fatal(err)
	}
	mustValidate(t, resSchema, "ab.json", readFile(t, abPath))

	// An incomplete run: the output-token cap stops it early; what it
	// measured is written, marked incomplete.
	incPath := filepath.Join(dir, "incomplete.json")
	f, err := measureTo(t, schemaSuite(t, "  max_output_tokens: 10\n"), incPath)
	var inc *IncompleteError
	if !errors.As(err, &inc) || f == nil || f.Incomplete == "" {
		t.Fatalf("a capped run: got error %v, want an IncompleteError and a file marked incomplete", err)
	}
	mustValidate(t, resSchema, "incomplete.json", readFile(t, incPath))
}

func TestSchemaReportGolden(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t, "verdict.schema.json")
	for _, name := range []string{"verdict.json", "verdict-capacity.json"} {
		path := filepath.Join("..", "report", "testdata", name)
		mustValidate(t, sch, path, readFile(t, path))
	}
	// The capacity searches' mistakes.
	good := readFile(t, filepath.Join("..", "report", "testdata", "verdict-capacity.json"))
	for what, bad := range map[string]func(doc map[string]any){
		"a status of checks only": func(doc map[string]any) { walk(doc, "capacity", 0).(map[string]any)["status"] = "over_budget" },
		"an unknown limit":        func(doc map[string]any) { walk(doc, "capacity", 1, "head").(map[string]any)["limited_by"] = "slow" },
		"no levels":               func(doc map[string]any) { delete(walk(doc, "capacity", 0, "head").(map[string]any), "levels") },
		"a negative capacity":     func(doc map[string]any) { walk(doc, "capacity", 0, "base").(map[string]any)["capacity"] = -1.0 },
		"a level without load": func(doc map[string]any) {
			delete(walk(doc, "capacity", 0, "head", "levels", 0).(map[string]any), "load")
		},
	} {
		doc := instance(t, good).(map[string]any)
		bad(doc)
		if sch.Validate(doc) == nil {
			t.Errorf("the verdict schema accepts %s", what)
		}
	}
}

// walk returns the value at a path of object keys and array indexes.
func walk(doc any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			doc = doc.(map[string]any)[k]
		case int:
			doc = doc.([]any)[k]
		}
	}
	return doc
}

// find returns the index of the first request of run 0 for which pred holds.
func find(t *testing.T, doc any, pred func(q map[string]any) bool) int {
	t.Helper()
	for i, q := range walk(doc, "runs", 0, "requests").([]any) {
		if pred(q.(map[string]any)) {
			return i
		}
	}
	t.Fatal("no such request in run 0")
	return -1
}

func isOK(q map[string]any) bool { return q["ok"] == true }

func TestSchemaRejectsResultsMistakes(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t, "results.schema.json")
	path := filepath.Join(t.TempDir(), "r.json")
	if _, err := measureTo(t, schemaSuite(t, ""), path); err != nil {
		t.Fatal(err)
	}
	good := readFile(t, path)
	req := func(doc any, i int) map[string]any { return walk(doc, "runs", 0, "requests", i).(map[string]any) }
	okReq := func(doc any) map[string]any { return req(doc, find(t, doc, isOK)) }
	failedReq := func(doc any) map[string]any {
		return req(doc, find(t, doc, func(q map[string]any) bool { return !isOK(q) }))
	}
	run := func(doc any) map[string]any { return walk(doc, "runs", 0).(map[string]any) }
	tests := []struct {
		name   string
		mutate func(doc any)
		valid  bool
		want   string // words of the schema's complaint
	}{
		{"as written", func(any) {}, true, ""},
		{"unknown keys are allowed", func(doc any) {
			doc.(map[string]any)["cost_usd"] = 0.25
			run(doc)["stopped"] = "decided"
			okReq(doc)["intended_ms"] = 12.5
		}, true, ""},
		{"no schema key", func(doc any) { delete(doc.(map[string]any), "schema") }, false, "missing property 'schema'"},
		{"another schema", func(doc any) { doc.(map[string]any)["schema"] = "latgate/results/v2" }, false, "/schema"},
		{"ttft_ms as a string", func(doc any) { okReq(doc)["ttft_ms"] = "402.5" }, false, "/ttft_ms"},
		{"negative total_ms", func(doc any) { okReq(doc)["total_ms"] = -1.0 }, false, "/total_ms"},
		{"itl_ms holds null", func(doc any) { okReq(doc)["itl_ms"] = []any{1.0, nil} }, false, "/itl_ms/1"},
		{"ok request without ttft_ms", func(doc any) { okReq(doc)["ttft_ms"] = nil }, false, "/ttft_ms"},
		{"ok request without output", func(doc any) { okReq(doc)["output_tokens"] = 0 }, false, "/output_tokens"},
		{"failed request without error", func(doc any) { failedReq(doc)["error"] = "" }, false, "/error"},
		{"a file from before failures were typed", func(doc any) { delete(failedReq(doc), "failure") }, true, ""},
		{"unknown failure", func(doc any) { failedReq(doc)["failure"] = "oops" }, false, "/failure"},
		{"ok request with a failure", func(doc any) { okReq(doc)["failure"] = "http" }, false, "'not' failed"},
		{"missing key in a request", func(doc any) { delete(okReq(doc), "perceived_ms") }, false, "missing property 'perceived_ms'"},
		{"unknown tokens_source", func(doc any) { okReq(doc)["tokens_source"] = "guess" }, false, "/tokens_source"},
		{"status out of range", func(doc any) { okReq(doc)["status"] = 1200 }, false, "/status"},
		{"fractional token count", func(doc any) { okReq(doc)["output_tokens"] = 3.5 }, false, "/output_tokens"},
		{"no runs", func(doc any) { doc.(map[string]any)["runs"] = []any{} }, false, "/runs"},
		{"run without endpoint", func(doc any) { delete(run(doc), "endpoint") }, false, "missing property 'endpoint'"},
		{"bad fingerprint", func(doc any) { run(doc)["fingerprint"] = "abc" }, false, "/fingerprint"},
		{"both concurrency and rate", func(doc any) { run(doc)["config"].(map[string]any)["rate"] = 2.0 }, false, "/config"},
		{"created_at not a time", func(doc any) { doc.(map[string]any)["created_at"] = "yesterday" }, false, "/created_at"},
		{"empty incomplete", func(doc any) { doc.(map[string]any)["incomplete"] = "" }, false, "/incomplete"},
		{"unknown variant", func(doc any) { run(doc)["variant"] = "candidate" }, false, "/variant"},
		{"max_tokens 0 in a measured run", func(doc any) { run(doc)["config"].(map[string]any)["max_tokens"] = 0 }, false, "/max_tokens"},
		{"reading_rate 0 in a measured run", func(doc any) { run(doc)["config"].(map[string]any)["reading_rate"] = 0 }, false, "/reading_rate"},
		{"an imported run states what its source does", func(doc any) {
			doc.(map[string]any)["source"].(map[string]any)["tool"] = "vllm"
			run(doc)["imported"] = map[string]any{"tool": "vllm", "file": "bench.json", "derived": map[string]any{"total_ms": "ttft_ms + sum(itl_ms)"}}
			run(doc)["config"].(map[string]any)["max_tokens"] = 0
			run(doc)["config"].(map[string]any)["reading_rate"] = 0
			okReq(doc)["tokens_source"] = "imported"
		}, true, ""},
		{"screenshots on a chat run", func(doc any) {
			okReq(doc)["screenshots"] = []any{map[string]any{"at": "end", "ms": nil, "jpeg": "/9j/"}}
		}, false, "/screenshots"},
		{"a browser run's screenshots", func(doc any) {
			run(doc)["fingerprint_parts"].(map[string]any)["api"] = "browser"
			okReq(doc)["screenshots"] = []any{map[string]any{"at": "end", "ms": nil, "jpeg": "/9j/"}}
		}, true, ""},
		{"imported run without its file", func(doc any) { run(doc)["imported"] = map[string]any{"tool": "vllm"} }, false, "missing property 'file'"},
		{"unknown source tool", func(doc any) { doc.(map[string]any)["source"].(map[string]any)["tool"] = "locust" }, false, "/source/tool"},
		{"A/B base run without blocks", func(doc any) {
			for _, r := range doc.(map[string]any)["runs"].([]any) {
				r.(map[string]any)["variant"] = "base"
			}
		}, false, "missing property 'block'"},
		{"only some runs with a variant", func(doc any) {
			run(doc)["variant"] = "base"
			for _, q := range run(doc)["requests"].([]any) {
				q.(map[string]any)["block"] = 1
			}
		}, false, "missing property 'variant'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := instance(t, good)
			tt.mutate(doc)
			err := sch.Validate(doc)
			switch {
			case tt.valid && err != nil:
				t.Errorf("got %v, want valid", err)
			case !tt.valid && err == nil:
				t.Errorf("got valid, want an error about %s", tt.want)
			case !tt.valid && !strings.Contains(err.Error(), tt.want):
				t.Errorf("got %v, want an error about %s", err, tt.want)
			}
		})
	}
}

func TestSchemaRejectsVerdictMistakes(t *testing.T) {
	t.Parallel()
	sch := compileSchema(t, "verdict.schema.json")
	good := readFile(t, filepath.Join("..", "report", "testdata", "verdict.json"))
	check := func(doc any, metric string) map[string]any {
		for _, c := range walk(doc, "checks").([]any) {
			if c.(map[string]any)["metric"] == metric {
				return c.(map[string]any)
			}
		}
		panic(fmt.Sprintf("no %s check in the golden verdict", metric))
	}
	tests := []struct {
		name   string
		mutate func(doc any)
		valid  bool
		want   string
	}{
		{"as written", func(any) {}, true, ""},
		{"unknown keys are allowed", func(doc any) {
			doc.(map[string]any)["provenance"] = map[string]any{"age_days": 3}
			check(doc, "ttft")["effect_ms"] = 12.0
		}, true, ""},
		{"no schema key", func(doc any) { delete(doc.(map[string]any), "schema") }, false, "missing property 'schema'"},
		{"verdict not pass or fail", func(doc any) { doc.(map[string]any)["verdict"] = "inconclusive" }, false, "/verdict"},
		{"unknown status", func(doc any) { check(doc, "ttft")["status"] = "flaky" }, false, "/status"},
		{"unknown fail_on status", func(doc any) { doc.(map[string]any)["fail_on"] = []any{"regresion"} }, false, "/fail_on/0"},
		{"baseline as a string", func(doc any) { check(doc, "ttft")["baseline"] = "640.1" }, false, "/baseline"},
		{"negative latency", func(doc any) { check(doc, "total")["current"] = -3.0 }, false, "/current"},
		{"error rate as a percentage", func(doc any) { check(doc, "errors")["current"] = 6.0 }, false, "/current"},
		{"error rate with a percentile", func(doc any) { check(doc, "errors")["stat"] = "p95" }, false, "/stat"},
		{"latency with stat rate", func(doc any) { check(doc, "ttft")["stat"] = "rate" }, false, "/stat"},
		{"unknown metric", func(doc any) { check(doc, "ttft")["metric"] = "latency" }, false, "/metric"},
		{"p_value above 1", func(doc any) { check(doc, "ttft")["p_value"] = 1.5 }, false, "/p_value"},
		{"ci_pct of three numbers", func(doc any) { check(doc, "ttft")["ci_pct"] = []any{1.0, 2.0, 3.0} }, false, "/ci_pct"},
		{"missing n_current", func(doc any) { delete(check(doc, "ttft"), "n_current") }, false, "missing property 'n_current'"},
		{"no checks key", func(doc any) { delete(doc.(map[string]any), "checks") }, false, "missing property 'checks'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := instance(t, good)
			tt.mutate(doc)
			err := sch.Validate(doc)
			switch {
			case tt.valid && err != nil:
				t.Errorf("got %v, want valid", err)
			case !tt.valid && err == nil:
				t.Errorf("got valid, want an error about %s", tt.want)
			case !tt.valid && !strings.Contains(err.Error(), tt.want):
				t.Errorf("got %v, want an error about %s", err, tt.want)
			}
		})
	}
}

// TestSchemaDocExamples keeps the examples of docs/formats.md valid: a
// results file, an OTLP span, a verdict, a trend file and latgate trend's
// JSON, in order.
func TestSchemaDocExamples(t *testing.T) {
	t.Parallel()
	doc := string(readFile(t, filepath.Join("..", "docs", "formats.md")))
	var blocks []string
	for _, part := range strings.Split(doc, "```json\n")[1:] {
		end := strings.Index(part, "```")
		if end < 0 {
			t.Fatal("docs/formats.md: an unterminated ```json block")
		}
		blocks = append(blocks, part[:end])
	}
	// The span of --format otlp-traces follows OpenTelemetry's OTLP/JSON,
	// whose schema is not latgate's: it is checked to be JSON.
	schemas := []string{"results.schema.json", "", "verdict.schema.json", "trend.schema.json", "trend-report.schema.json"}
	if len(blocks) != len(schemas) {
		t.Fatalf("docs/formats.md has %d JSON examples, want %d (a results file, an OTLP span, a verdict, a trend file, a trend report)", len(blocks), len(schemas))
	}
	for i, b := range blocks {
		if schemas[i] == "" {
			if !json.Valid([]byte(b)) {
				t.Errorf("docs/formats.md example %d is not JSON", i+1)
			}
			continue
		}
		mustValidate(t, compileSchema(t, schemas[i]), "docs/formats.md example "+fmt.Sprint(i+1), []byte(b))
	}
}

// TestSchemaVocabulary keeps the verdict schema's enumerations in step
// with the vocabulary the code uses: a metric, status or reason added to
// vocab and missing from the schema would make every verdict that holds
// it invalid (the session metrics were).
func TestSchemaVocabulary(t *testing.T) {
	t.Parallel()
	var doc struct {
		Defs struct {
			Status []string `json:"enum"`
			Check  struct {
				Properties struct {
					Metric, Stat, Reason struct {
						Enum []string `json:"enum"`
					}
				} `json:"properties"`
			} `json:"check"`
		} `json:"$defs"`
	}
	var raw struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	b := readFile(t, filepath.Join("..", "docs", "schema", "verdict.schema.json"))
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw.Defs["status"], &struct {
		Enum *[]string `json:"enum"`
	}{&doc.Defs.Status}); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw.Defs["check"], &doc.Defs.Check); err != nil {
		t.Fatal(err)
	}
	strs := func(vs ...[]string) []string { return slices.Concat(vs...) }
	metrics := strs(names(vocab.PerRequest), names(vocab.Rates))
	stats := strs(names(vocab.LatencyStats), []string{string(vocab.Rate), string(vocab.Min)})
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"metric", doc.Defs.Check.Properties.Metric.Enum, metrics},
		{"stat", doc.Defs.Check.Properties.Stat.Enum, stats},
		{"reason", doc.Defs.Check.Properties.Reason.Enum, names(vocab.Reasons)},
		{"status", doc.Defs.Status, names(vocab.Statuses)},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("verdict schema's %s enum %q, want vocab's %q", c.what, c.got, c.want)
		}
	}
}

// TestResultsSchemaFailures: the results schema's kinds of failure are
// vocab's, and every failed request latgate writes has one.
func TestResultsSchemaFailures(t *testing.T) {
	t.Parallel()
	var doc struct {
		Defs struct {
			Request struct {
				Properties struct {
					Failure struct {
						Enum []string `json:"enum"`
					} `json:"failure"`
				} `json:"properties"`
			} `json:"request"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join("..", "docs", "schema", "results.schema.json")), &doc); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Defs.Request.Properties.Failure.Enum, names(vocab.Failures); !slices.Equal(got, want) {
		t.Errorf("results schema's failure enum %q, want vocab's %q", got, want)
	}
	path := filepath.Join(t.TempDir(), "r.json")
	f, err := measureTo(t, schemaSuite(t, ""), path)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, run := range f.Runs {
		for _, q := range run.Requests {
			if !q.OK {
				failed++
				if !slices.Contains(vocab.Failures, q.Failure) {
					t.Errorf("a failed request's failure is %q (error %q)", q.Failure, q.Error)
				}
			}
		}
	}
	if failed == 0 {
		t.Fatal("the suite failed no request: nothing checked")
	}
}

// names are the strings of a vocabulary list.
func names[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/latgate/latgate/internal/ghfake"
)

// vllmFixture is a file shaped like `vllm bench serve --save-result
// --save-detailed` output (80 requests, one failed), written for these
// tests.
var vllmFixture = filepath.Join("testdata", "vllm-serve-detailed.json")

// slowerVLLM writes the fixture with every time to first token factor
// times longer (and each end-to-end latency with it): a slower head.
func slowerVLLM(t *testing.T, dir string, factor float64) string {
	t.Helper()
	b, err := os.ReadFile(vllmFixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ttfts, lat := doc["ttfts"].([]any), doc["latencies"].([]any)
	for i := range ttfts {
		v := ttfts[i].(float64)
		ttfts[i], lat[i] = v*factor, lat[i].(float64)+v*(factor-1)
	}
	out, _ := json.Marshal(doc)
	p := filepath.Join(dir, "vllm-head.json")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func importVLLM(t *testing.T, env map[string]string, src, out string) {
	t.Helper()
	r := runCLI(t, env, "import", "--from", "vllm", src, "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "imported 1 run(s), 80 requests, from 1 vllm file into "+out) {
		t.Fatalf("import %s: exit %d:\n%s\n%s", src, r.code, r.stdout, r.stderr)
	}
}

// TestImportThenCompare: compare gates imported files like its own: the
// same benchmark imported twice passes; a slower head is a regression.
func TestImportThenCompare(t *testing.T) {
	dir := t.TempDir()
	base, same, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "same.json"), filepath.Join(dir, "head.json")
	importVLLM(t, nil, vllmFixture, base)
	importVLLM(t, nil, vllmFixture, same)
	importVLLM(t, nil, slowerVLLM(t, dir, 1.6), head)

	r := runCLI(t, nil, "compare", base, same)
	if r.code != 0 || !strings.Contains(r.stdout, "latgate PASS") || strings.Contains(r.stdout, "Network") {
		t.Errorf("identical: exit %d, want 0 (pass):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "compare", base, head, "--format", "json")
	if r.code != 1 {
		t.Fatalf("slower head: exit %d, want 1:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var v struct {
		Verdict string
		Checks  []struct{ Endpoint, Scenario, Metric, Stat, Status string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range v.Checks {
		if c.Metric == "ttft" && c.Status == "regression" && c.Endpoint == "example/qwen2.5-0.5b" && c.Scenario == "rate=inf concurrency=4" {
			found = true
		}
		if c.Metric == "itl" && c.Status != "within_tolerance" {
			t.Errorf("the gaps did not change, yet itl %s is %s, not within tolerance", c.Stat, c.Status)
		}
	}
	if v.Verdict != "fail" || !found {
		t.Errorf("verdict %s, want fail with a ttft regression: %+v", v.Verdict, v.Checks)
	}
	// The metrics exports of the same comparison: the head's metrics, and
	// still the verdict as the exit code.
	r = runCLI(t, nil, "compare", base, head, "--format", "openmetrics")
	if r.code != 1 || !strings.HasSuffix(r.stdout, "# EOF\n") || !strings.Contains(r.stdout, `gen_ai_client_operation_time_to_first_chunk_seconds_count{gen_ai_operation_name="chat",gen_ai_request_model="example/qwen2.5-0.5b",latgate_endpoint="example/qwen2.5-0.5b",latgate_scenario="rate=inf concurrency=4"} 79`) {
		t.Errorf("openmetrics: exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "compare", base, same, "--format", "otlp")
	if r.code != 0 || !strings.Contains(r.stdout, `"name": "gen_ai.client.operation.duration"`) {
		t.Errorf("otlp: exit %d:\n%.500s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestImportedThroughTheAction: the workflow of docs/workflows.md — the
// base branch uploads an imported results file as the baseline artifact;
// the pull request imports its own run and publishes it against that
// artifact, without a suite file.
func TestImportedThroughTheAction(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		api := newFakeAPI(t)
		env := actionsEnv(t, dir, api)
		env["GITHUB_SHA"] = "c0ffee0000000000000000000000000000000000"
		base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "latgate-results.json")
		importVLLM(t, env, vllmFixture, base)
		importVLLM(t, env, slowerVLLM(t, dir, 1.6), head)
		data, _ := os.ReadFile(base)
		api.AddRun(ghfake.Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Event: "push", Conclusion: "success",
			Artifacts: []ghfake.Artifact{{ID: 5, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "latgate-results.json", Body: string(data)})}}})
		api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		r := runCLI(t, env, "publish", "--working-directory", dir, "--results", head, "--baseline-artifact", "latgate-baseline")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1 (a regression):\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		api.Verify()
		if !strings.Contains(r.stderr, "was imported from vllm and there is no "+filepath.Join(dir, "latgate.yaml")+": default thresholds, no budgets") {
			t.Errorf("stderr: %s", r.stderr)
		}
		c := api.Comments(7)
		if len(c) != 2 || !strings.Contains(c[1].Body, "regression") || !strings.Contains(c[1].Body, "rate=inf concurrency=4") {
			t.Fatalf("comments %+v", c)
		}
		if !strings.Contains(r.stdout, "::error title=latgate%3A rate=inf concurrency=4 @ example/qwen2.5-0.5b::ttft") {
			t.Errorf("want an annotation at no file (there is no suite):\n%s", r.stdout)
		}
	})
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "huge.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(600 << 20); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no tool", []string{"import", vllmFixture}, 2, "--from: name the tool that wrote the files: vllm, aiperf, guidellm"},
		{"unknown tool", []string{"import", "--from", "locust", vllmFixture}, 2, `want one of vllm, aiperf, guidellm, got "locust"`},
		{"no file", []string{"import", "--from", "vllm"}, 2, "usage: latgate import"},
		{"missing file", []string{"import", "--from", "vllm", filepath.Join(dir, "nope.json"), "-o", filepath.Join(dir, "r.json")}, 2, "nope.json: no such file"},
		{"too large", []string{"import", "--from", "aiperf", big, "-o", filepath.Join(dir, "r.json")}, 2, "huge.json: larger than 512 MiB"},
		{"a folder", []string{"import", "--from", "vllm", dir, "-o", filepath.Join(dir, "r.json")}, 2, "is a folder, not a file"},
		{"output folder missing", []string{"import", "--from", "vllm", vllmFixture, "-o", filepath.Join(dir, "no", "r.json")}, 2, "-o:"},
		{"wrong tool", []string{"import", "--from", "guidellm", vllmFixture, "-o", filepath.Join(dir, "r.json")}, 2, `not a GuideLLM benchmarks.json (no "benchmarks" key)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, nil, c.args...)
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Errorf("exit %d, want %d and %q:\n%s", r.code, c.code, c.want, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "r.json")); err == nil {
				t.Error("a results file was written for refused input")
			}
		})
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vllmFixture is a file shaped like `vllm bench serve --save-result
// --save-detailed` output (80 requests, one failed), written for these
// tests.
var vllmFixture = filepath.Join("testdata", "vllm-serve-detailed.json")

func importVLLM(t *testing.T, env map[string]string, src, out string) {
	t.Helper()
	r := runCLI(t, env, "import", "--from", "vllm", src, "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "imported 1 run(s), 80 requests, from 1 vllm file into "+out) {
		t.Fatalf("import %s: exit %d:\n%s\n%s", src, r.code, r.stdout, r.stderr)
	}
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

package gate

import (
	"io"
	"path/filepath"
	"testing"
	"time"
)

// TestSchemaImportedFiles holds every results file latgate import writes
// from the interop fixtures (each tool's shapes, failures included) to the
// results schema.
func TestSchemaImportedFiles(t *testing.T) {
	sch := compileSchema(t, "results.schema.json")
	td := filepath.Join("..", "interop", "testdata")
	env := Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }, ToolVersion: "v0.0.0-test"}
	for _, c := range []struct {
		from  string
		files []string
	}{
		{"vllm", []string{"vllm-2024.json", "vllm-0.25.json"}},
		{"aiperf", []string{"aiperf-profile_export.jsonl"}},
		{"guidellm", []string{"guidellm-0.5.json", "guidellm-pre0.3.json"}},
		{"vllm", []string{filepath.Join("..", "..", "cmd", "latgate", "testdata", "vllm-serve-detailed.json")}},
	} {
		var paths []string
		for _, f := range c.files {
			paths = append(paths, filepath.Join(td, f))
		}
		out := filepath.Join(t.TempDir(), "results.json")
		f, err := Import(env, ImportOptions{From: c.from, Files: paths, Out: out, Now: func() time.Time { return time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC) }})
		if err != nil {
			t.Fatalf("%s %v: %v", c.from, c.files, err)
		}
		if f.Source.Tool != c.from || f.Runs[0].Imported == nil {
			t.Errorf("%s: no provenance: %+v", c.from, f.Source)
		}
		mustValidate(t, sch, c.from+" "+filepath.Base(c.files[0]), readFile(t, out))
	}
}

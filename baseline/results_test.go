package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/probe"
)

func run(endpoint, scenario, fp string, parts map[string]string) Run {
	v := 100.0
	return Run{Endpoint: endpoint, Scenario: scenario, Fingerprint: fp, FingerprintParts: parts,
		Requests: []Request{{OK: true, TTFTMs: &v, TotalMs: &v, ITLMs: []float64{}}}}
}

func file(runs ...Run) *File {
	return &File{Schema: Schema, MetricsVersion: MetricsVersion, Runs: runs}
}

func TestWriteIsAtomicAndRoundTrips(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	if err := os.WriteFile(path, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := probe.Record{OK: true, Status: 200, TTFT: 402500 * time.Microsecond, TTFC: probe.Missing, Total: 1530900 * time.Microsecond,
		TPOT: probe.Missing, ITL: []time.Duration{9 * time.Millisecond}, TTFB: probe.Missing, FirstEvent: probe.Missing,
		Perceived: probe.Missing, MaxStall: probe.Missing, OutputTokens: 1, TokensSource: "events"}
	f := file(Run{Endpoint: "e", Scenario: "s", Requests: []Request{FromRecord(rec)}})
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the folder after writing, want 1 (no temporary file left)", len(entries))
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	q := got.Runs[0].Requests[0]
	if *q.TTFTMs != 402.5 || *q.TotalMs != 1530.9 || q.TPOTMs != nil || q.ITLMs[0] != 9 {
		t.Errorf("round trip: ttft %v total %v tpot %v itl %v", *q.TTFTMs, *q.TotalMs, q.TPOTMs, q.ITLMs)
	}
	b, _ := os.ReadFile(path)
	for _, key := range []string{`"tpot_ms":null`, `"ttft_ms":402.5`, `"tokens_source":"events"`, `"itl_ms":[9]`, `"metrics_version":1`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("file lacks %s", key)
		}
	}
	// A failed write leaves the old file in place.
	if err := Write(filepath.Join(dir, "missing-dir", "x.json"), f); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

func TestMatch(t *testing.T) {
	base := file(run("e", "a", "fp1", map[string]string{"max_tokens": "128", "model": "m"}), run("e", "gone", "x", nil))
	cur := file(run("e", "a", "fp2", map[string]string{"max_tokens": "256", "model": "m"}), run("e", "new", "y", nil))
	pairs := Match(base, cur)
	if len(pairs) != 3 {
		t.Fatalf("%d pairs, want 3", len(pairs))
	}
	if p := pairs[0]; p.Base == nil || p.Current == nil || len(p.Changed) != 1 || p.Changed[0] != "max_tokens 128 → 256" {
		t.Errorf("pair a: %+v", p)
	}
	if p := pairs[1]; p.Base != nil || p.Scenario != "new" {
		t.Errorf("new scenario: %+v", p)
	}
	if p := pairs[2]; p.Current != nil || p.Scenario != "gone" {
		t.Errorf("removed scenario: %+v", p)
	}
}

func TestMerge(t *testing.T) {
	a := file(run("us", "s", "fp", nil))
	a.Source.Region = "us"
	b := file(run("eu", "s", "fp", nil), run("us", "s", "fp", nil))
	b.Source.Region = "eu"
	m, err := Merge([]*File{a, b}, []string{"a.json", "b.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 2 || m.Source.Region != "us,eu" {
		t.Errorf("merged %d runs, region %q; want the identical duplicate once", len(m.Runs), m.Source.Region)
	}
	c := file(run("us", "s", "other", nil))
	if _, err := Merge([]*File{a, c}, []string{"a.json", "c.json"}); err == nil || !strings.Contains(err.Error(), `endpoint "us", scenario "s" is in both c.json`) {
		t.Errorf("conflict: err = %v", err)
	}
}

func TestValidate(t *testing.T) {
	dup := file(run("e", "s", "", nil), run("e", "s", "", nil))
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("duplicate runs: %v", err)
	}
	bad := file(Run{Endpoint: "e", Scenario: "s", Requests: []Request{{OK: true}}})
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "needs ttft_ms and total_ms") {
		t.Errorf("ok request without times: %v", err)
	}
}

package fileio

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

func run(endpoint, scenario, fp string, parts map[string]string) results.Run {
	v := 100.0
	return results.Run{Endpoint: endpoint, Scenario: scenario, Fingerprint: fp, FingerprintParts: parts,
		Requests: []results.Request{{OK: true, TTFTMs: &v, TotalMs: &v, ITLMs: []float64{}}}}
}

func file(runs ...results.Run) *results.File {
	return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, Runs: runs}
}

func TestWriteIsAtomicAndRoundTrips(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	if err := os.WriteFile(path, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	ttft, total := 402.5, 1530.9
	f := file(results.Run{Endpoint: "e", Scenario: "s", Requests: []results.Request{{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total,
		ITLMs: []float64{9}, OutputTokens: 1, TokensSource: "events"}}})
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
	for _, key := range []string{`"tpot_ms":null`, `"ttft_ms":402.5`, `"tokens_source":"events"`, `"itl_ms":[9]`, `"metrics_version":2`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("file lacks %s", key)
		}
	}
	// A failed write leaves the old file in place.
	if err := Write(filepath.Join(dir, "missing-dir", "x.json"), f); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

// TestWrittenFilesAreReadable: results and other outputs are 0644.
func TestWrittenFilesAreReadable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		write func(path string) error
	}{
		{"WriteAtomic", func(p string) error { return WriteAtomic(p, []byte("x\n")) }},
		{"Write", func(p string) error { return Write(p, file(run("e", "s", "fp", nil))) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f")
			if err := tt.write(path); err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := st.Mode().Perm(), os.FileMode(0o644); got != want {
				t.Errorf("got mode %v, want %v", got, want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	dup := file(run("e", "s", "", nil), run("e", "s", "", nil))
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("duplicate runs: %v", err)
	}
	bad := file(results.Run{Endpoint: "e", Scenario: "s", Requests: []results.Request{{OK: true}}})
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "needs ttft_ms and total_ms") {
		t.Errorf("ok request without times: %v", err)
	}
	empty := file(results.Run{Endpoint: "e", Scenario: "s"})
	if err := empty.Validate(); err == nil || !strings.Contains(err.Error(), `runs[0] (endpoint "e", scenario "s"): no requests`) {
		t.Errorf("a run without requests: %v", err)
	}
	empty.Incomplete = "interrupted by a signal"
	if err := empty.Validate(); err != nil {
		t.Errorf("an incomplete file's empty run is for the incomplete marker to refuse: %v", err)
	}
	neg := file(run("e", "s", "", nil))
	v := -5.0
	neg.Runs[0].Requests[0].TTFTMs = &v
	if err := neg.Validate(); err == nil || !strings.Contains(err.Error(), "runs[0].requests[0]: ttft_ms is -5: a time is from 0 to 1e+09 ms") {
		t.Errorf("negative ttft: %v", err)
	}
	neg.Runs[0].Requests[0].TTFTMs = nil
	neg.Runs[0].Requests[0].OK = false
	neg.Runs[0].Requests[0].ITLMs = []float64{3, -1}
	if err := neg.Validate(); err == nil || !strings.Contains(err.Error(), "itl_ms is -1") {
		t.Errorf("negative gap: %v", err)
	}
	// Values no measurement gives, from a hostile results file: they
	// rendered as "+Infs" and "NaN%".
	huge, negLag, negCost := 1e308, -3.0, -0.5
	steps := 2
	for name, mod := range map[string]func(q *results.Request) string{
		"huge total":      func(q *results.Request) string { q.TotalMs = &huge; return "total_ms is 1e+308" },
		"negative lag":    func(q *results.Request) string { q.LagMs = &negLag; return "lag_ms is -3" },
		"negative cost":   func(q *results.Request) string { q.CostUSD = &negCost; return "cost_usd is -0.5" },
		"negative tokens": func(q *results.Request) string { q.OutputTokens = -7; return "output_tokens is -7" },
		"steps disagree": func(q *results.Request) string {
			q.StepCount = &steps
			return "step_count is 2 but the session has 0 steps"
		},
	} {
		f := file(run("e", "s", "", nil))
		want := mod(&f.Runs[0].Requests[0])
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	runCost := file(run("e", "s", "", nil))
	runCost.Runs[0].CostUSD = &huge
	if err := runCost.Validate(); err == nil || !strings.Contains(err.Error(), "runs[0]: cost_usd is 1e+308") {
		t.Errorf("a run's absurd cost: %v", err)
	}
}

// TestDecodeErrors: what is wrong with a file, and where.
func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "good.json")
	if err := Write(path, file(run("e", "s", "fp", nil))); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	good := string(b) // one line, ending in a newline
	for _, tt := range []struct{ name, body, want string }{
		{"empty", "", "not a complete JSON document"},
		{"blank", " \n", "not a complete JSON document"},
		{"truncated", good[:40], "not a complete JSON document"},
		{"two documents", good + "{}", "f.json:2:1: invalid JSON"},
		{"array", "[]", "the document is a JSON array"},
		{"syntax", "{\n  \"schema\": x}", "f.json:2:13: invalid JSON"},
		{"a suite", "# our suite\nendpoints:\n  - {name: a}\n", "f.json: a suite (YAML), not a latgate results file: give the suite with -c"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode("f.json", []byte(tt.body))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Decode("f.json", []byte(good)); err != nil {
		t.Errorf("a good file: %v", err)
	}
	// A pull request's artifact embedding an SVG as a screenshot: refused
	// naming the file, the request and the field.
	svg := file(run("e", "s", "fp", nil))
	svg.Runs[0].Requests[0].Screenshots = []results.Screenshot{{At: vocab.End,
		JPEG: base64.StdEncoding.EncodeToString([]byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`))}}
	b, err = json.Marshal(svg)
	if err != nil {
		t.Fatal(err)
	}
	const want = "pr.json: runs[0].requests[0]: screenshots[0].jpeg: not a JPEG image"
	if _, err := Decode("pr.json", b); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an SVG as a screenshot: %v, want %q", err, want)
	}
}

// TestReadLimited: a file over the limit, regular or endless, is an error
// naming the limit, read no further than one byte past it.
func TestReadLimited(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 2*MaxFileSize); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		max  int64
		want string // "" = no error
	}{
		{small, 10, ""},
		{small, 9, "larger than 9 bytes"},
		{"/dev/zero", 1 << 20, "is a device, not a file"},
		{dir, 1 << 20, "is a folder, not a file"},
		{filepath.Join(dir, "missing.json"), 10, "no such file"},
	} {
		_, err := ReadLimited(tt.path, tt.max)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadLimited(%s, %d): %v, want %q", tt.path, tt.max, err, tt.want)
		}
	}
	if _, err := Read(huge); err == nil || !strings.Contains(err.Error(), "huge.json: larger than 512 MiB") {
		t.Errorf("Read of a 2 GiB file: %v", err)
	}
}

// TestTooDense: a file of tiny requests ("{}", 3 bytes each: 2,999,990
// of them in 9 MB, as an audit crafted it) would decode to gigabytes
// (472 bytes a request, slices growing); Read and Stream refuse it with
// one error naming the limit, found by the scan before anything is
// decoded: reading it allocates little beyond its text.
func TestTooDense(t *testing.T) { // not parallel: it counts the process's allocations
	var b strings.Builder
	b.WriteString(`{"schema":"latgate/results/v1","metrics_version":` + fmt.Sprint(results.MetricsVersion) + `,"runs":[{"endpoint":"e","scenario":"s","fingerprint_parts":{"api":"browser"},"requests":[{}`)
	for range 2_999_989 {
		b.WriteString(`,{}`)
	}
	b.WriteString(`]}]}`)
	path := filepath.Join(t.TempDir(), "many.json")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = `many.json: too dense to read: by byte 302120 of 9000113 it holds 100661 values of "runs.requests" (98.3 MiB once read, each counted 1.0 KiB) and would hold more than the 98.3 MiB a results file of its size may (64 MiB and 4 bytes for each byte of the file, docs/performance.md)`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(path)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Read: %v\nwant %s", err, want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(b.Len())+1<<20 {
		t.Errorf("Read allocated %d bytes to refuse a file of %d", grew, b.Len())
	}
	if _, _, err := Stream(path, func() *countFold { return &countFold{} }); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Stream: %v\nwant %s", err, want)
	}
}

// countFold is a Folder that counts the requests it is handed.
type countFold struct{ n int }

func (c *countFold) Add(*results.Request) { c.n++ }

// TestWriteReadable: a file Read would refuse (invalid, or beyond Read's
// objects) is not written, with ErrUnreadable; one it reads is written
// as Write writes it.
func TestWriteReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := file(run("e", "s", "fp", nil))
	path := filepath.Join(dir, "good.json")
	if err := WriteReadable(path, good); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err != nil {
		t.Fatal(err)
	}
	// Runs of no request (an incomplete file), 16 KiB each once read: 5,000
	// in 0.7 MB would hold 80 MiB.
	dense := file()
	dense.Incomplete = "interrupted"
	for i := range 5000 {
		dense.Runs = append(dense.Runs, results.Run{Endpoint: "e", Scenario: fmt.Sprint(i)})
	}
	invalid := file(run("e", "s", "fp", nil))
	invalid.Runs[0].Shards = 1 << 62
	for name, c := range map[string]struct {
		f    *results.File
		want string
	}{
		"dense":   {dense, `too dense to read: by byte`},
		"invalid": {invalid, "runs[0]: shards is 4611686018427387904"},
	} {
		path := filepath.Join(dir, name+".json")
		if err := WriteReadable(path, c.f); !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), path+": latgate would not read it back") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: written (%v)", name, err)
		}
	}
}

// TestReadAllHoldsOneFile: files read to be held at once (merge) may hold
// together what one results file may, no more: their charges add up, and
// the file that goes beyond is named. Before, 256 legs of 512 MiB were
// each read within their own bounds, all held at once.
func TestReadAllHoldsOneFile(t *testing.T) { // not parallel: it lowers readAllLimit
	dir := t.TempDir()
	var paths []string
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("leg%d.json", i))
		if err := Write(p, file(run("e", fmt.Sprint(i), "fp", nil))); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	one, err := ReadAll(paths[:1])
	if err != nil || len(one) != 1 {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(paths[0])
	s := newScanner(b, nil, int64(len(b)))
	s.document()
	defer func(l int64) { readAllLimit = l }(readAllLimit)
	readAllLimit = 2*s.charged + s.charged/2
	if files, err := ReadAll(paths[:2]); err != nil || len(files) != 2 {
		t.Errorf("two files within it: %v", err)
	}
	if _, err := ReadAll(paths); err == nil || !strings.Contains(err.Error(), paths[2]+": too dense to read: with the files before it, more than") {
		t.Errorf("three files beyond it: %v", err)
	}
}

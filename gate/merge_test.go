package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// mergeLeg is a results file of one level (4 users) of a capacity search
// of one endpoint, its request's TTFT ttft.
func mergeLeg(endpoint string, ttft float64) *results.File {
	total := ttft + 100
	req := results.Request{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total, ITLMs: []float64{}}
	run := results.Run{Endpoint: endpoint, Scenario: "chat", Fingerprint: "fp", Config: results.RunConfig{MaxTokens: 16, Concurrency: 4, Requests: 1},
		Level: &results.Level{Vary: vocab.VaryConcurrency, Value: 4, Step: 1}, Requests: []results.Request{req}}
	search := results.Search{Endpoint: endpoint, Scenario: "chat", Vary: vocab.VaryConcurrency, From: 4, To: 4, Step: 1, RequestsPerLevel: 1,
		Alpha: 0.05, SLO: []results.Objective{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}}, Stop: vocab.AtTop, Requests: 1, DurationMs: 250}
	return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, CreatedAt: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC),
		Runs: []results.Run{run}, Capacity: []results.Search{search}}
}

// writeFiles writes each file (a *results.File, or raw bytes) into dir.
func writeFiles(t testing.TB, dir string, files map[string]any) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, f := range files {
		p := filepath.Join(dir, name)
		var err error
		switch f := f.(type) {
		case *results.File:
			err = fileio.Write(p, f)
		case []byte:
			err = os.WriteFile(p, f, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// TestMergeOneLegOnce: with --shards, the same leg twice (its file given
// again, or copied under another name) is refused as bad input naming
// both files, and so is a file already merged; each was accepted, the
// same leg twice holding "8 users" of a leg that ran 4.
func TestMergeOneLegOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	merged := mergeLeg("e", 103)
	merged.Runs[0].Shards = 2
	p := writeFiles(t, dir, map[string]any{"a.json": mergeLeg("e", 101), "b.json": mergeLeg("e", 102), "copy.json": mergeLeg("e", 101), "merged.json": merged})
	out := filepath.Join(dir, "all.json")
	m, err := MergeFiles([]string{p["a.json"], p["b.json"]}, out, true)
	if err != nil || m.Runs[0].Shards != 2 {
		t.Fatalf("two legs: %v", err)
	}
	for _, c := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"the same file twice", []string{p["a.json"], p["b.json"], p["a.json"]}, p["a.json"] + " and " + p["a.json"] + " are the same leg"},
		{"a copy", []string{p["a.json"], p["copy.json"]}, p["a.json"] + " and " + p["copy.json"] + " are the same leg"},
		{"a merged file", []string{p["a.json"], p["merged.json"]}, p["merged.json"] + " is not a leg's own results"},
	} {
		if _, err := MergeFiles(c.paths, out, true); KindOf(err) != BadInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want bad input %q", c.name, err, c.want)
		}
	}
}

// TestMergeKnowsALeg: merge --shards refuses a leg given twice whatever
// became of its copy — a TTFT moved by a microsecond's thousandth, its
// requests reordered, a request added — and merges the distinct legs of a
// matrix, whose file has no measurement ID of its own. The audit's legs
// (4 requests, TTFT 103 to 130 ms): each copy merged as a second leg,
// "shards 2" of 8 requests, 4 of them distinct.
func TestMergeKnowsALeg(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	leg := func(ttfts ...float64) *results.File {
		f := mergeLeg("e", 0)
		f.Runs[0].Requests = nil
		for _, ttft := range ttfts {
			ttft, total := ttft, ttft+100
			f.Runs[0].Requests = append(f.Runs[0].Requests, results.Request{OK: true, Status: 200, TTFTMs: &ttft, TotalMs: &total, ITLMs: []float64{}})
		}
		f.Runs[0].Config.Requests, f.Capacity[0].RequestsPerLevel = len(ttfts), len(ttfts)
		return f
	}
	a := leg(103, 110, 120, 130)
	tweaked, reordered, plus := leg(103.000001, 110, 120, 130), leg(130, 120, 110, 103), leg(103, 110, 120, 130, 140)
	plus.Runs[0].Config.Requests, plus.Capacity[0].RequestsPerLevel = 4, 4 // the same suite, a request more
	p := writeFiles(t, dir, map[string]any{"a.json": a, "tweaked.json": tweaked, "reordered.json": reordered, "plus.json": plus,
		"b.json": leg(101, 111, 121, 131), "c.json": leg(102, 112, 122, 132), "d.json": leg(104, 114, 124, 134)})
	out := filepath.Join(dir, "all.json")
	m, err := MergeFiles([]string{p["a.json"], p["b.json"], p["c.json"], p["d.json"]}, out, true)
	if err != nil || m.Runs[0].Shards != 4 || len(m.Runs[0].Requests) != 16 {
		t.Fatalf("four legs: %v", err)
	}
	if back, err := fileio.Read(out); err != nil || back.ID != "" || back.StartedAt != nil {
		t.Errorf("the merged file: %v, id %q", err, back.ID)
	}
	for _, copied := range []string{"tweaked.json", "reordered.json", "plus.json"} {
		_, err := MergeFiles([]string{p["a.json"], p[copied]}, out, true)
		if want := p["a.json"] + " and " + p[copied] + " are the same leg"; KindOf(err) != BadInput || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want bad input %q", copied, err, want)
		}
	}
}

// TestMergeWritesWhatItReads: merge never writes a file its own read
// refuses: files each within a file's bounds, merged beyond them (their
// runs too dense to read, their cost), are refused as bad input and
// nothing is written. Both were written before, and read back refused.
func TestMergeWritesWhatItReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	usd := 6e5
	costly := func(endpoint string, ttft float64) *results.File {
		f := mergeLeg(endpoint, ttft)
		f.Runs[0].CostUSD, f.CostUSD = &usd, &usd
		return f
	}
	// Runs of one request, 33 KiB each once read (docs/performance.md):
	// 1,500 of them fit a file, 3,000 are too dense for one.
	dense := func(endpoint string, ttft float64) *results.File {
		f := mergeLeg(endpoint, ttft)
		f.Capacity, f.Runs[0].Level = nil, nil
		for i := range 1499 {
			r := f.Runs[0]
			r.Scenario = fmt.Sprint("s", i)
			f.Runs = append(f.Runs, r)
		}
		return f
	}
	p := writeFiles(t, dir, map[string]any{"us.json": costly("us", 101), "eu.json": costly("eu", 102), "leg1.json": costly("e", 101), "leg2.json": costly("e", 102),
		"big-us.json": dense("us", 101), "big-eu.json": dense("eu", 102)})
	for _, c := range []struct {
		name   string
		paths  []string
		shards bool
		want   string
	}{
		{"regions' cost", []string{p["us.json"], p["eu.json"]}, false, "cost_usd is 1.2e+06: a cost is from $0 to $1e+06"},
		{"legs' cost", []string{p["leg1.json"], p["leg2.json"]}, true, "cost_usd is 1.2e+06"},
		{"regions' runs", []string{p["big-us.json"], p["big-eu.json"]}, false, "too dense to read"},
	} {
		out := filepath.Join(dir, "all.json")
		_, err := MergeFiles(c.paths, out, c.shards)
		if KindOf(err) != BadInput || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "latgate would not read it back") {
			t.Errorf("%s: %v, want bad input %q", c.name, err, c.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: %s was written (%v)", c.name, out, err)
		}
	}
}

// FuzzMergeFiles: whatever two results files latgate reads, merged (as
// regions or as shards) they make a file it reads back, or a bad-input
// error and no file; and the same leg twice is never merged as two.
func FuzzMergeFiles(f *testing.F) {
	for _, pair := range [][2]*results.File{
		{mergeLeg("us", 101), mergeLeg("eu", 102)},
		{mergeLeg("e", 101), mergeLeg("e", 102)},
		{func() *results.File { g := mergeLeg("e", 101); g.Runs[0].Shards = 256; return g }(), mergeLeg("e", 102)},
		{func() *results.File { g := mergeLeg("e", 101); g.Capacity[0].Requests = 999_999_999; return g }(), mergeLeg("e", 102)},
		{func() *results.File { g := mergeLeg("e", 101); g.Runs[0].Shards = 1<<63 - 1; return g }(), mergeLeg("e", 102)},
		{func() *results.File { g := mergeLeg("e", 101); c := 6e5; g.CostUSD = &c; return g }(),
			func() *results.File { g := mergeLeg("eu", 102); c := 6e5; g.CostUSD = &c; return g }()},
	} {
		a, _ := json.Marshal(pair[0])
		b, _ := json.Marshal(pair[1])
		f.Add(a, b, true)
		f.Add(a, b, false)
	}
	f.Fuzz(func(t *testing.T, a, b []byte, shards bool) {
		if _, err := fileio.Decode("a.json", a); err != nil {
			return
		}
		if _, err := fileio.Decode("b.json", b); err != nil {
			return
		}
		dir := t.TempDir()
		p := writeFiles(t, dir, map[string]any{"a.json": a, "b.json": b, "a-again.json": bytes.Clone(a)})
		out := filepath.Join(dir, "all.json")
		if _, err := MergeFiles([]string{p["a.json"], p["b.json"]}, out, shards); err != nil {
			if KindOf(err) != BadInput {
				t.Fatalf("merge: %v, want bad input", err)
			}
			if _, serr := os.Stat(out); !errors.Is(serr, os.ErrNotExist) {
				t.Fatalf("merge failed (%v) and wrote %s", err, out)
			}
		} else if _, err := fileio.Read(out); err != nil {
			t.Fatalf("merge wrote a file its read refuses: %v", err)
		}
		if _, err := MergeFiles([]string{p["a.json"], p["a-again.json"]}, filepath.Join(dir, "twice.json"), true); err == nil {
			t.Fatal("the same leg twice was merged as two legs")
		}
	})
}

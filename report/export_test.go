package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestBenchstat(t *testing.T) {
	t.Parallel()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			var b bytes.Buffer
			if err := Benchstat(&b, rep); err != nil {
				t.Fatal(err)
			}
			// The Go benchmark format: configuration lines "key: value",
			// result lines "BenchmarkName N value unit ...", comments.
			result := regexp.MustCompile(`^BenchmarkLatency/endpoint=\S+/scenario=\S+ 1( [0-9.]+ [a-z]+-ms)+$`)
			config := regexp.MustCompile(`^variant: (base|head)$`)
			ok, variants := 0, map[string]bool{}
			for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
				switch {
				case strings.HasPrefix(line, "#"):
				case config.MatchString(line):
					variants[line] = true
				case result.MatchString(line):
					ok++
				default:
					t.Errorf("line is neither a result nor a configuration: %q", line)
				}
			}
			want := 0
			for _, s := range rep.Scenarios {
				for _, b := range []*Breakdown{s.Base, s.Current} {
					if b != nil {
						want += b.OK
					}
				}
			}
			if ok != want || len(variants) != 2 {
				t.Errorf("%d result lines, want %d (one per successful request); variants %v", ok, want, variants)
			}
		})
	}
}

func TestBMF(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[1])
	var b bytes.Buffer
	if err := BMF(&b, rep); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]map[string]float64
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("not BMF's shape: %v", err)
	}
	m := got["us-east/chat-short"]["ttft-p50"]
	if m["value"] <= 0 || m["lower_value"] > m["value"] || m["upper_value"] < m["value"] {
		t.Errorf("ttft-p50 = %v", m)
	}
	if e := got["us-east/chat-short"]["error-rate"]["value"]; e <= 0 || e > 100 {
		t.Errorf("error-rate %v, want a percentage", e)
	}
	if len(got) != len(rep.Scenarios) {
		t.Errorf("%d benchmarks, want %d", len(got), len(rep.Scenarios))
	}
}

// TestBMFCapacity: a capacity search's benchmark is the head's capacity
// with its interval and its goodput; a cut search has none.
func TestBMFCapacity(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })])
	var b bytes.Buffer
	if err := BMF(&b, rep); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]map[string]float64
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	c := got["gpu-pool/chat-capacity"]
	if c["capacity"]["value"] != 6 || c["capacity"]["upper_value"] != 6 || c["goodput-rps"]["value"] <= 0 || got["gpu-pool/chat-rate"]["capacity"]["value"] != 10 {
		t.Errorf("capacity measures %v", got)
	}
	if _, ok := got["| a | b |/<script>alert(1)</script>"]; ok {
		t.Error("a cut search has a capacity measure")
	}
}

func TestCSV(t *testing.T) {
	t.Parallel()
	rep := buildCase(t, suiteCases[4]) // hostile names
	var b bytes.Buffer
	if err := CSV(&b, rep); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := 1
	for _, s := range rep.Scenarios {
		want += len(s.CurrentRun.Requests)
		if s.BaseRun != nil {
			want += len(s.BaseRun.Requests)
		}
	}
	if len(rows) != want {
		t.Errorf("%d rows, want %d (a header and one per request)", len(rows), want)
	}
	for _, r := range rows {
		if len(r) != len(CSVHeader) {
			t.Fatalf("row of %d cells: %v", len(r), r)
		}
		for _, c := range r {
			if c != "" && strings.ContainsRune("=+@", rune(c[0])) {
				t.Errorf("cell %q could run as a spreadsheet formula", c)
			}
		}
	}
	if rows[1][0] != "base" || rows[1][3] != "1" || rows[1][1] != hostileName {
		t.Errorf("first row %v", rows[1][:4])
	}
}

func TestJSONProvenance(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := JSON(&b, buildCase(t, suiteCases[0])); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Provenance map[string]any
	}
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Provenance["mode"] != "gate" || v.Provenance["base_sha"] != "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567" || v.Provenance["baseline_created"] != "2026-11-27T09:00:00Z" {
		t.Errorf("provenance %v", v.Provenance)
	}
}

// TestEmptyReport: no scenario at all renders in every format without a
// panic and says so where people read it.
func TestEmptyReport(t *testing.T) {
	t.Parallel()
	r := Build(nil, compareEmpty(), thresholds())
	if md := Markdown(r, MarkdownOptions{MaxLen: 65536}); !strings.Contains(md, "No scenario was measured") {
		t.Errorf("markdown:\n%s", md)
	}
	var b bytes.Buffer
	for name, f := range map[string]func() error{
		"html": func() error { return HTML(&b, r) }, "json": func() error { return JSON(&b, r) },
		"benchstat": func() error { return Benchstat(&b, r) }, "bmf": func() error { return BMF(&b, r) }, "csv": func() error { return CSV(&b, r) },
	} {
		b.Reset()
		if err := f(); err != nil || b.Len() == 0 {
			t.Errorf("%s: err %v, %d bytes", name, err, b.Len())
		}
	}
	Text(&b, r, true)
}

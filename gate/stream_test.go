package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// mixedFile is a results file with what a comparison must read right:
// failed requests of two kinds, buffered streams, an open loop that fell
// behind, sessions with steps, and, for an A/B file, both variants in
// blocks.
func mixedFile(seed uint64, scale float64, ab bool) *results.File {
	rng := rand.New(rand.NewPCG(seed, 5))
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, ToolVersion: "test",
		CreatedAt: time.Date(2026, 11, 30, 4, 0, int(seed), 0, time.UTC), Source: results.Source{GitSHA: fmt.Sprint(seed), Runner: "r"}}
	variants := []vocab.Side{""}
	if ab {
		variants = []vocab.Side{vocab.Base, vocab.Head}
	}
	for _, v := range variants {
		for _, sc := range []string{"chat", "open-loop", "agent"} {
			run := results.Run{Endpoint: "us-east", Scenario: sc, Model: "m", Variant: v, Fingerprint: "sha256:" + sc,
				Config: results.RunConfig{MaxTokens: 16, Concurrency: 4, Requests: 60, ReadingRate: 10}}
			s := scale
			if v == vocab.Base {
				s = 1
			}
			for i := range 60 {
				q := mixedRequest(rng, s, sc)
				if ab {
					q.Block = 1 + i/10
				}
				run.Requests = append(run.Requests, q)
			}
			f.Runs = append(f.Runs, run)
		}
	}
	return f
}

func mixedRequest(rng *rand.Rand, scale float64, scenario string) results.Request {
	v := func(x float64) *float64 { x = math.Round(x*1000) / 1000; return &x }
	q := results.Request{Status: 200, TTFBMs: v(50 * scale), ITLMs: []float64{}, SentMs: 100 * rng.Float64(), Reused: rng.IntN(4) > 0,
		PromptTokens: 100, CachedTokens: 40 * rng.IntN(2)}
	switch rng.IntN(12) {
	case 0:
		q.Status, q.Error, q.Failure = 429, "HTTP 429 Too Many Requests: slow down", vocab.HTTPStatus
		return q
	case 1:
		q.Error, q.Failure, q.TTFTMs = "stalled: no event for 30s", vocab.Stall, v(100)
		return q
	}
	ttft := 100 * scale * math.Exp(0.3*rng.NormFloat64())
	q.OK, q.TokensSource, q.OutputTokens = true, "usage", 8
	q.TTFTMs, q.TTFCMs, q.PerceivedMs = v(ttft), v(ttft+1), v(ttft+5)
	sum := 0.0
	for range 7 {
		g := math.Round(10*scale*math.Exp(0.2*rng.NormFloat64())*1000) / 1000
		q.ITLMs, sum = append(q.ITLMs, g), sum+g
	}
	q.TotalMs, q.TPOTMs, q.Buffered = v(ttft+sum), v(sum/7), rng.IntN(3) == 0
	switch scenario {
	case "open-loop":
		q.LagMs = v(200 * rng.Float64())
	case "agent":
		n := 1 + rng.IntN(3)
		q.StepCount, q.SessionEnd, q.ToolMs, q.AnswerMs, q.SessionMs = &n, "answer", v(30*float64(n-1)), v(ttft+sum/2), q.TotalMs
		if n > 1 {
			q.FirstToolCallMs = v(ttft)
		}
		for i := range n {
			st := results.Step{StartMs: float64(i) * 200, TTFTMs: v(ttft / float64(n)), TotalMs: v(150), OutputTokens: 3}
			if i < n-1 {
				st.FirstToolCallMs, st.ToolCallMs, st.ToolCalls, st.Tools, st.ToolMs = v(20), v(25), 1, []string{"search"}, 30
			}
			q.Steps = append(q.Steps, st)
		}
	}
	return q
}

// TestStreamedComparisonsAgree: latgate compare streams the files into
// digests for text, Markdown, JSON and BMF, and says word for word what
// the comparison of the whole files says, in every mode: two files, a
// history, an A/B file, imported runs.
func TestStreamedComparisonsAgree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, f *results.File) string {
		path := filepath.Join(dir, name)
		if err := fileio.Write(path, f); err != nil {
			t.Fatal(err)
		}
		return path
	}
	imported := func(f *results.File) *results.File {
		f.Source.Tool = "vllm"
		for i := range f.Runs {
			f.Runs[i].Imported = &results.Imported{Tool: "vllm", File: "bench.json"}
		}
		return f
	}
	h1, h2 := write("h1.json", mixedFile(1, 1, false)), write("h2.json", mixedFile(2, 1.05, false))
	base, head := write("base.json", mixedFile(3, 1, false)), write("head.json", mixedFile(4, 1.4, false))
	for _, paths := range [][]string{
		{base, head},
		{h1, h2, base, head},
		{write("ab.json", mixedFile(5, 1.3, true))},
		{write("ib.json", imported(mixedFile(6, 1, false))), write("ih.json", imported(mixedFile(7, 0.8, false)))},
	} {
		name := strings.TrimSuffix(filepath.Base(paths[0]), ".json") + fmt.Sprintf("+%d", len(paths)-1)
		t.Run(name, func(t *testing.T) {
			whole := compareWhole(t, paths)
			if len(whole.Warnings) == 0 || whole.Verdict == "" {
				t.Fatalf("the case says nothing: warnings %q, verdict %q", whole.Warnings, whole.Verdict)
			}
			streamed := 0
			for _, f := range report.ReportFormats.All() {
				if f.EveryRequest {
					continue
				}
				streamed++
				rep, _, err := ComparePaths(paths, f, testThresholds(t), 0, io.Discard)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.WithoutRequests || rep.Scenarios[0].CurrentRun.Requests != nil {
					t.Fatalf("%s: the runs were read with their requests", f.Name)
				}
				if got, want := render(t, rep, f), render(t, whole, f); got != want {
					t.Errorf("%s: streamed\n%s\nwhole\n%s", f.Name, got, want)
				}
			}
			if streamed < 5 {
				t.Errorf("%d formats read the files streamed, want text, markdown, json, bmf and html at least", streamed)
			}
		})
	}
}

// compareWhole compares the files read whole, as before streaming.
func compareWhole(t *testing.T, paths []string) *report.Report {
	t.Helper()
	var files []*results.File
	for _, p := range paths {
		f, err := fileio.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var rep *report.Report
	var err error
	if len(files) == 1 {
		rep, _, err = CompareAB(files[0], paths[0], testThresholds(t))
	} else {
		last := len(files) - 1
		rep, err = CompareStored(files[:last], paths[:last], files[last], paths[last], testThresholds(t))
	}
	if err != nil {
		t.Fatal(err)
	}
	// The statistics from the samples SampleOf derives from the requests
	// themselves, apart from any digest.
	var pairs []results.Pair
	switch len(files) {
	case 1:
		pairs = results.MatchVariants(files[0])
	case 2:
		pairs = results.Match(files[0], files[1])
	default:
		return rep
	}
	want := CompareRuns(files[len(files)-1], compare.Pairs(pairs), testThresholds(t))
	if g, w := fmt.Sprintf("%+v", rep.Result), fmt.Sprintf("%+v", want); g != w {
		t.Errorf("the comparison of the digests\n%s\nof the runs\n%s", g, w)
	}
	return rep
}

func testThresholds(t *testing.T) compare.Config {
	t.Helper()
	th, err := CompareConfig(nil, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	th.Permutations, th.Bootstrap = 400, 200
	return th
}

func render(t *testing.T, rep *report.Report, f report.ReportFormat) string {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, rep, nil, f, report.RenderOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestStreamedDigestsAreTheRunsDigests: a streamed run's sample and
// breakdown are those of the run read whole.
func TestStreamedDigestsAreTheRunsDigests(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ab.json")
	if err := fileio.Write(path, mixedFile(8, 1.2, true)); err != nil {
		t.Fatal(err)
	}
	whole, err := fileio.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	f, ds, err := readDigested(path, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := range whole.Runs {
		want, got := report.DigestOf(&whole.Runs[i]), ds.Of(&f.Runs[i])
		// %+v prints NaN as NaN, where reflect.DeepEqual finds it unequal.
		if g, w := fmt.Sprintf("%+v %+v", *got.Sample, got.Breakdown), fmt.Sprintf("%+v %+v", *compare.SampleOf(&whole.Runs[i]), want.Breakdown); g != w {
			t.Errorf("run %d: streamed\n%s\nwhole\n%s", i, g, w)
		}
		if len(got.Sample.Block) != len(whole.Runs[i].Requests) || len(got.Breakdown.Steps) == 0 && whole.Runs[i].Scenario == "agent" {
			t.Errorf("run %d: %d blocks, %d steps", i, len(got.Sample.Block), len(got.Breakdown.Steps))
		}
	}
}

// TestComparePathsRefusesAsBefore: a hostile file is refused with the
// error of the whole read, streamed or not; a format that draws every
// request reads the files whole, and a report without requests is not
// rendered in one.
func TestComparePathsRefusesAsBefore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base, head := filepath.Join(dir, "base.json"), filepath.Join(dir, "head.json")
	bad := mixedFile(10, 1, false)
	huge := 1e300
	bad.Runs[1].Requests[7].ITLMs[2] = huge
	if err := fileio.Write(base, mixedFile(9, 1, false)); err != nil {
		t.Fatal(err)
	}
	if err := fileio.Write(head, bad); err != nil {
		t.Fatal(err)
	}
	th := testThresholds(t)
	jsonFormat, csvFormat := lookupFormat(t, "json"), lookupFormat(t, "csv")
	_, _, streamed := ComparePaths([]string{base, head}, jsonFormat, th, 0, io.Discard)
	_, _, whole := ComparePaths([]string{base, head}, csvFormat, th, 0, io.Discard)
	var ge *Error
	if streamed == nil || whole == nil || streamed.Error() != whole.Error() || !errors.As(streamed, &ge) || ge.Kind != BadInput ||
		!strings.Contains(streamed.Error(), "runs[1].requests[7]: itl_ms is 1e+300") {
		t.Errorf("streamed: %v\nwhole: %v", streamed, whole)
	}
	if err := fileio.Write(head, mixedFile(11, 1, false)); err != nil {
		t.Fatal(err)
	}
	rep, _, err := ComparePaths([]string{base, head}, csvFormat, th, 0, io.Discard)
	if err != nil || rep.WithoutRequests || len(rep.Scenarios[0].CurrentRun.Requests) != 60 {
		t.Fatalf("csv: %v", err)
	}
	render(t, rep, csvFormat)
	rep.WithoutRequests = true
	if err := Render(io.Discard, rep, nil, csvFormat, report.RenderOptions{}); !errors.As(err, &ge) || ge.Kind != CannotRun {
		t.Errorf("csv of a report without requests: %v", err)
	}
}

func lookupFormat(t *testing.T, name string) report.ReportFormat {
	t.Helper()
	f, err := report.ReportFormats.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

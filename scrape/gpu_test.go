package scrape

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"

	"github.com/latgate/latgate/internal/clocktest"
)

var dcgm, _ = Known("dcgm")

const (
	gpu0 = "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52"
	gpu1 = "GPU-1b2f7f4e-03c1-7a9e-5d3b-0e7c8f1a2b3c"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadDCGMPage: dcgm-exporter's page (testdata/dcgm.txt, from its
// documented format) read GPU by GPU, each known by its UUID, with its
// model; its other families (clocks, a temperature of DCGM's blank value)
// not read; the same from the page in protobuf.
func TestReadDCGMPage(t *testing.T) {
	t.Parallel()
	page := fixture(t, "dcgm.txt")
	p, warnings, err := Read(strings.NewReader(page), "text/plain; version=0.0.4", AnyEngine())
	if err != nil || len(warnings) > 0 {
		t.Fatalf("err %v, warnings %v", err, warnings)
	}
	want := map[string]map[string]float64{
		"DCGM_FI_DEV_GPU_UTIL":    {gpu0: 97, gpu1: 3},
		"DCGM_FI_DEV_FB_USED":     {gpu0: 73560, gpu1: 512},
		"DCGM_FI_DEV_POWER_USAGE": {gpu0: 612.457, gpu1: 88.125},
	}
	check := func(form string, p Page) {
		if len(p.gpus) != 3 || len(p.gauges)+len(p.hists) != 0 {
			t.Errorf("%s: read %v, %v, %v: the three GPU families only", form, p.gpus, p.gauges, p.hists)
		}
		for fam, gpus := range want {
			for id, v := range gpus {
				if g := p.gpus[fam][id]; g.v != v || g.model != "NVIDIA H100 80GB HBM3" {
					t.Errorf("%s: %s of %s = %+v, want %v", form, fam, id, g, v)
				}
			}
		}
	}
	check("text", p)
	var pb bytes.Buffer
	tp := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := tp.TextToMetricFamilies(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range fams {
		if _, err := protodelim.MarshalTo(&pb, mf); err != nil {
			t.Fatal(err)
		}
	}
	p, warnings, err = Read(&pb, string(expfmt.NewFormat(expfmt.TypeProtoDelim)), AnyEngine())
	if err != nil || len(warnings) > 0 {
		t.Fatalf("protobuf: err %v, warnings %v", err, warnings)
	}
	check("protobuf", p)
}

// TestReadGPUIdentity: a GPU without a UUID is known by its host and
// index (hostname, or Hostname before dcgm-exporter's d5e5f510), so GPU 0
// of two hosts are two GPUs; a MIG instance adds its GPU_I_ID.
func TestReadGPUIdentity(t *testing.T) {
	t.Parallel()
	page := `# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{gpu="0",hostname="a"} 10
DCGM_FI_DEV_GPU_UTIL{gpu="0",Hostname="b"} 20
DCGM_FI_DEV_GPU_UTIL{gpu="1",uuid="GPU-x",GPU_I_ID="3"} 30
DCGM_FI_DEV_GPU_UTIL{gpu="2"} 40
`
	p, _, err := Read(strings.NewReader(page), "text/plain", dcgm)
	if err != nil {
		t.Fatal(err)
	}
	got := p.gpus["DCGM_FI_DEV_GPU_UTIL"]
	for id, v := range map[string]float64{"a gpu 0": 10, "b gpu 0": 20, "GPU-x MIG 3": 30, "gpu 2": 40} {
		if got[id].v != v {
			t.Errorf("%q = %+v, want %v (all: %v)", id, got[id], v, got)
		}
	}
}

// TestReadAbsurdGPUValues: a GPU's value no GPU gives (utilization over
// 100 % or negative, DCGM's blank value, NaN, memory beyond 1 TiB, power
// beyond 5 kW) is left out with one warning a family; the other GPUs are
// read.
func TestReadAbsurdGPUValues(t *testing.T) {
	t.Parallel()
	page := `# TYPE DCGM_FI_DEV_GPU_UTIL gauge
DCGM_FI_DEV_GPU_UTIL{gpu="0"} 250
DCGM_FI_DEV_GPU_UTIL{gpu="1"} -1
DCGM_FI_DEV_GPU_UTIL{gpu="2"} 9223372036854775794
DCGM_FI_DEV_GPU_UTIL{gpu="3"} NaN
DCGM_FI_DEV_GPU_UTIL{gpu="4"} 55
# TYPE DCGM_FI_DEV_FB_USED gauge
DCGM_FI_DEV_FB_USED{gpu="4"} 2e6
# TYPE DCGM_FI_DEV_POWER_USAGE gauge
DCGM_FI_DEV_POWER_USAGE{gpu="4"} +Inf
`
	p, warnings, err := Read(strings.NewReader(page), "text/plain", dcgm)
	if err != nil {
		t.Fatal(err)
	}
	if u := p.gpus["DCGM_FI_DEV_GPU_UTIL"]; len(u) != 1 || u["gpu 4"].v != 55 {
		t.Errorf("util %v: gpu 4 alone", u)
	}
	if len(p.gpus) != 1 {
		t.Errorf("gpus %v: memory and power left out", p.gpus)
	}
	want := []string{
		"DCGM_FI_DEV_GPU_UTIL of gpu 0 is 250, not from 0 to 100 %: left out (and 3 more values)",
		"DCGM_FI_DEV_FB_USED of gpu 4 is 2e+06, not from 0 to 1048576 MiB: left out",
		"DCGM_FI_DEV_POWER_USAGE of gpu 4 is +Inf, not from 0 to 5000 W: left out",
	}
	slices.Sort(warnings)
	slices.Sort(want)
	if fmt.Sprint(warnings) != fmt.Sprint(want) {
		t.Errorf("warnings\n%q\nwant\n%q", warnings, want)
	}
}

// TestReadManyGPUs: a page of 100 GPUs gives the first 64 read and one
// warning; a page of a million GPU series (4 MiB of them) costs what any
// hostile page costs (TestReadMemoryBounded's bound) and one warning a
// family, in text and in protobuf.
func TestReadManyGPUs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n")
	for i := range 100 {
		fmt.Fprintf(&b, "DCGM_FI_DEV_GPU_UTIL{gpu=\"%d\"} 50\n", i)
	}
	p, warnings, err := Read(strings.NewReader(b.String()), "text/plain", dcgm)
	if err != nil || len(p.gpus["DCGM_FI_DEV_GPU_UTIL"]) != MaxGPUs || fmt.Sprint(warnings) != "[DCGM_FI_DEV_GPU_UTIL has 36 GPUs more than the 64 read]" {
		t.Errorf("err %v, %d GPUs, warnings %q", err, len(p.gpus["DCGM_FI_DEV_GPU_UTIL"]), warnings)
	}
	if testing.Short() {
		t.Skip("reads 4 MiB pages")
	}
	var huge strings.Builder
	huge.WriteString("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n")
	for i := 0; huge.Len() < MaxPage-64; i++ {
		fmt.Fprintf(&huge, "DCGM_FI_DEV_GPU_UTIL{gpu=\"%x\"} 1\n", i)
	}
	var pb bytes.Buffer
	mf := &dto.MetricFamily{Name: proto.String("DCGM_FI_DEV_GPU_UTIL"), Type: dto.MetricType_GAUGE.Enum()}
	for i := range 150000 {
		mf.Metric = append(mf.Metric, &dto.Metric{Label: []*dto.LabelPair{{Name: proto.String("gpu"), Value: proto.String(fmt.Sprint(i))}}, Gauge: &dto.Gauge{Value: proto.Float64(1)}})
	}
	if _, err := protodelim.MarshalTo(&pb, mf); err != nil || pb.Len() > MaxPage {
		t.Fatalf("%v: %d bytes", err, pb.Len())
	}
	read := allocated(t, strings.Repeat("# a comment\n", MaxPage/12), "text/plain")
	for _, c := range []struct{ name, contentType, page string }{
		{"text", "text/plain", huge.String()},
		{"protobuf", string(expfmt.NewFormat(expfmt.TypeProtoDelim)), pb.String()},
	} {
		got, warnings := readCost(t, c.page, c.contentType, dcgm)
		if extra := got - min(got, read); extra > maxParseBytes {
			t.Errorf("%s: %d bytes allocated beyond reading the page, over %d", c.name, extra, maxParseBytes)
		}
		if len(warnings) != 1 {
			t.Errorf("%s: warnings %.300q, want one", c.name, warnings)
		}
	}
}

// gpuEngine is a page of two GPUs whose values a test sets.
type gpuEngine struct {
	mu    sync.Mutex
	util  [2]float64
	extra string
}

func (e *gpuEngine) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(w, "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n")
	for i, u := range e.util {
		fmt.Fprintf(w, "DCGM_FI_DEV_GPU_UTIL{gpu=\"%d\",UUID=\"GPU-%d\",modelName=\"sim\"} %g\n", i, i, u)
	}
	fmt.Fprintf(w, "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\nDCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-0\"} %g\n", 100+3*e.util[0])
	w.Write([]byte(e.extra))
}

// TestRunGPUs: a run's samples give each GPU's median and max of each of
// its gauges, in the order of its index, on virtual time.
func TestRunGPUs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &gpuEngine{}
		srv := clocktest.NewServer(t, e)
		s := &Scraper{URL: srv.URL + "/metrics", Names: AnyEngine(), Client: srv.Client(), Interval: time.Second}
		run := s.Start(context.Background())
		time.Sleep(500 * time.Millisecond)
		for _, u := range [][2]float64{{90, 10}, {97, 20}, {99, 30}, {40, 0}} {
			e.mu.Lock()
			e.util = u
			e.mu.Unlock()
			time.Sleep(time.Second)
		}
		sum := run.Stop(context.Background())
		if len(sum.GPUs) != 2 || sum.GPUsLeftOut != 0 || len(sum.Warnings) != 0 {
			t.Fatalf("gpus %+v, left out %d, warnings %v", sum.GPUs, sum.GPUsLeftOut, sum.Warnings)
		}
		g0, g1 := sum.GPUs[0], sum.GPUs[1]
		if g0.ID != "GPU-0" || g0.Model != "sim" || *g0.Util != (Gauge{Name: "util", Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 4, Median: 93.5, Max: 99}) {
			t.Errorf("GPU 0 %+v util %+v: median of 40, 90, 97, 99", g0, g0.Util)
		}
		if g0.Power == nil || g0.Power.Median != 380.5 || g0.Power.Max != 397 || g0.Memory != nil {
			t.Errorf("GPU 0 power %+v, memory %+v", g0.Power, g0.Memory)
		}
		if g1.ID != "GPU-1" || g1.Util.Median != 15 || g1.Util.Max != 30 || g1.Power != nil {
			t.Errorf("GPU 1 %+v util %+v", g1, g1.Util)
		}
	})
}

// TestRunSpecCounters: vLLM's counters' deltas over a run (the fixture
// before, 300 drafts of 900 tokens, 630 accepted, after) and SGLang's
// gauges (the mean of its ranks, the median of the samples).
func TestRunSpecCounters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		before := fixture(t, "vllm_spec.txt")
		after := strings.NewReplacer("} 1000\n", "} 1300\n", "} 3000\n", "} 3900\n", "} 1800\n", "} 2430\n").Replace(before)
		var mu sync.Mutex
		page := before
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			w.Write([]byte(page))
		}))
		s := &Scraper{URL: srv.URL, Names: AnyEngine(), Client: srv.Client(), Interval: time.Hour}
		run := s.Start(context.Background())
		mu.Lock()
		page = after
		mu.Unlock()
		sum := run.Stop(context.Background())
		want := Spec{DraftsFamily: "vllm:spec_decode_num_drafts_total", DraftTokensFamily: "vllm:spec_decode_num_draft_tokens_total",
			AcceptedFamily: "vllm:spec_decode_num_accepted_tokens_total", Drafts: 300, DraftTokens: 900, Accepted: 630}
		if sum.Spec == nil || *sum.Spec != want || len(sum.Warnings) != 0 {
			t.Errorf("spec %+v, warnings %v, want %+v", sum.Spec, sum.Warnings, want)
		}
		mu.Lock()
		page = before // the counters went back: a restart
		mu.Unlock()
		run = s.Start(context.Background())
		mu.Lock()
		page = strings.Replace(before, "} 3000\n", "} 100\n", 1)
		mu.Unlock()
		if sum := run.Stop(context.Background()); sum.Spec != nil || len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "went back or disagree") {
			t.Errorf("a restart: spec %+v, warnings %v", sum.Spec, sum.Warnings)
		}

		mu.Lock()
		page = fixture(t, "sglang_spec.txt")
		mu.Unlock()
		s.Interval = time.Second
		run = s.Start(context.Background())
		time.Sleep(3500 * time.Millisecond)
		sum = run.Stop(context.Background())
		g := map[string]Gauge{}
		for _, x := range sum.Gauges {
			g[x.Name] = x
		}
		if r := g[GaugeSpecRate]; r.Samples != 3 || math.Abs(r.Median-0.6) > 1e-12 || r.Family != "sglang:spec_accept_rate" {
			t.Errorf("rate %+v: the mean of its two ranks, 0.6", r)
		}
		if l := g[GaugeSpecLength]; l.Median != 3 {
			t.Errorf("length %+v", l)
		}
		if sum.Spec != nil {
			t.Errorf("spec %+v from gauges", sum.Spec)
		}
	})
}

// TestRunGPUsMemoryBounded: a run keeps what its samples of a GPU page
// said, not the pages: a hostile page of 64 GPUs in three families, each
// GPU's three labels 6 KB long, sampled 30 times keeps a few KB a sample
// (MaxSamples of them make a run), where each sample kept its page's
// GPUs with the labels they were cut from (3 MB a sample: 30 GB at
// MaxSamples). Not parallel: the heap is the test's own.
func TestRunGPUsMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("serves 3 MB pages")
	}
	var b strings.Builder
	long := strings.Repeat("x", 6<<10)
	for _, fam := range []string{"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_POWER_USAGE"} {
		fmt.Fprintf(&b, "# TYPE %s gauge\n", fam)
		for i := range MaxGPUs {
			fmt.Fprintf(&b, "%s{gpu=\"%d\",UUID=\"GPU-%04d%s\",modelName=\"%s\",Hostname=\"%s\"} 50\n", fam, i, i, long, long, long)
		}
	}
	page := b.String()
	if len(page) > MaxPage {
		t.Fatalf("page of %d bytes, over %d", len(page), MaxPage)
	}
	const samples = 30
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, page) }))
		s := &Scraper{URL: srv.URL + "/metrics", Names: AnyEngine(), Client: srv.Client(), Interval: time.Second}
		heap := func() uint64 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		run := s.Start(context.Background())
		time.Sleep(1500 * time.Millisecond)
		from := heap()
		time.Sleep(samples * time.Second)
		kept := heap() - min(heap(), from)
		sum := run.Stop(context.Background())
		if len(sum.GPUs) != MaxGPUs || sum.GPUs[0].Util == nil || sum.GPUs[0].Util.Samples != samples+1 {
			t.Fatalf("%d GPUs, the first %+v: want %d, each of %d samples", len(sum.GPUs), sum.GPUs[0], MaxGPUs, samples+1)
		}
		if per := kept / samples; per > 8<<10 {
			t.Errorf("%d samples kept %d bytes, %d a sample: over 8 KB", samples, kept, per)
		} else {
			t.Logf("%d samples kept %d bytes, %d a sample", samples, kept, per)
		}
	})
}

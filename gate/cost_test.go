package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/money"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

func TestCostAndMaxCost(t *testing.T) {
	t.Parallel()
	s := sim.New(sim.Profile{TTFT: sim.Fixed(5 * time.Millisecond), ITL: sim.Fixed(time.Millisecond), Tokens: 10}, 1)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	suiteText := func(limits string) string {
		return "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
			"scenarios:\n  - {name: s, prompt: hi, max_tokens: 10, requests: 20, warmup: 0, concurrency: 1}\n" +
			"pricing:\n  m: {input: 1000, output: 2000, cached_input: 500}\n" + limits
	}
	cfg, err := suite.Parse("c.yaml", []byte(suiteText("")), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := f.Runs[0]
	q := run.Requests[0]
	want := (float64(q.PromptTokens)*1000 + float64(q.OutputTokens)*2000) / 1e6
	if q.CostUSD == nil || math.Abs(*q.CostUSD-want) > 1e-6 {
		t.Fatalf("cost_usd = %v, want %v (%d prompt, %d output tokens)", q.CostUSD, want, q.PromptTokens, q.OutputTokens)
	}
	if run.CostUSD == nil || f.CostUSD == nil || math.Abs(*run.CostUSD-20*want) > 1e-5 || *f.CostUSD != *run.CostUSD {
		t.Errorf("run cost %v, file cost %v, want %v each", run.CostUSD, f.CostUSD, 20*want)
	}

	// A cost cap stops the run: what was measured is returned, marked
	// incomplete, and the error says which cap.
	capped, err := suite.Parse("c.yaml", []byte(suiteText("limits:\n  max_cost: "+trimUSD(5*want)+"\n")), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err = Measure(context.Background(), capped, MeasureOptions{})
	var inc *IncompleteError
	if !errors.As(err, &inc) || KindOf(err) != CannotRun || !strings.Contains(f.Incomplete, "limits.max_cost") {
		t.Fatalf("err = %v, incomplete %q; want an incomplete run stopped by limits.max_cost", err, f.Incomplete)
	}
	if n := len(f.Runs[0].Requests); n < 5 || n > 6 {
		t.Errorf("%d requests before the cap, want 5 (one may be in flight)", n)
	}

	// A cap below one request's cost: no results, no file to write.
	tiny, err := suite.Parse("c.yaml", []byte(suiteText("limits:\n  max_cost: 0.000001\n")), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err = Measure(context.Background(), tiny, MeasureOptions{})
	if KindOf(err) != CannotRun || len(f.Runs) > 1 {
		t.Errorf("err = %v with %d runs; want could-not-run", err, len(f.Runs))
	}
}

func trimUSD(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// A run's cost is what it paid: its warmup requests too, as limits.max_cost
// counts them, at full precision (a cheap run is not $0, and the sum is
// not off by the rounding of each request).
func TestRunCostIsWhatWasPaid(t *testing.T) {
	t.Parallel()
	s := sim.New(sim.Profile{TTFT: sim.Fixed(2 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 10}, 1)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	measure := func(t *testing.T, scenario, rest string) (*results.File, error) {
		t.Helper()
		cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\n"+
			"scenarios:\n  - {name: s, prompt: hi, max_tokens: 10, concurrency: 1, "+scenario+"}\n"+rest), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return Measure(context.Background(), cfg, MeasureOptions{})
	}
	perRequest := func(f *results.File, input, output float64) float64 {
		q := f.Runs[0].Requests[0]
		return (float64(q.PromptTokens)*input + float64(q.OutputTokens)*output) / 1e6
	}
	for _, tt := range []struct {
		name          string
		warmup, n     int
		input, output float64
	}{
		{"cheap model", 0, 20, 0.015, 0.0375},
		{"warmup", 3, 12, 1000, 2000},
		{"cheap with warmup", 2, 20, 0.01, 0.03},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := measure(t, fmt.Sprintf("requests: %d, warmup: %d", tt.n, tt.warmup),
				fmt.Sprintf("pricing:\n  m: {input: %v, output: %v}\n", tt.input, tt.output))
			if err != nil {
				t.Fatal(err)
			}
			one := perRequest(f, tt.input, tt.output)
			want := float64(tt.n+tt.warmup) * one
			run := f.Runs[0]
			if q := run.Requests[0].CostUSD; q == nil || math.Abs(*q-one) > one*1e-5 {
				t.Errorf("got request cost %s, want %v", usdOf(q), one)
			}
			if run.CostUSD == nil || math.Abs(*run.CostUSD-want) > want*1e-5 {
				t.Errorf("got run cost %s, want %v (%d requests and %d warmup at %v)", usdOf(run.CostUSD), want, tt.n, tt.warmup, one)
			}
			if f.CostUSD == nil || *f.CostUSD != *run.CostUSD {
				t.Errorf("got file cost %s, want the run's %s", usdOf(f.CostUSD), usdOf(run.CostUSD))
			}
		})
	}

	// Stopped by limits.max_cost: the reported cost is at least the cap,
	// as the stop message says, warmup included.
	f, err := measure(t, "requests: 20, warmup: 1", "pricing:\n  m: {input: 1000, output: 2000}\n")
	if err != nil {
		t.Fatal(err)
	}
	limit := 4.5 * perRequest(f, 1000, 2000)
	f, err = measure(t, "requests: 20, warmup: 3", "pricing:\n  m: {input: 1000, output: 2000}\nlimits:\n  max_cost: "+trimUSD(limit)+"\n")
	if KindOf(err) != CannotRun || !strings.Contains(f.Incomplete, "warmup included") {
		t.Fatalf("got %v, incomplete %q; want a run stopped by limits.max_cost", err, f.Incomplete)
	}
	if n := len(f.Runs[0].Requests); n != 2 {
		t.Errorf("got %d measured requests, want 2 after 3 warmup ones", n)
	}
	if f.CostUSD == nil || *f.CostUSD < limit {
		t.Errorf("got cost %s, want at least the cap %v that stopped the run", usdOf(f.CostUSD), limit)
	}
}

func usdOf(v *float64) string {
	if v == nil {
		return "none"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

func TestCostInEveryReport(t *testing.T) {
	t.Parallel()
	s := sim.New(sim.Profile{TTFT: sim.Fixed(5 * time.Millisecond), ITL: sim.Fixed(time.Millisecond), Tokens: 10}, 1)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	cfg, err := suite.Parse("c.yaml", []byte("endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\n"+
		"scenarios:\n  - {name: s, prompt: hi, max_tokens: 10, requests: 10, concurrency: 2}\n"+
		"pricing:\n  m: {input: 1000, output: 2000}\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	th, _ := CompareConfig(cfg, Overrides{})
	rep, err := CompareFiles(f, f, "b.json", "c.json", th)
	if err != nil {
		t.Fatal(err)
	}
	want := money.USD(*f.CostUSD)
	var text, js bytes.Buffer
	report.Text(&text, rep, false)
	if err := report.JSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": report.Markdown(rep, report.MarkdownOptions{})} {
		if !strings.Contains(out, "Cost of this run: "+want) {
			t.Errorf("%s report lacks the run's cost %s", name, want)
		}
	}
	if !strings.Contains(js.String(), `"cost_usd"`) {
		t.Errorf("the JSON verdict lacks cost_usd:\n%.400s", js.String())
	}
}

// The cost cap's words show the cap and the spend with the digits that
// make "reached" visibly true: never "($0.01) reached ($0.0052 spent)".
func TestCostCapWords(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cap, spent float64
		want       string
	}{
		{0.005, 0.0052, "limits.max_cost ($0.005) reached ($0.0052 spent, warmup included)"},
		{0.0000001, 0.00000015, "limits.max_cost ($0.0000001) reached ($0.00000015 spent, warmup included)"},
		{2, 2.25, "limits.max_cost ($2.00) reached ($2.25 spent, warmup included)"},
		{1.00001, 1.000012, "limits.max_cost ($1.00001) reached ($1.00001 spent, warmup included)"},
	} {
		res := probe.Result{Cause: vocab.Capped, Cap: probe.Cap{Limit: probe.CapCost, Value: tt.cap, Spent: tt.spent}}
		if got := stopText(res); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	if got := stopText(probe.Result{Cause: vocab.Capped, Cap: probe.Cap{Limit: probe.CapRequests, Value: 7}}); got != "limits.max_requests (7) reached" {
		t.Errorf("requests cap: %q", got)
	}
}

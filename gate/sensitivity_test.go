package gate

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// TestSensitivityAgreesWithAARuns: what SuiteSensitivity says a suite can
// detect (the model, what latgate init writes) is what A/A runs of that
// suite measure against the simulator's profile: for TTFT, ITL and total
// at p50, the median smallest detectable slowdown of 9 interleaved A/A
// runs (latgate ab of the suite with itself, on virtual time) is within
// 25% of the model's, and a run lasts within 15% of what it says.
func TestSensitivityAgreesWithAARuns(t *testing.T) {
	t.Parallel()
	model, err := sim.Named("realistic")
	if err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(model, 7))
		src := "endpoints:\n  - {name: main, base_url: " + srv.URL + "/v1, model: m}\n" +
			"scenarios:\n  - {name: chat, prompt: Summarise Hamlet., max_tokens: 128, requests: 50, concurrency: 1}\n"
		cfg, err := suite.Parse("latgate.yaml", []byte(src), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		said, err := SuiteSensitivity(cfg, model)
		if err != nil {
			t.Fatal(err)
		}
		th, _ := CompareConfig(cfg, Overrides{})
		measured := map[vocab.Metric][]float64{}
		for range 9 {
			f, err := MeasureAB(context.Background(), cfg, cfg, MeasureOptions{Client: srv.Client(), Thresholds: &th})
			if err != nil {
				t.Fatal(err)
			}
			_, noise, err := CompareAB(f, "aa.json", th)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range noise {
				if c.Stat == vocab.P50 {
					measured[c.Metric] = append(measured[c.Metric], c.MDEPct)
				}
			}
		}
		start := time.Now()
		if _, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()}); err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		for _, m := range []vocab.Metric{vocab.TTFT, vocab.ITL, vocab.Total} {
			model := mdeOf(said.Checks, m, vocab.P50)
			if len(measured[m]) == 0 {
				t.Fatalf("%s p50: no A/A run measured it", m)
			}
			got := median(measured[m])
			t.Logf("%s p50: the model says +%.1f%%, A/A runs measure +%.1f%% (median of %.1f)", m, model, got, measured[m])
			if math.IsNaN(model) || math.Abs(got/model-1) > 0.25 {
				t.Errorf("%s p50: the model says +%.0f%%, A/A runs measure +%.0f%% (median of %v)", m, model, got, measured[m])
			}
		}
		t.Logf("a run: the model says %s, it took %s", said.Run, took)
		if r := float64(said.Run) / float64(took); r < 0.85 || r > 1.15 {
			t.Errorf("the model says a run takes %s, it took %s", said.Run, took)
		}
	})
}

// TestSensitivityText: the statement names the suite's request count,
// each statistic's smallest detectable slowdown, the requests that catch
// twice the tolerance, and the time, in lines of at most the width.
func TestSensitivityText(t *testing.T) {
	t.Parallel()
	model, _ := sim.Named("realistic")
	for _, tt := range []struct {
		requests string
		want     []string
	}{
		{"50", []string{"at 50 requests per endpoint and variant", "TTFT p50 +", "total p95 +", "+20% in each at up to", "A run takes about 2m "}},
		{"{min: 40, max: 200}", []string{"at 200 requests", "A run takes from about 2m (adaptive scenarios stopping at their min) to 8m"}},
		{"5", []string{"nothing; too few requests to test a percentile"}},
	} {
		cfg, err := suite.Parse("l.yaml", []byte("endpoints:\n  - {name: e, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: "+tt.requests+"}\n"), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := SuiteSensitivity(cfg, model)
		if err != nil {
			t.Fatal(err)
		}
		lines := reportLines(s)
		text := strings.Join(lines, " ")
		for _, w := range tt.want {
			if !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
				t.Errorf("requests %s: the statement lacks %q:\n%s", tt.requests, w, strings.Join(lines, "\n"))
			}
		}
		for _, l := range lines {
			if len([]rune(l)) > 88 {
				t.Errorf("a line of %d columns: %q", len([]rune(l)), l)
			}
		}
	}
}

func mdeOf(checks []compare.NoiseCheck, m vocab.Metric, st vocab.Stat) float64 {
	for _, c := range checks {
		if c.Metric == m && c.Stat == st {
			return c.MDEPct
		}
	}
	return math.NaN()
}

func reportLines(s report.Sensitivity) []string { return report.SensitivityLines(s, "l.yaml", 88) }

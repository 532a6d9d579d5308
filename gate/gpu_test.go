package gate

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

// TestCapacityLevelsScraped: each level of a capacity search is scraped
// as a run of its own, from both pages of a metrics_url list (the
// engine's and its GPUs'): on the simulator's 8 slots and 2 GPUs, each
// level's busiest GPU has a median utilization of exactly its share of
// the slots (13 % at 1 user of 8, 100 % from 8 users on), and each level's drafts accept 75 %
// of their tokens, 4 tokens a draft (3 accepted and the bonus), exactly.
// Virtual time.
func TestCapacityLevelsScraped(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		p := engineProfile(8)
		p.Engine = &sim.Engine{Front: 2 * time.Millisecond, GPUs: 2, SpecTokens: 4, SpecAccept: 0.75}
		srv := clocktest.NewServer(t, sim.New(p, 1))
		text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m, metrics_url: [" + srv.URL + "/metrics, " + srv.URL + "/dcgm/metrics]}\n" +
			"scenarios:\n  - name: chat\n    prompt: hi\n    max_tokens: 16\n    capacity: {vary: concurrency, from: 1, to: 64, requests_per_level: 60, slo: {ttft: {p95: 200ms}}}\n" +
			"limits: {max_requests: 5000}\n"
		cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), ScrapeEvery: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		levels := 0
		for _, r := range f.Runs {
			if r.Level == nil {
				continue
			}
			levels++
			m := r.ServerMetrics
			if m == nil || len(m.GPUs) != 2 || m.Spec == nil || len(m.Stages) == 0 {
				t.Fatalf("level %g: server metrics %+v", r.Level.Value, m)
			}
			want := math.Round(100 * min(r.Level.Value, 8) / 8) // an integer percent, as dcgm-exporter gives
			for _, g := range m.GPUs {
				if g.Util == nil || g.Util.Median != want || g.Util.Family != "DCGM_FI_DEV_GPU_UTIL" || !strings.HasPrefix(g.GPU, "GPU-5e1a") {
					t.Errorf("level %g, %s: util %+v, want a median of %g %%", r.Level.Value, g.GPU, g.Util, want)
				}
			}
			if s := m.Spec; s.Rate() != 0.75 || s.Length() != 4 {
				t.Errorf("level %g: %+v: rate %v, length %v", r.Level.Value, s, s.Rate(), s.Length())
			}
			if len(m.Warnings) > 0 || m.Failed > 0 {
				t.Errorf("level %g: warnings %v", r.Level.Value, m.Warnings)
			}
		}
		if levels < 5 {
			t.Errorf("%d levels", levels)
		}
	})
}

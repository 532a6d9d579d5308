package scrape

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// TestSimulatedEngine: the simulator's /metrics page moves with the load
// it serves, and a run's scrapes read it back exactly. One slot, three
// requests 1 ms apart, each 240 ms long: they wait 0, 239 and 478 ms and
// their first tokens come 185 ms after they leave the queue.
func TestSimulatedEngine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := sim.Profile{Name: "engine", HeaderDelay: 20 * time.Millisecond, TTFT: sim.Fixed(200 * time.Millisecond), ITL: sim.Fixed(10 * time.Millisecond),
			Tokens: 5, Capacity: sim.Capacity{Slots: 1}, Engine: &sim.Engine{Front: 15 * time.Millisecond}}
		srv := clocktest.NewServer(t, sim.New(p, 1))
		start := time.Now()
		s := &Scraper{URL: srv.URL + "/metrics", Names: vllm, Client: srv.Client(), Interval: 100 * time.Millisecond}
		run := s.Start(context.Background())
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i) * time.Millisecond)
				resp, err := srv.Client().Post(srv.URL+"/v1/chat/completions", "application/json",
					strings.NewReader(`{"model":"engine","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}()
		}
		wg.Wait()
		time.Sleep(750*time.Millisecond - time.Since(start)) // samples at 100 … 700 ms
		sum := run.Stop(context.Background())
		stages := map[string]Stage{}
		for _, st := range sum.Stages {
			stages[st.Name] = st
		}
		if q := stages[StageQueue]; q.Count != 3 || q.Mean != 239*time.Millisecond || q.Quantiles[0].Value != 225*time.Millisecond {
			t.Errorf("queue %+v: 3 observations, mean 239 ms, p50 225 ms (a quarter of the way through the bucket to 0.3 s)", q)
		}
		if f := stages[StageTTFT]; f.Count != 3 || f.Quantiles[0].Value != 375*time.Millisecond || f.Quantiles[0].Lower != 250*time.Millisecond {
			t.Errorf("ttft %+v: p50 375 ms, in the bucket (250, 500] ms", f)
		}
		if d := stages[StageDecode]; d.Mean != 40*time.Millisecond {
			t.Errorf("decode %+v", d)
		}
		g := map[string]Gauge{}
		for _, x := range sum.Gauges {
			g[x.Name] = x
		}
		if w := g[GaugeWaiting]; w.Samples != 7 || w.Median != 1 || w.Max != 2 {
			t.Errorf("waiting %+v: 2, 2, 1, 1, 0, 0, 0", w)
		}
		if kv := g[GaugeKVCache]; kv.Max != 1 || kv.Median != 1 {
			t.Errorf("kv cache %+v: the one slot busy", kv)
		}
		if sum.Failed != 0 || len(sum.Warnings) != 0 {
			t.Errorf("failed %d, warnings %v", sum.Failed, sum.Warnings)
		}
	})
}

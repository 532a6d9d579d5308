package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// slotServer is the fixtures' serving engine: slots answers at once, the
// others wait in arrival order for a free slot; a first token ttft (log-
// normal) after a slot is free plus prefill for each other request in
// the batch, then 31 gaps of itl. The times are milliseconds.
type slotServer struct {
	slots                int
	ttft, prefill, itl   float64
	failEvery, failAbove int // every failEvery-th request fails above failAbove users (0: none)
	slowEvery            int // every slowEvery-th request's first token comes slow ms later (0: none)
	slow                 float64
	gpus                 int // its GPU exporter's GPUs, each level's run scraped (0: no GPU page)
}

// gpuUtil is the fixtures' GPU utilization at a level: the busy slots'
// share, 100·min(users, slots) ÷ slots, in percent.
func (sv slotServer) gpuUtil(users float64) float64 {
	return 100 * math.Min(users, float64(sv.slots)) / float64(sv.slots)
}

// gpuPage is what a run's scrapes of a DCGM page of gpus H100s and of
// vLLM's draft counters say: the busiest GPU at util % (median; max 3
// points above it, at most 100), the others at half of it, memory and
// power rising with it; drafts of 4 tokens, accept of their tokens
// accepted.
func gpuPage(gpus int, util float64, drafts, accept float64) *results.ServerMetrics {
	m := &results.ServerMetrics{Scrapes: 12, Spec: &results.MetricSpec{DraftsFamily: "vllm:spec_decode_num_drafts_total",
		DraftTokensFamily: "vllm:spec_decode_num_draft_tokens_total", AcceptedFamily: "vllm:spec_decode_num_accepted_tokens_total",
		Drafts: drafts, DraftTokens: 4 * drafts, Accepted: math.Round(accept * 4 * drafts)}}
	for i := range gpus {
		u := util / float64(1+min(i, 1))
		stat := func(family string, v, hi float64) *results.GaugeStats {
			return &results.GaugeStats{Family: family, Samples: 10, Median: v, Max: math.Min(v*1.03, hi)}
		}
		m.GPUs = append(m.GPUs, results.MetricGPU{GPU: fmt.Sprintf("GPU-%08x", 0x5eed0+i), Model: "NVIDIA H100 80GB HBM3",
			Util:      &results.GaugeStats{Family: "DCGM_FI_DEV_GPU_UTIL", Samples: 10, Median: u, Max: math.Min(u+3, 100)},
			MemoryMiB: stat("DCGM_FI_DEV_FB_USED", 18000+600*u, results.MaxGPUMemory),
			PowerW:    stat("DCGM_FI_DEV_POWER_USAGE", 90+6*u, results.MaxGPUPower)})
	}
	return m
}

// level measures n requests at load: users at once (closed loop: each
// user sends again when answered), or requests per second (vary rate:
// Poisson arrivals), and returns the run labelled with the level.
func (sv slotServer) level(rng *rand.Rand, name [2]string, vary vocab.Vary, load float64, step, n int, variant vocab.Side) results.Run {
	run := results.Run{Endpoint: name[0], Scenario: name[1], Variant: variant, Model: "llama-8b", Fingerprint: "sha256:c",
		Level: &results.Level{Vary: vary, Value: load, Step: step}}
	free := make([]float64, sv.slots) // when each slot is next free
	users := make([]float64, max(int(load), 1))
	next := 0.0
	for i := range n {
		var sent float64
		u := 0
		if vary == vocab.VaryRate {
			next += -math.Log(1-rng.Float64()) * 1000 / load
			sent = next
		} else {
			u = slices.Index(users, slices.Min(users))
			sent = users[u]
		}
		k := slices.Index(free, slices.Min(free))
		start := math.Max(sent, free[k])
		batch := 0
		for _, f := range free {
			if f > start {
				batch++
			}
		}
		first := start - sent + sv.ttft*math.Exp(0.15*rng.NormFloat64()) + sv.prefill*float64(batch)
		if sv.slowEvery > 0 && (i+step)%sv.slowEvery == 0 {
			first += sv.slow
		}
		q := results.Request{SentMs: sent, ITLMs: []float64{}}
		if sv.failEvery > 0 && load > float64(sv.failAbove) && i%sv.failEvery == 0 {
			q.Error, q.Failure, q.Status = "HTTP 503: overloaded", vocab.HTTPStatus, 503
			free[k], users[u] = start+5, sent+first
			run.Requests = append(run.Requests, q)
			continue
		}
		gaps, sum := make([]float64, 31), 0.0
		for j := range gaps {
			gaps[j] = sv.itl * (1 + 0.02*float64(batch)) * math.Exp(0.1*rng.NormFloat64())
			sum += gaps[j]
		}
		q.OK, q.Status, q.TTFTMs, q.TTFCMs, q.TotalMs, q.PerceivedMs = true, 200, f64(first), f64(first), f64(first+sum), f64(first)
		q.ITLMs, q.TPOTMs, q.OutputTokens, q.TokensSource = gaps, f64(sum/31), 32, "usage"
		free[k] = sent + first + sum
		users[u] = sent + first + sum
		run.Requests = append(run.Requests, q)
	}
	if sv.gpus > 0 && vary == vocab.VaryConcurrency {
		run.ServerMetrics = gpuPage(sv.gpus, sv.gpuUtil(load), float64(8*n), 0.75)
	}
	return run
}

// search runs a capacity search of spec against sv, as gate does level by
// level, into f: its level runs and its record (why: what cut it).
func (sv slotServer) search(rng *rand.Rand, f *results.File, name [2]string, spec capacity.Spec, variant vocab.Side, why string) CapacitySide {
	s := capacity.New(spec)
	step := 0
	for v, ok := s.Next(); ok; v, ok = s.Next() {
		step++
		round, n := s.Round(v)
		run := sv.level(rng, name, spec.Vary, v, step, n, variant)
		if round > 1 {
			run.Level.Round = round
		}
		f.Runs = append(f.Runs, run)
		run.Level.Status = s.Add(&f.Runs[len(f.Runs)-1], n+spec.Warmup, spanMs(&run)).Status
	}
	r := s.Result()
	if r.Complete() {
		why = ""
	}
	rec := r.Record(name[0], name[1], variant, why)
	f.Capacity = append(f.Capacity, rec)
	return CapacitySideOf(f, rec, r)
}

func spanMs(run *results.Run) float64 {
	q := run.Requests[len(run.Requests)-1]
	return q.SentMs + msOr(q.TotalMs, 0)
}

// capacityCases are the capacity searches of the report's cases, by the
// case's name.
var capacityCases = map[string]func(rng *rand.Rand) []Capacity{
	// An A/B run: the base serves 8 slots, the head 6 (−25 %) at TTFT p95
	// ≤ 400 ms, each level scraped from a GPU exporter's page of 2 GPUs; a rate search of the head alone that saturates before it
	// misses its SLO; and a search whose head was cut by its cap.
	"capacity": func(rng *rand.Rand) []Capacity {
		f, name := &results.File{}, [2]string{"gpu-pool", "chat-capacity"}
		spec := capacity.Spec{Vary: vocab.VaryConcurrency, From: 1, To: 64, Step: 1, Requests: 60, Alpha: 0.05,
			SLO: []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 400}}}
		priced := spec
		priced.PerHour = 2 // both at $2.00 an hour: the head's fewer slots cost more a token
		base := slotServer{slots: 8, ttft: 180, prefill: 12, itl: 14, gpus: 2}.search(rng, f, name, priced, vocab.Base, "")
		head := slotServer{slots: 6, ttft: 180, prefill: 12, itl: 14, gpus: 2}.search(rng, f, name, priced, vocab.Head, "")
		ab := compareCapacity(name, base, &head)

		f, name = &results.File{}, [2]string{"gpu-pool", "chat-rate"}
		rate := capacity.Spec{Vary: vocab.VaryRate, From: 2, To: 64, Step: 2, Requests: 60, Alpha: 0.05,
			SLO: []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 8000}, {Metric: vocab.Errors, Stat: vocab.Rate, Value: 0.05}}}
		rate.PerHour = 1.2
		sat := slotServer{slots: 4, ttft: 150, prefill: 5, itl: 10}.search(rng, f, name, rate, "", "")
		alone := compareCapacity(name, sat, nil)

		// Hostile names and cause; the base fails on errors above 4 users.
		f, name = &results.File{}, [2]string{"| a | b |", "<script>alert(1)</script>"}
		capped := spec
		capped.MaxRequests = 150
		cb := slotServer{slots: 8, ttft: 180, prefill: 12, itl: 14, failEvery: 4, failAbove: 4}.search(rng, f, name, spec, vocab.Base, "")
		ch := slotServer{slots: 8, ttft: 180, prefill: 12, itl: 14}.search(rng, f, name, capped, vocab.Head, "max_requests <b>150</b> | `x` reached")
		hostile := compareCapacity(name, cb, &ch)

		// One request in 50 is slow: few levels are shown to hold at 60
		// requests, and the capacity is the highest within the SLO on its
		// estimates, its interval from the highest shown to hold; an A/B
		// run of the same server with a cap that leaves no room to
		// measure a level again.
		f, name = &results.File{}, [2]string{"gpu-pool", "chat-spikes"}
		spiky := spec
		spiky.SLO = []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}}
		spiky.MaxRequests = spiky.MostRequests()
		sv := slotServer{slots: 8, ttft: 400, prefill: 12, itl: 14, slowEvery: 50, slow: 700}
		spiky.PerHour = 3.5 // the head a cheaper GPU, its capacity only on its estimates
		eb := sv.search(rng, f, name, spiky, vocab.Base, "")
		tight := spiky
		tight.MaxRequests, tight.PerHour = 600, 2.8
		eh := sv.search(rng, f, name, tight, vocab.Head, "")
		return []Capacity{ab, alone, hostile, compareCapacity(name, eb, &eh)}
	},
}

// compareCapacity compares two sides as gate does: head nil for a search
// of one variant (base is then the head).
func compareCapacity(name [2]string, base CapacitySide, head *CapacitySide) Capacity {
	c := Capacity{Endpoint: name[0], Scenario: name[1], SameSLO: true, Tolerance: 0.10, Status: vocab.NoBaseline, DeltaPct: math.NaN()}
	if head == nil {
		c.Head = base
		c.Cost = CostOf(nil, base, 0.10, true)
		return c
	}
	ch := capacity.Compare(base.Result, head.Result, 0.10)
	c.Head, c.Base, c.Status, c.DeltaPct = *head, &base, ch.Status, ch.DeltaPct
	c.Cost = CostOf(c.Base, c.Head, 0.10, true)
	return c
}

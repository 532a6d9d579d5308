package report

import (
	"math"

	"github.com/latgate/latgate/results"

	"github.com/latgate/latgate/vocab"
)

// jsonCapacity is one capacity search in latgate/verdict/v1: loads are
// the load on the server (users at once, or requests per second; a level
// times its shards).
type jsonCapacity struct {
	Endpoint string              `json:"endpoint"`
	Scenario string              `json:"scenario"`
	Vary     vocab.Vary          `json:"vary"`
	SLO      []results.Objective `json:"slo"`
	Status   vocab.Status        `json:"status"`
	DeltaPct *float64            `json:"delta_pct"`
	Text     string              `json:"text"`
	Note     string              `json:"note"`
	Head     jsonSearch          `json:"head"`
	Base     *jsonSearch         `json:"base"`
	// Cost is the cost at the SLO compared (absent when neither side
	// gives a price).
	Cost *jsonCapacityCost `json:"cost,omitempty"`
}

type jsonSearch struct {
	Capacity   *float64    `json:"capacity"`
	Shown      bool        `json:"shown"`
	Lower      *float64    `json:"lower"`
	Upper      *float64    `json:"upper"`
	GoodputRPS *float64    `json:"goodput_rps"`
	GoodputTPS *float64    `json:"goodput_tps"`
	Stop       vocab.Stop  `json:"stop"`
	StopReason string      `json:"stop_reason,omitempty"`
	Complete   bool        `json:"complete"`
	LimitedBy  vocab.Limit `json:"limited_by,omitempty"`
	Above      string      `json:"above"`
	Shards     int         `json:"shards"`
	Requests   int         `json:"requests"`
	DurationMs float64     `json:"duration_ms"`
	Levels     []jsonLevel `json:"levels"`
	// GPU says whether the GPU was the limit (CapacitySide.GPULine);
	// absent without a GPU page.
	GPU string `json:"gpu,omitempty"`
	// Cost is the side's cost at the SLO (absent without a price).
	Cost *jsonSideCost `json:"cost,omitempty"`
}

type jsonLevel struct {
	Step          int               `json:"step"`
	Load          float64           `json:"load"`
	Status        vocab.LevelStatus `json:"status"`
	Meets         bool              `json:"meets"`
	Limit         vocab.Limit       `json:"limit,omitempty"`
	N             int               `json:"n"`
	Failed        int               `json:"failed"`
	Measurements  int               `json:"measurements"`
	Stopped       bool              `json:"stopped"`
	TTFTP50Ms     *float64          `json:"ttft_p50_ms"`
	TTFTP95Ms     *float64          `json:"ttft_p95_ms"`
	ITLP50Ms      *float64          `json:"itl_p50_ms"`
	ITLP95Ms      *float64          `json:"itl_p95_ms"`
	ThroughputRPS *float64          `json:"throughput_rps"`
	OutputTPS     *float64          `json:"output_tps"`
	GoodputRPS    *float64          `json:"goodput_rps"`
	GoodputTPS    *float64          `json:"goodput_tps"`
	// GPUUtilPct is the busiest GPU's median utilization over the level
	// and SpecAcceptRate its speculative decoding's (gpu.go); absent
	// without them.
	GPUUtilPct     *float64 `json:"gpu_util_pct,omitempty"`
	SpecAcceptRate *float64 `json:"spec_accept_rate,omitempty"`
	// CostPerMTok is the level's cost per 1M output tokens within the
	// SLO, USD (absent without a price or a goodput).
	CostPerMTok *float64 `json:"cost_per_mtok,omitempty"`
}

// capacityJSON is the verdict's capacity searches.
func capacityJSON(cs []Capacity) []jsonCapacity {
	var out []jsonCapacity
	for _, c := range cs {
		spec := c.Head.Result.Spec
		j := jsonCapacity{Endpoint: c.Endpoint, Scenario: c.Scenario, Vary: spec.Vary, SLO: []results.Objective{}, Status: c.Status,
			DeltaPct: num(c.DeltaPct, 1), Text: c.Line(), Note: c.Verdict(), Head: searchJSON(c.Head)}
		if c.Cut() {
			j.DeltaPct = nil // a cut search has no capacity to compare
		}
		for _, o := range spec.SLO {
			j.SLO = append(j.SLO, results.Objective{Metric: o.Metric, Stat: o.Stat, Value: o.Value})
		}
		if c.Base != nil {
			b := searchJSON(*c.Base)
			j.Base = &b
		}
		j.Cost = costJSON(c)
		out = append(out, j)
	}
	return out
}

// searchJSON is one side's search.
func searchJSON(s CapacitySide) jsonSearch {
	r := s.Result
	sh := float64(max(r.Shards, 1))
	// A cut search found no capacity: what passed so far is in its levels.
	j := jsonSearch{Capacity: num(r.Capacity, sh), Shown: r.Shown() && r.Complete(), Lower: num(r.Lower, sh), Upper: num(r.Upper, sh), GoodputRPS: num(r.GoodRPS, 1), GoodputTPS: num(r.GoodTPS, 1),
		Stop: r.Stop, StopReason: s.Why, Complete: r.Complete(), Above: s.Above(), Shards: int(sh), Requests: r.Requests,
		DurationMs: math.Round(r.Ms*1000) / 1000, Levels: []jsonLevel{}}
	if math.IsNaN(r.Capacity) || !r.Complete() {
		j.Capacity, j.Lower, j.Upper, j.GoodputRPS, j.GoodputTPS = nil, nil, nil, nil, nil
	}
	if l := s.limit(); l != nil {
		j.LimitedBy = l.Limit
	}
	for _, l := range s.Levels {
		j.Levels = append(j.Levels, jsonLevel{Step: l.Step, Load: l.Load, Status: l.Status, Meets: l.Meets, Limit: l.Limit, N: l.N, Failed: l.Failed, Measurements: l.Rounds,
			Stopped: l.Stopped, TTFTP50Ms: num(l.TTFT.P50, 1), TTFTP95Ms: num(l.TTFT.P95, 1), ITLP50Ms: num(l.ITL.P50, 1),
			ITLP95Ms: num(l.ITL.P95, 1), ThroughputRPS: num(l.Throughput, 1), OutputTPS: num(l.Tokens, 1),
			GoodputRPS: num(l.GoodRPS, 1), GoodputTPS: num(l.GoodTPS, 1), CostPerMTok: costNum(levelCostOf(s, l))})
		gpu, _ := l.levelGPU()
		j.Levels[len(j.Levels)-1].GPUUtilPct, j.Levels[len(j.Levels)-1].SpecAcceptRate = num(gpu, 1), num(l.levelSpec(), 1)
	}
	j.GPU = s.GPULine()
	j.Cost = sideCostJSON(s)
	return j
}

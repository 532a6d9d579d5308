package compare

import (
	"math"
	"slices"
	"sort"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// SampleOf derives a run's sample: one value per request and metric, the
// only place where per-request values are derived from a results file.
// Failed requests stay in the sample (they count for the error rate) with
// NaN values; itl is the request's mean gap between output events.
func SampleOf(r *results.Run) *Sample {
	var b Sampler
	for i := range r.Requests {
		b.Add(&r.Requests[i])
	}
	return b.Sample(r)
}

// A Sampler derives a run's sample one request at a time, as SampleOf
// does, for a reader that does not keep the requests. The zero value is
// ready to use.
type Sampler struct {
	s       Sample
	blocks  []int
	stratum []int
	events  []float64
}

// Add derives the values of the run's next request.
func (b *Sampler) Add(q *results.Request) {
	if b.s.Values == nil {
		b.s.Values = map[vocab.Metric][]float64{}
	}
	s := &b.s
	s.OK = append(s.OK, q.OK)
	b.blocks = append(b.blocks, q.Block)
	k := 0
	if q.Trace != nil {
		k = q.Trace.Stratum
	}
	b.stratum = append(b.stratum, k)
	itl := math.NaN()
	if q.OK && len(q.ITLMs) > 0 {
		sum := 0.0
		for _, g := range q.ITLMs {
			sum += g
		}
		itl = sum / float64(len(q.ITLMs))
	}
	add := func(m vocab.Metric, v float64) {
		if !q.OK {
			v = math.NaN()
		}
		s.Values[m] = append(s.Values[m], v)
	}
	add(vocab.Failover, msOrNaN(q.FailoverMs))
	if q.Cold {
		b.addCold(q, add)
		return
	}
	add(vocab.ColdTTFT, math.NaN())
	add(vocab.ColdTotal, math.NaN())
	add(vocab.TTFT, msOrNaN(q.TTFTMs))
	add(vocab.TTFC, msOrNaN(q.TTFCMs))
	add(vocab.ITL, itl)
	add(vocab.TPOT, msOrNaN(q.TPOTMs))
	add(vocab.Total, msOrNaN(q.TotalMs))
	add(vocab.Perceived, msOrNaN(q.PerceivedMs))
	add(vocab.Client, msOrNaN(q.ClientMs))
	add(vocab.FirstToolCall, msOrNaN(q.FirstToolCallMs))
	add(vocab.Answer, msOrNaN(q.AnswerMs))
	add(vocab.Session, msOrNaN(q.SessionMs))
	steps := math.NaN()
	if q.StepCount != nil {
		steps = float64(*q.StepCount)
	}
	add(vocab.StepCount, steps)
	srv := q.Server
	if srv == nil {
		srv = &results.ServerTiming{}
	}
	add(vocab.Queue, msOrNaN(srv.QueueMs))
	add(vocab.Prefill, msOrNaN(srv.PrefillMs))
	add(vocab.Decode, msOrNaN(srv.DecodeMs))
	add(vocab.Outside, msOrNaN(q.OutsideMs))
	if q.OK {
		b.events = append(b.events, float64(len(q.ITLMs)+1))
		s.PromptTokens += q.PromptTokens
		s.CachedTokens += q.CachedTokens
	}
}

// Sample is the sample of the requests added; r is their run, whose
// variant says whether it was interleaved (then the sample keeps the
// requests' blocks) and whose configured requests are the most it could
// measure (Sample.Max: an adaptive scenario's max), and whose workload
// (a draw from a trace) gives the requests' strata (Sample.Draw, Stratum). The Sampler is not to be used after.
func (b *Sampler) Sample(r *results.Run) *Sample {
	s := b.s
	if s.Values == nil {
		s.Values = map[vocab.Metric][]float64{}
	}
	if r.Variant != "" {
		s.Block = b.blocks
	}
	if w := r.Workload; w != nil {
		s.Stratum = b.stratum
		s.Draw = &Draw{Strata: slices.Clone(w.Strata), Seed: w.Seed}
	}
	s.Max = r.Config.Requests
	if len(b.events) > 0 {
		sort.Float64s(b.events)
		s.Events = Quantile(b.events, 0.5)
	}
	*b = Sampler{}
	return &s
}

// addCold adds a cold sample (results.Request.Cold): its TTFT and total
// are cold_ttft and cold_total, and it has no value of any other
// per-request metric (nor events or tokens), so that the run's warm
// statistics stay warm. It still counts as a request of the run (the
// error rate; goodput, against the objectives it observed).
func (b *Sampler) addCold(q *results.Request, add func(vocab.Metric, float64)) {
	add(vocab.ColdTTFT, msOrNaN(q.TTFTMs))
	add(vocab.ColdTotal, msOrNaN(q.TotalMs))
	for _, m := range vocab.PerRequest {
		if m != vocab.ColdTTFT && m != vocab.ColdTotal && m != vocab.Failover {
			add(m, math.NaN())
		}
	}
}

func msOrNaN(v *float64) float64 {
	if v == nil {
		return math.NaN()
	}
	return *v
}

// Pairs derives the comparison's input from matched runs.
func Pairs(pairs []results.Pair) []Pair {
	out := make([]Pair, 0, len(pairs))
	for _, p := range pairs {
		r := Pair{Endpoint: p.Endpoint, Scenario: p.Scenario}
		if p.Base != nil {
			r.Base = SampleOf(p.Base)
		}
		if p.Head != nil {
			r.Head = SampleOf(p.Head)
		}
		out = append(out, r)
	}
	return out
}

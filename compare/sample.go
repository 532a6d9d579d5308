package compare

import (
	"math"
	"sort"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// SampleOf derives a run's sample: one value per request and metric, the
// only place where per-request values are derived from a results file.
// Failed requests stay in the sample (they count for the error rate) with
// NaN values; itl is the request's mean gap between output events.
func SampleOf(r *results.Run) *Sample {
	s := &Sample{Values: map[vocab.Metric][]float64{}}
	var events []float64
	interleaved := r.Variant != ""
	for _, q := range r.Requests {
		s.OK = append(s.OK, q.OK)
		if interleaved {
			s.Block = append(s.Block, q.Block)
		}
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
		add(vocab.TTFT, msOrNaN(q.TTFTMs))
		add(vocab.TTFC, msOrNaN(q.TTFCMs))
		add(vocab.ITL, itl)
		add(vocab.TPOT, msOrNaN(q.TPOTMs))
		add(vocab.Total, msOrNaN(q.TotalMs))
		add(vocab.Perceived, msOrNaN(q.PerceivedMs))
		add(vocab.FirstToolCall, msOrNaN(q.FirstToolCallMs))
		add(vocab.Answer, msOrNaN(q.AnswerMs))
		add(vocab.Session, msOrNaN(q.SessionMs))
		steps := math.NaN()
		if q.StepCount != nil {
			steps = float64(*q.StepCount)
		}
		add(vocab.StepCount, steps)
		if q.OK {
			events = append(events, float64(len(q.ITLMs)+1))
			s.PromptTokens += q.PromptTokens
			s.CachedTokens += q.CachedTokens
		}
	}
	if len(events) > 0 {
		sort.Float64s(events)
		s.Events = Quantile(events, 0.5)
	}
	return s
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

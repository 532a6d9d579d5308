package baseline

import (
	"math"
	"sort"

	"github.com/latgate/latgate/compare"
)

// Sample converts a run to the comparison's per-request form (seconds).
// Failed requests stay in the sample (they count for the error rate).
func (r *Run) Sample() *compare.Sample {
	s := &compare.Sample{Values: map[string][]float64{}}
	var events []float64
	for _, q := range r.Requests {
		s.OK = append(s.OK, q.OK)
		itl := math.NaN()
		if q.OK && len(q.ITLMs) > 0 {
			sum := 0.0
			for _, g := range q.ITLMs {
				sum += g
			}
			itl = sum / float64(len(q.ITLMs)) / 1000
		}
		add := func(m string, v float64) {
			if !q.OK {
				v = math.NaN()
			}
			s.Values[m] = append(s.Values[m], v)
		}
		add("ttft", Seconds(q.TTFTMs))
		add("ttfc", Seconds(q.TTFCMs))
		add("itl", itl)
		add("tpot", Seconds(q.TPOTMs))
		add("total", Seconds(q.TotalMs))
		add("perceived", Seconds(q.PerceivedMs))
		if q.OK {
			events = append(events, float64(len(q.ITLMs)+1))
		}
	}
	if len(events) > 0 {
		sort.Float64s(events)
		s.Events = compare.Quantile(events, 0.5)
	}
	return s
}

// Runs turns matched pairs into the comparison's input.
func Runs(pairs []Pair) []compare.Run {
	var out []compare.Run
	for _, p := range pairs {
		r := compare.Run{Endpoint: p.Endpoint, Scenario: p.Scenario}
		if p.Base != nil {
			r.Base = p.Base.Sample()
		}
		if p.Current != nil {
			r.Current = p.Current.Sample()
		}
		out = append(out, r)
	}
	return out
}

package capacity

import (
	"fmt"
	"math"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Result is what a search found.
type Result struct {
	Spec   Spec
	Levels []Level // in the order measured
	Stop   vocab.Stop
	// Capacity is the highest passing level (NaN when none passed), Upper
	// the highest level not shown to fail: one step below the lowest level
	// that failed with confidence, or the top of the range when none did.
	// The capacity lies in [Capacity, Upper], assuming that load never
	// makes a server faster. Good are the requests and output tokens per
	// second within the SLO at the capacity (NaN when none passed).
	Capacity, Upper  float64
	GoodRPS, GoodTPS float64
	// Shards is how many legs measured each level at its load (1 for
	// one): the load on the server is the level times Shards.
	Shards int
	// Requests were sent, warmup included, in Ms milliseconds.
	Requests int
	Ms       float64
}

// Complete reports whether the search ended on its own: a search cut by a
// cap, an interruption or fail-fast is never a pass.
func (r Result) Complete() bool { return !cut(r.Stop) }

// Result is what the search found so far (call it once Next says done).
func (s *Search) Result() Result {
	r := Result{Spec: s.spec, Levels: s.levels, Stop: s.stop, Requests: s.sent, Ms: s.ms, Shards: 1,
		Capacity: math.NaN(), Upper: s.spec.To, GoodRPS: math.NaN(), GoodTPS: math.NaN()}
	if s.lo >= 0 {
		best := s.levels[s.lo]
		r.Capacity, r.GoodRPS, r.GoodTPS = best.Value, best.GoodRPS, best.GoodTPS
	}
	for _, l := range s.levels {
		if l.Status == vocab.OverBudget && l.Value-s.spec.Step < r.Upper {
			r.Upper = math.Max(l.Value-s.spec.Step, 0)
		}
	}
	return r
}

// Change is the comparison of a scenario's capacity between base and head.
type Change struct {
	Base, Head Result
	// Status is vocab.Regression when the head's capacity is lower than
	// the base's beyond the tolerance with confidence: the highest level the
	// head is not shown to fail is below (1 − tolerance) × the highest the
	// base passes with confidence; vocab.Improvement the mirror image;
	// vocab.Inconclusive when the capacities differ beyond the tolerance
	// without that confidence, or a search was cut; vocab.OK else.
	Status vocab.Status
	// DeltaPct is the change of the capacity in percent (NaN when either
	// has none).
	DeltaPct float64
}

// Compare compares the capacities of base and head at tolerance.
func Compare(base, head Result, tolerance float64) Change {
	c := Change{Base: base, Head: head, Status: vocab.OK, DeltaPct: math.NaN()}
	bc, hc := base.Capacity*float64(base.Shards), head.Capacity*float64(head.Shards)
	bu, hu := base.Upper*float64(base.Shards), head.Upper*float64(head.Shards)
	if bc > 0 && !math.IsNaN(hc) {
		c.DeltaPct = 100 * (hc - bc) / bc
	}
	keep := 1 - tolerance
	switch {
	case !base.Complete() || !head.Complete():
		c.Status = vocab.Inconclusive
	case hu < keep*bc:
		c.Status = vocab.Regression
	case bu < keep*hc:
		c.Status = vocab.Improvement
	case nanAs0(hc) < keep*nanAs0(bc) || nanAs0(bc) < keep*nanAs0(hc):
		c.Status = vocab.Inconclusive
	}
	return c
}

func nanAs0(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// SpecOf is the search a results file records.
func SpecOf(rec results.Search) Spec {
	sp := Spec{Vary: rec.Vary, From: rec.From, To: rec.To, Step: rec.Step, Requests: rec.RequestsPerLevel,
		Warmup: rec.Warmup, Alpha: rec.Alpha, MaxRequests: rec.MaxRequests, MaxDurationMs: rec.MaxDurationMs}
	for _, o := range rec.SLO {
		sp.SLO = append(sp.SLO, compare.Budget{Metric: o.Metric, Stat: o.Stat, Value: o.Value})
	}
	for _, o := range rec.Goodput {
		sp.Goodput = append(sp.Goodput, compare.SLO{Metric: o.Metric, Max: o.Value})
	}
	return sp
}

// Record is a search's record for the results file: its spec, why it
// ended and what it found.
func (r Result) Record(endpoint, scenario string, variant vocab.Side, why string) results.Search {
	sp := r.Spec
	rec := results.Search{Endpoint: endpoint, Scenario: scenario, Variant: variant, Vary: sp.Vary,
		From: sp.From, To: sp.To, Step: sp.Step, RequestsPerLevel: sp.Requests, Warmup: sp.Warmup, Alpha: sp.Alpha,
		MaxRequests: sp.MaxRequests, MaxDurationMs: sp.MaxDurationMs, Stop: r.Stop, StopReason: why,
		Requests: r.Requests, DurationMs: math.Round(r.Ms*1000) / 1000, SLO: []results.Objective{}}
	for _, b := range sp.SLO {
		rec.SLO = append(rec.SLO, results.Objective{Metric: b.Metric, Stat: b.Stat, Value: b.Value})
	}
	for _, o := range sp.Goodput {
		rec.Goodput = append(rec.Goodput, results.Objective{Metric: o.Metric, Stat: "max", Value: o.Max})
	}
	opt := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		v = math.Round(v*1000) / 1000
		return &v
	}
	rec.Capacity, rec.Upper, rec.GoodputRPS, rec.GoodputTPS = opt(r.Capacity), opt(r.Upper), opt(r.GoodRPS), opt(r.GoodTPS)
	return rec
}

// Replay decides a recorded search again from its levels in f, in their
// order: each level must be the one the search asks for next, and the
// search must end as recorded (a cut search stays cut). The caps are not
// applied again: the record says whether they cut it.
func Replay(f *results.File, rec results.Search) (Result, error) {
	return replay(f, rec, true)
}

// Decide is Replay without the check that the search ends as recorded:
// for merged shards, whose levels hold more requests than each leg's and
// may end the search otherwise (a cut search stays cut).
func Decide(f *results.File, rec results.Search) (Result, error) {
	return replay(f, rec, false)
}

func replay(f *results.File, rec results.Search, asRecorded bool) (Result, error) {
	sp := SpecOf(rec)
	sp.MaxRequests, sp.MaxDurationMs = 0, 0
	s := New(sp)
	shards := 0
	name := fmt.Sprintf("endpoint %q, scenario %q%s", rec.Endpoint, rec.Scenario, sideLabel(rec.Variant))
	for _, run := range f.Levels(rec) {
		want, ok := s.Next()
		switch {
		case !ok:
			return Result{}, fmt.Errorf("%s: level %g (step %d) comes after the search ended (%s)", name, run.Level.Value, run.Level.Step, s.stop)
		case math.Abs(run.Level.Value-want) > 1e-9*math.Max(1, want):
			return Result{}, fmt.Errorf("%s: step %d measured level %g, but the search asks for %g there", name, run.Level.Step, run.Level.Value, want)
		case shards != 0 && max(run.Shards, 1) != shards:
			return Result{}, fmt.Errorf("%s: its levels were measured by different numbers of shards", name)
		}
		shards = max(run.Shards, 1)
		s.Add(run, 0, 0)
	}
	if cut(rec.Stop) {
		s.Cut(rec.Stop)
	} else if _, more := s.Next(); more || asRecorded && s.stop != rec.Stop {
		return Result{}, fmt.Errorf("%s: the levels do not end the search as recorded (%q)", name, rec.Stop)
	}
	r := s.Result()
	r.Spec = SpecOf(rec)
	r.Shards, r.Requests, r.Ms = max(shards, 1), rec.Requests, rec.DurationMs
	return r, nil
}

func sideLabel(v vocab.Side) string {
	if v == "" {
		return ""
	}
	return " (" + string(v) + ")"
}

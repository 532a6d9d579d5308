package capacity

import (
	"fmt"
	"math"
	"slices"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Result is what a search found.
type Result struct {
	Spec   Spec
	Levels []Level // one per load, in the order first measured
	Steps  []Step  // every measurement, in order
	Stop   vocab.Stop
	// Capacity is the highest level within the SLO below every level that
	// is not (Level.Meets; NaN when the lowest is not): a level that holds,
	// or an undecided one whose point estimates are within the SLO. Its
	// interval is [Lower, Upper]: Lower the highest level at or below it
	// shown to hold (NaN when none is), Upper one step below the lowest
	// level shown to fail, or the top of the range when none is (assuming
	// that load never makes a server faster). Good are the requests and
	// output tokens per second within the SLO at the capacity (NaN
	// without one).
	Capacity, Lower, Upper float64
	GoodRPS, GoodTPS       float64
	// GoodLo and GoodHi bound the output tokens per second within the
	// SLO at the capacity with confidence (cost.go: the cost's interval;
	// NaN without a capacity).
	GoodLo, GoodHi float64
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

// Shown reports whether the capacity is a level shown to hold (not only
// within the SLO on its point estimates).
func (r Result) Shown() bool { return !math.IsNaN(r.Capacity) && r.Lower == r.Capacity }

// Result is what the search found so far (call it once Next says done).
func (s *Search) Result() Result {
	r := Result{Spec: s.spec, Levels: slices.Clone(s.levels), Steps: slices.Clone(s.steps), Stop: s.stop, Requests: s.sent, Ms: s.ms, Shards: 1,
		Capacity: math.NaN(), Lower: math.NaN(), Upper: s.spec.To, GoodRPS: math.NaN(), GoodTPS: math.NaN()}
	if b := s.bracket(); b.lo >= 0 {
		best := s.levels[b.lo]
		r.Capacity, r.GoodRPS, r.GoodTPS = best.Value, best.GoodRPS, best.GoodTPS
	}
	for _, l := range s.levels {
		if l.Holds() && l.Value <= r.Capacity && !(l.Value <= r.Lower) {
			r.Lower = l.Value
		}
		if l.Status == vocab.Fails && l.Value-s.spec.Step < r.Upper {
			r.Upper = math.Max(l.Value-s.spec.Step, 0)
		}
	}
	r.GoodLo, r.GoodHi = s.goodBounds(r)
	return r
}

// Change is the comparison of a scenario's capacity between base and head.
type Change struct {
	Base, Head Result
	// Status is vocab.Regression when the head's capacity is lower than
	// the base's beyond the tolerance with confidence: the highest level the
	// head is not shown to fail (Upper) is below (1 − tolerance) × the
	// highest the base is shown to hold (Lower); vocab.Improvement the
	// mirror image; vocab.Inconclusive when the capacities differ beyond
	// the tolerance without that confidence, or a search was cut; vocab.OK
	// else.
	Status vocab.Status
	// DeltaPct is the change of the capacity in percent (NaN when either
	// has none).
	DeltaPct float64
}

// Compare compares the capacities of base and head at tolerance.
func Compare(base, head Result, tolerance float64) Change {
	c := Change{Base: base, Head: head, Status: vocab.OK, DeltaPct: math.NaN()}
	bs, hs := float64(base.Shards), float64(head.Shards)
	bc, hc := base.Capacity*bs, head.Capacity*hs
	bl, hl := base.Lower*bs, head.Lower*hs
	bu, hu := base.Upper*bs, head.Upper*hs
	if bc > 0 && !math.IsNaN(hc) {
		c.DeltaPct = 100 * (hc - bc) / bc
	}
	keep := 1 - tolerance
	switch {
	case !base.Complete() || !head.Complete():
		c.Status = vocab.Inconclusive
	case hu < keep*bl:
		c.Status = vocab.Regression
	case bu < keep*hl:
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

// SpecOf is the search a results file records (version 1 when it gives
// none).
func SpecOf(rec results.Search) Spec {
	sp := Spec{Vary: rec.Vary, From: rec.From, To: rec.To, Step: rec.Step, Requests: rec.RequestsPerLevel,
		Warmup: rec.Warmup, Alpha: rec.Alpha, MaxRequests: rec.MaxRequests, MaxDurationMs: rec.MaxDurationMs, Version: max(rec.Version, 1),
		Levels: slices.Clone(rec.Levels), PerHour: perHourOf(rec)}
	if sp.Version == Design {
		sp.Version = 0
	}
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
	rec := results.Search{Version: Design, Endpoint: endpoint, Scenario: scenario, Variant: variant, Vary: sp.Vary,
		From: sp.From, To: sp.To, Step: sp.Step, RequestsPerLevel: sp.Requests, Warmup: sp.Warmup, Alpha: sp.Alpha,
		MaxRequests: sp.MaxRequests, MaxDurationMs: sp.MaxDurationMs, Stop: r.Stop, StopReason: why,
		Requests: r.Requests, DurationMs: math.Round(r.Ms*1000) / 1000, SLO: []results.Objective{}, Levels: slices.Clone(sp.Levels)}
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
	rec.Capacity, rec.Lower, rec.Upper, rec.GoodputRPS, rec.GoodputTPS = opt(r.Capacity), opt(r.Lower), opt(r.Upper), opt(r.GoodRPS), opt(r.GoodTPS)
	rec.CostPerHour, rec.CostPerMTok = r.costRecord()
	if sp.first() {
		rec.Version, rec.Lower = 0, nil // as the file that recorded it
	} else if sp.older() {
		rec.Version = sp.Version
	}
	return rec
}

// Replay decides a recorded search again from its levels in f, in their
// order: each level must be one the search asks for next (a new level, or
// an undecided one it may measure again), a level's recorded status the
// one its requests decide, and the search must end as recorded (a cut
// search stays cut). The caps are not applied again: the record says
// whether they cut the search, and its levels whether they let it measure
// a level again.
func Replay(f *results.File, rec results.Search) (Result, error) {
	return replay(f, rec, true)
}

// Decide is Replay without the checks that the search ends and its levels
// are decided as recorded: for merged shards, whose levels hold more
// requests than each leg's and may be decided otherwise (a cut search
// stays cut).
func Decide(f *results.File, rec results.Search) (Result, error) {
	return replay(f, rec, false)
}

func replay(f *results.File, rec results.Search, asRecorded bool) (Result, error) {
	name := fmt.Sprintf("endpoint %q, scenario %q%s", rec.Endpoint, rec.Scenario, sideLabel(rec.Variant))
	runs := f.Levels(rec)
	shards := 1
	for i, run := range runs {
		if i > 0 && max(run.Shards, 1) != shards {
			return Result{}, fmt.Errorf("%s: its levels were measured by different numbers of shards", name)
		}
		shards = max(run.Shards, 1)
	}
	sp := SpecOf(rec)
	sp.MaxRequests, sp.MaxDurationMs = 0, 0
	if !sp.first() {
		// A merged level's looks are the legs' together.
		sp.Requests, sp.Warmup = sp.Requests*shards, sp.Warmup*shards
	}
	s := New(sp)
	for _, run := range runs {
		if err := s.replayStep(run, asRecorded); err != nil {
			return Result{}, fmt.Errorf("%s: %v", name, err)
		}
	}
	if cut(rec.Stop) {
		s.Cut(rec.Stop)
	} else if b := s.bracket(); b.stop == "" || asRecorded && b.stop != rec.Stop {
		return Result{}, fmt.Errorf("%s: the levels do not end the search as recorded (%q)", name, rec.Stop)
	} else {
		s.stop = b.stop
	}
	r := s.Result()
	r.Spec = SpecOf(rec)
	r.Shards, r.Requests, r.Ms = shards, rec.Requests, rec.DurationMs
	if err := r.checkCost(rec); asRecorded && err != nil {
		return Result{}, fmt.Errorf("%s: %v", name, err)
	}
	return r, nil
}

// replayStep adds a recorded level's run, refusing one the search does not
// ask for there.
func (s *Search) replayStep(run *results.Run, asRecorded bool) error {
	v, lv := run.Level.Value, run.Level
	b := s.bracket()
	switch {
	case s.stop != "":
		return fmt.Errorf("level %g (step %d) comes after the search ended (%s)", v, lv.Step, s.stop)
	case b.stop == "" && !same(v, b.next):
		return fmt.Errorf("step %d measured level %g, but the search asks for %g there", lv.Step, v, b.next)
	case b.stop != "" && !slices.ContainsFunc(s.again(b), func(i int) bool { return same(s.levels[i].Value, v) }):
		return fmt.Errorf("step %d measured level %g again, but the search had ended (%s) and measures again only an undecided level at either end of its bracket", lv.Step, v, b.stop)
	}
	if round, _ := s.Round(v); max(lv.Round, 1) != round {
		return fmt.Errorf("step %d measured level %g as its measurement %d, but it is its %d", lv.Step, v, max(lv.Round, 1), round)
	}
	got := s.Add(run, 0, 0)
	if asRecorded && lv.Status != "" && lv.Status != got.Status {
		return fmt.Errorf("level %g (step %d) is recorded as %s, but its requests decide it %s", v, lv.Step, lv.Status, got.Status)
	}
	return nil
}

func sideLabel(v vocab.Side) string {
	if v == "" {
		return ""
	}
	return " (" + string(v) + ")"
}

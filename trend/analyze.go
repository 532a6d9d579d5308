package trend

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/vocab"
)

// Key names a series. Runs measured under another configuration
// (fingerprint) or metrics definition are another series: a change of
// max_tokens is not a change point.
type Key struct {
	Endpoint, Scenario string
	Metric             vocab.Metric
	Stat               vocab.Stat
	Fingerprint        string
	MetricsVersion     int
}

// Analysis is the trend of a sequence of runs: every series with its
// change points.
type Analysis struct {
	Runs   []Run // oldest first; Points and change points refer to them
	Series []Series
	// Configs lists each (endpoint, scenario) measured under more than one
	// configuration: its series are kept apart, one per configuration.
	Configs []ConfigChange
	Method  Method
}

// ConfigChange is an (endpoint, scenario) whose configuration changed:
// its fingerprints in the order they appeared, and the run each first
// appeared in.
type ConfigChange struct {
	Endpoint, Scenario string
	Fingerprints       []string
	From               []int
}

// Series is one metric and statistic of one (endpoint, scenario) and
// configuration across runs.
type Series struct {
	Key
	// Points are the runs with a value, in time order; a run with too few
	// successful requests for the statistic is counted in Sparse instead.
	Points       []Point
	Sparse       int
	ChangePoints []ChangePoint
	// Level compares the current level with the first one.
	Level Level
	// Need > 0: the series has fewer points than a change point needs
	// (MinSegment on each side); it was not tested.
	Need int
}

// Point is one run's value of a series.
type Point struct {
	Run   int // index in Analysis.Runs
	Value float64
	N     int
}

// ChangePoint is where a series moved to a new level.
type ChangePoint struct {
	// Index is the first point of the new level (0-based in Points, time
	// order); Run the same run's index in Analysis.Runs.
	Index, Run int
	GitSHA     string
	CreatedAt  time.Time
	// Before and After are the levels (medians) of the segments on either
	// side, up to the neighbouring change points.
	Before, After float64
	// StepPct is After/Before − 1 in percent and CIPct its bootstrap
	// interval at Method.Level.
	StepPct float64
	CIPct   [2]float64
	PValue  float64
	// New: the record of the newest run announced it (Announce).
	New bool
}

// Level is the current level (the median of the points since the last
// change point) against the first (the median of the points up to the
// first change point: the level of the first run). Without a change point
// both are the median of every point, and CIPct is NaN.
type Level struct {
	First, Current float64
	ChangePct      float64
	CIPct          [2]float64
}

// Analyze builds the series of runs (oldest first, as Merge orders them)
// and finds their change points. Series are analysed in parallel; each
// draws from its own generator seeded with its key, so the result does
// not depend on the order of the series or the number of cores.
func Analyze(runs []Run, m Method) Analysis {
	m = m.withDefaults()
	a := Analysis{Runs: runs, Method: m}
	a.Series, a.Configs = build(runs)
	compare.InParallel(len(a.Series), func(i int) { a.Series[i].detect(runs, m) })
	return a
}

// build collects the series of runs in the order they first appear, and
// the (endpoint, scenario) pairs measured under several configurations.
func build(runs []Run) ([]Series, []ConfigChange) {
	index := map[Key]int{}
	var series []Series
	type pair struct{ endpoint, scenario string }
	configs := map[pair]int{}
	var changes []ConfigChange
	for ri, r := range runs {
		for _, sc := range r.Scenarios {
			p := pair{sc.Endpoint, sc.Scenario}
			ci, ok := configs[p]
			if !ok {
				ci = len(changes)
				configs[p] = ci
				changes = append(changes, ConfigChange{Endpoint: sc.Endpoint, Scenario: sc.Scenario})
			}
			if c := &changes[ci]; !slices.Contains(c.Fingerprints, sc.Fingerprint) {
				c.Fingerprints, c.From = append(c.Fingerprints, sc.Fingerprint), append(c.From, ri)
			}
			for _, v := range sc.Values {
				k := Key{sc.Endpoint, sc.Scenario, v.Metric, v.Stat, sc.Fingerprint, r.MetricsVersion}
				si, ok := index[k]
				if !ok {
					si = len(series)
					index[k] = si
					series = append(series, Series{Key: k})
				}
				if v.Value == nil {
					series[si].Sparse++
					continue
				}
				series[si].Points = append(series[si].Points, Point{Run: ri, Value: *v.Value, N: v.N})
			}
		}
	}
	changes = slices.DeleteFunc(changes, func(c ConfigChange) bool { return len(c.Fingerprints) < 2 })
	return series, changes
}

// seed is the series' own seed: a hash of its key.
func (k Key) seed() uint64 {
	h := fnv.New64a()
	for _, s := range []string{k.Endpoint, k.Scenario, string(k.Metric), string(k.Stat), k.Fingerprint} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// detect finds the series' change points, their steps and the level.
func (s *Series) detect(runs []Run, m Method) {
	values := make([]float64, len(s.Points))
	for i, p := range s.Points {
		values[i] = p.Value
	}
	if len(values) < m.MinRuns() {
		s.Need = m.MinRuns()
	}
	seed := s.Key.seed()
	splits := Detect(values, seed, m)
	cuts := []int{0}
	for _, sp := range splits {
		cuts = append(cuts, sp.Index)
	}
	cuts = append(cuts, len(values))
	for i, sp := range splits {
		before, after := values[cuts[i]:cuts[i+1]], values[cuts[i+1]:cuts[i+2]]
		cp := ChangePoint{Index: sp.Index, Run: s.Points[sp.Index].Run, PValue: sp.PValue}
		r := runs[cp.Run]
		cp.GitSHA, cp.CreatedAt = r.GitSHA, r.CreatedAt
		cp.Before, cp.After, cp.StepPct, cp.CIPct = step(before, after, seed+uint64(i+1), m)
		s.ChangePoints = append(s.ChangePoints, cp)
	}
	switch {
	case len(values) == 0:
	case len(splits) == 0:
		lv := math.Exp(median(logs(values)))
		s.Level = Level{First: lv, Current: lv, CIPct: [2]float64{math.NaN(), math.NaN()}}
	case len(splits) == 1: // the same two segments: the same numbers
		cp := s.ChangePoints[0]
		s.Level = Level{First: cp.Before, Current: cp.After, ChangePct: cp.StepPct, CIPct: cp.CIPct}
	default:
		first, last := values[:cuts[1]], values[cuts[len(cuts)-2]:]
		s.Level.First, s.Level.Current, s.Level.ChangePct, s.Level.CIPct = step(first, last, seed, m)
	}
}

// step compares two segments by their medians on the log scale: the
// levels, the change in percent and its percentile-bootstrap interval
// (each segment resampled with replacement on its own).
func step(before, after []float64, seed uint64, m Method) (lb, la, pct float64, ci [2]float64) {
	lx, ly := logs(before), logs(after)
	mb, ma := median(slices.Clone(lx)), median(slices.Clone(ly))
	rng := rand.New(rand.NewPCG(seed, 0x73746570)) // "step"
	diffs := make([]float64, m.Bootstrap)
	bx, by := make([]float64, len(lx)), make([]float64, len(ly))
	for b := range diffs {
		for i := range bx {
			bx[i] = lx[rng.IntN(len(lx))]
		}
		for i := range by {
			by[i] = ly[rng.IntN(len(ly))]
		}
		diffs[b] = median(by) - median(bx)
	}
	slices.Sort(diffs)
	tail := (1 - m.Level) / 2
	ci = [2]float64{pctOf(compare.Quantile(diffs, tail)), pctOf(compare.Quantile(diffs, 1-tail))}
	return math.Exp(mb), math.Exp(ma), pctOf(ma - mb), ci
}

func logs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Log(x)
	}
	return out
}

// median sorts xs in place and returns its median.
func median(xs []float64) float64 {
	slices.Sort(xs)
	return compare.Quantile(xs, 0.5)
}

// pctOf turns a log ratio into a change in percent.
func pctOf(d float64) float64 { return (math.Exp(d) - 1) * 100 }

// New lists the change points that appeared with the newest run, series by
// series; slower counts those whose step is a slowdown.
func (a *Analysis) New() (cps []KeyedChange, slower int) {
	for _, s := range a.Series {
		for _, cp := range s.ChangePoints {
			if cp.New {
				cps = append(cps, KeyedChange{s.Key, cp})
				if cp.StepPct > 0 {
					slower++
				}
			}
		}
	}
	return cps, slower
}

// KeyedChange is a change point with its series' key.
type KeyedChange struct {
	Key
	ChangePoint
}

// ChangePoints lists every change point, series by series.
func (a *Analysis) ChangePoints() []KeyedChange {
	var out []KeyedChange
	for _, s := range a.Series {
		for _, cp := range s.ChangePoints {
			out = append(out, KeyedChange{s.Key, cp})
		}
	}
	return out
}

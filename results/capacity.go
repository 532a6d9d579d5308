package results

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/latgate/latgate/vocab"
)

// Level labels the run of one level of a capacity search with its load:
// the run measured Value users at once (vary concurrency) or requests per
// second (vary rate), on each shard when the run merges several (Shards).
type Level struct {
	Vary  vocab.Vary `json:"vary"`
	Value float64    `json:"value"`
	// Step is the level's place in its search, from 1: the levels are
	// replayed in this order to decide the capacity again.
	Step int `json:"step"`
	// Round is which measurement of the level the run is: absent (0) for
	// its first, 2 and 3 when the search measured an undecided level
	// again (its runs are decided together).
	Round int `json:"round,omitempty"`
	// Status is the level's status after this measurement, as the search
	// decided it (absent in files written before levels could be
	// undecided); readers decide it again from the requests.
	Status vocab.LevelStatus `json:"status,omitempty"`
	// Window is the level's window when its run started at a time every
	// leg of a sharded matrix shares (--start-at; windows.go); nil else.
	Window *Window `json:"window,omitempty"`
}

// Objective is one objective of a capacity search's SLO: the statistic of
// a metric within Value (milliseconds for a latency, a fraction for
// errors.rate and goodput.rate, the latter a floor).
type Objective struct {
	Metric vocab.Metric `json:"metric"`
	Stat   vocab.Stat   `json:"stat"`
	Value  float64      `json:"value"`
}

// Search is one capacity search of an (endpoint, scenario) and variant:
// its settings, why it ended and what it found. Its levels are the runs
// with the same endpoint, scenario and variant and a Level. Readers decide
// the capacity again from the levels (package capacity); the outcome here
// is what the search decided when it ran.
type Search struct {
	// Version is the design that decided the search: 3 (saturation shown
	// with confidence, the capacity's level judged against the level a
	// step below it), 2 (levels hold, fail or are undecided; an undecided
	// level measured again), absent (0) or 1 in files written before (a
	// level passes or not).
	Version  int        `json:"version,omitempty"`
	Endpoint string     `json:"endpoint"`
	Scenario string     `json:"scenario"`
	Variant  vocab.Side `json:"variant,omitempty"`
	Vary     vocab.Vary `json:"vary"`
	From     float64    `json:"from"`
	To       float64    `json:"to"`
	Step     float64    `json:"step"`
	// RequestsPerLevel are the measured requests of a level; Warmup the
	// requests each level sends first and does not measure.
	RequestsPerLevel int         `json:"requests_per_level"`
	Warmup           int         `json:"warmup"`
	Alpha            float64     `json:"alpha"`
	SLO              []Objective `json:"slo"`
	// Goodput is the per-request SLO a goodput.rate objective counts
	// (metric and milliseconds; stat "max").
	Goodput []Objective `json:"goodput,omitempty"`
	// Levels, when given, are a ladder (capacity.levels): each level
	// measured once, in ascending order, instead of a search; from and to
	// are its first and last.
	Levels []float64 `json:"levels,omitempty"`
	// MaxRequests and MaxDurationMs cap the whole search (warmup
	// included); a search cut by a cap is never a pass.
	MaxRequests   int     `json:"max_requests"`
	MaxDurationMs float64 `json:"max_duration_ms"`
	// Stop is why the search ended: vocab.Found, vocab.AtTop,
	// vocab.AtBottom, or what cut it (vocab.Capped, vocab.Interrupted,
	// vocab.FailedFast), said in StopReason.
	Stop       vocab.Stop `json:"stop"`
	StopReason string     `json:"stop_reason,omitempty"`
	// Capacity is the highest level within the SLO (null when the lowest
	// is not): one that holds, or an undecided one whose point estimates
	// are within it (version 1: the highest passing level). Lower is the
	// highest level at or below it shown to hold (null when none is;
	// absent in version 1, where it is the capacity) and Upper the
	// highest level not shown to fail; Goodput the requests and output
	// tokens per second within the SLO at the capacity.
	Capacity   *float64 `json:"capacity"`
	Lower      *float64 `json:"lower,omitempty"`
	Upper      *float64 `json:"upper"`
	GoodputRPS *float64 `json:"goodput_rps"`
	GoodputTPS *float64 `json:"goodput_tps"`
	// CostPerHour is the price of the endpoint's hardware the search was
	// run at, USD an hour (absent: none given); CostPerMTok what a
	// million output tokens within the SLO cost at the capacity, USD
	// (absent without a price, a capacity or goodput). Readers compute it
	// again from the levels (package capacity).
	CostPerHour *float64 `json:"cost_per_hour,omitempty"`
	CostPerMTok *float64 `json:"cost_per_mtok,omitempty"`
	// Requests were sent (warmup included) in DurationMs.
	Requests   int     `json:"requests"`
	DurationMs float64 `json:"duration_ms"`
}

// Key identifies a search: its (endpoint, scenario) and variant, as its
// levels' runs have them.
func (s Search) Key() string { return s.Endpoint + "\x00" + s.Scenario + "\x00" + string(s.Variant) }

// levelKey is the part of a run's key its level adds: its load, and which
// measurement of it the run is after the first.
func (r Run) levelKey() string {
	if r.Level == nil {
		return ""
	}
	k := "\x00" + strconv.FormatFloat(r.Level.Value, 'g', -1, 64)
	if r.Level.Round > 1 {
		k += "\x00round" + strconv.Itoa(r.Level.Round)
	}
	return k
}

// searchKey is the key of the search a level's run belongs to.
func (r Run) searchKey() string {
	return r.Endpoint + "\x00" + r.Scenario + "\x00" + string(r.Variant)
}

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	return !slices.ContainsFunc(vs, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) })
}

// maxRounds bounds the measurements of a level (vocab.LevelLooks).
var maxRounds = len(vocab.LevelLooks(1))

// maxPerLevel bounds a search's requests per level (a file holds far
// fewer requests anyway: fileio's ReadLimit): a test over n requests costs
// n.
const maxPerLevel = 1_000_000

// objective reports whether o is an objective a search decides: a
// latency's quantile, or errors' and goodput's rate as a fraction.
func objective(o Objective) bool {
	if o.Metric == vocab.Errors || o.Metric == vocab.Goodput {
		return o.Stat == vocab.Rate && o.Value <= 1
	}
	_, q := o.Stat.Quantile()
	return q && slices.Contains(vocab.Latencies, o.Metric)
}

// SearchVersion is the newest design of a search this latgate reads.
const SearchVersion = 3

// searchStops are why a search ends ("" while it has not: shards merged
// before their search is decided again).
var searchStops = []vocab.Stop{"", vocab.Found, vocab.AtTop, vocab.AtBottom, vocab.Interrupted, vocab.Capped, vocab.FailedFast}

// check refuses a search no capacity search writes.
func (s Search) check() error {
	switch {
	case s.Endpoint == "" || s.Scenario == "":
		return fmt.Errorf("\"endpoint\" and \"scenario\" are required")
	case !slices.Contains(vocab.Varies, s.Vary):
		return fmt.Errorf("vary is %q, want concurrency or rate", s.Vary)
	case !finite(s.From, s.To, s.Step, s.Alpha, s.MaxDurationMs) || !(s.From > 0 && s.From <= s.To && s.Step > 0 && s.To <= MaxMs):
		return fmt.Errorf("from %g, to %g, step %g: want 0 < from ≤ to and a positive step", s.From, s.To, s.Step)
	case !(s.Alpha > 0 && s.Alpha < 1) || s.RequestsPerLevel < 1 || s.RequestsPerLevel > maxPerLevel || s.Warmup < 0 || s.Warmup > maxPerLevel || s.MaxRequests < 0 || s.MaxDurationMs < 0:
		return fmt.Errorf("alpha %g, requests_per_level %d, warmup %d: want alpha in (0, 1) and 1 to %d requests per level", s.Alpha, s.RequestsPerLevel, s.Warmup, maxPerLevel)
	case len(s.SLO) == 0:
		return fmt.Errorf("no slo: a search needs at least one objective")
	case !slices.Contains(searchStops, s.Stop):
		return fmt.Errorf("stop is %q: not why a search ends", s.Stop)
	case !plainText(s.StopReason, MaxReason):
		return fmt.Errorf("stop_reason: over %d bytes or not printable text", MaxReason)
	case s.Requests < 0 || s.Requests > maxCount || s.MaxRequests > maxCount:
		return fmt.Errorf("requests %d, max_requests %d: a search sends 0 to %g requests", s.Requests, s.MaxRequests, float64(maxCount))
	case !(s.DurationMs >= 0 && s.DurationMs <= MaxMs && s.MaxDurationMs <= MaxMs):
		return fmt.Errorf("duration_ms %g, max_duration_ms %g: a time is from 0 to %g ms", s.DurationMs, s.MaxDurationMs, MaxMs)
	case s.Version < 0 || s.Version > SearchVersion:
		return fmt.Errorf("version is %d: this latgate knows searches of version 1 to %d", s.Version, SearchVersion)
	case s.Version < 2 && s.Lower != nil:
		return fmt.Errorf("lower is set in a search of version 1, which has none")
	}
	if err := s.checkLadder(); err != nil {
		return err
	}
	for _, o := range append(slices.Clone(s.SLO), s.Goodput...) {
		if !finite(o.Value) || o.Value < 0 || o.Value > MaxMs {
			return fmt.Errorf("slo %s %s is %g", o.Metric, o.Stat, o.Value)
		}
	}
	for _, o := range s.SLO {
		if !objective(o) {
			return fmt.Errorf("slo %s %s %g is no objective of a search", o.Metric, o.Stat, o.Value)
		}
	}
	for _, p := range []*float64{s.Capacity, s.Lower, s.Upper, s.GoodputRPS, s.GoodputTPS} {
		if p != nil && !(finite(*p) && *p >= 0 && *p <= MaxMs) {
			return fmt.Errorf("an outcome of %g is no measurement", *p)
		}
	}
	return s.checkCost()
}

// checkLevels refuses capacity searches and level runs that do not belong
// together: a search twice, a level without its search, a level of the
// wrong kind or a step twice.
func (f *File) checkLevels() error {
	searches := map[string]*Search{}
	for i := range f.Capacity {
		s := &f.Capacity[i]
		if err := s.check(); err != nil {
			return fmt.Errorf("capacity[%d]: %v", i, err)
		}
		if searches[s.Key()] != nil {
			return fmt.Errorf("capacity[%d]: endpoint %q, scenario %q%s is searched twice", i, s.Endpoint, s.Scenario, variantLabel(s.Variant))
		}
		if cut := s.Stop == vocab.Capped || s.Stop == vocab.Interrupted || s.Stop == vocab.FailedFast; cut && f.Incomplete == "" {
			// A cut search is never a pass: its file says it is incomplete.
			return fmt.Errorf("capacity[%d]: the search of endpoint %q, scenario %q%s was cut (%s), but the file is not marked incomplete", i, s.Endpoint, s.Scenario, variantLabel(s.Variant), s.Stop)
		}
		searches[s.Key()] = s
	}
	steps := map[string]bool{}
	for i, r := range f.Runs {
		if r.Level == nil {
			continue
		}
		s := searches[r.searchKey()]
		step := r.searchKey() + "\x00" + strconv.Itoa(r.Level.Step)
		switch {
		case s == nil:
			return fmt.Errorf("runs[%d]: a level of a capacity search that the file's \"capacity\" does not hold", i)
		case r.Level.Vary != s.Vary || !finite(r.Level.Value) || !(r.Level.Value > 0 && r.Level.Value <= MaxMs) || r.Level.Step < 1:
			return fmt.Errorf("runs[%d]: level %s %g (step %d) is not a level of its %s search", i, r.Level.Vary, r.Level.Value, r.Level.Step, s.Vary)
		case s.Version < 2 && (r.Level.Round != 0 || r.Level.Status != ""):
			return fmt.Errorf("runs[%d]: a level of a search of version 1 has a round or status (a search of version 2 has them)", i)
		case r.Level.Round < 0 || r.Level.Round == 1 || r.Level.Round > maxRounds:
			return fmt.Errorf("runs[%d]: level %g is measurement %d of its level: want none for the first, or 2 to %d", i, r.Level.Value, r.Level.Round, maxRounds)
		case r.Level.Status != "" && !slices.Contains(vocab.LevelStatuses, r.Level.Status):
			return fmt.Errorf("runs[%d]: level %g has status %q, want holds, fails or undecided", i, r.Level.Value, r.Level.Status)
		case steps[step]:
			return fmt.Errorf("runs[%d]: step %d of its search appears twice", i, r.Level.Step)
		}
		if err := r.checkTogether(); err != nil {
			return fmt.Errorf("runs[%d]: level %g: %v", i, r.Level.Value, err)
		}
		if err := r.Level.checkWindow(s); err != nil {
			return fmt.Errorf("runs[%d]: level %g: %v", i, r.Level.Value, err)
		}
		steps[step] = true
	}
	return nil
}

// Levels are the runs of search s, in the order it measured them.
func (f *File) Levels(s Search) []*Run {
	var out []*Run
	for i := range f.Runs {
		// Compared field by field, not by key: a file may hold thousands
		// of searches and runs, and each search looks at every run.
		if r := &f.Runs[i]; r.Level != nil && r.Endpoint == s.Endpoint && r.Scenario == s.Scenario && r.Variant == s.Variant {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b *Run) int { return a.Level.Step - b.Level.Step })
	return out
}

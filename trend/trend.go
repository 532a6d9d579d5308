// Package trend follows the default branch over time: one run-level value
// per recorded run and series — (endpoint, scenario, metric, statistic),
// e.g. the TTFT p95 of chat-short @ us-east — and the change points of
// each series, found with E-divisive means and a permutation test
// (docs/statistics.md, "Main's trend").
//
// A trend file (schema latgate/trend/v1, docs/formats.md) keeps what the
// method needs of each run and nothing more: its provenance and, per
// series, the value and the number of requests it came from. Record mode
// keeps the last regression.trend runs of it in the baseline artifact.
//
// The package is pure: it reads and writes no file (package fileio does),
// never reads the clock (times come from the files) and renders nothing
// (package report does). Every random draw is seeded from the series'
// name, so the same runs always give the same change points.
package trend

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// Schema identifies a trend file.
const Schema = "latgate/trend/v1"

// DefaultRuns is how many runs record mode keeps in the trend
// (regression.trend).
const DefaultRuns = 100

// File is a trend file: the runs of the default branch, oldest first.
type File struct {
	Schema string `json:"schema"`
	// Repository is the repository's web address (https://github.com/o/r),
	// from which commits are linked; empty when unknown.
	Repository string `json:"repository,omitempty"`
	Runs       []Run  `json:"runs"`
	// Announced are the change points record runs have announced (job
	// summary, log, fail-on-change-point), so that each is announced once.
	Announced []Announced `json:"announced,omitempty"`
}

// Run is one recorded run: its provenance and its series' values.
type Run struct {
	CreatedAt time.Time `json:"created_at"`
	GitSHA    string    `json:"git_sha"`
	GitRef    string    `json:"git_ref,omitempty"`
	Runner    string    `json:"runner,omitempty"`
	Region    string    `json:"region,omitempty"`
	// Event is what started the run in CI: push (a commit) or schedule
	// (the nightly run that sees the provider's drift alone).
	Event          string     `json:"event,omitempty"`
	RunURL         string     `json:"run_url,omitempty"`
	ToolVersion    string     `json:"tool_version,omitempty"`
	MetricsVersion int        `json:"metrics_version"`
	Scenarios      []Scenario `json:"scenarios"`
}

// Scenario is one measured (endpoint, scenario) of a run.
type Scenario struct {
	Endpoint    string  `json:"endpoint"`
	Scenario    string  `json:"scenario"`
	Fingerprint string  `json:"fingerprint"`
	Requests    int     `json:"requests"`
	Values      []Value `json:"values"`
}

// Value is a run's statistic of one metric, from N successful requests;
// Value is nil when N is below what the statistic needs (vocab.Stat.MinN).
type Value struct {
	Metric vocab.Metric `json:"metric"`
	Stat   vocab.Stat   `json:"stat"`
	Value  *float64     `json:"value"`
	N      int          `json:"n"`
}

// Spec is one series kept per (endpoint, scenario): a metric, a statistic
// and how a successful request gives the metric. Adding a series is one
// line in Specs.
type Spec struct {
	Metric vocab.Metric
	Stat   vocab.Stat
	// Of reads the metric off a request (nil when not observed); a nil Of
	// is a series whose results field does not exist yet: skipped.
	Of func(q *results.Request) *float64
}

// pendingSession stands for the session metric of agent sessions (its p95
// is a series of the trend). It becomes vocab's own name, with the reader
// of the request's session time, when results files carry sessions; until
// then its row in Specs has no reader and is skipped.
const pendingSession vocab.Metric = "session"

// Specs are the series of the trend, in the order reports show them.
var Specs = []Spec{
	{vocab.TTFT, vocab.P50, func(q *results.Request) *float64 { return q.TTFTMs }},
	{vocab.TTFT, vocab.P95, func(q *results.Request) *float64 { return q.TTFTMs }},
	{vocab.Total, vocab.P50, func(q *results.Request) *float64 { return q.TotalMs }},
	{pendingSession, vocab.P95, nil},
}

// Why a results file is not a run of the trend.
var (
	// ErrInterleaved: an A/B file (latgate ab) measures a pull request's
	// two variants, not the default branch.
	ErrInterleaved = errors.New("an A/B file measures two variants, not one run of the branch")
	// ErrIncomplete: an incomplete run is never a baseline.
	ErrIncomplete = errors.New("an incomplete run is not part of the trend")
)

// Provenance is what a run of the trend says about itself beyond its
// results file: the CI run that recorded it and why.
type Provenance struct {
	Event, RunURL string
}

// RunOf reduces a results file to its run of the trend: per (endpoint,
// scenario) and series of Specs, the statistic of the successful requests.
func RunOf(f *results.File, pv Provenance) (Run, error) {
	if f.Interleaved() {
		return Run{}, ErrInterleaved
	}
	if f.Incomplete != "" {
		return Run{}, fmt.Errorf("%w (%s)", ErrIncomplete, f.Incomplete)
	}
	run := Run{
		CreatedAt: f.CreatedAt.UTC(), GitSHA: f.Source.GitSHA, GitRef: f.Source.GitRef,
		Runner: f.Source.Runner, Region: f.Source.Region, Event: pv.Event, RunURL: pv.RunURL,
		ToolVersion: f.ToolVersion, MetricsVersion: f.MetricsVersion,
	}
	for _, r := range f.Runs {
		if r.Level != nil {
			continue // a capacity search's level: its load differs from run to run
		}
		sc := Scenario{Endpoint: r.Endpoint, Scenario: r.Scenario, Fingerprint: r.Fingerprint, Requests: len(r.Requests)}
		for _, sp := range Specs {
			if v, ok := valueOf(r, sp); ok {
				sc.Values = append(sc.Values, v)
			}
		}
		run.Scenarios = append(run.Scenarios, sc)
	}
	return run, nil
}

// valueOf is one series' value of a run; false when no successful request
// observed the metric (a series the run does not have).
func valueOf(r results.Run, sp Spec) (Value, bool) {
	if sp.Of == nil {
		return Value{}, false
	}
	var xs []float64
	for i := range r.Requests {
		q := &r.Requests[i]
		if v := sp.Of(q); q.OK && !q.Cold && v != nil && !math.IsNaN(*v) { // a cold sample is no warm ttft (compare.Sampler)
			xs = append(xs, *v)
		}
	}
	if len(xs) == 0 {
		return Value{}, false
	}
	v := Value{Metric: sp.Metric, Stat: sp.Stat, N: len(xs)}
	if len(xs) < sp.Stat.MinN() {
		return v, true
	}
	var x float64
	if q, ok := sp.Stat.Quantile(); ok {
		slices.Sort(xs)
		x = compare.Quantile(xs, q)
	} else {
		for _, y := range xs {
			x += y / float64(len(xs))
		}
	}
	x = math.Round(x*1000) / 1000 // µs: all a trend needs
	if x > 0 {
		v.Value = &x
	}
	return v, true
}

// Merge orders runs oldest first (by created_at, then commit), keeps one
// run per created_at (the first given: callers list the runs they trust
// most first) and the newest keep of them (all when keep ≤ 0).
func Merge(keep int, runs ...[]Run) []Run {
	var all []Run
	seen := map[time.Time]bool{}
	for _, rs := range runs {
		for _, r := range rs {
			t := r.CreatedAt.UTC()
			if seen[t] {
				continue
			}
			seen[t] = true
			all = append(all, r)
		}
	}
	slices.SortStableFunc(all, func(a, b Run) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.GitSHA, b.GitSHA))
	})
	if keep > 0 && len(all) > keep {
		all = all[len(all)-keep:]
	}
	return all
}

// name is what a metric or a statistic is called (vocab spells them so).
var name = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// Validate checks a decoded trend file: its schema, and that every run has
// a time and every value is a positive number (or null) with its count.
func (f *File) Validate() error {
	if f.Schema != Schema {
		if f.Schema == "" {
			return fmt.Errorf("not a latgate trend file (no \"schema\" key; want %q)", Schema)
		}
		return fmt.Errorf("not a latgate trend file: schema is %q, want %q", f.Schema, Schema)
	}
	for i, r := range f.Runs {
		if r.CreatedAt.IsZero() {
			return fmt.Errorf("runs[%d]: created_at is required", i)
		}
		for j, s := range r.Scenarios {
			if s.Endpoint == "" || s.Scenario == "" {
				return fmt.Errorf("runs[%d].scenarios[%d]: \"endpoint\" and \"scenario\" are required", i, j)
			}
			for k, v := range s.Values {
				if !name.MatchString(string(v.Metric)) || !name.MatchString(string(v.Stat)) || v.N < 0 {
					return fmt.Errorf("runs[%d].scenarios[%d].values[%d]: metric and stat (lower-case names such as ttft and p95) and a count n ≥ 0 are required", i, j, k)
				}
				if v.Value != nil && !(*v.Value > 0 && *v.Value <= results.MaxMs) {
					// Bounded like a results file's times: 1e308 passed,
					// and its steps overflowed to +Inf in every report.
					return fmt.Errorf("runs[%d].scenarios[%d].values[%d]: value %g is not a time from 0 to %g ms", i, j, k, *v.Value, results.MaxMs)
				}
			}
		}
	}
	for i, n := range f.Announced {
		if n.Endpoint == "" || n.Scenario == "" || !name.MatchString(string(n.Metric)) || !name.MatchString(string(n.Stat)) || n.At.IsZero() || n.NamedAt.IsZero() {
			return fmt.Errorf("announced[%d]: endpoint, scenario, metric, stat, at and named_at are required", i)
		}
	}
	return nil
}

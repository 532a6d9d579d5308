package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

// ABOptions say what an interleaved A/B run compares.
type ABOptions struct {
	Config     string // the head suite
	BaseConfig string // the base suite; "" in a pull request: Config at the base commit
	// BaseURL and HeadURL override an endpoint's base_url for one variant
	// ("ENDPOINT=URL"): two deployments of the team's own app.
	BaseURL, HeadURL []string
	Region           string
	Select           Selection
	// HeadOnlyIfNew: when BaseConfig is "" and Config does not exist at the
	// base commit (the pull request that adds the suite), LoadAB returns a
	// nil base instead of an error: the head is measured alone.
	HeadOnlyIfNew bool
	// StartAt is RunOptions.StartAt: base and head take turns, level by
	// level, each in its window.
	StartAt string
}

// ErrNewSuite means the suite does not exist at the pull request's base
// commit: there is no base variant to measure yet.
var ErrNewSuite = errors.New("the suite is new in this pull request")

// urlOverride applies "ENDPOINT=URL" overrides to cfg, with the metrics
// pages on the endpoint's origin (movePages, whose warnings it returns);
// an endpoint that cfg does not have is bad input.
func urlOverride(cfg *suite.Config, flag string, list []string) ([]string, error) {
	var warnings []string
	for _, o := range list {
		name, url, ok := strings.Cut(o, "=")
		web := strings.HasPrefix(url, "http://") || strings.HasPrefix(url, "https://")
		socket := strings.HasPrefix(url, "ws://") || strings.HasPrefix(url, "wss://")
		if !ok || name == "" || !web && !socket {
			return nil, BadInputf("%s: want ENDPOINT=URL (an http or https URL; ws or wss for a realtime endpoint), got %q", flag, o)
		}
		found := false
		var names []string
		for i := range cfg.Endpoints {
			names = append(names, cfg.Endpoints[i].Name)
			if cfg.Endpoints[i].Name == name {
				spec, _ := apis.Lookup(cfg.Endpoints[i].API)
				if scheme, _, _ := strings.Cut(url, ":"); socket && !spec.Address.Accepts(scheme) {
					return nil, BadInputf("%s: endpoint %q (api %s) is called over http or https, not %q", flag, name, cfg.Endpoints[i].API, url)
				}
				// An API called at its url takes the URL as it is; every
				// other api appends its path to base_url.
				old := cfg.Endpoints[i].BaseURL
				if spec.Address.Key == apis.URL {
					old, cfg.Endpoints[i].URL = cfg.Endpoints[i].URL, url
				} else {
					if msg := suite.BaseURLProblem(cfg.Endpoints[i].API, flag, strings.TrimRight(url, "/")); msg != "" {
						return nil, BadInputf("endpoint %q: %s", name, msg)
					}
					cfg.Endpoints[i].BaseURL = strings.TrimRight(url, "/")
				}
				warnings = append(warnings, movePages(&cfg.Endpoints[i], flag, old, url)...)
				found = true
			}
		}
		if !found {
			return nil, BadInputf("%s: no endpoint %q in %s (it has: %s)", flag, name, cfg.Path, strings.Join(names, ", "))
		}
	}
	return warnings, nil
}

// LoadAB loads the head and base suites of an A/B run, with their URL
// overrides and selection applied. Without a base config, the head's
// config file as it is at the pull request's base commit is read with git
// (fetched when the checkout is shallow), with every file it names read at
// that commit too. When that file does not exist there, the error wraps
// ErrNewSuite, or with o.HeadOnlyIfNew the base is nil.
func LoadAB(ctx context.Context, env Env, o ABOptions) (base, head *suite.Config, err error) {
	if head, err = LoadConfig(o.Config, env.Getenv, false); err != nil {
		return nil, nil, err
	}
	if o.BaseConfig != "" {
		base, err = LoadConfig(o.BaseConfig, env.Getenv, false)
	} else {
		base, err = configAtBase(ctx, env, o.Config)
		if errors.Is(err, ErrNewSuite) && o.HeadOnlyIfNew {
			fmt.Fprintf(env.Stderr, "latgate: no baseline yet: %v; measuring the head alone\n", err)
			base, err = nil, nil
		}
	}
	if err != nil {
		return nil, nil, err
	}
	warnings, err := urlOverride(head, "head-url", o.HeadURL)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(env.Stderr, "latgate: warning: %s\n", w)
	}
	if err := o.Select.Apply(head); err != nil {
		return nil, nil, err
	}
	ConfigWarnings(env.Stderr, head) // after --requests, which replaces the count warnings
	if base == nil {
		return nil, head, nil
	}
	warnings, err = urlOverride(base, "base-url", o.BaseURL)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		fmt.Fprintf(env.Stderr, "latgate: warning: %s\n", w)
	}
	// The base follows the head's selection; a scenario the base lacks is
	// new in the head.
	baseSel := Selection{Requests: o.Select.Requests, Lanes: o.Select.Lanes}
	for _, name := range o.Select.Scenarios {
		if findScenario(base, name) {
			baseSel.Scenarios = append(baseSel.Scenarios, name)
		}
	}
	if len(o.Select.Scenarios) > 0 && len(baseSel.Scenarios) == 0 {
		base.Scenarios = nil
	} else if err := baseSel.Apply(base); err != nil {
		return nil, nil, err
	}
	return base, head, nil
}

func findScenario(cfg *suite.Config, name string) bool {
	return slices.ContainsFunc(cfg.Scenarios, func(s suite.Scenario) bool { return s.Name == name })
}

// configAtBase reads the suite at the pull request's base commit.
func configAtBase(ctx context.Context, env Env, path string) (*suite.Config, error) {
	gc, err := publish.NewContext(env.Getenv)
	if err != nil {
		return nil, BadInputf("reading the GitHub context: %v", err)
	}
	if gc.BaseSHA == "" {
		return nil, BadInputf("no base config: give --base-config FILE (in a pull request it defaults to %s at the base commit)", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, AsBadInput(err)
	}
	git := publish.Git{Dir: filepath.Dir(abs)}
	data, err := git.FileAt(ctx, gc.BaseSHA, abs)
	switch {
	case errors.Is(err, publish.ErrFileAbsent):
		return nil, &Error{Kind: BadInput, Err: fmt.Errorf("%s does not exist at the base commit %s: %w", path, publish.ShortSHA(gc.BaseSHA), ErrNewSuite)}
	case err != nil:
		return nil, BadInputf("reading %s at the base commit %s: %v", path, publish.ShortSHA(gc.BaseSHA), err)
	}
	readAtBase := func(p string) ([]byte, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(abs), p)
		}
		b, err := git.FileAt(ctx, gc.BaseSHA, p)
		if errors.Is(err, publish.ErrFileAbsent) {
			return nil, &os.PathError{Op: "open", Path: p, Err: fmt.Errorf("not in the base commit %s", publish.ShortSHA(gc.BaseSHA))}
		}
		return b, err
	}
	cfg, err := suite.Parse(path+"@"+publish.ShortSHA(gc.BaseSHA), data, suite.Options{ReadFile: readAtBase, Getenv: env.Getenv})
	if err != nil {
		return nil, AsBadInput(err)
	}
	fmt.Fprintf(env.Stderr, "latgate: base variant: %s at the base commit %s\n", path, publish.ShortSHA(gc.BaseSHA))
	return cfg, nil
}

// CompareAB compares the variants of an interleaved A/B results file with
// the blocked permutation tests. When both variants ran the same
// configuration everywhere (an A/A run) it also returns what the run says
// about the suite's noise and sensitivity.
func CompareAB(f *results.File, name string, th compare.Config) (*report.Report, []compare.NoiseCheck, error) {
	return compareAB(f, digestFiles(f), name, th)
}

// compareAB is CompareAB from the runs' digests (ds holds every run of f).
func compareAB(f *results.File, ds report.Digests, name string, th compare.Config) (*report.Report, []compare.NoiseCheck, error) {
	if !f.Interleaved() {
		return nil, nil, BadInputf("%s holds no variants (it was not written by latgate ab): to compare two runs give both, latgate compare BASELINE CURRENT", name)
	}
	if f.Incomplete != "" {
		return nil, nil, BadInputf("%s is incomplete (%s): an incomplete run cannot pass a gate; run it again", name, f.Incomplete)
	}
	pairs := results.MatchVariants(f)
	aa, common := true, 0
	for _, p := range pairs {
		if p.Base == nil || p.Head == nil {
			aa = false
			continue
		}
		common++
		if p.Base.Fingerprint != p.Head.Fingerprint {
			aa = false
		}
		for _, side := range []struct {
			run        *results.Run
			name, then string
		}{{p.Base, "base", "the head cannot be compared with it"}, {p.Head, "head", "there is no latency to compare: fix the head and run again"}} {
			if b := ds.Of(side.run).Breakdown; b.OK == 0 {
				// A variant could not be measured at all: an outage (or a
				// head that never answers), not a latency regression.
				return nil, nil, AsCannotRun(fmt.Errorf("%s: endpoint %q, scenario %q: no %s request succeeded (%s), so %s", name, p.Endpoint, p.Scenario, side.name, firstError(b), side.then))
			}
		}
	}
	if common+commonSearches(f, f) == 0 {
		return nil, nil, BadInputf("%s: no (endpoint, scenario) has both variants", name)
	}
	changes, err := capacityChanges(f, f, name, name, th.Tolerance)
	if err != nil {
		return nil, nil, err
	}
	runs := ds.Pairs(pairs)
	res := compare.Confirm(CompareRuns(f, runs, th), runs, ds.Pairs(results.MatchConfirmations(f)), th)
	rep := report.BuildDigested(pairs, ds, res, th)
	rep.Warnings = append(rep.Warnings, runWarnings(f, ds)...)
	rep.Plan = append(rep.Plan, RunPlan(f)...)
	applyCapacity(rep, changes, th)
	rep.Provenance = report.ProvenanceOf(nil, f)
	rep.Provenance.Mode = "ab"
	var noise []compare.NoiseCheck
	if aa {
		noise = NoiseRuns(f, runs, th)
	}
	return rep, noise, nil
}

// firstError is a run's first request error, as an example of why its
// requests failed.
func firstError(b report.Breakdown) string {
	if b.FirstError != "" {
		return "for example: " + b.FirstError
	}
	return "no error recorded"
}

// AB is `latgate ab`: it loads both suites, measures them interleaved,
// writes the results to out (an incomplete run too, marked so) and compares
// the variants. An incomplete run is not compared: its measurements are
// printed, as latgate run prints them, and the error is the measurement's
// (CannotRun).
func AB(ctx context.Context, env Env, o ABOptions, over Overrides, out string) (*report.Report, []compare.NoiseCheck, error) {
	start, err := startAt(o.StartAt)
	if err != nil {
		return nil, nil, err
	}
	if err := checkResultsOut(out, o.Config, o.BaseConfig); err != nil {
		return nil, nil, err
	}
	base, head, err := LoadAB(ctx, env, o)
	if errors.Is(err, ErrNewSuite) {
		return nil, nil, BadInputf("%v: there is no base variant to compare with yet; give --base-config, or measure it alone with latgate run", err)
	}
	if err != nil {
		return nil, nil, err
	}
	th, err := CompareConfig(head, over)
	if err != nil {
		return nil, nil, err
	}
	f, err := measureInto(env, out, MeasureOptions{Source: GitSource(env.Getenv, o.Region), Thresholds: &th, StartAt: start}, func(mo MeasureOptions) (*results.File, error) {
		return MeasureAB(ctx, base, head, mo)
	})
	if err != nil {
		// An incomplete run (interrupted, capped) is not compared, but
		// what it measured is shown, as latgate run shows it.
		if f != nil && len(f.Runs) > 0 {
			report.Measurements(env.Stdout, f)
			for _, w := range RunWarnings(f) {
				fmt.Fprintln(env.Stderr, "latgate: warning: "+w)
			}
		}
		return nil, nil, err
	}
	return CompareAB(f, out, th)
}

package gate

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// Env is the injected process environment of a pipeline.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// HTTPClient talks to the GitHub API; nil: a client with a timeout.
	HTTPClient *http.Client
	// ProbeClient sends the suite's requests (run, ab, gate); nil: one
	// sized for the suite. Tests give one that reaches a simulator on
	// virtual time (internal/clocktest).
	ProbeClient *http.Client
	// Color: stdout is a terminal. TTY: draw a progress bar on Stderr.
	Color, TTY  bool
	ToolVersion string
}

// pipeline is one run of Gate or Publish: its environment, inputs, GitHub
// context and Actions output.
type pipeline struct {
	command string // gate or publish
	env     Env
	in      Inputs
	gc      *publish.Context
	act     *publish.Actions
	// trendURL is the run that recorded the baseline artifact, when the
	// artifact holds main's trend (the comment links it).
	trendURL string
	// dryDir is the temporary folder of a dry run's outputs (dryMoved:
	// which), "" when they go where the inputs say (dryRunOutputs).
	dryDir   string
	dryMoved []string
}

func newPipeline(env Env, in Inputs, command string) (*pipeline, error) {
	act := publish.NewActions(env.Stdout, env.Getenv)
	act.Mask(in.GitHubToken) // before anything else is printed
	in, dryDir, moved, err := dryRunOutputs(env, in, command)
	if err != nil {
		return nil, err
	}
	if err := in.Validate(command); err != nil {
		if dryDir != "" {
			_ = os.RemoveAll(dryDir)
		}
		return nil, err
	}
	gc, err := publish.NewContext(env.Getenv)
	if err != nil {
		return nil, BadInputf("the GitHub Actions environment: %v", err)
	}
	return &pipeline{command: command, env: env, in: in, gc: gc, act: act, dryDir: dryDir, dryMoved: moved}, nil
}

// Gate runs what the Action runs: measure the suite, then record it as the
// baseline (mode record), compare it with the stored baseline (mode gate),
// or measure the base and head variants interleaved and compare them (mode
// ab); then publish the verdict. It returns ErrFailed when the gate fails.
func Gate(ctx context.Context, env Env, in Inputs) error {
	p, err := newPipeline(env, in, "gate")
	if err != nil {
		return err
	}
	defer p.dryRunDone()
	in = p.in
	if in.Mode == "ab" {
		return p.ab(ctx)
	}
	cfg, err := LoadConfig(in.Path(in.Config), env.Getenv, false)
	if err != nil {
		return err
	}
	p.act.Mask(cfg.Secrets()...)
	if err := in.Select.Apply(cfg); err != nil {
		return err
	}
	ConfigWarnings(env.Stderr, cfg) // after --requests, which replaces the count warnings
	th, err := CompareConfig(cfg, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	// Baselines are read before the run, so that a bad one costs no request.
	var hist []*results.File
	var names []string
	if in.Mode == "gate" {
		if hist, names, err = p.loadBaselines(ctx); err != nil {
			return err
		}
	}
	cur, err := p.measure(func(o MeasureOptions) (*results.File, error) {
		// Adaptive scenarios look at the stored baseline between batches;
		// against a history (or none) they run to their max.
		o.Thresholds = &th
		if len(hist) == 1 {
			o.Baseline = hist[0]
		}
		return Measure(ctx, cfg, o)
	})
	if err != nil {
		return err
	}
	if in.Mode == "record" {
		return p.record(ctx, cfg, cur)
	}
	rep, err := p.compareStored(hist, names, cur, cfg, th)
	if err != nil {
		return err
	}
	return p.publish(ctx, cfg, rep, nil)
}

// measure runs a measurement with the pipeline's source and writes its
// results (measureInto); when it fails, the verdict output says error.
func (p *pipeline) measure(measure func(MeasureOptions) (*results.File, error)) (*results.File, error) {
	src := GitSource(p.env.Getenv, p.in.Region)
	if p.gc.InActions {
		src.GitSHA, src.GitRef, src.Runner = p.gc.SHA, p.gc.Ref, p.gc.RunnerName
		if p.gc.Head.SHA != "" && p.gc.PullRequest > 0 {
			src.GitSHA = p.gc.Head.SHA // the pull request's head, not the merge commit
		}
	}
	cur, err := measureInto(p.env, p.in.Path(p.in.Results), MeasureOptions{Source: src}, measure)
	if err != nil {
		_ = p.act.SetOutputs([]string{"verdict", "results"}, map[string]string{"verdict": string(vocab.NoVerdict), "results": ""})
		return nil, err
	}
	return cur, nil
}

// ab measures the base and head variants interleaved and compares them.
func (p *pipeline) ab(ctx context.Context) error {
	in := p.in
	base, head, err := LoadAB(ctx, p.env, ABOptions{Config: in.Path(in.Config), BaseConfig: in.Path(in.BaseConfig),
		BaseURL: in.BaseURL, HeadURL: in.HeadURL, Region: in.Region, Select: in.Select, HeadOnlyIfNew: true})
	if err != nil {
		return err
	}
	p.act.Mask(head.Secrets()...)
	th, err := CompareConfig(head, Overrides{FailOn: in.FailOn})
	if err != nil {
		return err
	}
	if base == nil {
		return p.headOnly(ctx, head, th)
	}
	p.act.Mask(base.Secrets()...)
	cur, err := p.measure(func(o MeasureOptions) (*results.File, error) {
		o.Thresholds = &th
		return MeasureAB(ctx, base, head, o)
	})
	if err != nil {
		return err
	}
	rep, noise, err := CompareAB(cur, in.Path(in.Results), th)
	if err != nil {
		return err
	}
	return p.publish(ctx, head, rep, noise)
}

// headOnly is mode ab on the pull request that adds the suite: there is no
// base variant, so the head is measured alone and every check is
// no_baseline (budgets still apply), as with baseline: none.
func (p *pipeline) headOnly(ctx context.Context, head *suite.Config, th compare.Config) error {
	cur, err := p.measure(func(o MeasureOptions) (*results.File, error) {
		o.Thresholds = &th
		return Measure(ctx, head, o)
	})
	if err != nil {
		return err
	}
	rep, err := CompareFiles(nil, cur, "", p.in.Path(p.in.Results), th)
	if err != nil {
		return err
	}
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("no baseline yet: the suite is new in this pull request (not at the base commit %s), "+
		"so only the head was measured; budgets still apply", publish.ShortSHA(p.gc.BaseSHA)))
	return p.publish(ctx, head, rep, nil)
}

package gate

// The stored baselines a gate compares with: files, or the base branch's
// artifact.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
)

func (p *pipeline) github() (*publish.GitHub, error) {
	client := p.env.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 2 * time.Minute}
	}
	return p.gc.NewGitHub(client, p.in.GitHubToken)
}

func (p *pipeline) fetchHistory(ctx context.Context, branch string) (publish.History, error) {
	name := p.in.BaselineArtifact
	if p.in.GitHubToken == "" {
		return publish.History{}, BadInputf("baseline-artifact %q: no GitHub token to fetch it (github-token input or GITHUB_TOKEN)", name)
	}
	gh, err := p.github()
	if err != nil {
		return publish.History{}, BadInputf("baseline-artifact %q: %v", name, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	h, err := gh.FetchHistory(ctx, publish.ArtifactQuery{Name: name, Branch: branch, WorkflowFile: cmp.Or(p.in.BaselineWorkflow, p.gc.WorkflowFile())})
	switch {
	case errors.Is(err, publish.ErrNoArtifact):
		return h, err
	case errors.Is(err, publish.ErrBadArtifact):
		return h, BadInputf("baseline-artifact %q: %v", name, err)
	case err != nil:
		return h, AsCannotRun(fmt.Errorf("fetching the baseline artifact %q: %w", name, err))
	}
	return h, nil
}

// loadBaselines finds the stored baselines: files (comma-separated, oldest
// first), else an artifact (every run of its history). A baseline that was
// asked for and cannot be had is an error; only an explicit "none", or an
// artifact that the base branch has never recorded (the first run on a new
// repository), means "no baseline yet".
func (p *pipeline) loadBaselines(ctx context.Context) ([]*results.File, []string, error) {
	in := p.in
	switch {
	case in.Baseline == NoBaseline:
		return nil, nil, nil
	case in.Baseline != "":
		var files []*results.File
		var names []string
		for _, b := range strings.Split(in.Baseline, ",") {
			path := in.Path(strings.TrimSpace(b))
			f, err := fileio.Read(path)
			if err != nil {
				return nil, nil, AsBadInput(err)
			}
			files, names = append(files, f), append(names, path)
		}
		return files, names, nil
	case in.BaselineArtifact == "":
		return nil, nil, BadInputf("no baseline: give baseline (a results file), baseline-artifact (an artifact recorded on the base branch), mode: ab (no stored baseline needed), or baseline: %s to run without one", NoBaseline)
	}
	h, err := p.fetchHistory(ctx, cmp.Or(in.BaseBranch, p.gc.BaseRef, p.gc.DefaultBranch, "main"))
	if errors.Is(err, publish.ErrNoArtifact) {
		fmt.Fprintf(p.env.Stderr, "latgate: no baseline yet: %v\n", err)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var files []*results.File
	var names []string
	for _, hf := range h.Files {
		f, err := fileio.Decode("artifact "+in.BaselineArtifact+"/"+hf.Name, hf.Data)
		if err != nil {
			return nil, nil, AsBadInput(err)
		}
		files, names = append(files, f), append(names, "artifact "+in.BaselineArtifact+"/"+hf.Name)
	}
	fmt.Fprintf(p.env.Stderr, "latgate: baseline history of %d run(s) from artifact %q of %s\n", len(files), in.BaselineArtifact, h.RunURL)
	if _, err := fileio.DecodeTrend(fileio.TrendName, h.Trend); len(h.Trend) > 0 && err == nil {
		p.trendURL = h.RunURL // its record run's report draws the trend
	}
	return files, names, nil
}

// compareStored compares with the stored baselines (none: every check is
// no_baseline) and adds the baseline's provenance warnings.
func (p *pipeline) compareStored(hist []*results.File, names []string, cur *results.File, cfg *suite.Config, th compare.Config) (*report.Report, error) {
	resultsName := p.in.Path(p.in.Results)
	rep, err := CompareStored(hist, names, cur, resultsName, th)
	if errors.Is(err, ErrNoCommonRun) {
		fmt.Fprintf(p.env.Stderr, "latgate: warning: %v: every check is no_baseline\n", err)
		hist = nil
		rep, err = CompareFiles(nil, cur, "", resultsName, th)
	}
	if err != nil {
		return nil, err
	}
	if len(hist) == 0 {
		rep.Warnings = append(rep.Warnings, "no baseline yet: every check is no_baseline; record one on the base branch with mode: record, or use mode: ab")
		return rep, nil
	}
	maxAge := time.Duration(0)
	if cfg != nil {
		maxAge = cfg.Regression.MaxBaselineAge
	}
	rep.Warnings = append(rep.Warnings, provenanceWarnings(hist[len(hist)-1], cur, maxAge)...)
	return rep, nil
}

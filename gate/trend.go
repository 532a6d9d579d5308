package gate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/trend"
)

// Trend is latgate trend: it reads the runs of the default branch from
// paths — baseline folders (every latgate results file in them, and the
// trend file), results files and trend files — sorts them by created_at,
// and finds the change points of every series. Foreign files in a folder
// are ignored and named; a path that cannot be read, a file given by name
// that is no latgate file, or no run at all is bad input.
func Trend(env Env, paths []string) (*report.Trend, error) {
	if len(paths) == 0 {
		return nil, BadInputf("no input: give a baseline folder (latgate-baseline) or results and trend files")
	}
	in := &trendInput{}
	for _, p := range paths {
		if err := in.add(p); err != nil {
			return nil, err
		}
	}
	runs := trend.Merge(0, in.trendRuns, in.resultRuns)
	if len(runs) == 0 {
		return nil, BadInputf("no run to follow in %s%s", strings.Join(paths, ", "), in.why())
	}
	if !slices.IsSortedFunc(in.resultRuns, func(a, b trend.Run) int { return a.CreatedAt.Compare(b.CreatedAt) }) {
		in.notes = append(in.notes, "the results files were not given in time order: their runs are sorted by created_at")
	}
	repo := in.repo
	if repo == "" && env.Getenv != nil {
		repo = repositoryURL(env.Getenv("GITHUB_SERVER_URL"), env.Getenv("GITHUB_REPOSITORY"))
	}
	a := trend.Analyze(runs, trend.Method{})
	a.MarkAnnounced(in.announced)
	return &report.Trend{Analysis: a, Repository: repo, Notes: append(in.notes, in.skipped()...)}, nil
}

// repositoryURL is the repository's web address, "" when either part is
// unknown.
func repositoryURL(server, repo string) string {
	if server == "" || repo == "" {
		return ""
	}
	return strings.TrimRight(server, "/") + "/" + repo
}

// trendInput collects the runs of latgate trend's inputs and what it
// passed by.
type trendInput struct {
	resultRuns, trendRuns []trend.Run
	announced             []trend.Announced
	repo                  string
	notes                 []string
	ignored               []string // foreign files of a folder
	unusable              []string // files that cannot be read or hold no run of the branch, with why
}

// add reads one path: a folder or a file.
func (in *trendInput) add(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return BadInputf("%s: %v", path, fileio.PathCause(err))
	}
	if !st.IsDir() {
		ok, err := in.file(path)
		if err == nil && !ok {
			err = BadInputf("%s is not a latgate results or trend file", path)
		}
		return err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return BadInputf("%s: %v", path, fileio.PathCause(err))
	}
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		if !e.Type().IsRegular() {
			in.ignored = append(in.ignored, e.Name()+" (not a regular file)")
			continue
		}
		ok, err := in.file(p)
		switch {
		case err != nil:
			in.unusable = append(in.unusable, fmt.Sprintf("%s (%v)", e.Name(), oneLine(err)))
		case !ok:
			in.ignored = append(in.ignored, e.Name())
		}
	}
	return nil
}

// file reads one file, bounded; false when it is no latgate results or
// trend file.
func (in *trendInput) file(path string) (bool, error) {
	b, err := fileio.ReadLimited(path, fileio.MaxFileSize)
	if err != nil {
		return false, BadInputf("%s: %v", path, fileio.PathCause(err))
	}
	switch schema := schemaOf(b); {
	case fileio.IsGzip(b) || schema == trend.Schema:
		f, err := fileio.DecodeTrend(path, b)
		if err != nil && fileio.IsGzip(b) && filepath.Base(path) != fileio.TrendName {
			return false, nil // some other compressed file
		}
		if err != nil {
			return false, AsBadInput(err)
		}
		in.trendRuns = append(in.trendRuns, f.Runs...)
		in.announced = append(in.announced, f.Announced...)
		in.repo = cmp.Or(in.repo, f.Repository)
		return true, nil
	case strings.HasPrefix(schema, "latgate/results/"):
		f, err := fileio.Decode(path, b)
		if err != nil {
			return false, AsBadInput(err)
		}
		return true, in.results(path, f)
	}
	return false, nil
}

// results adds a results file's run; an A/B or incomplete file holds none
// (said).
func (in *trendInput) results(path string, f *results.File) error {
	run, err := trend.RunOf(f, trend.Provenance{})
	switch {
	case errors.Is(err, trend.ErrInterleaved):
		in.unusable = append(in.unusable, filepath.Base(path)+" (an A/B file: it measures a pull request's two variants, not the branch)")
	case errors.Is(err, trend.ErrIncomplete):
		in.unusable = append(in.unusable, filepath.Base(path)+" (incomplete: "+f.Incomplete+")")
	case err != nil:
		return AsBadInput(fmt.Errorf("%s: %w", path, err))
	default:
		in.resultRuns = append(in.resultRuns, run)
	}
	return nil
}

// skipped are the notes on what was passed by.
func (in *trendInput) skipped() []string {
	var out []string
	if len(in.ignored) > 0 {
		out = append(out, fmt.Sprintf("ignored %d file(s) that are not latgate results or trend files: %s", len(in.ignored), listOf(in.ignored, 8)))
	}
	if len(in.unusable) > 0 {
		out = append(out, fmt.Sprintf("left out %d file(s) that cannot be read or hold no run of the branch: %s", len(in.unusable), listOf(in.unusable, 8)))
	}
	return out
}

// why says what the inputs held when they held no run.
func (in *trendInput) why() string {
	if s := in.skipped(); len(s) > 0 {
		return ": " + strings.Join(s, "; ")
	}
	return ""
}

func listOf(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// schemaOf is the value of a JSON document's top-level "schema" key, read
// without decoding the rest when it comes first (as latgate writes it);
// "" for anything else.
func schemaOf(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "schema" {
			v, _ := dec.Token()
			s, _ := v.(string)
			return s
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}

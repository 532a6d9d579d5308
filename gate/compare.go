package gate

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"strings"
	"sync"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
)

// CompareFiles matches, validates and compares a baseline and a current
// results file; names are used in messages. base may be nil (no baseline:
// every check is no_baseline). Errors are bad input; ErrNoCommonRun (with
// errors.Is) when the files share no (endpoint, scenario).
func CompareFiles(base, cur *results.File, baseName, curName string, th compare.Config) (*report.Report, error) {
	return compareFiles(base, cur, digestFiles(base, cur), baseName, curName, th)
}

// compareFiles is CompareFiles from the runs' digests (ds holds every run
// of both files).
func compareFiles(base, cur *results.File, ds report.Digests, baseName, curName string, th compare.Config) (*report.Report, error) {
	for _, f := range []struct {
		file *results.File
		name string
	}{{base, baseName}, {cur, curName}} {
		if f.file != nil && f.file.Interleaved() {
			return nil, BadInputf("%s is an A/B file (latgate ab): it holds its own base and head; compare it alone, latgate compare %s", f.name, f.name)
		}
	}
	if cur.Incomplete != "" {
		return nil, BadInputf("%s is incomplete (%s): an incomplete run cannot pass a gate; run the suite again", curName, cur.Incomplete)
	}
	if base != nil && base.Incomplete != "" {
		return nil, BadInputf("%s is incomplete (%s): it cannot serve as a baseline; record the baseline again", baseName, base.Incomplete)
	}
	pairs := results.Match(base, cur)
	common := 0
	for _, p := range pairs {
		if p.Base != nil && p.Head != nil {
			common++
			if ds.Of(p.Base).Breakdown.OK == 0 {
				return nil, BadInputf("%s: endpoint %q, scenario %q has no successful request: it cannot serve as a baseline; record the baseline again", baseName, p.Endpoint, p.Scenario)
			}
		}
	}
	if common+commonSearches(base, cur) == 0 && base != nil {
		return nil, &Error{Kind: BadInput, Err: fmt.Errorf("%w: %s has %s, %s has %s (runs match by endpoint and scenario)", ErrNoCommonRun, baseName, runNames(base), curName, runNames(cur))}
	}
	changes, err := capacityChanges(base, cur, baseName, curName, th.Tolerance)
	if err != nil {
		return nil, err
	}
	res := CompareRuns(cur, ds.Pairs(pairs), th)
	rep := report.BuildDigested(pairs, ds, res, th)
	rep.Warnings = append(rep.Warnings, runWarnings(cur, ds)...)
	rep.Plan = append(rep.Plan, RunPlan(cur)...)
	applyCapacity(rep, changes, th)
	rep.Provenance = report.ProvenanceOf(base, cur)
	rep.Provenance.Mode = "gate"
	return rep, nil
}

func runNames(f *results.File) string {
	var n []string
	for _, r := range f.Runs {
		n = append(n, report.EscapeName(r.Scenario)+" @ "+report.EscapeName(r.Endpoint))
	}
	if len(n) > 4 {
		n = append(n[:4], fmt.Sprintf("and %d more", len(n)-4))
	}
	return strings.Join(n, ", ")
}

// Render writes a report and an A/A run's noise (when the format shows
// it) in format f. A report read without its requests cannot be rendered
// in a format that draws every request.
func Render(w io.Writer, rep *report.Report, noise []compare.NoiseCheck, f report.ReportFormat, o report.RenderOptions) error {
	if rep.WithoutRequests && f.EveryRequest {
		return &Error{Kind: CannotRun, Err: fmt.Errorf("the %s report draws every request, but the results files were read without them", f.Name)}
	}
	if err := f.Write(w, rep, o); err != nil {
		return err
	}
	if f.Noise != nil {
		f.Noise(w, noise)
	}
	return nil
}

// CommentMarker is the hidden line that finds the sticky comment again.
func CommentMarker(key string) string {
	return fmt.Sprintf("<!-- latgate:comment key=%q -->", key)
}

// ComparePaths reads results files and compares them as latgate compare
// gives them, for a report in format f: one file is an interleaved A/B run
// (its variants are compared, with the noise of an A/A run) or a single
// run (its budgets: budgetsOnly); two are a
// baseline and a current run; more are a baseline history, oldest first,
// then the current run. history is how many runs regression.history keeps
// (0: unknown); a longer history given is said on warn. Unless the format
// draws every request (EveryRequest), the files are streamed into their
// runs' digests and their requests are not kept.
func ComparePaths(paths []string, f report.ReportFormat, th compare.Config, history int, warn io.Writer) (*report.Report, []compare.NoiseCheck, error) {
	return comparePaths(paths, f, th, history, warn, false)
}

// CompareAsRecorded is ComparePaths for latgate compare given no suite:
// the files are judged by the budgets the current one (the last given)
// records, those of the suite it was measured with (RecordedBudgets), in
// place of th's, and warn says which, or that it records none.
func CompareAsRecorded(paths []string, f report.ReportFormat, th compare.Config, history int, warn io.Writer) (*report.Report, []compare.NoiseCheck, error) {
	return comparePaths(paths, f, th, history, warn, true)
}

func comparePaths(paths []string, f report.ReportFormat, th compare.Config, history int, warn io.Writer, recorded bool) (*report.Report, []compare.NoiseCheck, error) {
	stream := !f.EveryRequest
	files, ds, err := readAll(paths, stream)
	if err != nil {
		return nil, nil, AsBadInput(err)
	}
	if recorded && len(files) > 0 {
		last := len(files) - 1
		th = RecordedBudgets(th, files[last])
		sayRecorded(warn, files[last], paths[last])
	}
	var rep *report.Report
	var noise []compare.NoiseCheck
	switch len(files) {
	case 0:
		return nil, nil, BadInputf("nothing to compare")
	case 1:
		if !files[0].Interleaved() {
			rep, err = budgetsOnly(files[0], ds, paths[0], th)
			break
		}
		rep, noise, err = compareAB(files[0], ds, paths[0], th)
	default:
		if history > 0 && history < len(files)-1 {
			fmt.Fprintf(warn, "latgate: note: %d baselines given, more than regression.history (%d) keeps\n", len(files)-1, history)
		}
		last := len(files) - 1
		rep, err = compareStored(files[:last], paths[:last], files[last], ds, paths[last], th)
	}
	if err != nil {
		return nil, nil, err
	}
	rep.WithoutRequests = stream
	return rep, noise, nil
}

// budgetsOnly is the report of one run (latgate compare RUN.json): every
// check without a baseline, its budgets held or blown, as a gate with
// baseline: none reports it.
func budgetsOnly(f *results.File, ds report.Digests, name string, th compare.Config) (*report.Report, error) {
	rep, err := compareFiles(nil, f, ds, "", name, th)
	if err != nil {
		return nil, err
	}
	rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s is one run with no baseline: only its budgets are checked "+
		"(latgate compare BASELINE CURRENT compares two runs; latgate ab measures both in one job)", report.EscapeName(name)))
	return rep, nil
}

// readAll reads results files and digests their runs; the error is the
// first file's in paths. Streamed, as many files are read at once as there
// are processors; whole, one at a time (each is as large as its text).
func readAll(paths []string, stream bool) ([]*results.File, report.Digests, error) {
	type read struct {
		f   *results.File
		ds  report.Digests
		err error
	}
	out := make([]read, len(paths))
	slots := make(chan struct{}, 1)
	if stream {
		slots = make(chan struct{}, runtime.GOMAXPROCS(0))
	}
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			out[i].f, out[i].ds, out[i].err = readDigested(p, stream)
		})
	}
	wg.Wait()
	files, ds := make([]*results.File, len(paths)), report.Digests{}
	for i, r := range out {
		if r.err != nil {
			return nil, nil, r.err
		}
		files[i] = r.f
		maps.Copy(ds, r.ds)
	}
	return files, ds, nil
}

// readDigested reads a results file and digests its runs; streamed, its
// runs keep no requests (fileio.Stream).
func readDigested(path string, stream bool) (*results.File, report.Digests, error) {
	if !stream {
		f, err := fileio.Read(path)
		if err != nil {
			return nil, nil, err
		}
		return f, digestFiles(f), nil
	}
	f, digesters, err := fileio.Stream(path, func() *report.Digester { return &report.Digester{} })
	if err != nil {
		return nil, nil, err
	}
	if len(f.Capacity) > 0 {
		// A capacity search is decided again from its levels' requests.
		return readDigested(path, false)
	}
	ds := report.Digests{}
	for i := range f.Runs {
		ds[&f.Runs[i]] = digesters[i].Digest(&f.Runs[i])
	}
	return f, ds, nil
}

// MergeFiles combines results files (matrix legs in several regions) into
// out, atomically; it returns the merged file. With shards, the files are
// legs that measured the same suite at once (MergeShards).
func MergeFiles(paths []string, out string, shards bool) (*results.File, error) {
	if err := fileio.CheckOutput(out, fileio.Results, paths...); err != nil {
		return nil, BadInputf("-o: %v", err)
	}
	files, err := fileio.ReadAll(paths) // together within what one file may hold
	if err != nil {
		return nil, AsBadInput(err)
	}
	merge := results.Merge
	if shards {
		merge = mergeShards
	}
	m, err := merge(files, paths)
	if err != nil {
		return nil, AsBadInput(err)
	}
	// Never a file latgate's own read refuses: merged, the files may hold
	// more than a file may (its objects, bytes or cost).
	if err := fileio.WriteReadable(out, m); errors.Is(err, fileio.ErrUnreadable) {
		return nil, BadInputf("-o %v (the files merged hold more than one file may): merge fewer of them", err)
	} else if err != nil {
		return nil, AsCannotRun(err)
	}
	return m, nil
}

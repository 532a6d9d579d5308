package publish

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/latgate/latgate/fileio"
)

// ErrBadArtifact means the baseline artifact is not what latgate records:
// not a zip, no results file, or a results file without its created_at.
var ErrBadArtifact = errors.New("unreadable baseline artifact")

// DefaultHistory is how many results files a baseline artifact keeps.
const DefaultHistory = 10

// HistoryFile is one results file of a baseline artifact.
type HistoryFile struct {
	Name      string    // file name inside the artifact
	CreatedAt time.Time // the results file's created_at
	Data      []byte
}

// History is the results files of a baseline artifact, oldest first, and
// its trend file.
type History struct {
	RunURL string // the run that uploaded the artifact
	Files  []HistoryFile
	// Trend is the artifact's trend file (fileio.TrendName) as stored, nil
	// when it has none (an artifact recorded before trends were kept);
	// TrendErr says why it could not be read.
	Trend    []byte
	TrendErr error
}

// NewHistoryFile reads the created_at of a results file (all that
// ordering needs; validating the file is package baseline's work).
func NewHistoryFile(name string, data []byte) (HistoryFile, error) {
	var head struct {
		CreatedAt time.Time `json:"created_at"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return HistoryFile{}, fmt.Errorf("%w: %s is not a results file: %v", ErrBadArtifact, name, err)
	}
	if head.CreatedAt.IsZero() {
		return HistoryFile{}, fmt.Errorf("%w: %s has no created_at: not a latgate results file", ErrBadArtifact, name)
	}
	return HistoryFile{Name: name, CreatedAt: head.CreatedAt, Data: data}, nil
}

// HistoryName is the file name a results file created at t gets in the
// baseline artifact, e.g. results-20261130T041049.123Z.json.
func HistoryName(t time.Time) string {
	return "results-" + t.UTC().Format("20060102T150405.000Z") + ".json"
}

// sortHistory orders files oldest first: by created_at, then by name.
func sortHistory(files []HistoryFile) {
	slices.SortStableFunc(files, func(a, b HistoryFile) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.Name, b.Name))
	})
}

// NextHistory is the content of the next baseline artifact: the previous
// files and the new run, without an earlier file of the same name, the
// last n (DefaultHistory when n <= 0), oldest first.
func NextHistory(prev []HistoryFile, cur HistoryFile, n int) []HistoryFile {
	if n <= 0 {
		n = DefaultHistory
	}
	out := make([]HistoryFile, 0, len(prev)+1)
	for _, f := range prev {
		if f.Name != cur.Name {
			out = append(out, f)
		}
	}
	out = append(out, cur)
	sortHistory(out)
	return out[max(0, len(out)-n):]
}

// historyName matches the names HistoryName gives: results-<created_at>.json.
var historyName = regexp.MustCompile(`^results-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z\.json$`)

// ownedHistoryFile reads a file of a baseline history folder and reports
// whether latgate wrote it there: its name is HistoryName of the created_at
// of the latgate results file it holds. Nothing else in the folder is
// latgate's to read or remove.
func ownedHistoryFile(dir, name string) (HistoryFile, bool) {
	if !historyName.MatchString(name) {
		return HistoryFile{}, false
	}
	p := filepath.Join(dir, name)
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Size() > MaxArtifactBytes {
		return HistoryFile{}, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return HistoryFile{}, false
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if json.Unmarshal(data, &head) != nil || !strings.HasPrefix(head.Schema, "latgate/results/") {
		return HistoryFile{}, false
	}
	hf, err := NewHistoryFile(name, data)
	if err != nil || HistoryName(hf.CreatedAt) != name {
		return HistoryFile{}, false
	}
	return hf, true
}

// ReadHistoryDir returns the history files that latgate wrote into dir
// (see WriteHistory), oldest first; a missing dir holds none. Every other
// file in dir is ignored.
func ReadHistoryDir(dir string) ([]HistoryFile, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the baseline history: %w", err)
	}
	var out []HistoryFile
	for _, e := range entries {
		if hf, ok := ownedHistoryFile(dir, e.Name()); ok {
			out = append(out, hf)
		}
	}
	sortHistory(out)
	return out, nil
}

// WriteHistory writes files (latgate results files) into dir, created if
// missing, each atomically under HistoryName of its created_at, and removes
// the history files an earlier WriteHistory wrote there that files no
// longer holds: dir then holds the next baseline artifact. It never
// touches anything else in dir, nor the files of protect (the results file
// the run just wrote). It returns the names of the files it removed.
func WriteHistory(dir string, files []HistoryFile, protect ...string) ([]string, error) {
	keep := map[string]bool{}
	var named []HistoryFile
	for _, f := range files {
		hf, err := NewHistoryFile(f.Name, f.Data)
		if err != nil {
			return nil, fmt.Errorf("writing the baseline history: %w", err)
		}
		// Two files created in the same millisecond are one run (an old
		// artifact's latgate-results.json and its copy): the later wins.
		hf.Name = HistoryName(hf.CreatedAt)
		named = slices.DeleteFunc(named, func(o HistoryFile) bool { return o.Name == hf.Name })
		keep[hf.Name] = true
		named = append(named, hf)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing the baseline history: %w", err)
	}
	var protected []os.FileInfo
	for _, p := range protect {
		if st, err := os.Stat(p); err == nil {
			protected = append(protected, st)
		}
	}
	for _, f := range named {
		if _, err := os.Lstat(filepath.Join(dir, f.Name)); err == nil {
			if _, ok := ownedHistoryFile(dir, f.Name); !ok {
				return nil, fmt.Errorf("writing the baseline history: %s exists and is not a latgate history file: not overwritten", filepath.Join(dir, f.Name))
			}
		}
	}
	for _, f := range named {
		if err := fileio.WriteAtomic(filepath.Join(dir, f.Name), f.Data); err != nil {
			return nil, err
		}
	}
	old, err := ReadHistoryDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, f := range old {
		p := filepath.Join(dir, f.Name)
		if keep[f.Name] || slices.ContainsFunc(protected, func(fi os.FileInfo) bool {
			st, err := os.Stat(p)
			return err == nil && os.SameFile(st, fi)
		}) {
			continue
		}
		if err := os.Remove(p); err != nil {
			return removed, fmt.Errorf("writing the baseline history: %w", err)
		}
		removed = append(removed, f.Name)
	}
	return removed, nil
}

// ReadHistoryZip returns every results file (.json) of an artifact zip,
// oldest first by created_at, then name. It reads at most
// MaxArtifactBytes in all.
func ReadHistoryZip(zb []byte) ([]HistoryFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a zip file: %v", ErrBadArtifact, err)
	}
	var out []HistoryFile
	budget := int64(MaxArtifactBytes)
	for _, f := range zr.File {
		if path.Ext(f.Name) != ".json" || f.FileInfo().IsDir() {
			continue
		}
		b, err := readZipFile(f, budget)
		if err != nil {
			return nil, err
		}
		budget -= int64(len(b))
		hf, err := NewHistoryFile(f.Name, b)
		if err != nil {
			return nil, err
		}
		out = append(out, hf)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: it holds no .json results file", ErrBadArtifact)
	}
	sortHistory(out)
	return out, nil
}

// ReadTrendZip returns the trend file (fileio.TrendName) of an artifact
// zip as stored, at most fileio.MaxTrendSize bytes; nil when there is
// none.
func ReadTrendZip(zb []byte) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(zb), int64(len(zb)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a zip file: %v", ErrBadArtifact, err)
	}
	for _, f := range zr.File {
		if path.Base(f.Name) != fileio.TrendName || f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%w: reading %s: %v", ErrBadArtifact, f.Name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, fileio.MaxTrendSize+1))
		if err != nil {
			return nil, fmt.Errorf("%w: reading %s: %v", ErrBadArtifact, f.Name, err)
		}
		if len(b) > fileio.MaxTrendSize {
			return nil, fmt.Errorf("%w: %s is larger than %d MiB: not a trend file latgate wrote", ErrBadArtifact, f.Name, fileio.MaxTrendSize>>20)
		}
		return b, nil
	}
	return nil, nil
}

func readZipFile(f *zip.File, budget int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s: %v", ErrBadArtifact, f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, budget+1))
	if err != nil {
		return nil, fmt.Errorf("%w: reading %s: %v", ErrBadArtifact, f.Name, err)
	}
	if int64(len(b)) > budget {
		return nil, fmt.Errorf("the artifact's results are larger than %d MiB", MaxArtifactBytes>>20)
	}
	return b, nil
}

// FetchHistory downloads the newest artifact named q.Name from a
// successful push or scheduled run of this repository on q.Branch and
// returns every results file in it, oldest first (by created_at, then
// name), with the run's URL and main's trend when the artifact holds one.
//
// Only the repository's own runs of its branch may provide a baseline: a
// push, or the schedule (the nightly record that lets the trend see the
// provider's drift), both running the branch's own workflow. A pull
// request's run (a fork's branch may be named main too, and a pull request
// can change the workflow to upload any artifact) never does. The API is
// asked for each of those events, and each run it returns is checked again.
func (g *GitHub) FetchHistory(ctx context.Context, q ArtifactQuery) (History, error) {
	if q.Branch == "" {
		return History{}, errors.New("fetching the baseline artifact: no branch to look on")
	}
	runs, ignored, err := g.baselineRuns(ctx, q)
	if err != nil {
		return History{}, err
	}
	for _, run := range runs {
		arts, resp, err := g.gh.Actions.ListWorkflowRunArtifacts(ctx, g.owner, g.repo, run.GetID(), &github.ListOptions{PerPage: 100})
		if err != nil {
			return History{}, needsActionsRead(classify(err, resp, "listing artifacts"))
		}
		for _, a := range arts.Artifacts {
			if a.GetName() != q.Name || a.GetExpired() {
				continue
			}
			zb, err := g.download(ctx, a.GetID())
			if err != nil {
				return History{}, needsActionsRead(err)
			}
			files, err := ReadHistoryZip(zb)
			if err != nil {
				return History{}, fmt.Errorf("artifact %q of %s: %w", q.Name, run.GetHTMLURL(), err)
			}
			trend, terr := ReadTrendZip(zb)
			return History{RunURL: run.GetHTMLURL(), Files: files, Trend: trend, TrendErr: terr}, nil
		}
	}
	note := ""
	if ignored > 0 {
		note = fmt.Sprintf("; %d run(s) not pushed to %s/%s were ignored", ignored, g.owner, g.repo)
	}
	return History{}, fmt.Errorf("%w: no successful push or scheduled run on %q has an artifact named %q (record one with mode: record on pushes to %s)%s",
		ErrNoArtifact, q.Branch, q.Name, q.Branch, note)
}

// baselineEvents are the events of the runs that may record a baseline.
var baselineEvents = []string{"push", "schedule"}

// baselineRuns lists the successful push and scheduled runs on q.Branch,
// newest first, that this repository's own branch made, and counts the
// runs the API returned that are not such runs.
func (g *GitHub) baselineRuns(ctx context.Context, q ArtifactQuery) ([]*github.WorkflowRun, int, error) {
	var list []*github.WorkflowRun
	ignored := 0
	for _, event := range baselineEvents {
		runs, n, err := g.eventRuns(ctx, q, event)
		if err != nil {
			return nil, 0, err
		}
		list, ignored = append(list, runs...), ignored+n
	}
	slices.SortStableFunc(list, func(a, b *github.WorkflowRun) int { return b.GetCreatedAt().Compare(a.GetCreatedAt().Time) })
	return list, ignored, nil
}

// eventRuns lists the successful runs of one event on q.Branch that this
// repository's own branch made, and counts the others the API returned.
func (g *GitHub) eventRuns(ctx context.Context, q ArtifactQuery, event string) ([]*github.WorkflowRun, int, error) {
	if q.MaxRuns <= 0 {
		q.MaxRuns = 20
	}
	opts := &github.ListWorkflowRunsOptions{Branch: q.Branch, Event: event, Status: "success", ListOptions: github.ListOptions{PerPage: q.MaxRuns}}
	var runs *github.WorkflowRuns
	var resp *github.Response
	var err error
	if q.WorkflowFile != "" {
		runs, resp, err = g.gh.Actions.ListWorkflowRunsByFileName(ctx, g.owner, g.repo, q.WorkflowFile, opts)
	} else {
		runs, resp, err = g.gh.Actions.ListRepositoryWorkflowRuns(ctx, g.owner, g.repo, opts)
	}
	if err != nil {
		what := "listing workflow runs"
		if q.WorkflowFile != "" {
			what = "listing the runs of workflow " + q.WorkflowFile
		}
		if resp != nil && resp.StatusCode == http.StatusNotFound && q.WorkflowFile != "" {
			return nil, 0, fmt.Errorf("%s: HTTP 404: %s/%s has no workflow file %s (baseline-workflow names the workflow that records the baseline, e.g. latgate.yml)",
				what, g.owner, g.repo, q.WorkflowFile)
		}
		return nil, 0, needsActionsRead(classify(err, resp, what))
	}
	own := g.owner + "/" + g.repo
	var list []*github.WorkflowRun
	ignored := 0
	for _, run := range runs.WorkflowRuns {
		if run.GetEvent() != event || run.GetHeadBranch() != q.Branch || run.GetConclusion() != "success" ||
			!strings.EqualFold(run.GetHeadRepository().GetFullName(), own) || !strings.EqualFold(run.GetRepository().GetFullName(), own) {
			ignored++
			continue
		}
		list = append(list, run)
	}
	return list, ignored, nil
}

// needsActionsRead adds to a 403 of the Actions API what the token lacks.
func needsActionsRead(err error) error {
	if errors.Is(err, ErrForbidden) {
		return fmt.Errorf("%w: the token needs the actions: read permission to find and download the baseline artifact "+
			"(permissions: actions: read in the workflow or job)", err)
	}
	return err
}

// download returns the artifact's zip. The storage URL it redirects to is
// pre-signed: no token is sent to it.
func (g *GitHub) download(ctx context.Context, id int64) ([]byte, error) {
	u, resp, err := g.gh.Actions.DownloadArtifact(ctx, g.owner, g.repo, id, 0)
	if err != nil {
		return nil, classify(err, resp, "downloading the artifact")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	r, err := g.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %v", err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading the artifact: HTTP %d", r.StatusCode)
	}
	zb, err := io.ReadAll(io.LimitReader(r.Body, MaxArtifactBytes+1))
	if err != nil {
		return nil, fmt.Errorf("downloading the artifact: %v", err)
	}
	if len(zb) > MaxArtifactBytes {
		return nil, fmt.Errorf("the artifact is larger than %d MiB", MaxArtifactBytes>>20)
	}
	return zb, nil
}

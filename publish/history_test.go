package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/ghfake"
)

func results(created string) string {
	return fmt.Sprintf(`{"schema":"latgate/results/v1","created_at":%q,"runs":[]}`, created)
}

func names(files []HistoryFile) []string {
	var n []string
	for _, f := range files {
		n = append(n, f.Name)
	}
	return n
}

func TestFetchHistory(t *testing.T) {
	t.Parallel()
	f := ghfake.New(t, "o/r")
	f.Token = "ghs_token"
	hist := ghfake.Zip(
		ghfake.File{Name: "results-b.json", Body: results("2026-11-03T00:00:00Z")},
		ghfake.File{Name: "latgate-results.json", Body: results("2026-11-01T00:00:00Z")},
		ghfake.File{Name: "latgate-report.md", Body: "# not results"},
		ghfake.File{Name: "history/a.json", Body: results("2026-11-02T00:00:00Z")},
	)
	f.AddRun(ghfake.Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
		{ID: 3, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "old.json", Body: results("2026-10-01T00:00:00Z")})}}})
	f.AddRun(ghfake.Run{ID: 11, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
		{ID: 4, Name: "other", Zip: ghfake.Zip()}, {ID: 5, Name: "latgate-baseline", Zip: hist}}})
	f.AddRun(ghfake.Run{ID: 12, Workflow: "latgate.yml", Branch: "feature"})
	f.AddRun(ghfake.Run{ID: 13, Workflow: "other.yml", Branch: "main"})
	g := client(t, f)
	q := ArtifactQuery{Name: "latgate-baseline", Branch: "main", WorkflowFile: "latgate.yml"}

	f.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
	h, err := g.FetchHistory(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"latgate-results.json", "history/a.json", "results-b.json"}; !slices.Equal(names(h.Files), want) {
		t.Errorf("files %v, want %v (oldest first by created_at)", names(h.Files), want)
	}
	if newest := h.Files[len(h.Files)-1]; h.RunURL != f.RunURL(11) || string(newest.Data) != results("2026-11-03T00:00:00Z") {
		t.Errorf("from %s, newest %s", h.RunURL, newest.Data)
	}
	calls := f.Take()
	equal(t, calls[:4], []string{
		"GET /repos/o/r/actions/workflows/latgate.yml/runs?branch=main&event=push&per_page=20&status=success",
		"GET /repos/o/r/actions/workflows/latgate.yml/runs?branch=main&event=schedule&per_page=20&status=success",
		"GET /repos/o/r/actions/runs/11/artifacts?per_page=100",
		"GET /repos/o/r/actions/artifacts/5/zip",
	})
	if len(calls) != 5 || !strings.HasPrefix(calls[4], "GET /storage/5?sig=") {
		t.Errorf("last call %v, want the storage download", calls[4:])
	}
	f.Verify()

	f.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts)
	q.Name = "nope"
	if _, err := g.FetchHistory(context.Background(), q); !errors.Is(err, ErrNoArtifact) {
		t.Errorf("missing artifact: %v, want ErrNoArtifact", err)
	}
}

// TestFetchHistoryOnlyOwnPushRuns: a fork's pull request whose branch is
// named main, a pull_request run of the repository and a run that says
// push but whose head lives elsewhere never provide the baseline, however
// new; only the repository's own push runs on the branch do.
func TestFetchHistoryOnlyOwnPushRuns(t *testing.T) {
	f := ghfake.New(t, "o/r")
	planted := ghfake.Zip(ghfake.File{Name: "latgate-results.json", Body: results("2026-12-01T00:00:00Z")})
	f.AddRun(ghfake.Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
		{ID: 1, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "results-a.json", Body: results("2026-11-01T00:00:00Z")})}}})
	f.AddRun(ghfake.Run{ID: 20, Workflow: "latgate.yml", Branch: "main", Event: "pull_request", HeadRepo: f.ForkOf("mallory"),
		Artifacts: []ghfake.Artifact{{ID: 2, Name: "latgate-baseline", Zip: planted}}})
	f.AddRun(ghfake.Run{ID: 21, Workflow: "latgate.yml", Branch: "main", Event: "pull_request",
		Artifacts: []ghfake.Artifact{{ID: 3, Name: "latgate-baseline", Zip: planted}}})
	f.AddRun(ghfake.Run{ID: 22, Workflow: "latgate.yml", Branch: "main", Event: "push", HeadRepo: f.ForkOf("mallory"),
		Artifacts: []ghfake.Artifact{{ID: 4, Name: "latgate-baseline", Zip: planted}}})
	f.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
	h, err := client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "latgate-baseline", Branch: "main", WorkflowFile: "latgate.yml"})
	if err != nil || h.RunURL != f.RunURL(10) || !slices.Equal(names(h.Files), []string{"results-a.json"}) {
		t.Fatalf("got %v from %s, %v; want results-a.json of the push run 10", names(h.Files), h.RunURL, err)
	}
	calls := f.Take()
	equal(t, calls[:3], []string{
		"GET /repos/o/r/actions/workflows/latgate.yml/runs?branch=main&event=push&per_page=20&status=success",
		"GET /repos/o/r/actions/workflows/latgate.yml/runs?branch=main&event=schedule&per_page=20&status=success",
		"GET /repos/o/r/actions/runs/10/artifacts?per_page=100",
	})
	f.Verify()

	// The nightly record (a scheduled run of the repository's own
	// branch) is a baseline too, and the newest wins.
	f.AddRun(ghfake.Run{ID: 30, Workflow: "latgate.yml", Branch: "main", Event: "schedule", Artifacts: []ghfake.Artifact{
		{ID: 6, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "results-n.json", Body: results("2026-11-02T00:00:00Z")})}}})
	f.AddRun(ghfake.Run{ID: 31, Workflow: "latgate.yml", Branch: "main", Event: "schedule", HeadRepo: f.ForkOf("mallory"),
		Artifacts: []ghfake.Artifact{{ID: 7, Name: "latgate-baseline", Zip: planted}}})
	f.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
	h, err = client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "latgate-baseline", Branch: "main", WorkflowFile: "latgate.yml"})
	if err != nil || h.RunURL != f.RunURL(30) || !slices.Equal(names(h.Files), []string{"results-n.json"}) {
		t.Fatalf("got %v from %s, %v; want results-n.json of the scheduled run 30", names(h.Files), h.RunURL, err)
	}
	f.Verify()

	// With only foreign runs there is no baseline, and the error says
	// what was ignored.
	g := ghfake.New(t, "o/r")
	g.AddRun(ghfake.Run{ID: 22, Workflow: "latgate.yml", Branch: "main", HeadRepo: g.ForkOf("mallory"),
		Artifacts: []ghfake.Artifact{{ID: 4, Name: "latgate-baseline", Zip: planted}}})
	g.Expect(ghfake.ListWorkflowRuns)
	_, err = client(t, g).FetchHistory(context.Background(), ArtifactQuery{Name: "latgate-baseline", Branch: "main", WorkflowFile: "latgate.yml"})
	if !errors.Is(err, ErrNoArtifact) || !strings.Contains(err.Error(), "1 run(s) not pushed to o/r were ignored") {
		t.Errorf("err = %v, want ErrNoArtifact naming the ignored run", err)
	}
}

func TestFetchHistorySkipsExpired(t *testing.T) {
	t.Parallel()
	f := ghfake.New(t, "o/r")
	f.AddRun(ghfake.Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
		{ID: 3, Name: "b", Zip: ghfake.Zip(ghfake.File{Name: "old.json", Body: results("2026-10-01T00:00:00Z")})}}})
	f.AddRun(ghfake.Run{ID: 11, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{{ID: 5, Name: "b", Expired: true}}})
	f.Expect(ghfake.ListRepoRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
	h, err := client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "b", Branch: "main"})
	if err != nil || h.RunURL != f.RunURL(10) || !slices.Equal(names(h.Files), []string{"old.json"}) {
		t.Errorf("got %v from %s, %v; want old.json of run 10", names(h.Files), h.RunURL, err)
	}
}

func TestReadHistoryZipErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		zip  []byte
		want string
	}{
		{"not a zip", []byte("PK?"), "not a zip file"},
		{"no results", ghfake.Zip(ghfake.File{Name: "r.md", Body: "x"}), "holds no .json results file"},
		{"not JSON", ghfake.Zip(ghfake.File{Name: "r.json", Body: "{"}), "r.json is not a results file"},
		{"no created_at", ghfake.Zip(ghfake.File{Name: "r.json", Body: `{"schema":"latgate/results/v1"}`}), "r.json has no created_at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadHistoryZip(tt.zip)
			if !errors.Is(err, ErrBadArtifact) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want ErrBadArtifact saying %q", err, tt.want)
			}
		})
	}
	// Equal created_at: ordered by name.
	files, err := ReadHistoryZip(ghfake.Zip(
		ghfake.File{Name: "b.json", Body: results("2026-11-01T00:00:00Z")},
		ghfake.File{Name: "a.json", Body: results("2026-11-01T00:00:00Z")}))
	if err != nil || !slices.Equal(names(files), []string{"a.json", "b.json"}) {
		t.Errorf("ties: %v, %v", names(files), err)
	}
}

func day(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }

func hfile(d int) HistoryFile {
	return HistoryFile{Name: HistoryName(day(d)), CreatedAt: day(d), Data: []byte(results(day(d).Format(time.RFC3339)))}
}

func TestNextHistory(t *testing.T) {
	t.Parallel()
	var ten []HistoryFile
	for d := 1; d <= 10; d++ {
		ten = append(ten, hfile(d))
	}
	tests := []struct {
		name string
		prev []HistoryFile
		cur  HistoryFile
		n    int
		want []string
	}{
		{"first run", nil, hfile(20), 10, []string{HistoryName(day(20))}},
		{"full: the oldest goes", ten, hfile(20), 10, append(names(ten[1:]), HistoryName(day(20)))},
		{"default n", ten, hfile(20), 0, append(names(ten[1:]), HistoryName(day(20)))},
		{"n = 3", ten, hfile(20), 3, []string{HistoryName(day(9)), HistoryName(day(10)), HistoryName(day(20))}},
		{"out of order", []HistoryFile{hfile(5), hfile(2)}, hfile(3), 10,
			[]string{HistoryName(day(2)), HistoryName(day(3)), HistoryName(day(5))}},
		{"same name replaced", []HistoryFile{hfile(2), hfile(3)}, HistoryFile{Name: hfile(3).Name, CreatedAt: day(3), Data: []byte("new")}, 10,
			[]string{HistoryName(day(2)), HistoryName(day(3))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NextHistory(tt.prev, tt.cur, tt.n)
			if !slices.Equal(names(got), tt.want) {
				t.Errorf("got %v\nwant %v", names(got), tt.want)
			}
			if last := got[len(got)-1]; tt.cur.CreatedAt.After(day(10)) && string(last.Data) != string(tt.cur.Data) {
				t.Errorf("the newest is %s, want the new run", last.Name)
			}
		})
	}
	got := NextHistory([]HistoryFile{hfile(2), hfile(3)}, HistoryFile{Name: hfile(3).Name, CreatedAt: day(3), Data: []byte("new")}, 10)
	if string(got[1].Data) != "new" {
		t.Errorf("a file of the same name was not replaced by the new run")
	}
}

func TestHistoryName(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 30, 5, 10, 49, 123456789, time.FixedZone("x", 3600))
	if got, want := HistoryName(at), "results-20261130T041049.123Z.json"; got != want {
		t.Errorf("HistoryName = %q, want %q", got, want)
	}
	hf, err := NewHistoryFile("x.json", []byte(results("2026-11-30T04:10:49.5Z")))
	if err != nil || !hf.CreatedAt.Equal(time.Date(2026, 11, 30, 4, 10, 49, 5e8, time.UTC)) {
		t.Errorf("NewHistoryFile: %v, %v", hf.CreatedAt, err)
	}
}

func TestWriteHistory(t *testing.T) {
	t.Parallel()
	at := func(d int) string { return day(d).Format(time.RFC3339) }
	// What else a folder such as "." holds: none of it is latgate's.
	foreign := map[string]string{
		"package.json":                      `{"name": "app"}`,
		"tsconfig.json":                     `{}`,
		"notes.txt":                         "kept",
		"latgate-results.json":              results(at(9)),                          // the run's results file
		"results-20260101T000000.000Z.json": `{"created_at":"2026-01-01T00:00:00Z"}`, // the name, not a latgate file
		HistoryName(day(4)):                 results(at(5)),                          // created at another time
	}
	tests := []struct {
		name        string
		before      []HistoryFile // an earlier WriteHistory's
		next        []HistoryFile
		protect     string // a file in the folder that must stay
		wantRemoved []string
		wantHistory []string
	}{
		{"first write", nil, []HistoryFile{hfile(1)}, "", nil, []string{HistoryName(day(1))}},
		{"runs that left the history go", []HistoryFile{hfile(1), hfile(2)}, []HistoryFile{hfile(2), hfile(3)}, "",
			[]string{HistoryName(day(1))}, []string{HistoryName(day(2)), HistoryName(day(3))}},
		{"the current results file stays", []HistoryFile{hfile(1)}, []HistoryFile{hfile(2)}, HistoryName(day(1)),
			nil, []string{HistoryName(day(1)), HistoryName(day(2))}},
		{"other names are written by created_at", nil, []HistoryFile{{Name: "history/legacy.json", Data: []byte(results(at(6)))}}, "",
			nil, []string{HistoryName(day(6))}},
		{"one run under two names is written once", nil, []HistoryFile{{Name: "latgate-results.json", Data: []byte(results(at(7)))}, hfile(7)}, "",
			nil, []string{HistoryName(day(7))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range foreign {
				write(t, filepath.Join(dir, name), body)
			}
			if _, err := WriteHistory(dir, tt.before); err != nil {
				t.Fatal(err)
			}
			var protect []string
			if tt.protect != "" {
				protect = append(protect, filepath.Join(dir, tt.protect))
			}
			removed, err := WriteHistory(dir, tt.next, protect...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(removed, tt.wantRemoved) {
				t.Errorf("removed %v, want %v", removed, tt.wantRemoved)
			}
			for name, body := range foreign {
				if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != body {
					t.Errorf("%s: got %q, %v; want it untouched", name, b, err)
				}
			}
			h, err := ReadHistoryDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(h), tt.wantHistory) {
				t.Errorf("history %v, want %v", names(h), tt.wantHistory)
			}
		})
	}
}

func TestWriteHistoryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files []HistoryFile
		want  string
	}{
		{"not a results file", []HistoryFile{hfile(4), {Name: "x.json", Data: []byte("{")}}, "x.json is not a results file"},
		{"no created_at", []HistoryFile{hfile(4), {Name: "x.json", Data: []byte("{}")}}, "x.json has no created_at"},
		{"a foreign file of the same name", []HistoryFile{hfile(4), hfile(1)}, "is not a latgate history file: not overwritten"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, HistoryName(day(1))), "{}")
			if _, err := WriteHistory(dir, tt.files); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one saying %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, HistoryName(day(4)))); err == nil {
				t.Error("WriteHistory failed but wrote files")
			}
			if b, _ := os.ReadFile(filepath.Join(dir, HistoryName(day(1)))); string(b) != "{}" {
				t.Errorf("the foreign file now holds %q", b)
			}
		})
	}
}

func TestReadHistoryDir(t *testing.T) {
	t.Parallel()
	h, err := ReadHistoryDir(filepath.Join(t.TempDir(), "missing"))
	if err != nil || len(h) != 0 {
		t.Errorf("a missing folder: got %v, %v; want no files and no error", names(h), err)
	}
	dir := t.TempDir()
	if _, err := WriteHistory(dir, []HistoryFile{hfile(3), hfile(2)}); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "package.json"), results(day(1).Format(time.RFC3339)))
	h, err = ReadHistoryDir(dir)
	if want := []string{HistoryName(day(2)), HistoryName(day(3))}; err != nil || !slices.Equal(names(h), want) {
		t.Errorf("got %v, %v; want %v", names(h), err, want)
	}
}

func TestFetchHistoryCarriesTheTrend(t *testing.T) {
	f := ghfake.New(t, "o/r")
	f.AddRun(ghfake.Run{ID: 10, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{{ID: 3, Name: "b", Zip: ghfake.Zip(
		ghfake.File{Name: "results-a.json", Body: results("2026-10-01T00:00:00Z")},
		ghfake.File{Name: fileio.TrendName, Body: "\x1f\x8bstored as is"})}}})
	f.Expect(ghfake.ListRepoRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage)
	h, err := client(t, f).FetchHistory(context.Background(), ArtifactQuery{Name: "b", Branch: "main"})
	if err != nil || string(h.Trend) != "\x1f\x8bstored as is" || h.TrendErr != nil || !slices.Equal(names(h.Files), []string{"results-a.json"}) {
		t.Errorf("trend %q (%v), files %v, %v", h.Trend, h.TrendErr, names(h.Files), err)
	}
	// An artifact recorded before trends were kept has none.
	if b, err := ReadTrendZip(ghfake.Zip(ghfake.File{Name: "results-a.json", Body: results("2026-10-01T00:00:00Z")})); b != nil || err != nil {
		t.Errorf("no trend file: %q, %v", b, err)
	}
	if _, err := ReadTrendZip([]byte("PK?")); !errors.Is(err, ErrBadArtifact) {
		t.Errorf("not a zip: %v", err)
	}
}

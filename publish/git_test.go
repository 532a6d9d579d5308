package publish

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/gittest"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shallowClone makes an "origin" with three commits and a depth-1 clone of
// it over file://, as actions/checkout leaves a pull request's workspace.
// It returns the clone and the commits, oldest first.
func shallowClone(t *testing.T) (string, []string) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	origin := filepath.Join(root, "origin")
	gittest.Run(t, root, "init", "-q", "-b", "main", origin)
	var commits []string
	commit := func(files map[string]string) {
		for name, content := range files {
			write(t, filepath.Join(origin, name), content)
		}
		gittest.Run(t, origin, "add", "-A")
		gittest.Run(t, origin, "commit", "-q", "-m", "c")
		commits = append(commits, gittest.Run(t, origin, "rev-parse", "HEAD"))
	}
	commit(map[string]string{"latgate.yaml": "version: base\n", "suites/a.yaml": "a: base\n"})
	commit(map[string]string{"latgate.yaml": "version: middle\n", "new.yaml": "new\n"})
	commit(map[string]string{"latgate.yaml": "version: head\n"})
	clone := filepath.Join(root, "clone")
	gittest.Run(t, root, "clone", "-q", "--depth=1", "file://"+filepath.ToSlash(origin), clone)
	return clone, commits
}

func TestFileAtShallowClone(t *testing.T) {
	t.Parallel()
	clone, commits := shallowClone(t)
	base := commits[0]
	ctx := context.Background()
	if err := exec.Command("git", "-C", clone, "cat-file", "-e", base+"^{commit}").Run(); err == nil {
		t.Fatal("the base commit is already in the shallow clone: the test would prove nothing")
	}
	g := Git{Dir: clone, FetchTimeout: time.Minute}
	got, err := g.FileAt(ctx, base, "latgate.yaml")
	if err != nil || string(got) != "version: base\n" {
		t.Fatalf("FileAt(base) = %q, %v; want the base version", got, err)
	}
	if got, err := (Git{Dir: clone}).FileAt(ctx, commits[2], "latgate.yaml"); err != nil || string(got) != "version: head\n" {
		t.Errorf("FileAt(head) = %q, %v", got, err)
	}
	// A folder of the working tree; relative and absolute paths.
	sub := Git{Dir: filepath.Join(clone, "suites")}
	for _, file := range []string{"a.yaml", filepath.Join(clone, "suites", "a.yaml")} {
		if got, err := sub.FileAt(ctx, base, file); err != nil || string(got) != "a: base\n" {
			t.Errorf("FileAt(%s) from suites/ = %q, %v", file, got, err)
		}
	}
	// Fetched once, the base commit is there by any name.
	if got, err := g.FileAt(ctx, base[:12], "latgate.yaml"); err != nil || string(got) != "version: base\n" {
		t.Errorf("FileAt(abbreviated base) = %q, %v", got, err)
	}
}

func TestFileAtErrors(t *testing.T) {
	clone, commits := shallowClone(t)
	base := commits[0]
	for _, k := range []string{"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"} {
		t.Setenv(k, "") // git must reach the hanging remote itself
	}
	// An HTTP "remote" that accepts connections and never answers. Real
	// clock: the fetch's timeout of 300 ms must end the fetch, and load
	// only delays that (the subtest took 1.3 s at load average 28 on 2
	// cores; 8 of 8 runs, 3 with -race, 2026-12-04).
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hang.Close() })
	gittest.Run(t, clone, "remote", "add", "hang", "http://"+hang.Addr().String()+"/r.git")

	tests := []struct {
		name   string
		g      Git
		commit string
		file   string
		is     error
		want   string
	}{
		{"new in the pull request", Git{Dir: clone}, base, "new.yaml", ErrFileAbsent, "new.yaml does not exist at commit " + base[:12]},
		{"no such commit", Git{Dir: clone}, strings.Repeat("de", 20), "latgate.yaml", ErrCommitNotFetchable, "fetching it from origin failed"},
		{"remote that never answers", Git{Dir: clone, Remote: "hang", FetchTimeout: 300 * time.Millisecond}, strings.Repeat("de", 20), "latgate.yaml",
			ErrCommitNotFetchable, "no answer within 300ms"},
		{"abbreviated and missing", Git{Dir: clone}, commits[1][:12], "new.yaml", ErrCommitNotFetchable, "an abbreviated id cannot be fetched"},
		{"no git", Git{Dir: clone, Bin: filepath.Join(t.TempDir(), "git")}, base, "latgate.yaml", ErrNoGit, "git is not installed"},
		{"not a commit id", Git{Dir: clone}, "--upload-pack=touch /tmp/x", "latgate.yaml", nil, "is not a commit id"},
		{"a folder", Git{Dir: clone}, base, "suites", nil, "suites at commit " + base[:12] + " is a tree, not a file"},
		{"not a repository", Git{Dir: t.TempDir()}, base, "latgate.yaml", nil, "is not inside a git repository"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.g.FileAt(context.Background(), tt.commit, tt.file)
			if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Errorf("FileAt = %q, %v; want an error (%v) saying %q", got, err, tt.is, tt.want)
			}
		})
	}
}

// TestHead: the commit and branch a run records as its provenance, through
// the one git runner; a detached checkout has no branch; no repository,
// nothing.
func TestHead(t *testing.T) {
	gittest.Need(t)
	clone, commits := shallowClone(t)
	ctx := context.Background()
	if sha, ref := (Git{Dir: clone}).Head(ctx); sha != commits[2] || ref != "refs/heads/main" {
		t.Errorf("Head = %q, %q; want %s on refs/heads/main", sha, ref, commits[2])
	}
	gittest.Run(t, clone, "checkout", "-q", "--detach")
	if sha, ref := (Git{Dir: clone}).Head(ctx); sha != commits[2] || ref != "" {
		t.Errorf("detached: Head = %q, %q; want the commit and no branch", sha, ref)
	}
	if sha, ref := (Git{Dir: t.TempDir()}).Head(ctx); sha != "" || ref != "" {
		t.Errorf("no repository: Head = %q, %q; want nothing", sha, ref)
	}
}

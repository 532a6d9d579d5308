package fileio

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestReadInside: a suite's files are read only from its repository; a
// path out of it, or a link that leads out of it, is refused.
func TestReadInside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "environ")
	if err := os.WriteFile(secret, []byte("GITHUB_TOKEN=ghs_x"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "suites")
	if err := os.MkdirAll(filepath.Join(sub, "prompts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "prompts", "system.md"), []byte("be brief"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "shared.md"), []byte("shared"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(sub, "prompts", "link.md")); err != nil {
		t.Fatal(err)
	}
	// What actions/checkout leaves in .git/config (persist-credentials).
	gitConfig := filepath.Join(repo, ".git", "config")
	if err := os.WriteFile(gitConfig, []byte("[http]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3M=\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(gitConfig, filepath.Join(sub, "prompts", "config.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(sub, ".svn"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".svn", "entries"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "prompts", ".gitkeep.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Root(sub); got != repo {
		t.Fatalf("Root(%s) = %s, want the repository %s", sub, got, repo)
	}
	for _, c := range []struct {
		path    string
		outside bool
	}{
		{filepath.Join(sub, "prompts", "system.md"), false},
		{filepath.Join(sub, "..", "shared.md"), false}, // up, but inside the repository
		{filepath.Join(sub, "prompts", "link.md"), true},
		{filepath.Join(sub, "..", "..", filepath.Base(outside), "environ"), true},
		{secret, true},
		{gitConfig, true}, // the checkout's credentials
		{filepath.Join(sub, "..", ".git", "config"), true},    // the same, relative
		{filepath.Join(sub, "prompts", "config.md"), true},    // through a link
		{filepath.Join(sub, ".svn", "entries"), true},         // another VCS, below the root
		{filepath.Join(sub, "prompts", ".gitkeep.md"), false}, // a name that starts like one is not one
	} {
		_, err := ReadInside(Root(sub), c.path, 1<<20)
		if !c.outside && err != nil {
			t.Errorf("%s: %v", c.path, err)
		}
		if got := errors.Is(err, ErrOutside); got != c.outside {
			t.Errorf("%s: err %v, outside %v, want %v", c.path, err, got, c.outside)
		}
	}
	if got := Root(outside); got != outside {
		t.Errorf("a folder in no repository is its own root: got %s", got)
	}
}

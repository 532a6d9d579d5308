package fileio

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenTrace: a regular file is read whole; a folder, a pipe and a file
// over the bound are refused, the error naming the file, without Go's
// "open" prefix; a file that grows past the bound while read is an error.
func TestOpenTrace(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "t.jsonl")
	os.WriteFile(ok, []byte("0123456789"), 0o644)
	rc, err := OpenTrace(ok)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(b) != "0123456789" {
		t.Fatalf("read %q, %v", b, err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	old := traceLimit
	defer func() { traceLimit = old }()
	traceLimit = 5
	for _, c := range []struct{ path, want string }{
		{dir, dir + ": is a folder, not a trace"},
		{fifo, fifo + ": is a device or a pipe, not a file: give a trace file"},
		{filepath.Join(dir, "none"), filepath.Join(dir, "none") + ": no such file or directory"},
		{ok, ok + ": larger than 5 bytes: too large a trace to read"},
	} {
		if _, err := OpenTrace(c.path); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.path, err, c.want)
		}
	}
	traceLimit = 10
	rc, err = OpenTrace(ok)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	f, _ := os.OpenFile(ok, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("more")
	f.Close()
	if _, err := io.ReadAll(rc); err == nil || !strings.HasSuffix(err.Error(), ": larger than 10 bytes (it grew while read): too large a trace to read") {
		t.Errorf("a file that grew: %v", err)
	}
}

// TestOpenTraceInside: a trace inside the repository opens; one that
// leads out of it by ../ or by a symbolic link, or into .git, is refused
// as outside, naming the path as written, before it is read.
func TestOpenTraceInside(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "config"), []byte("[http]\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "t.jsonl"), []byte("{}\n"), 0o644)
	secret := filepath.Join(outside, "key")
	os.WriteFile(secret, []byte("sk-secret\n"), 0o600)
	os.Symlink(secret, filepath.Join(repo, "link.jsonl"))
	rc, err := OpenTraceInside(repo, filepath.Join(repo, "t.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	rel, _ := filepath.Rel(repo, secret)
	for _, p := range []string{filepath.Join(repo, rel), filepath.Join(repo, "link.jsonl"), filepath.Join(repo, ".git", "config")} {
		rc, err := OpenTraceInside(repo, p)
		if err == nil {
			rc.Close()
			t.Errorf("%s: opened", p)
			continue
		}
		if !strings.HasPrefix(err.Error(), p+": ") || !errors.Is(err, ErrOutside) {
			t.Errorf("%s: %v, want an error naming it, outside the repository", p, err)
		}
	}
}

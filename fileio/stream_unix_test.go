//go:build unix

package fileio

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStreamReadsAPipe: a pipe is read once, by Read, and folded.
func TestStreamReadsAPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "results.json")
	if err := Write(path, streamFiles()["plain"]); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write(b)
		w.Close()
	}()
	f, folds, err := Stream(fifo, newKept)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 2 || len(folds[0].requests) != 3 || len(folds[1].requests) != 1 {
		t.Errorf("%d runs, folds %d and %d requests; want 2 runs of 3 and 1", len(f.Runs), len(folds[0].requests), len(folds[1].requests))
	}
}

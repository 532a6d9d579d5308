package fileio

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// WritableDir checks that the folder a file will be written to exists and
// takes a new file (one is created there and removed).
func WritableDir(path string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return errors.New("cannot write the results to standard output (-): give a file name; latgate compare --format json prints a verdict")
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: folder %s: %v", path, dir, PathCause(err))
	}
	if !st.IsDir() {
		return fmt.Errorf("cannot write %s: %s is not a folder", path, dir)
	}
	// A folder that exists may take no file (read-only, another user's):
	// found now, not after the whole measurement.
	f, err := os.CreateTemp(dir, ".latgate-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: folder %s takes no new file: %v", path, dir, PathCause(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// CreatableDir checks that dir is a folder that files can be written
// into, or that it can be created: its nearest existing ancestor is a
// folder that can be written. It leaves nothing behind.
func CreatableDir(dir string) error {
	p := filepath.Clean(dir)
	for {
		st, err := os.Stat(p)
		if (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && filepath.Dir(p) != p {
			p = filepath.Dir(p)
			continue
		}
		what := "cannot create the folder " + dir
		if p == filepath.Clean(dir) {
			what = "cannot write into the folder " + dir
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %v", what, p, PathCause(err))
		}
		if !st.IsDir() {
			return fmt.Errorf("%s: %s is not a folder", what, p)
		}
		f, err := os.CreateTemp(p, ".latgate-write-check-*")
		if err != nil {
			return fmt.Errorf("%s: %s takes no new file: %v", what, p, PathCause(err))
		}
		f.Close()
		return os.Remove(f.Name())
	}
}

// PathCause is what went wrong with a path, without the path (the message
// names it already).
func PathCause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

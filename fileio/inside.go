package fileio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Root is the folder a suite's files must be in: the root of the git
// working tree that holds dir (the folder with .git), or dir itself when it
// is in none. A pull request's suite names its prompt files, and a file
// outside the repository (/proc/self/environ, ~/.ssh) must never be read
// into a request.
func Root(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}

// ErrOutside is the error (with errors.Is) of a file outside its root.
var ErrOutside = errors.New("outside the repository")

// ReadInside reads path, at most max bytes, only if it resolves (symbolic
// links followed) to a file inside root.
func ReadInside(root, path string, max int64) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, err
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w %s (it resolves to %s)", ErrOutside, root, real)}
	}
	return ReadLimited(real, max)
}

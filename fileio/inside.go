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
// links followed) to a file inside root and outside its version-control
// metadata (.git/ …), which is refused as outside.
func ReadInside(root, path string, max int64) ([]byte, error) {
	real, err := resolveInside(root, path)
	if err != nil {
		return nil, err
	}
	return ReadLimited(real, max)
}

// resolveInside is path resolved (symbolic links followed, absolute) if
// it lies inside root and outside its version-control metadata; else an
// error wrapping ErrOutside.
func resolveInside(root, path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	rootReal, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", err
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w %s (it resolves to %s)", ErrOutside, root, real)}
	}
	if dir := vcsDir(rel); dir != "" {
		return "", &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w %s: it is in %s, version-control metadata (which may hold the checkout's credentials), not a file of the repository", ErrOutside, root, dir)}
	}
	return real, nil
}

// vcsDirs are the folders of version-control metadata. actions/checkout
// leaves the token in .git/config (http.extraheader) unless
// persist-credentials is false.
var vcsDirs = []string{".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", ".fossil"}

// vcsDir is the version-control folder that rel (a path relative to the
// repository's root) lies in, or "". Names are compared without case: on
// macOS and Windows runners .GIT/config is .git/config.
func vcsDir(rel string) string {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		for _, d := range vcsDirs {
			if strings.EqualFold(part, d) {
				return part
			}
		}
	}
	return ""
}

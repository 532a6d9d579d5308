package fileio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// Kind is what an output file of latgate holds, so that a file already at
// its path can be recognized as latgate's own (and replaced) or not.
type Kind int

// Kinds of output.
const (
	// Results: a results file (latgate/results/…), or a trend file.
	Results Kind = iota
	// Markdown: a report in Markdown (it holds the comment marker).
	Markdown
	// HTML: a latgate HTML report.
	HTML
)

// signature is what the first bytes of a file of each kind hold: the
// schema of a results file, the comment marker or the heading of a
// Markdown report ("### ✅ latgate: latency pass"), the title of an HTML
// report.
var signature = map[Kind]*regexp.Regexp{
	Results:  regexp.MustCompile(`^\s*\{\s*"schema"\s*:\s*"latgate/`),
	Markdown: regexp.MustCompile(`^(<!-- latgate:[^\n]*\n)?### [^\n]*latgate: `),
	HTML:     regexp.MustCompile(`^<!DOCTYPE html>\s*<html[^>]*><head>[\s\S]*<title>latgate[ :]`),
}

// CheckOutput says whether path may be written as an output of kind: it is
// none of inputs (the suite, a baseline: an output never replaces an
// input), and a file already there is one latgate wrote (never a file of
// the user's). Empty inputs are ignored.
func CheckOutput(path string, kind Kind, inputs ...string) error {
	if path == "" {
		return nil
	}
	for _, in := range inputs {
		if in != "" && samePath(path, in) {
			return fmt.Errorf("%s is also an input: latgate never writes over its inputs; give the output another name", path)
		}
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	if signature[kind].Match(head[:n]) {
		return nil
	}
	return fmt.Errorf("%s exists and latgate did not write it: give another path, or remove the file if it may go", path)
}

// samePath reports whether two paths name one file: the same absolute
// path, or (when both exist) the same file.
func samePath(a, b string) bool {
	if pa, err := filepath.Abs(a); err == nil {
		if pb, err := filepath.Abs(b); err == nil && pa == pb {
			return true
		}
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

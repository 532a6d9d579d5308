package fileio

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxTraceSize is the largest trace OpenTrace opens (workload:): a week
// of Azure's LLM inference trace is about 1.1 GB.
const MaxTraceSize = 4 << 30

// traceLimit is MaxTraceSize; tests lower it.
var traceLimit int64 = MaxTraceSize

// OpenTrace opens a trace to be read as a stream (package workload), at
// most MaxTraceSize bytes: a regular file only — a folder, a device or a
// pipe is refused before it is opened (a pipe could not be read twice, and
// opening one waits for its writer) — and reading past MaxTraceSize (a file
// that grew) is an error naming the file.
func OpenTrace(path string) (io.ReadCloser, error) { return openTrace(path, path) }

// OpenTraceInside is OpenTrace of a suite's trace, only if path resolves
// (symbolic links followed) to a file inside root and outside its
// version-control metadata (ReadInside's rule): a pull request's
// workload.trace must not read the runner's files (/proc/self/environ,
// a key), whose first line a reader's error would quote. The file opened
// is the one resolved; errors name path.
func OpenTraceInside(root, path string) (io.ReadCloser, error) {
	real, err := resolveInside(root, path)
	if err != nil {
		return nil, traceError(path, err)
	}
	return openTrace(real, path)
}

// openTrace opens file, named path in errors.
func openTrace(file, path string) (io.ReadCloser, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, traceError(path, err)
	}
	if err := traceMode(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, traceError(path, err)
	}
	// The file opened is the one checked: a path swapped for a pipe
	// between Stat and Open is refused here (Open of a pipe with a
	// writer does not wait).
	if st, err = f.Stat(); err != nil || traceMode(path, st) != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return &boundedFile{f: f, path: path, left: traceLimit}, nil
}

func traceMode(path string, st os.FileInfo) error {
	switch m := st.Mode(); {
	case m.IsDir():
		return fmt.Errorf("%s: is a folder, not a trace", path)
	case !m.IsRegular():
		return fmt.Errorf("%s: is a device or a pipe, not a file: give a trace file", path)
	case st.Size() > traceLimit:
		return fmt.Errorf("%s: larger than %s: too large a trace to read", path, mib(traceLimit))
	}
	return nil
}

// traceError names the path once, without Go's "open" prefix.
func traceError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// boundedFile is a trace read within MaxTraceSize.
type boundedFile struct {
	f    *os.File
	path string
	left int64
}

func (b *boundedFile) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte past the bound says whether the file goes on.
		var one [1]byte
		if n, _ := b.f.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%s: larger than %s (it grew while read): too large a trace to read", b.path, mib(traceLimit))
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.f.Read(p)
	b.left -= int64(n)
	if err != nil && err != io.EOF {
		err = traceError(b.path, err)
	}
	return n, err
}

func (b *boundedFile) Close() error { return b.f.Close() }

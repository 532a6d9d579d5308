package fileio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync"

	"github.com/latgate/latgate/results"
)

// A Folder keeps what it needs of a run's requests, handed to it one at a
// time by Stream. Add must not keep q or anything q points to.
type Folder interface {
	Add(q *results.Request)
}

// Stream reads a results file like Read — the same bounds, the same
// validation, the same errors — without keeping its requests: each is
// handed to the Folder of its run (newF makes one per run, in the order of
// the runs) and dropped. The file returned holds the runs without their
// requests (Requests nil); folds[i] is run i's.
//
// A regular file is read once, by the scan Read makes before it decodes
// (scan.go), which hands each request's text to be decoded on its own and
// the rest of each run and of the file to be decoded at their end: it
// costs what the folds keep rather than the file's text and every request,
// and refuses what Read refuses (a type, a key given twice, a file too
// dense to read) with Read's words. What that pass does not take — a pipe
// or a device, a file over MaxFileSize, JSON that is not — is left to
// Read, which says why.
func Stream[F Folder](path string, newF func() F) (*results.File, []F, error) {
	if f, folds, err, done := streamRegular(path, newF); done {
		return f, folds, err
	}
	// One whole read at a time: files are streamed side by side, and
	// whole reads side by side would hold every such file's text and
	// requests at once.
	wholeReads.Lock()
	defer wholeReads.Unlock()
	full, err := Read(path)
	if err != nil {
		return nil, nil, err
	}
	folds := make([]F, len(full.Runs))
	for i := range full.Runs {
		r := &full.Runs[i]
		folds[i] = newF()
		for j := range r.Requests {
			folds[i].Add(&r.Requests[j])
		}
		r.Requests = nil
	}
	return full, folds, nil
}

// wholeReads lets one of Stream's fallbacks to Read run at a time.
var wholeReads sync.Mutex

// streamRegular is Stream's single pass; done is false when it leaves the
// file to Read.
func streamRegular[F Folder](path string, newF func() F) (f *results.File, folds []F, err error, done bool) {
	// Stat before opening: opening a named pipe would wait for its writer,
	// and a pipe cannot be read again by Read.
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > MaxFileSize {
		return nil, nil, nil, false
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, false
	}
	defer fh.Close()
	return streamFrom(path, io.LimitReader(fh, st.Size()), st.Size(), positionInFile(path), newF)
}

// streamFrom scans, decodes and validates the results file name, of size
// bytes, from r in one pass (pos finds an offset's line and column); done
// is false when it leaves the file to Read.
func streamFrom[F Folder](name string, r io.Reader, size int64, pos func(int64) (int, int), newF func() F) (f *results.File, folds []F, err error, done bool) {
	sk := &streamer[F]{newF: newF}
	s := newScanner(make([]byte, 0, 256<<10), r, size)
	s.st = sk
	if !s.document() {
		switch s.err.kind {
		case kSyntax, kRead, kSink:
			return nil, nil, nil, false
		}
		return nil, nil, s.err.message(name, "results", pos), true
	}
	f = sk.result()
	if err := f.ValidateChecked(sk.checks); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", name, err), true
	}
	return f, sk.folds, nil, true
}

// streamer is Stream's sink: each request is decoded on its own (into one
// Request, reused), checked and folded; every other value of the file and
// of each run is decoded into its field as the scan passes it.
type streamer[F Folder] struct {
	newF   func() F
	file   results.File
	run    results.Run
	runs   []results.Run
	checks []results.RunCheck
	folds  []F
	check  results.RunCheck
	fold   F
	q      results.Request
}

func (st *streamer[F]) beginRun() {
	st.check, st.fold, st.run = results.RunCheck{}, st.newF(), results.Run{}
}

func (st *streamer[F]) request(raw []byte) bool {
	// Each request is decoded into a zero Request, as Read decodes it,
	// but for the gaps' array, whose room is reused (none kept from an
	// empty array, which decodes as a new slice of no room: no key then
	// stays nil).
	room := st.q.ITLMs[:0]
	if cap(room) == 0 {
		room = nil
	}
	st.q = results.Request{ITLMs: room}
	if json.Unmarshal(raw, &st.q) != nil {
		return false
	}
	gaps := st.q.ITLMs
	if len(gaps) == 0 && cap(gaps) > 0 {
		st.q.ITLMs = nil // no itl_ms key (an empty array has no room)
	}
	st.check.Add(&st.q)
	st.fold.Add(&st.q)
	st.q.ITLMs = gaps
	return true
}

// field decodes a value of the file or of its run into its field, as
// encoding/json decodes it within its object.
func (st *streamer[F]) field(n *node, f field, raw []byte) bool {
	v := reflect.ValueOf(&st.file).Elem()
	if n == resultsSchema.run {
		v = reflect.ValueOf(&st.run).Elem()
	}
	return json.Unmarshal(raw, v.Field(f.index).Addr().Interface()) == nil
}

func (st *streamer[F]) endRun() bool {
	st.runs, st.checks, st.folds = append(st.runs, st.run), append(st.checks, st.check), append(st.folds, st.fold)
	return true
}

// result is the file without its requests, once the scan has passed.
func (st *streamer[F]) result() *results.File {
	f := st.file
	f.Runs = st.runs
	return &f
}

// positionInFile is the line and column of an offset in the file at path
// (read again up to it: an error's position).
func positionInFile(path string) func(int64) (int, int) {
	return func(off int64) (int, int) {
		fh, err := os.Open(path)
		if err != nil {
			return 0, 0
		}
		defer fh.Close()
		line, col := 1, 1
		r, buf := io.LimitReader(fh, off), make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
				line, col = line+bytes.Count(buf[:n], []byte("\n")), n-i
			} else {
				col += n
			}
			if err != nil {
				return line, col
			}
		}
	}
}

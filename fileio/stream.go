package fileio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
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
// A regular file is decoded from disk in one pass, one request at a time,
// so that it costs what the folds keep rather than its text and every
// request. Whatever that pass does not accept as it is — a pipe or a
// device, a file over MaxFileSize, a JSON, type or validation error, a
// "runs" or "requests" key given twice or matched only regardless of case
// — is left to Read: it reads the whole file and refuses it with its own
// error, or its requests are folded.
func Stream[F Folder](path string, newF func() F) (*results.File, []F, error) {
	if f, folds, ok := streamRegular(path, newF); ok {
		return f, folds, nil
	}
	// One whole read at a time: files are streamed side by side, and a
	// file can make itself one that Stream leaves to Read (a "runs": []
	// before its runs is valid), so whole reads side by side would hold
	// every such file's text and requests at once.
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

// streamRegular is Stream's single pass; ok is false when it leaves the
// file to Read.
func streamRegular[F Folder](path string, newF func() F) (f *results.File, folds []F, ok bool) {
	// Stat before opening: opening a named pipe would wait for its writer,
	// and a pipe cannot be read again by Read.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Size() > MaxFileSize {
		return nil, nil, false
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, false
	}
	defer fh.Close()
	return streamFrom(bufio.NewReaderSize(io.LimitReader(fh, MaxFileSize), 256<<10), newF)
}

// streamFrom decodes and validates a results file from r in one pass.
func streamFrom[F Folder](r io.Reader, newF func() F) (f *results.File, folds []F, ok bool) {
	s := &streamer[F]{dec: json.NewDecoder(r), newF: newF}
	f, ok = s.file()
	if !ok || f.ValidateChecked(s.checks) != nil {
		return nil, nil, false
	}
	return f, s.folds, true
}

// streamer walks a results file's tokens. The keys of the file and of
// each run other than "runs" and "requests" are gathered into one object
// and decoded as Read decodes them (the same matching of keys, the same
// types); each request is decoded on its own, checked and folded.
type streamer[F Folder] struct {
	dec    *json.Decoder
	newF   func() F
	runs   []results.Run
	checks []results.RunCheck
	folds  []F
	n      int // requests so far (more than MaxObjects: left to Read, which refuses them)
}

// file reads the document: one object, then nothing but white space.
func (s *streamer[F]) file() (*results.File, bool) {
	var f results.File
	runs := false
	ok := s.object(&f, "runs", func() bool {
		if runs {
			return false
		}
		runs = true
		return s.array(s.run)
	})
	if !ok {
		return nil, false
	}
	if _, err := s.dec.Token(); err != io.EOF {
		return nil, false
	}
	if runs {
		f.Runs = s.runs
	}
	return &f, true
}

// run reads one run: its keys into a Run, its requests into a fold.
func (s *streamer[F]) run() bool {
	var r results.Run
	var check results.RunCheck
	fold := s.newF()
	requests := false
	var q results.Request
	ok := s.object(&r, "requests", func() bool {
		if requests {
			return false
		}
		requests = true
		return s.array(func() bool {
			// Each request is decoded into a zero Request, as Read
			// decodes it, but for the gaps' array, whose room is reused
			// (none kept from an empty array, which json decodes as a
			// new slice of no room: no key then stays nil).
			room := q.ITLMs[:0]
			if cap(room) == 0 {
				room = nil
			}
			q = results.Request{ITLMs: room}
			if s.n++; s.n > MaxObjects || s.dec.Decode(&q) != nil {
				return false
			}
			gaps := q.ITLMs
			if len(gaps) == 0 && cap(gaps) > 0 {
				q.ITLMs = nil // no itl_ms key (an empty array has no room)
			}
			check.Add(&q)
			fold.Add(&q)
			q.ITLMs = gaps
			return true
		})
	})
	if ok {
		s.runs, s.checks, s.folds = append(s.runs, r), append(s.checks, check), append(s.folds, fold)
	}
	return ok
}

// object reads an object into v, except for the key big, whose value
// read reads; false on any key that only folds to big.
func (s *streamer[F]) object(v any, big string, read func() bool) bool {
	if !s.delim('{') {
		return false
	}
	var rest bytes.Buffer
	rest.WriteByte('{')
	for s.dec.More() {
		t, err := s.dec.Token()
		key, isKey := t.(string)
		switch {
		case err != nil || !isKey:
			return false
		case key == big:
			if !read() {
				return false
			}
			continue
		case strings.EqualFold(key, big):
			return false
		}
		var value json.RawMessage
		if s.dec.Decode(&value) != nil {
			return false
		}
		if rest.Len() > 1 {
			rest.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		rest.Write(k)
		rest.WriteByte(':')
		rest.Write(value)
	}
	rest.WriteByte('}')
	return s.delim('}') && json.Unmarshal(rest.Bytes(), v) == nil
}

// array reads an array, each element with elem; null is no element.
func (s *streamer[F]) array(elem func() bool) bool {
	t, err := s.dec.Token()
	if err == nil && t == nil {
		return true
	}
	if d, ok := t.(json.Delim); err != nil || !ok || d != '[' {
		return false
	}
	for s.dec.More() {
		if !elem() {
			return false
		}
	}
	return s.delim(']')
}

func (s *streamer[F]) delim(want json.Delim) bool {
	t, err := s.dec.Token()
	d, ok := t.(json.Delim)
	return err == nil && ok && d == want
}

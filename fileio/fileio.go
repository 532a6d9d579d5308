// Package fileio is latgate's file I/O: every file it reads that a user or
// a pull request hands it (results files, baselines, the suite, with their
// size bounded) and every file it writes (results, reports, history, the
// files of latgate init), written atomically (a temporary file in the same
// folder, synced, then renamed), so a crash never leaves half a file.
// Results files and trend files (formats in docs/formats.md) are decoded
// with file:line:col errors and validated; a results file can also be
// streamed, its requests handed one at a time to the caller and not kept
// (Stream); a trend file is gzip-compressed JSON, bounded once
// decompressed too. The package does not measure or
// compare anything, and does not talk to GitHub.
package fileio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/latgate/latgate/internal/jsonerr"
	"github.com/latgate/latgate/results"
)

// Write writes f to path atomically, as compact JSON streamed to the file
// (no copy of the whole document in memory).
func Write(path string, f *results.File) error {
	return writeAtomic(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 256<<10)
		if err := json.NewEncoder(bw).Encode(f); err != nil {
			return err
		}
		return bw.Flush()
	}, nil)
}

// ErrUnreadable is why WriteReadable wrote nothing: Read would refuse
// the file.
var ErrUnreadable = errors.New("latgate would not read it back")

// WriteReadable is Write of a file Read reads back, for a file made of
// others (latgate merge): f must validate, its encoding stay within
// MaxFileSize bytes (counted as they are written) and pass Read's scan (a
// file too dense to read: its requests, runs and values beyond what its
// size allows, scan.go), read back from the temporary file before it
// takes path's place; otherwise nothing is written, and the error wraps
// ErrUnreadable.
func WriteReadable(path string, f *results.File) error {
	if err := f.Validate(); err != nil {
		return fmt.Errorf("%s: %w: %v", path, ErrUnreadable, err)
	}
	c := &readBackWriter{}
	var unreadable *scanError
	err := writeAtomic(path, func(w io.Writer) error {
		c.w = w
		bw := bufio.NewWriterSize(c, 256<<10)
		if err := json.NewEncoder(bw).Encode(f); err != nil {
			return err
		}
		return bw.Flush()
	}, func(tmp *os.File) error {
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		s := newScanner(make([]byte, 0, 256<<10), tmp, c.bytes)
		if !s.document() {
			unreadable = s.err
			return s.err.words()
		}
		return nil
	})
	switch {
	case c.err != nil:
		return fmt.Errorf("%s: %w", path, c.err)
	case unreadable != nil:
		return fmt.Errorf("%s: %w: %v", path, ErrUnreadable, unreadable.words())
	}
	return err
}

// readBackWriter fails a write beyond the bytes Read reads.
type readBackWriter struct {
	w     io.Writer
	bytes int64
	err   error
}

func (c *readBackWriter) Write(p []byte) (int, error) {
	c.bytes += int64(len(p))
	if c.bytes > MaxFileSize {
		c.err = fmt.Errorf("%w: larger than %s", ErrUnreadable, mib(MaxFileSize))
		return 0, c.err
	}
	return c.w.Write(p)
}

// WriteAtomic writes data to a temporary file beside path, syncs it and
// renames it over path. Files are 0644, like any tool's output: results,
// reports and histories hold no secret (the API key never reaches them).
func WriteAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, nil)
}

// writeAtomic writes a temporary file with write and, once it is synced,
// checks it with check (nil: none) before it takes path's place.
func writeAtomic(path string, write func(io.Writer) error, check func(*os.File) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())              // no-op after a successful rename
	if err := tmp.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if check != nil {
		if err := check(tmp); err != nil {
			tmp.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// MaxFileSize is the largest results file Read accepts: a suite of 20
// scenarios × 10,000 requests per side with their gaps is about 125 MB.
const MaxFileSize = 512 << 20

// Read reads and validates a results file.
func Read(path string) (*results.File, error) {
	b, err := readResults(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, b)
}

func readResults(path string) ([]byte, error) {
	b, err := ReadLimited(path, MaxFileSize)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	return b, nil
}

// readAllLimit is what ReadAll's files may hold together.
var readAllLimit = ReadLimit(MaxFileSize)

// ReadAll reads and validates results files that are to be held at once
// (latgate merge): each as Read reads it, and all of them together within
// what one results file may hold once read, ReadLimit(MaxFileSize) — a
// file made of them would hold as much — so that they cost what one file
// of the largest size costs, not 256 of them.
func ReadAll(paths []string) ([]*results.File, error) {
	left := readAllLimit
	var files []*results.File
	for _, p := range paths {
		b, err := readResults(p)
		if err != nil {
			return nil, err
		}
		s := newScanner(b, nil, int64(len(b)))
		s.limit = min(s.limit, left)
		f, err := decode(p, b, s)
		if err != nil && s.err != nil && s.err.kind == kDense && s.limit == left {
			return nil, fmt.Errorf("%s: %w: with the files before it, more than the %s one results file may hold once read (docs/performance.md): merge fewer files", p, errTooDense, size(readAllLimit))
		}
		if err != nil {
			return nil, err
		}
		left -= s.charged
		files = append(files, f)
	}
	return files, nil
}

// ReadLimited reads a file of at most max bytes; a larger (or endless)
// one is an *os.PathError naming the limit, never read to exhaustion.
func ReadLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %s: too large to be a file latgate reads", mib(max))}
	if st, err := f.Stat(); err == nil {
		switch m := st.Mode(); {
		case m.IsRegular() && st.Size() > max:
			return nil, tooLarge
		case m.IsRegular():
			// The size is known: one buffer, as os.ReadFile does.
			b := bytes.NewBuffer(make([]byte, 0, st.Size()+512))
			if _, err := io.Copy(b, io.LimitReader(f, max+1)); err != nil {
				return nil, err
			}
			if int64(b.Len()) > max {
				return nil, tooLarge
			}
			return b.Bytes(), nil
		case m.IsDir():
			return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("is a folder, not a file")}
		case m&(os.ModeDevice|os.ModeCharDevice|os.ModeSocket) != 0:
			return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("is a device, not a file")}
		}
	}
	// A pipe has no size: read one byte past the limit, in chunks, so an
	// endless input costs the limit and never a doubling buffer.
	var chunks [][]byte
	var n int64
	r := io.LimitReader(f, max+1)
	for {
		c := make([]byte, 1<<20)
		k, err := io.ReadFull(r, c)
		chunks, n = append(chunks, c[:k]), n+int64(k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if n > max {
		return nil, tooLarge
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}

func mib(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Decode parses and validates a results file's bytes; name is used in
// errors. The bytes are scanned first (scan.go): a type error, a key given
// twice or a file that would hold more than ReadLimit once decoded is
// refused before anything is decoded.
func Decode(name string, b []byte) (*results.File, error) {
	return decode(name, b, newScanner(b, nil, int64(len(b))))
}

// decode is Decode with the scanner of b.
func decode(name string, b []byte, s *scanner) (*results.File, error) {
	if !s.document() {
		if s.err.kind == kSyntax && !json.Valid(b) {
			// encoding/json says where and why, and decodes nothing.
			var none struct{}
			return nil, unmarshal(name, b, &none, "results")
		}
		return nil, s.err.message(name, "results", positionIn(b))
	}
	// The runs and their requests are decoded into slices of their count
	// (encoding/json decodes an element into the room a slice has):
	// grown a quarter at a time, they would hold twice as much.
	var f results.File
	if len(s.requests) > 0 {
		runs := make([]results.Run, len(s.requests))
		for i, n := range s.requests {
			if n > 0 {
				runs[i].Requests = make([]results.Request, 0, n)
			}
		}
		f.Runs = runs[:0]
	}
	if err := unmarshal(name, b, &f, "results"); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &f, nil
}

// unmarshal decodes a JSON document into v with file:line:col errors; kind
// names the latgate file it should be ("results", "trend").
func unmarshal(name string, b []byte, v any, kind string) error {
	// Unmarshal decodes b in place (a Decoder would copy it into its own
	// buffer: 125 MB more for a file of 200,000 requests).
	err := json.Unmarshal(b, v)
	if err == nil {
		return nil
	}
	switch e := jsonerr.Of(b, err); {
	case e.Kind == jsonerr.Empty || e.Kind == jsonerr.Truncated:
		return fmt.Errorf("%s: not a complete JSON document (the file is empty or truncated)", name)
	case e.Kind == jsonerr.Syntax && e.Offset == 1 && looksLikeSuite(name, b):
		return fmt.Errorf("%s: a suite (YAML), not a latgate %s file: give the suite with -c", name, kind)
	case e.Kind == jsonerr.Syntax:
		return fmt.Errorf("%s:%d:%d: invalid JSON: %v", name, e.Line, e.Col, e.Err)
	case e.Kind == jsonerr.Type:
		return typeError(name, kind, e.Line, e.Col, e.Field, e.Value, e.Want)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// jsonKind names a Go type as the JSON value it decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean (true or false)"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "whole number"
	}
	return t.Kind().String()
}

// looksLikeSuite reports whether a file that is not JSON is a suite: a
// .yaml or .yml name, or a line of its first 4 KiB that begins with
// endpoints: or scenarios:.
func looksLikeSuite(name string, b []byte) bool {
	if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
		return true
	}
	return suiteKeyRE.Match(b[:min(len(b), 4096)])
}

var suiteKeyRE = regexp.MustCompile(`(?m)^(endpoints|scenarios):`)

package workload

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// lines reads a line format a line at a time, each at most MaxLine bytes.
type lines struct {
	s    *bufio.Scanner
	file string
	n    int // the line last read, from 1
}

func newLines(r io.Reader, file string) *lines {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &lines{s: s, file: file}
}

// next is the next line (its end of line removed), or false at the end or
// on an error (err).
func (l *lines) next() ([]byte, bool) {
	if !l.s.Scan() {
		return nil, false
	}
	l.n++
	return l.s.Bytes(), true
}

// err is why reading stopped; nil at the end of the file.
func (l *lines) err() error {
	err := l.s.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bufio.ErrTooLong):
		return &Error{File: l.file, Line: l.n + 1, Why: fmt.Sprintf("longer than %d bytes: a line of a trace is at most that", MaxLine)}
	}
	return &Error{File: l.file, Line: l.n + 1, Why: err.Error()}
}

// fail is an *Error at the line last read.
func (l *lines) fail(field, why string, args ...any) error {
	return &Error{File: l.file, Line: l.n, Field: field, Why: fmt.Sprintf(why, args...)}
}

// csvHeader maps a CSV header's columns, by name (compared without case
// and surrounding space), to their index; want are the names required,
// optional those that may be absent (-1).
func (l *lines) csvHeader(line []byte, want, optional []string) (map[string]int, int, error) {
	cols, err := splitCSV(line)
	if err != nil {
		return nil, 0, l.fail("header", "%s", err)
	}
	idx := map[string]int{}
	for _, name := range append(append([]string{}, want...), optional...) {
		idx[name] = -1
		for i, c := range cols {
			if strings.EqualFold(strings.TrimSpace(c), name) {
				idx[name] = i
				break
			}
		}
	}
	for _, name := range want {
		if idx[name] < 0 {
			return nil, 0, l.fail("header", "no column %q (the header holds %q)", name, clipN(strings.Join(cols, ","), 200))
		}
	}
	return idx, len(cols), nil
}

// row splits a CSV row of the header's width.
func (l *lines) row(line []byte, width int) ([]string, error) {
	cols, err := splitCSV(line)
	if err != nil {
		return nil, l.fail("", "%s", err)
	}
	if len(cols) != width {
		return nil, l.fail("", "%d columns, but the header has %d", len(cols), width)
	}
	return cols, nil
}

// splitCSV splits a CSV line whose fields hold no comma, quote or line
// break of their own: a field may be quoted whole ("Conversation log").
func splitCSV(line []byte) ([]string, error) {
	cols := strings.Split(string(line), ",")
	for i, c := range cols {
		t := strings.TrimSpace(c)
		if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
			t = t[1 : len(t)-1]
		}
		if strings.ContainsRune(t, '"') {
			return nil, errors.New("a quote inside a field: traces' CSV fields hold no comma or quote of their own")
		}
		cols[i] = t
	}
	return cols, nil
}

// tokens parses a token count: a whole number from 0 to MaxTokens.
func tokens(s string) (int, string) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case err != nil && strings.TrimSpace(s) == "":
		return 0, "missing"
	case err != nil:
		return 0, fmt.Sprintf("%q is not a whole number", clip(s))
	case n < 0:
		return 0, fmt.Sprintf("%d is negative: a length is at least 0", n)
	case n > MaxTokens:
		return 0, fmt.Sprintf("%d is more than %d tokens", n, MaxTokens)
	}
	return int(n), ""
}

// tokenCount checks a token count already a number.
func tokenCount(v float64) (int, string) {
	switch {
	case v != math.Trunc(v):
		return 0, fmt.Sprintf("%g is not a whole number", v)
	case v < 0:
		return 0, fmt.Sprintf("%g is negative: a length is at least 0", v)
	case v > MaxTokens:
		return 0, fmt.Sprintf("%g is more than %d tokens", v, MaxTokens)
	}
	return int(v), ""
}

// since is an arrival of v units from the origin, within [0, MaxAt].
func since(v float64, unit time.Duration) (time.Duration, string) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, "not a number"
	case v < 0:
		return 0, fmt.Sprintf("%g is negative: a time is from the trace's start", v)
	case v > float64(MaxAt/unit):
		return 0, fmt.Sprintf("%g is past %v from the trace's start", v, MaxAt)
	}
	return time.Duration(math.Round(v * float64(unit))), ""
}

// clip shortens a value quoted in an error: a line is up to MaxLine
// bytes, a JSON value up to MaxValue, and an error quotes at most 40.
func clip(s string) string { return clipN(s, 40) }

// clipN is s cut to n bytes, and "…" when it was longer.
func clipN(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// blank reports whether a line holds only space.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// csv reads a CSV trace: blank lines skipped, the header (want's columns
// and any of optional, found by name), then each row given to row with
// the columns' indexes by name. A file without a header is an error.
func (l *lines) csv(want, optional []string, row func(cols []string, idx map[string]int) error) error {
	var idx map[string]int
	width := 0
	for {
		line, ok := l.next()
		if !ok {
			if err := l.err(); err != nil || idx != nil {
				return err
			}
			return &Error{File: l.file, Why: "empty: no header"}
		}
		if blank(line) {
			continue
		}
		if idx == nil {
			var err error
			if idx, width, err = l.csvHeader(bytes.TrimPrefix(line, bom), want, optional); err != nil {
				return err
			}
			continue
		}
		cols, err := l.row(line, width)
		if err != nil {
			return err
		}
		if err := row(cols, idx); err != nil {
			return err
		}
	}
}

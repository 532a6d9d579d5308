package workload

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// MaxDrawHashes bounds the hash_ids the entries of a draw hold (8 bytes
// each: 128 MiB), whatever the trace holds (a variable for tests).
var MaxDrawHashes = 16_000_000

// Bounds of what a trace may hold: past one, reading stops with an *Error
// naming the line. They bound the memory a hostile trace can cost.
const (
	// MaxLine is the longest line of a line format (JSONL, CSV).
	MaxLine = 1 << 20
	// MaxValue is the longest JSON value a JSON format may hold between
	// two structural characters (a string, a number), and MaxDepth how
	// deep its values may nest.
	MaxValue = 8 << 20
	MaxDepth = 64
	// MaxHashes is the most hash_ids one entry may hold.
	MaxHashes = 100_000
	// MaxRecords is the most records (entries and skipped ones) a trace
	// may hold.
	MaxRecords = 10_000_000
	// MaxTokens is the largest input or output length of an entry: no
	// model's context holds more than two million tokens, and a prompt
	// latgate synthesizes stays within 12 MB.
	MaxTokens = 2_000_000

	// MaxSessionID is the longest session id, in bytes.
	MaxSessionID = 256
	// MaxAt is the latest arrival from a trace's origin: 200 years (a
	// wall-clock trace's origin is the Unix epoch).
	MaxAt = 200 * 365 * 24 * time.Hour
)

// headSize is how much of a trace detection looks at.
const headSize = 64 << 10

// Format is one registered reader of traces.
type Format struct {
	// Name is what workload.format names it by.
	Name string
	// Sniff says whether the first bytes of a file (up to 64 KiB, a UTF-8
	// byte order mark removed) are of this format.
	Sniff func(head []byte) bool
	// Read reads the entries of r, handing each to emit in file order and
	// calling skip with the line of each record it leaves out (a failed
	// request, a span without token counts).
	Read func(r io.Reader, file string, emit func(Entry) error, skip func(line int) error) error
}

var formats = map[string]Format{}

// register adds a reader; reader_NAME.go files call it from init.
func register(f Format) {
	if _, dup := formats[f.Name]; dup {
		panic("workload: format registered twice: " + f.Name)
	}
	formats[f.Name] = f
}

// Formats are the names of the registered readers, sorted.
func Formats() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Read reads the entries of the trace r, named file in errors, in format
// (detected from its first 64 KiB when ""), handing each to emit in file
// order; it returns the format read. An entry's At is from the trace's own
// origin (docs/formats.md, "Traces"); a Draw's are from its earliest
// entry. An unknown format is an error naming the known ones; a file that
// is not of the format given, or of no format, or a bad line, an *Error.
func Read(r io.Reader, file, format string, emit func(Entry) error) (string, error) {
	return read(r, file, format, emit, func(int) {})
}

func read(r io.Reader, file, format string, emit func(Entry) error, skip func(int)) (string, error) {
	if format != "" {
		if _, ok := formats[format]; !ok {
			return "", fmt.Errorf("unknown trace format %q: latgate reads %s", format, strings.Join(Formats(), ", "))
		}
	}
	br := bufio.NewReaderSize(r, headSize)
	head, err := br.Peek(headSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return "", &Error{File: file, Why: err.Error()}
	}
	if bytes.HasPrefix(head, bom) {
		br.Discard(len(bom))
		head = head[len(bom):]
	}
	f, err := detect(head, file, format)
	if err != nil {
		return "", err
	}
	records := 0
	count := func(line int) error {
		if records++; records > MaxRecords {
			return &Error{File: file, Line: line, Why: fmt.Sprintf("more than %d records: a trace latgate reads holds at most that", MaxRecords)}
		}
		return nil
	}
	err = f.Read(br, file, func(e Entry) error {
		if err := count(e.Line); err != nil {
			return err
		}
		return emit(e)
	}, func(line int) error {
		if err := count(line); err != nil {
			return err
		}
		skip(line)
		return nil
	})
	return f.Name, err
}

var bom = []byte("\xef\xbb\xbf")

// detect finds the format of a trace from its head: the one given, which
// must sniff as such, or the only one that sniffs.
func detect(head []byte, file, format string) (Format, error) {
	var match []string
	for _, n := range Formats() {
		if formats[n].Sniff(head) {
			match = append(match, n)
		}
	}
	if format != "" {
		if len(match) == 1 && match[0] != format {
			return Format{}, &Error{File: file, Line: 1, Why: fmt.Sprintf("not %s trace: it begins like %s trace (workload.format)", article(format), article(match[0]))}
		}
		return formats[format], nil
	}
	switch len(match) {
	case 1:
		return formats[match[0]], nil
	case 0:
		if len(bytes.TrimSpace(head)) == 0 {
			return Format{}, &Error{File: file, Why: "empty: no trace to read"}
		}
		return Format{}, &Error{File: file, Line: 1, Why: fmt.Sprintf("not a trace latgate recognizes (%s; docs/formats.md): give workload.format", strings.Join(Formats(), ", "))}
	}
	return Format{}, &Error{File: file, Line: 1, Why: fmt.Sprintf("begins like a trace of each of %s: give workload.format", strings.Join(match, ", "))}
}

// firstLine is the first non-blank line of head, trimmed.
func firstLine(head []byte) []byte {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return t
		}
	}
	return nil
}

// article is name with its indefinite article: "an azure", "a mooncake".
func article(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

package fileio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// What reading a results file may hold (docs/performance.md, "Reading a
// results file"): ReadAllowance and ReadPerByte bytes for each byte of the
// file, counted by the scan before anything is decoded.
const (
	ReadAllowance = 64 << 20
	ReadPerByte   = 4
)

// ReadLimit is the most that reading a results file of size bytes may
// hold, as the scan counts it.
func ReadLimit(size int64) int64 { return ReadAllowance + ReadPerByte*size }

// A scanner walks a results file once, without keeping it, before (Read)
// or while (Stream) it is decoded: it checks the syntax and what each
// value decodes into as encoding/json does, refuses a key given twice, and
// counts what decoding the file holds in memory (charge), refusing it
// beyond its limit as soon as it gets there. The file is buf (Read) or
// read from r (Stream) through buf.
type scanner struct {
	buf  []byte
	pos  int
	base int64 // the offset of buf[0] in the file
	r    io.Reader
	rerr error
	keep int64 // bytes from this offset on are kept in buf (-1: none)

	size            int64 // the file's
	sch             *schema
	limit, charged  int64
	counts, charges []int64 // by category
	depth           int
	path            []string // the keys down to the value (a type error's field)
	key             []byte   // the last key, unescaped
	folded          []byte   // the last key folded (encoding/json's foldName)
	err             *scanError
	st              sink // Stream's, or nil
	// requests counts each run's requests (Read decodes them into slices
	// of that room).
	requests []int
}

// A sink takes the parts of a streamed file as the scan passes them.
type sink interface {
	beginRun()
	request(raw []byte) bool
	field(n *node, f field, raw []byte) bool
	endRun() bool
}

// scanError is why a scan stopped.
type scanError struct {
	kind  scanKind
	off   int64        // where in the file
	field string       // kType: the dotted keys down to the value
	value string       // kType: the JSON value found ("number 1.5")
	want  reflect.Type // kType: the Go type wanted
	err   error        // kOther, kRead
	msg   string       // kDense, kTwice: the words
}

type scanKind uint8

const (
	kSyntax scanKind = iota // not JSON: encoding/json says why
	kType
	kDense
	kTwice
	kOther // a json.Unmarshaler's error
	kRead  // the file could not be read
	kSink  // Stream's sink refused a part (never after a scan that passed)
	kShape // beyond the bounds of any results file's shape
)

func newScanner(b []byte, r io.Reader, size int64) *scanner {
	s := &scanner{buf: b, r: r, keep: -1, size: size, sch: resultsSchema, limit: ReadLimit(size)}
	s.counts = make([]int64, len(s.sch.cats))
	s.charges = make([]int64, len(s.sch.cats))
	return s
}

// document scans the whole file: one value, then nothing but white space.
func (s *scanner) document() bool {
	if !s.value(s.sch.root) {
		return false
	}
	if _, ok := s.space(); ok {
		return s.syntax()
	}
	if s.rerr != nil && s.rerr != io.EOF {
		s.err = &scanError{kind: kRead, off: s.abs(), err: s.rerr}
		return false
	}
	return true
}

func (s *scanner) abs() int64 { return s.base + int64(s.pos) }

// fill reads more of the file into buf; false at its end.
func (s *scanner) fill() bool {
	if s.r == nil || s.rerr != nil {
		return false
	}
	drop := s.pos
	if s.keep >= 0 {
		drop = int(s.keep - s.base)
	}
	if drop > 0 && (drop >= len(s.buf)/2 || len(s.buf) == cap(s.buf)) {
		n := copy(s.buf, s.buf[drop:])
		s.buf, s.pos, s.base = s.buf[:n], s.pos-drop, s.base+int64(drop)
	}
	if len(s.buf) == cap(s.buf) {
		// Twice the room, but no more than the file's: what is kept is a
		// value of it (a request, at most the whole file).
		room := max(256<<10, min(2*cap(s.buf), int(s.size-s.base)+1))
		if room <= len(s.buf) {
			room = len(s.buf) + 256<<10
		}
		nb := make([]byte, len(s.buf), room)
		copy(nb, s.buf)
		s.buf = nb
	}
	for {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
}

// mark keeps the file's bytes from here on (a value to hand on) and
// returns what to give unmark, which stops keeping them.
func (s *scanner) mark() (prev, at int64) {
	prev, at = s.keep, s.abs()
	if s.keep < 0 {
		s.keep = at
	}
	return prev, at
}

func (s *scanner) since(at int64) []byte { return s.buf[at-s.base : s.pos] }

func (s *scanner) unmark(prev int64) { s.keep = prev }

// space skips white space and returns the next byte; false at the end.
func (s *scanner) space() (byte, bool) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, true
			}
		}
		if !s.fill() {
			return 0, false
		}
	}
}

func (s *scanner) tooDeep() bool {
	s.err = &scanError{kind: kShape, off: s.abs(), msg: fmt.Sprintf("values nested deeper than %d levels", maxDepth)}
	return false
}

func (s *scanner) syntax() bool {
	s.err = &scanError{kind: kSyntax, off: s.abs()}
	if s.rerr != nil && s.rerr != io.EOF {
		s.err = &scanError{kind: kRead, off: s.abs(), err: s.rerr}
	}
	return false
}

// mismatch is encoding/json's type error: value found where n's type was
// wanted, at off.
func (s *scanner) mismatch(n *node, value string, off int64) bool {
	s.err = &scanError{kind: kType, off: off, field: strings.Join(s.path, "."), value: value, want: n.t}
	return false
}

// charge counts what a value holds once read, in category cat, and
// refuses the file beyond its limit.
func (s *scanner) charge(cat int, n int64) bool {
	s.charged += n
	s.counts[cat]++
	s.charges[cat] += n
	if s.charged > s.limit {
		s.err = &scanError{kind: kDense, off: s.abs(), msg: s.denseWords()}
		return false
	}
	return true
}

// denseWords say which of the file's places holds most, and the limit.
func (s *scanner) denseWords() string {
	top := 0
	for i := range s.charges {
		if s.charges[i] > s.charges[top] {
			top = i
		}
	}
	c := s.sch.cats[top]
	each := ""
	if c.unit > 0 {
		each = ", each counted " + size(c.unit)
	}
	return fmt.Sprintf("by byte %d of %d it holds %d values of %q (%s once read%s) and would hold more than the %s a results file of its size may",
		s.abs(), (s.limit-ReadAllowance)/ReadPerByte, s.counts[top], c.path, size(s.charges[top]), each, size(s.limit))
}

// size says n bytes in KiB, MiB or GiB.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// value scans one value for n (nil: a value no field takes, skipped).
func (s *scanner) value(n *node) bool {
	c, ok := s.space()
	if !ok {
		return s.syntax()
	}
	if n != nil && n.kind == kPtr {
		if c != 'n' && !s.charge(n.cat, n.charge) {
			return false
		}
		n = n.elem
	}
	if n != nil && n.kind == kJSON {
		return s.unmarshaler(n)
	}
	switch {
	case c == '{':
		return s.object(n)
	case c == '[':
		return s.array(n)
	case c == '"':
		return s.str(n)
	case c == 'n':
		return s.word("null")
	case c == 't' || c == 'f':
		w := "true"
		if c == 'f' {
			w = "false"
		}
		if !s.word(w) {
			return false
		}
		if n != nil && n.kind != kSkip && n.kind != kBool {
			return s.mismatch(n, "bool", s.abs())
		}
		return true
	case c == '-' || c >= '0' && c <= '9':
		return s.number(n)
	}
	return s.syntax()
}

// word scans a literal: null, true or false.
func (s *scanner) word(w string) bool {
	for i := range len(w) {
		if s.pos == len(s.buf) && !s.fill() || s.buf[s.pos] != w[i] {
			return s.syntax()
		}
		s.pos++
	}
	return true
}

// unmarshaler hands the value to n's UnmarshalJSON (time.Time) and
// charges what it may hold.
func (s *scanner) unmarshaler(n *node) bool {
	prev, at := s.mark()
	defer s.unmark(prev)
	if !s.value(nil) || !s.charge(n.cat, n.charge) {
		return false
	}
	u := reflect.New(n.t).Interface().(json.Unmarshaler)
	if err := u.UnmarshalJSON(s.since(at)); err != nil {
		s.err = &scanError{kind: kOther, off: at, err: err}
		return false
	}
	return true
}

// number scans a number and checks that n's type takes it.
func (s *scanner) number(n *node) bool {
	prev, at := s.mark()
	exp, ok := s.numberLiteral()
	if !ok || n == nil || n.kind == kSkip || n.kind == kFloat && !exp && s.abs()-at <= 300 {
		s.unmark(prev)
		return ok
	}
	lit := string(s.since(at))
	s.unmark(prev)
	var err error
	switch n.kind {
	case kFloat:
		_, err = strconv.ParseFloat(lit, n.bits)
	case kInt:
		_, err = strconv.ParseInt(lit, 10, n.bits)
	case kUint:
		_, err = strconv.ParseUint(lit, 10, n.bits)
	default:
		return s.mismatch(n, "number", s.abs())
	}
	if err != nil {
		return s.mismatch(n, "number "+lit, s.abs())
	}
	return true
}

// numberLiteral scans a number's literal; exp: with an exponent.
func (s *scanner) numberLiteral() (exp, ok bool) {
	if s.buf[s.pos] == '-' {
		s.pos++
	}
	switch {
	case !s.more():
		return false, s.syntax()
	case s.buf[s.pos] == '0':
		s.pos++
	case s.digits() == 0:
		return false, s.syntax()
	}
	if s.more() && s.buf[s.pos] == '.' {
		s.pos++
		if s.digits() == 0 {
			return false, s.syntax()
		}
	}
	if s.more() && s.buf[s.pos]|0x20 == 'e' {
		s.pos++
		if s.more() && (s.buf[s.pos] == '+' || s.buf[s.pos] == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			return false, s.syntax()
		}
		return true, true
	}
	return false, true
}

// more reports whether a byte is there to read.
func (s *scanner) more() bool { return s.pos < len(s.buf) || s.fill() }

// digits scans decimal digits and counts them.
func (s *scanner) digits() int {
	k := 0
	for s.more() {
		if c := s.buf[s.pos]; c < '0' || c > '9' {
			break
		}
		s.pos++
		k++
	}
	return k
}

// str scans a string and charges its bytes where n keeps them.
func (s *scanner) str(n *node) bool {
	s.pos++ // the opening quote
	length, high := int64(0), int64(0)
	for {
		if s.pos == len(s.buf) && !s.fill() {
			return s.syntax()
		}
		c := s.buf[s.pos]
		switch {
		case c == '"':
			s.pos++
			return s.stringTaken(n, length, high)
		case c == '\\':
			s.pos++
			k, ok := s.escape()
			if !ok {
				return false
			}
			length += k
		case c < 0x20:
			return s.syntax()
		default:
			if c >= 0x80 {
				high++
			}
			s.pos++
			length++
		}
	}
}

// escape scans what follows a backslash; k is the most bytes it stands
// for once unescaped (\uXXXX: 3).
func (s *scanner) escape() (k int64, ok bool) {
	if s.pos == len(s.buf) && !s.fill() {
		return 0, s.syntax()
	}
	switch s.buf[s.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos++
		return 1, true
	case 'u':
		s.pos++
		for range 4 {
			if s.pos == len(s.buf) && !s.fill() {
				return 0, s.syntax()
			}
			c := s.buf[s.pos]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return 0, s.syntax()
			}
			s.pos++
		}
		return 3, true
	}
	return 0, s.syntax()
}

// stringTaken checks that n takes a string and charges its bytes: each
// byte of invalid UTF-8 may become three (U+FFFD).
func (s *scanner) stringTaken(n *node, length, high int64) bool {
	switch {
	case n == nil || n.kind == kSkip:
		return true
	case n.kind != kString:
		return s.mismatch(n, "string", s.abs())
	case length == 0:
		return true
	}
	return s.charge(n.cat, length+2*high)
}

// object scans an object into n: a struct's fields by key, a map's
// entries, or nothing (n nil, or a type error).
func (s *scanner) object(n *node) bool {
	s.pos++ // {
	if s.depth++; s.depth > maxDepth {
		return s.tooDeep()
	}
	defer func() { s.depth-- }()
	if n != nil && n.kind != kSkip && n.kind != kStruct && n.kind != kMap {
		return s.mismatch(n, "object", s.abs())
	}
	var seen uint64
	var keys map[string]bool
	for first := true; ; first = false {
		c, ok := s.space()
		switch {
		case !ok:
			return s.syntax()
		case c == '}' && first:
			s.pos++
			return true
		case !first && c == '}':
			s.pos++
			return true
		case !first && c != ',':
			return s.syntax()
		case !first:
			s.pos++
			if c, ok = s.space(); !ok {
				return s.syntax()
			}
		}
		if c != '"' {
			return s.syntax()
		}
		keyAt := s.abs()
		if !s.readKey() {
			return false
		}
		if c, ok = s.space(); !ok || c != ':' {
			return s.syntax()
		}
		s.pos++
		var ok2 bool
		switch {
		case n == nil || n.kind == kSkip:
			ok2 = s.value(nil)
		case n.kind == kMap:
			ok2 = s.mapEntry(n, &keys, keyAt)
		default:
			ok2 = s.field(n, &seen, keyAt)
		}
		if !ok2 {
			return false
		}
	}
}

// field scans the value of the struct n's key s.key.
func (s *scanner) field(n *node, seen *uint64, keyAt int64) bool {
	i, ok := n.exact[string(s.key)]
	if !ok {
		s.folded = appendFolded(s.folded[:0], s.key)
		i, ok = n.folded[string(s.folded)]
	}
	if !ok {
		return s.value(nil)
	}
	f := n.fields[i]
	if *seen&(1<<i) != 0 {
		as := ""
		if string(s.key) != f.name {
			as = fmt.Sprintf(" (once as %q: a key in another case is the same key)", s.key)
		}
		s.err = &scanError{kind: kTwice, off: keyAt, msg: fmt.Sprintf("%q is given twice%s", strings.Join(append(s.path, f.name), "."), as)}
		return false
	}
	*seen |= 1 << i
	s.path = append(s.path, f.name)
	defer func() { s.path = s.path[:len(s.path)-1] }()
	if s.st == nil || i == n.big || (n != s.sch.root && n != s.sch.run) {
		return s.value(f.n)
	}
	prev, at := s.mark()
	defer s.unmark(prev)
	return s.value(f.n) && (s.st.field(n, f, s.since(at)) || s.sinkRefused())
}

// mapEntry scans the value of the map n's key s.key: the entry holds its
// key and value.
func (s *scanner) mapEntry(n *node, keys *map[string]bool, keyAt int64) bool {
	if *keys == nil {
		*keys = map[string]bool{}
	}
	if (*keys)[string(s.key)] {
		s.err = &scanError{kind: kTwice, off: keyAt, msg: fmt.Sprintf("key %q of %q is given twice", s.key, strings.Join(s.path, "."))}
		return false
	}
	(*keys)[string(s.key)] = true
	if len(*keys) > maxMapKeys {
		s.err = &scanError{kind: kShape, off: keyAt, msg: fmt.Sprintf("%q has more than %d keys", strings.Join(s.path, "."), maxMapKeys)}
		return false
	}
	if !s.charge(n.cat, n.charge+int64(len(s.key))) {
		return false
	}
	return s.value(n.elem)
}

// readKey scans a key into s.key, unescaped.
func (s *scanner) readKey() bool {
	prev, at := s.mark()
	defer s.unmark(prev)
	s.pos++
	escaped := false
	for {
		if s.pos == len(s.buf) && !s.fill() {
			return s.syntax()
		}
		c := s.buf[s.pos]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return s.syntax()
		}
		s.pos++
		if c == '\\' {
			escaped = true
			if _, ok := s.escape(); !ok {
				return false
			}
		}
	}
	s.pos++
	raw := s.since(at)
	if !escaped {
		s.key = append(s.key[:0], raw[1:len(raw)-1]...)
		return true
	}
	var k string
	if err := json.Unmarshal(raw, &k); err != nil {
		return s.syntax()
	}
	s.key = append(s.key[:0], k...)
	return true
}

// array scans an array into n: a slice's elements (each charged), an
// array's, or nothing.
func (s *scanner) array(n *node) bool {
	s.pos++ // [
	if s.depth++; s.depth > maxDepth {
		return s.tooDeep()
	}
	defer func() { s.depth-- }()
	if n != nil && n.kind != kSkip && n.kind != kSlice && n.kind != kArray {
		return s.mismatch(n, "array", s.abs())
	}
	c, ok := s.space()
	if !ok {
		return s.syntax()
	}
	if c == ']' {
		s.pos++
		return true
	}
	for i := 0; ; i++ {
		if !s.element(n, i) {
			return false
		}
		c, ok := s.space()
		switch {
		case !ok:
			return s.syntax()
		case c == ']':
			s.pos++
			return true
		case c != ',':
			return s.syntax()
		}
		s.pos++
	}
}

// element scans element i of the array n.
func (s *scanner) element(n *node, i int) bool {
	var elem *node
	switch {
	case n == nil || n.kind == kSkip:
	case n.kind == kArray:
		if i < n.n {
			elem = n.elem
		}
	default:
		if n.n > 0 && i >= n.n {
			s.err = &scanError{kind: kShape, off: s.abs(), msg: fmt.Sprintf("%q has more than %d values", strings.Join(s.path, "."), n.n)}
			return false
		}
		if !s.charge(n.cat, n.charge) {
			return false
		}
		elem = n.elem
	}
	switch {
	case n == nil:
	case n.runs:
		s.requests = append(s.requests, 0)
	case n.request:
		s.requests[len(s.requests)-1]++
	}
	switch {
	case s.st == nil || n == nil:
		return s.value(elem)
	case n.runs:
		s.st.beginRun()
		return s.value(elem) && s.st.endRun() || s.sinkRefused()
	case n.request:
		prev, at := s.mark()
		defer s.unmark(prev)
		return s.value(elem) && (s.st.request(s.since(at)) || s.sinkRefused())
	}
	return s.value(elem)
}

// sinkRefused stops a scan whose sink refused a part it passed (false).
func (s *scanner) sinkRefused() bool {
	if s.err == nil {
		s.err = &scanError{kind: kSink, off: s.abs()}
	}
	return false
}

// errTooDense is the error of a file refused by its charge.
var errTooDense = errors.New("too dense to read")

// message words a scan's error for the file name, the line and column
// of an offset given by pos.
func (e *scanError) message(name, kind string, pos func(int64) (int, int)) error {
	switch e.kind {
	case kType:
		line, col := pos(e.off)
		return typeError(name, kind, line, col, e.field, e.value, e.want)
	case kTwice, kShape:
		line, col := pos(e.off)
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, e.words())
	case kSyntax:
		line, col := pos(e.off)
		return fmt.Errorf("%s:%d:%d: invalid JSON", name, line, col)
	}
	return fmt.Errorf("%s: %w", name, e.words())
}

// words are the error's words without where it is.
func (e *scanError) words() error {
	switch e.kind {
	case kDense:
		return fmt.Errorf("%w: %s (%d MiB and %d bytes for each byte of the file, docs/performance.md)", errTooDense, e.msg, ReadAllowance>>20, ReadPerByte)
	case kTwice, kShape:
		return fmt.Errorf("%s: not a file latgate wrote", e.msg)
	case kOther, kRead:
		return e.err
	case kType:
		return fmt.Errorf("%q should be a JSON %s, not a JSON %s", e.field, jsonKind(e.want), e.value)
	}
	return errors.New("invalid JSON")
}

// typeError words a value of another type than its key's.
func typeError(name, kind string, line, col int, field, value string, want reflect.Type) error {
	if field == "" {
		return fmt.Errorf("%s: not a latgate %s file: the document is a JSON %s, want a JSON object", name, kind, value)
	}
	return fmt.Errorf("%s:%d:%d: %q should be a JSON %s, not a JSON %s", name, line, col, field, jsonKind(want), value)
}

// positionIn is the line and column of offset off in b.
func positionIn(b []byte) func(int64) (int, int) {
	return func(off int64) (int, int) {
		off = min(off, int64(len(b)))
		line := bytes.Count(b[:off], []byte("\n")) + 1
		return line, int(off) - (bytes.LastIndexByte(b[:off], '\n') + 1) + 1
	}
}

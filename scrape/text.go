package scrape

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/prometheus/common/expfmt"
)

// Bounds on what a text page (Prometheus text, OpenMetrics) hands expfmt's
// parser, which builds every family of the page before it returns the
// first (about 400 bytes a sample and 100 a label: a page of a million
// tiny samples took 71 times its bytes) and checks a sample's labels in
// time and memory quadratic in their number (9 kB a sample of 16 labels,
// 177 kB of 64; a 175 kB line of 20,000 labels took 2.7 min and 18 GB).
// keepWanted gives it only the lines of the wanted families, within these
// bounds.
const (
	MaxTextSamples = 1 << 16 // samples and their labels kept of a page's wanted families
	MaxLabels      = 16      // labels of one sample
)

// lineKind is what keepWanted does with a line of a text page.
type lineKind int

const (
	dropLine   lineKind = iota // blank, a comment, a sample of a family not read
	familyLine                 // a sample, TYPE or HELP of a wanted family
	otherLine                  // not understood: the parser judges it
	nameless                   // labels without a metric name: the page is refused
)

// textFilter classifies the lines of a text page by the wanted family
// they belong to.
type textFilter struct {
	index    map[string]int // wanted family → its place in fams
	fams     []textFamily
	order    []int // fams in the order the page first names them
	other    int   // samples and labels of the other lines
	labels   int   // most labels of an other line
	nameless int   // the first line of labels without a name (from 1), or 0
	line     int   // lines counted
}

// textFamily is what a page holds of one wanted family.
type textFamily struct {
	name    string
	samples int // its lines and their labels
	labels  int // most labels of one of its samples
	seen    bool
	keep    bool
}

// keepWanted is a text page with only the lines of the wanted families
// and those it does not understand (the parser refuses them as before),
// and the page's number of each line kept (for the parser's errors); the
// page is b itself, rewritten in place. A wanted family with a sample of
// over MaxLabels labels, or beyond MaxTextSamples samples and labels with
// the families before it, is left out with a warning; so many lines not
// understood, or one with so many labels, refuse the page.
func keepWanted(b []byte, want map[string]famKind) ([]byte, []int32, []string, error) {
	t := textFilter{index: map[string]int{}}
	for name := range want {
		t.index[name] = len(t.fams)
		t.fams = append(t.fams, textFamily{name: name})
	}
	for rest := b; len(rest) > 0; {
		var l []byte
		l, rest = cutLine(rest)
		t.count(l)
	}
	if t.nameless > 0 {
		// The parser dereferences a nil series on such a line after a
		// TYPE line ("# TYPE x gauge\n{}"): a panic, not an error.
		return nil, nil, nil, fmt.Errorf("line %d: labels without a metric name", t.nameless)
	}
	if t.labels > MaxLabels {
		return nil, nil, nil, fmt.Errorf("a line of %d labels (at most %d are read)", t.labels, MaxLabels)
	}
	if t.other > MaxTextSamples {
		return nil, nil, nil, fmt.Errorf("%d samples and labels on lines that are not a family's samples (at most %d are read)", t.other, MaxTextSamples)
	}
	warnings := t.choose()
	var lines []int32 // at most MaxTextSamples: a line kept counts at least 1
	w := 0
	for r, n := 0, int32(1); r < len(b); n++ {
		l, _ := cutLine(b[r:])
		next := min(r+len(l)+1, len(b)) // with its newline
		if kind, fam, _ := t.classify(l); kind == otherLine || kind == familyLine && t.fams[fam].keep {
			w += copy(b[w:], b[r:next])
			lines = append(lines, n)
		}
		r = next
	}
	return b[:w], lines, warnings, nil
}

// pageLine says a parser's error at the line of the page it is: the
// parser numbers the lines it was given.
func pageLine(err error, lines []int32) error {
	var pe expfmt.ParseError
	if !errors.As(err, &pe) || len(lines) == 0 {
		return err
	}
	pe.Line = int(lines[min(max(pe.Line, 1), len(lines))-1])
	return pe
}

// count adds a line to what the page holds.
func (t *textFilter) count(l []byte) {
	t.line++
	kind, fam, labels := t.classify(l)
	switch kind {
	case nameless:
		if t.nameless == 0 {
			t.nameless = t.line
		}
	case otherLine:
		t.other += 1 + labels
		t.labels = max(t.labels, labels)
	case familyLine:
		f := &t.fams[fam]
		if !f.seen {
			f.seen = true
			t.order = append(t.order, fam)
		}
		f.samples += 1 + labels
		f.labels = max(f.labels, labels)
	}
}

// choose keeps the wanted families, in the page's order, while their
// samples and labels stay within MaxTextSamples, and says which it leaves
// out.
func (t *textFilter) choose() []string {
	var warnings []string
	used := t.other
	for _, i := range t.order {
		f := &t.fams[i]
		switch {
		case f.labels > MaxLabels:
			warnings = append(warnings, fmt.Sprintf("%s has a sample of %d labels (at most %d are read)", f.name, f.labels, MaxLabels))
		case used+f.samples > MaxTextSamples:
			warnings = append(warnings, fmt.Sprintf("%s has %d samples and labels, more than the %d left of the %d read of a page", f.name, f.samples, MaxTextSamples-used, MaxTextSamples))
		default:
			f.keep = true
			used += f.samples
		}
	}
	return warnings
}

// cutLine splits b at its first newline.
func cutLine(b []byte) (line, rest []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// classify says what a line is: a line of wanted family fam (a sample of
// labels labels, or its TYPE or HELP), one to drop, or one not understood.
func (t *textFilter) classify(l []byte) (kind lineKind, fam, labels int) {
	l = blanks(l)
	switch {
	case len(l) == 0:
		return dropLine, 0, 0
	case l[0] == '#':
		return t.comment(l[1:])
	}
	if l[0] == '{' && quotedName(l) == nil {
		return nameless, 0, 0
	}
	name, labels, ok := sample(l)
	if !ok {
		return otherLine, 0, labels
	}
	if fam = t.family(name, true); fam < 0 {
		return dropLine, 0, 0
	}
	return familyLine, fam, labels
}

// comment classifies a comment line (after its #): the TYPE or HELP of
// a wanted family is kept, any other comment dropped (the parser ignores
// it, or its family is not read).
func (t *textFilter) comment(l []byte) (lineKind, int, int) {
	keyword, rest := token(blanks(l))
	if string(keyword) != "TYPE" && string(keyword) != "HELP" {
		return dropLine, 0, 0
	}
	name, _ := token(blanks(rest))
	if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
		name = name[1 : len(name)-1]
	}
	if fam := t.family(name, false); fam >= 0 {
		return familyLine, fam, 0
	}
	return dropLine, 0, 0
}

// family is the wanted family a name belongs to (with the suffix of a
// histogram's series when suffixes), or -1.
func (t *textFilter) family(name []byte, suffixes bool) int {
	if i, ok := t.index[string(name)]; ok {
		return i
	}
	if !suffixes {
		return -1
	}
	for _, suffix := range [...]string{"_bucket", "_sum", "_count"} {
		base := len(name) - len(suffix)
		if base <= 0 || string(name[base:]) != suffix {
			continue
		}
		if i, ok := t.index[string(name[:base])]; ok {
			return i
		}
	}
	return -1
}

// token is b up to its first blank.
func token(b []byte) (tok, rest []byte) {
	for i, c := range b {
		if c == ' ' || c == '\t' {
			return b[:i], b[i:]
		}
	}
	return b, nil
}

// blanks is b without its leading spaces and tabs.
func blanks(b []byte) []byte {
	for i, c := range b {
		if c != ' ' && c != '\t' {
			return b[i:]
		}
	}
	return nil
}

// sample reads a sample line: its metric name (bare, or quoted first
// inside the braces), the number of its labels, and whether it reads as a
// sample at all (a name, its labels closed, a value that begins as a
// number). labels counts the = outside quotes, also of a line that does
// not read.
func sample(l []byte) (name []byte, labels int, ok bool) {
	i := 0
	for i < len(l) && nameByte(l[i], i == 0) {
		i++
	}
	name, rest := l[:i], blanks(l[i:])
	if i > 0 && len(rest) == len(l)-i && len(rest) > 0 && rest[0] != '{' {
		return nil, 0, false // the name runs into what is not a name
	}
	if len(rest) > 0 && rest[0] == '{' {
		var closed bool
		labels, rest, closed = labelBlock(rest)
		if !closed {
			return nil, labels, false
		}
		if len(name) == 0 {
			name = quotedName(l)
		}
	}
	rest = blanks(rest)
	if len(name) == 0 || len(rest) == 0 || !numberByte(rest[0]) {
		return nil, labels, false
	}
	return name, labels, true
}

// numberByte reports whether c may begin a sample's value (a number,
// NaN, ±Inf).
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' || c == 'N' || c == 'I'
}

// nameByte reports whether c may be in a bare metric name.
func nameByte(c byte, first bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9'
}

// labelBlock reads {…} from b[0]: the number of = outside quotes, what
// follows the closing brace, and whether there is one.
func labelBlock(b []byte) (labels int, rest []byte, closed bool) {
	quoted := false
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '=':
			labels++
		case c == '}':
			return labels, b[i+1:], true
		}
	}
	return labels, nil, false
}

// quotedName is the quoted metric name that opens a sample's braces
// ({"name", …}), as the page writes it; nil when there is none.
func quotedName(l []byte) []byte {
	b := blanks(l[1:])
	if len(b) == 0 || b[0] != '"' {
		return nil
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return b[1:i]
		}
	}
	return nil
}

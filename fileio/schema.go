package fileio

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/latgate/latgate/results"
)

// kind is what a value of the results file decodes into, as encoding/json
// decodes it (scan.go mirrors it).
type kind uint8

const (
	kSkip   kind = iota // a key that matches no field: any value, skipped
	kStruct             // fields by key
	kMap                // map[string]T
	kSlice              // []T: each element charged (at most max of them)
	kArray              // [N]T: elements beyond N skipped
	kPtr                // *T: a value allocates a T (null: none)
	kString
	kFloat
	kInt
	kUint
	kBool
	kJSON // a json.Unmarshaler (time.Time): its value handed to it
)

// node is one place of the results file's schema, derived from the Go
// types (results.File) as encoding/json sees them: what JSON kind it takes,
// and what decoding a value there holds in memory (charge, cat).
type node struct {
	kind   kind
	t      reflect.Type // the type decoded into (a type error names it)
	elem   *node        // kSlice, kArray, kMap, kPtr
	n      int          // kArray's length; kSlice's most elements (0: any)
	bits   int          // kFloat, kInt, kUint
	fields []field      // kStruct
	exact  map[string]int
	folded map[string]int
	// charge is what one element of a slice, one entry of a map (beyond
	// its key and value) or the allocation of a pointer holds once read;
	// cat is the category its charges count in.
	charge int64
	cat    int
	// Streaming (Stream): the struct's known fields other than big are
	// gathered (the file's, a run's); a slice of runs or of requests.
	big           int
	runs, request bool
}

type field struct {
	name  string
	index int // of the struct's field
	n     *node
}

// category is a place whose values are charged: a slice's elements, a
// map's entries, a pointer's allocations, a string's bytes.
type category struct {
	path string
	// unit is the charge per element, entry or allocation (strings: 0,
	// their bytes).
	unit int64
}

// Charges of a results file's units beyond their decoded size: what a
// reader builds from each (a comparison's samples and digest of a run, a
// search's replay) besides the values themselves; Read decodes the runs
// and requests into slices of their count. Another slice's element is
// charged twice its size when its count is bounded (mostElements), four
// times otherwise: encoding/json grows a slice a quarter at a time
// (doubling it while small), the old array and the new both held while it
// grows and the old ones until the collector frees them (measured: a
// slice of steps grown to 67 MB took 190 MB). Gaps (results.Gaps) are
// decoded into a slice of their count, 8 bytes each.
const (
	requestCharge = 1 << 10
	runCharge     = 32 << 10
	searchCharge  = 64 << 10
	// mapEntryCharge is a map entry's slot, control byte and growth room
	// (a map[string]string holds 32 bytes a slot, up to twice the slots).
	mapEntryCharge = 80
	// jsonCharge is what a json.Unmarshaler's value may hold (time.Time:
	// a zone of its own for an offset).
	jsonCharge = 512
	// stringCharge is a string element of a slice: its header twice (the
	// slice growing), the smallest allocation of its bytes, and the work
	// of unescaping it (a note, a tool's name).
	stringCharge = 64
)

// unitCharges are the charges of the results file's units, by path.
var unitCharges = map[string]int64{"runs": runCharge, "runs.requests": requestCharge, "capacity": searchCharge}

// mostElements bounds the slices that validation bounds, so that a file
// beyond them is refused before it is decoded.
var mostElements = map[string]int{
	"runs.requests.page_timeline.painted":  results.MaxTimelinePoints,
	"runs.requests.page_timeline.received": results.MaxTimelinePoints,
	"runs.requests.screenshots":            results.MaxShots,
}

// Bounds of any results file's shape: no map of latgate's has more keys
// (fingerprint_parts, an import's derived values), and none of its values
// is nested as deep (an unknown key's value included).
const (
	maxMapKeys = 1024
	maxDepth   = 64
)

// schema is the results file's, built once.
type schema struct {
	root, run *node
	cats      []category
}

var resultsSchema = buildSchema()

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func buildSchema() *schema {
	s := &schema{}
	s.root = s.build(reflect.TypeFor[results.File](), "")
	runs := s.root.fields[s.root.exact["runs"]].n
	s.run = runs.elem
	runs.runs = true
	s.root.big = s.root.exact["runs"]
	s.run.big = s.run.exact["requests"]
	s.run.fields[s.run.big].n.request = true
	return s
}

// category adds a category of charges at path.
func (s *schema) category(path string, unit int64) int {
	s.cats = append(s.cats, category{path: path, unit: unit})
	return len(s.cats) - 1
}

// build is the node of type t at path (the JSON keys from the root, dotted,
// as encoding/json names a field in its type errors). It panics on a type
// the scan does not mirror: a test builds the schema.
func (s *schema) build(t reflect.Type, path string) *node {
	n := &node{t: t}
	switch {
	case t == reflect.TypeFor[results.Gaps]():
		n.kind, n.charge = kSlice, 8
		n.elem = &node{kind: kFloat, t: t.Elem(), bits: 64}
		n.cat = s.category(path, n.charge)
		return n
	case reflect.PointerTo(t).Implements(unmarshalerType):
		n.kind, n.charge = kJSON, jsonCharge
		n.cat = s.category(path, jsonCharge)
		return n
	case reflect.PointerTo(t).Implements(textUnmarshalerType):
		panic(fmt.Sprintf("fileio: %s at %q decodes as text: the scan does not mirror it", t, path))
	}
	switch t.Kind() {
	case reflect.Struct:
		n.kind = kStruct
		s.structFields(n, t, path)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			panic(fmt.Sprintf("fileio: a map of %s keys at %q", t.Key(), path))
		}
		n.kind, n.charge = kMap, mapEntryCharge
		n.cat = s.category(path, mapEntryCharge)
		n.elem = s.build(t.Elem(), path)
		n.elem.cat = n.cat
	case reflect.Slice:
		n.kind, n.n = kSlice, mostElements[path]
		n.elem = s.build(t.Elem(), path)
		switch size := int64(t.Elem().Size()); {
		case n.elem.kind == kString:
			n.charge = stringCharge
		case unitCharges[path] > 0 || n.n > 0:
			n.charge = max(2*size, unitCharges[path])
		default:
			n.charge = 4 * size
		}
		n.cat = s.category(path, n.charge)
		if n.elem.kind == kString {
			n.elem.cat = n.cat
		}
	case reflect.Array:
		n.kind, n.n = kArray, t.Len()
		n.elem = s.build(t.Elem(), path)
	case reflect.Pointer:
		n.kind = kPtr
		n.elem = s.build(t.Elem(), path)
		n.charge = allocated(t.Elem().Size())
		n.cat = s.category(path, n.charge)
	case reflect.String:
		n.kind = kString
		n.cat = s.category(path, 0)
	case reflect.Float32, reflect.Float64:
		n.kind, n.bits = kFloat, t.Bits()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.kind, n.bits = kInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n.kind, n.bits = kUint, t.Bits()
	case reflect.Bool:
		n.kind = kBool
	default:
		panic(fmt.Sprintf("fileio: %s at %q: the scan does not mirror its decoding", t, path))
	}
	return n
}

// structFields gives n the fields of struct t as encoding/json matches
// keys to them: the exact name, else the name folded.
func (s *schema) structFields(n *node, t reflect.Type, path string) {
	n.exact, n.folded = map[string]int{}, map[string]int{}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous || strings.Contains(","+opts+",", ",string,") {
			panic(fmt.Sprintf("fileio: field %s of %s: the scan does not mirror embedded or ,string fields", sf.Name, t))
		}
		if name == "" {
			name = sf.Name
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		n.exact[name] = len(n.fields)
		n.folded[string(foldName([]byte(name)))] = len(n.fields)
		n.fields = append(n.fields, field{name: name, index: i, n: s.build(sf.Type, p)})
	}
	if len(n.fields) > 64 {
		panic(fmt.Sprintf("fileio: %s has %d fields: the scan keeps which it saw in 64 bits", t, len(n.fields)))
	}
}

// allocated is what an allocation of size bytes takes: Go's size classes
// round it up by at most an eighth above 16 bytes.
func allocated(size uintptr) int64 {
	n := int64(size)
	if n <= 16 {
		return max(8, (n+7)&^7)
	}
	return (n + n/8 + 15) &^ 15
}

// foldName is encoding/json's: how it matches a key to a field regardless
// of case (its fold.go).
func foldName(in []byte) []byte { return appendFolded(make([]byte, 0, len(in)), in) }

// appendFolded appends in, folded, to out.
func appendFolded(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return out
}

// foldRune is the smallest rune of r's fold set.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

package suite

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/internal/didyoumean"
)

// The file is parsed once into a yaml.Node tree. A walk of that tree
// against the raw structs' yaml tags finds unknown keys (with a "did you
// mean") and records every key's line and dotted path; Node.Decode then
// fills the raw structs, and its type errors are traced back to the key
// through the recorded value lines.

// shaper is a raw type whose accepted keys depend on the node: it returns
// the type that the node decodes into (a struct for a mapping node), or nil
// for a node not to check further.
type shaper interface {
	shape(n *yaml.Node) reflect.Type
}

// freeForm marks a raw type whose contents are not checked key by key
// (a request body template, budgets, goodput).
type freeForm interface{ freeForm() }

// keyInfo is one mapping key of the document.
type keyInfo struct {
	path      string // dotted, without sequence indices: "scenarios.requests"
	line      int    // the key's line
	valueLine int
	value     string // the value's text for scalars
	kind      yaml.Kind
}

type docIndex struct {
	keys  []keyInfo
	lines map[string]int // "scenarios[0].rate" → line of the key; "scenarios[0]" → the item's line
	errs  []*Error
	seen  int // nodes visited, bounded against alias bombs
}

const maxNodes = 200000

var (
	shaperType   = reflect.TypeFor[shaper]()
	freeFormType = reflect.TypeFor[freeForm]()
	nodeType     = reflect.TypeFor[yaml.Node]()
)

// yamlKeys lists a struct's yaml keys in field order.
func yamlKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func yamlName(f reflect.StructField) string {
	tag := f.Tag.Get("yaml")
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	return name
}

func fieldByKey(t reflect.Type, key string) (reflect.Type, bool) {
	for i := range t.NumField() {
		if yamlName(t.Field(i)) == key {
			return t.Field(i).Type, true
		}
	}
	return nil, false
}

func (x *docIndex) walk(file string, n *yaml.Node, t reflect.Type, path, ipath string) {
	x.seen++
	if x.seen > maxNodes {
		if x.seen == maxNodes+1 {
			x.errs = append(x.errs, &Error{File: file, Line: n.Line, Msg: "the document is too large or uses too many aliases"})
		}
		return
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias != nil {
			x.walk(file, n.Alias, t, path, ipath)
		}
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nodeType || reflect.PointerTo(t).Implements(freeFormType) {
		return
	}
	if reflect.PointerTo(t).Implements(shaperType) {
		st := reflect.New(t).Interface().(shaper).shape(n)
		if st == nil {
			return
		}
		t = st
	}
	if isInt(t) && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" {
		// Node.Decode truncates 12.9 into an int field: a fraction for a
		// count is a mistake to point at, not to round.
		var f float64
		if n.Decode(&f) == nil && f != math.Trunc(f) && !math.IsInf(f, 0) {
			x.errs = append(x.errs, &Error{File: file, Line: n.Line, Msg: fmt.Sprintf("%s: want %s, got %q", path, want(path, t.String()), n.Value)})
		}
		return
	}
	if t.Kind() == reflect.Bool && n.Kind == yaml.ScalarNode && n.ShortTag() != "!!bool" {
		// Node.Decode takes YAML 1.1's yes, no, on and off as booleans; a
		// quoted "true" is a string. Only true and false are.
		msg := fmt.Sprintf("%s: want true or false, got %q", path, n.Value)
		if v := strings.ToLower(n.Value); v == "true" || v == "false" {
			msg += " (a quoted string: write it without quotes)"
		}
		x.errs = append(x.errs, &Error{File: file, Line: n.Line, Msg: msg})
		return
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		x.walkStruct(file, n, t, path, ipath)
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			ip := fmt.Sprintf("%s[%d]", ipath, i)
			x.lines[ip] = item.Line
			x.keys = append(x.keys, keyInfo{path: path, line: item.Line, valueLine: item.Line, value: item.Value, kind: item.Kind})
			x.walk(file, item, t.Elem(), path, ip)
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			kp, kip := join(path, k.Value), join(ipath, k.Value)
			x.lines[kip] = k.Line
			x.keys = append(x.keys, keyInfo{path: kp, line: k.Line, valueLine: v.Line, value: v.Value, kind: v.Kind})
			x.walk(file, v, t.Elem(), kp, kip)
		}
	}
}

// walkStruct walks a mapping decoded into the struct type t: every key
// must be one of its fields (or a "<<" merge).
func (x *docIndex) walkStruct(file string, n *yaml.Node, t reflect.Type, path, ipath string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.ShortTag() == "!!merge" { // <<: *defaults
			x.walkMerge(file, v, t, path, ipath)
			continue
		}
		kp, kip := join(path, k.Value), join(ipath, k.Value)
		x.lines[kip] = k.Line
		ft, ok := fieldByKey(t, k.Value)
		if !ok {
			x.errs = append(x.errs, &Error{File: file, Line: k.Line, Msg: unknownKey(k.Value, path, t)})
			continue
		}
		x.keys = append(x.keys, keyInfo{path: kp, line: k.Line, valueLine: v.Line, value: v.Value, kind: v.Kind})
		x.walk(file, v, ft, kp, kip)
	}
}

// unknownKey says that key is not a field of t (at path), suggesting the
// nearest one or listing them.
func unknownKey(key, path string, t reflect.Type) string {
	msg := fmt.Sprintf("unknown key %q", key)
	if path != "" {
		msg += " in " + path
	}
	if s := didyoumean.Suggest(key, yamlKeys(t)); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		msg += " (valid: " + strings.Join(yamlKeys(t), ", ") + ")"
	}
	return msg
}

// walkMerge checks the mappings merged into a struct by "<<".
func (x *docIndex) walkMerge(file string, v *yaml.Node, t reflect.Type, path, ipath string) {
	if v.Kind == yaml.SequenceNode {
		for _, item := range v.Content {
			x.walk(file, item, t, path, ipath)
		}
		return
	}
	x.walk(file, v, t, path, ipath)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// names lists names for a message: "a, b, c".
func names[S ~string](list []S) string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return strings.Join(out, ", ")
}

var (
	lineRE      = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unmarshalRE = regexp.MustCompile("^cannot unmarshal !!(\\w+)(?: `(.*)`)? into (.+)$")
)

// syntaxError turns a yaml parse error into file:line: message. For a
// mis-indented line the YAML parser names the line where the enclosing
// block began (a scenario's key points at scenarios:), so the line is then
// the first whose lines up to it fail with the same problem (badLine).
func syntaxError(path string, data []byte, err error) *Error {
	msg := err.Error()
	m := lineRE.FindStringSubmatch(msg)
	if m == nil {
		return &Error{File: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
	}
	line, _ := strconv.Atoi(m[1])
	problem := m[2]
	if problem == "did not find expected key" || problem == "did not find expected '-' indicator" {
		if bad := badLine(data, problem); bad > line {
			line = bad
		}
		problem = "this line is indented unlike the lines around it (" + problem + ")"
	}
	return &Error{File: path, Line: line, Msg: "YAML syntax: " + problem}
}

// maxBisect is the largest document badLine searches (about 20 parses of
// it); a suite is a few kilobytes.
const maxBisect = 1 << 20

// badLine is the first line (from 1) such that the document cut after it
// fails to parse with problem, found by bisection (the parser reads from
// the top, so every longer cut fails there too), 0 when none does. A cut
// inside a flow mapping or a quoted string fails with another problem.
func badLine(data []byte, problem string) int {
	if len(data) > maxBisect {
		return 0
	}
	lines := strings.SplitAfter(string(data), "\n")
	fails := func(n int) bool {
		err := yaml.Unmarshal([]byte(strings.Join(lines[:n], "")), new(yaml.Node))
		if err == nil {
			return false
		}
		m := lineRE.FindStringSubmatch(err.Error())
		return m != nil && m[2] == problem
	}
	n := sort.Search(len(lines), func(i int) bool { return fails(i + 1) }) + 1
	if n > len(lines) || !fails(n) {
		return 0
	}
	return n
}

// typeError turns a Node.Decode error into file:line: key: what was wanted.
func (x *docIndex) typeError(path string, err error) []*Error {
	var msgs []string
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var out []*Error
	for _, msg := range msgs {
		m := lineRE.FindStringSubmatch(msg)
		if m == nil {
			out = append(out, &Error{File: path, Msg: strings.TrimPrefix(msg, "yaml: ")})
			continue
		}
		line, _ := strconv.Atoi(m[1])
		text := m[2]
		if u := unmarshalRE.FindStringSubmatch(text); u != nil {
			tag, value, into := u[1], u[2], u[3]
			key := x.keyAt(line, tag, value)
			got := value
			switch tag {
			case "seq":
				got = "a list"
			case "map":
				got = "a mapping"
			default:
				got = strconv.Quote(value)
			}
			text = fmt.Sprintf("want %s, got %s", want(key, into), got)
			if key != "" {
				text = key + ": " + text
			}
		}
		out = append(out, &Error{File: path, Line: line, Msg: text})
	}
	return out
}

// keyAt finds the key whose value is at line (several keys can share a
// line in a flow mapping: the value's text decides).
func (x *docIndex) keyAt(line int, tag, value string) string {
	prefix := strings.TrimSuffix(value, "...")
	var fallback string
	for _, k := range x.keys {
		if k.valueLine != line {
			continue
		}
		switch {
		case tag == "seq" && k.kind == yaml.SequenceNode, tag == "map" && k.kind == yaml.MappingNode:
			return k.path
		case k.kind == yaml.ScalarNode && value != "" && (k.value == value || strings.HasPrefix(k.value, prefix) && strings.HasSuffix(value, "...")):
			return k.path
		}
		if fallback == "" {
			fallback = k.path
		}
	}
	return fallback
}

// want says what a key of a Go type takes, for "want …, got …".
func want(key, goType string) string {
	w := describeType(goType)
	if key == "scenarios.requests" {
		w += " or a range such as {min: 40, max: 200}"
	}
	return w
}

func isInt(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

func describeType(goType string) string {
	goType = strings.TrimPrefix(goType, "*")
	switch {
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case goType == "string", goType == "suite.scalar":
		return "a single value"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["), strings.HasPrefix(goType, "suite.raw"):
		return "a mapping"
	}
	return goType
}

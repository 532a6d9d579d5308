package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"
)

// wallClock are the functions of package time that read the wall clock or
// start a timer: probe and sim take their time from internal/clock (a
// virtual clock in tests), so a latency they measure or inject is never
// the machine's.
var wallClock = []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "NewTimer", "Tick", "NewTicker"}

// clockCalls are the uses of those functions in a file (calls, and
// function values such as now := time.Now), wherever package time is
// imported and by whatever name.
func clockCalls(f *ast.File) []string {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
			name := "time"
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = true
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] && slices.Contains(wallClock, sel.Sel.Name) {
			out = append(out, id.Name+"."+sel.Sel.Name)
		}
		return true
	})
	return out
}

// TestProbeAndSimRunOnTheirClock: no file of probe or sim (but their
// tests) reads the wall clock or starts a timer of its own: internal/clock
// is the one clock (docs/architecture.md).
func TestProbeAndSimRunOnTheirClock(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, rel := range goFiles(t, root, "probe", "sim") {
		if calls := clockCalls(parseFile(t, root, rel)); len(calls) > 0 {
			t.Errorf("%s uses %v: take the time from internal/clock (Prober.Clock, Server.Clock)", rel, calls)
		}
	}
}

// TestClockCallsFound: the check above finds a call, a function value and
// a renamed import, and not a method of the same name or another package's.
func TestClockCallsFound(t *testing.T) {
	t.Parallel()
	src := `package x
import (
	t "time"
	"other"
)
func f(c clock) {
	_ = t.Now()
	now := t.Since
	<-t.After(1)
	c.Now()
	other.Sleep(1)
	_ = now
	_ = t.Duration(1)
}`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := clockCalls(f), []string{"t.Now", "t.Since", "t.After"}; !slices.Equal(got, want) {
		t.Errorf("clockCalls = %v, want %v", got, want)
	}
}

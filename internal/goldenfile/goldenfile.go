// Package goldenfile compares what a test produced with its golden file
// under testdata/ and, when the test runs with -update, rewrites the file
// instead; a mismatch is shown as a diff.
package goldenfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check compares got with the golden file at path; with update it writes
// got there (creating its folder) and passes.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (rerun with -update if the change is intended):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff shows how got differs from want, line by line ("-" want, "+" got,
// two lines of context around each change, at most 80 lines), from a
// longest common subsequence of the lines.
func Diff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops, i, j = append(ops, line{' ', a[i]}), i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			ops, j = append(ops, line{'+', b[j]}), j+1
		default:
			ops, i = append(ops, line{'-', a[i]}), i+1
		}
	}
	var out []string
	for k, l := range ops {
		near := false
		for d := -2; d <= 2; d++ {
			if k+d >= 0 && k+d < len(ops) && ops[k+d].op != ' ' {
				near = true
			}
		}
		if near {
			out = append(out, string(l.op)+" "+l.text)
		}
		if len(out) == 80 {
			return strings.Join(append(out, "…"), "\n")
		}
	}
	return strings.Join(out, "\n")
}

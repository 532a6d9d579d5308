package arch

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/latgate/latgate/"

// allowed reads the table of docs/architecture.md: package → the latgate
// packages it may import.
func allowed(t *testing.T, root string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile("`([a-z/]+)`")
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue // not a package row: | package | owns | may import | will not |
		}
		var may []string
		for _, m := range code.FindAllStringSubmatch(cells[3], -1) {
			may = append(may, m[1])
		}
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			out[m[1]] = may
		}
	}
	if len(out) < 10 {
		t.Fatalf("read %d packages from docs/architecture.md: is the table still there?", len(out))
	}
	return out
}

// TestImportsFollowTheMap: every package of the module is in the table of
// docs/architecture.md and imports only what its row allows.
func TestImportsFollowTheMap(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	table := allowed(t, root)
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		may, ok := table[pkg]
		if !ok {
			t.Errorf("package %s is not in the table of docs/architecture.md", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if dep, ours := strings.CutPrefix(imp, module); ours && !slices.Contains(may, dep) {
				t.Errorf("%s imports %s, which its row in docs/architecture.md does not allow", pkg, dep)
			}
		}
	}
}

package arch

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/apis"
	_ "github.com/latgate/latgate/probe" // its api_NAME.go files register the APIs
)

// ownAPI is the API a file belongs to: NAME of probe/api_NAME.go and
// sim/api_NAME.go (an API's name without its dashes), "" for any other.
func ownAPI(rel string) string {
	dir, file := path.Split(rel)
	if dir != "probe/" && dir != "sim/" {
		return ""
	}
	name, ok := strings.CutPrefix(strings.TrimSuffix(file, ".go"), "api_")
	if !ok {
		return ""
	}
	return name
}

// foreignAPIs are the APIs of names that a file's string literals name,
// other than its own.
func foreignAPIs(literals []string, own string, names []string) []string {
	var out []string
	for _, v := range literals {
		if slices.Contains(names, v) && strings.ReplaceAll(v, "-", "") != own && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// TestAPIsAreNamedInTheirOwnFiles: no file of the program lists APIs (two
// or more of their names as string literals) outside the APIs' own files,
// probe/api_NAME.go and sim/api_NAME.go: every list of the APIs is derived
// from the registry (docs/architecture.md, "Adding an API").
func TestAPIsAreNamedInTheirOwnFiles(t *testing.T) {
	t.Parallel()
	root, names := repoRoot(t), apis.Names()
	if len(names) < 2 {
		t.Fatalf("the registry holds %v", names)
	}
	for _, rel := range goFiles(t, root) {
		if found := foreignAPIs(stringLiterals(parseFile(t, root, rel)), ownAPI(rel), names); len(found) >= 2 {
			t.Errorf("%s names the APIs %s: derive the list from package apis (or a registry), or move the code to each API's file", rel, strings.Join(found, ", "))
		}
	}
}

// TestForeignAPIsCounts: the check above finds a list in a switch, and
// allows one name (a word that is also an API's) and an API's own file.
func TestForeignAPIsCounts(t *testing.T) {
	t.Parallel()
	src := `package x
func f(api string) int {
	switch api {
	case "anthropic":
		return 1
	case "gemini", "chat":
		return 2
	}
	return 0
}`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"chat", "anthropic", "gemini", "ai-sdk"}
	lits := stringLiterals(f)
	for _, tt := range []struct {
		own  string
		lits []string
		want int
	}{{"", lits, 3}, {"gemini", lits, 2}, {"", []string{"chat", "chat"}, 1}, {"aisdk", []string{"ai-sdk", "chat"}, 1}} {
		if got := foreignAPIs(tt.lits, tt.own, names); len(got) != tt.want {
			t.Errorf("own %q, literals %v: %v, want %d names", tt.own, tt.lits, got, tt.want)
		}
	}
	if ownAPI("probe/api_aisdk.go") != "aisdk" || ownAPI("sim/api_chat.go") != "chat" || ownAPI("gate/api_chat.go") != "" || ownAPI("probe/api.go") != "" {
		t.Error("ownAPI")
	}
}

// TestEveryAPIHasItsFileAndDocs: each registered API is its file
// probe/api_NAME.go, and has its row in docs/config.md's table of APIs and
// a section in docs/metrics.md's "Which event sets each metric, per API".
func TestEveryAPIHasItsFileAndDocs(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	config, metrics := read("docs/config.md"), read("docs/metrics.md")
	for _, s := range apis.All() {
		file := "probe/api_" + strings.ReplaceAll(s.Name, "-", "") + ".go"
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			t.Errorf("api %s: no %s", s.Name, file)
		}
		row := "| `" + s.Name + "` |"
		if !strings.Contains(config, row) {
			t.Errorf("api %s: no row %s in docs/config.md", s.Name, row)
		}
		if !strings.Contains(metrics, "\n### `"+s.Name+"` — ") {
			t.Errorf("api %s: docs/metrics.md has no section \"### `%s` — …\" saying which event sets each metric", s.Name, s.Name)
		}
	}
}

package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigDocExamples parses every YAML example of docs/config.md: an
// endpoint (a block starting "  - name:") with a one-line scenario, a
// scenarios block with the simulator's endpoint. An example a reader
// copies must be one latgate accepts.
func TestConfigDocExamples(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(string(doc), "```yaml\n")
	n := 0
	for _, part := range parts[1:] {
		block, _, ok := strings.Cut(part, "```")
		if !ok {
			t.Fatal("docs/config.md: an unterminated ```yaml block")
		}
		var file string
		switch {
		case strings.HasPrefix(block, "  - name:"):
			file = "endpoints:\n" + block + "scenarios:\n  - {name: s, prompt: hi}\n"
		case strings.HasPrefix(block, "scenarios:"):
			file = "endpoints:\n  - {name: sim, base_url: \"http://127.0.0.1:8080/v1\", model: fast}\n" + block
		default:
			continue // a comment line, not a suite
		}
		n++
		if _, err := Parse("latgate.yaml", []byte(file), Options{ReadFile: os.ReadFile, Getenv: docEnv}); err != nil {
			t.Errorf("docs/config.md example %d does not parse:\n%s\n%v", n, block, err)
		}
	}
	if n < 4 {
		t.Errorf("parsed %d examples of docs/config.md, want at least 4 (ollama-native, the AI SDK by hand, an agent service, a session scenario)", n)
	}
}

// docEnv is the environment the examples of docs/config.md are read in: a
// URL for each ${…_URL}, x for any other variable.
func docEnv(k string) string {
	if strings.HasSuffix(k, "_URL") {
		return "http://127.0.0.1:8000"
	}
	return "x"
}

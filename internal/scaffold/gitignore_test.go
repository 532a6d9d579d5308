package scaffold

import (
	"strings"
	"testing"
)

func TestIgnoreLines(t *testing.T) {
	t.Parallel()
	outputs := []string{"results.json", "latgate-report.md", "latgate-baseline/"}
	for _, tt := range []struct {
		name, have, want string
	}{
		{"no .gitignore", "", "# latgate's outputs (latgate run, ab, gate): measured again on every run, not committed\n/results.json\n/latgate-report.md\n/latgate-baseline/\n"},
		{"some already, another way", "node_modules/\nresults.json\n/latgate-baseline\n", "\n# latgate's outputs (latgate run, ab, gate): measured again on every run, not committed\n/latgate-report.md\n"},
		{"no final newline", "dist", "\n\n# latgate's outputs (latgate run, ab, gate): measured again on every run, not committed\n/results.json\n/latgate-report.md\n/latgate-baseline/\n"},
		{"all already", "/results.json\r\n/latgate-report.md\r\n/latgate-baseline/\r\n", ""},
	} {
		got, lines := IgnoreLines(tt.have, outputs)
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
		if n := strings.Count(got, "\n/"); n != len(lines) {
			t.Errorf("%s: %d lines added, %d said", tt.name, n, len(lines))
		}
		// Appended again, nothing more is added.
		if again, _ := IgnoreLines(tt.have+got, outputs); again != "" {
			t.Errorf("%s: a second init adds %q", tt.name, again)
		}
	}
}

func TestWithComment(t *testing.T) {
	t.Parallel()
	got := WithComment("# head\n# more\nendpoints: []\n", []string{"one", "  two", ""})
	if want := "# head\n# more\n# one\n#   two\n#\nendpoints: []\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := WithComment("a: 1\n", []string{"x"}); got != "# x\na: 1\n" {
		t.Errorf("no opening comment: %q", got)
	}
}

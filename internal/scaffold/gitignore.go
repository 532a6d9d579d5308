package scaffold

import (
	"slices"
	"strings"
)

// Gitignore is the file init adds latgate's outputs to.
const Gitignore = ".gitignore"

// IgnoreLines is what to append to a .gitignore whose text is text (""
// for none) so that it ignores outputs, paths relative to its folder with
// "/" (a folder with a trailing one): a comment and a line per output it
// does not ignore yet, each anchored (/results.json), "" when it ignores
// them all already; and those lines. The file's own lines are never
// changed.
func IgnoreLines(text string, outputs []string) (string, []string) {
	have := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range have {
		have[i] = strings.TrimSpace(l)
	}
	var add []string
	for _, o := range outputs {
		anchored := "/" + strings.TrimPrefix(o, "/")
		if !slices.Contains(have, anchored) && !slices.Contains(have, o) && !slices.Contains(have, strings.TrimSuffix(anchored, "/")) {
			add = append(add, anchored)
		}
	}
	if len(add) == 0 {
		return "", nil
	}
	lead := ""
	if text != "" && !strings.HasSuffix(text, "\n") {
		lead = "\n"
	}
	if text != "" {
		lead += "\n"
	}
	return lead + "# latgate's outputs (latgate run, ab, gate): measured again on every run, not committed\n" + strings.Join(add, "\n") + "\n", add
}

package scaffold

import "strings"

// WithComment puts lines into a suite as a comment block after its
// opening comments (before its first key), each line "# " and the text
// ("#" alone for an empty one).
func WithComment(cfg string, lines []string) string {
	if len(lines) == 0 {
		return cfg
	}
	var block strings.Builder
	for _, l := range lines {
		block.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	at := 0
	for at < len(cfg) && cfg[at] == '#' {
		nl := strings.IndexByte(cfg[at:], '\n')
		if nl < 0 {
			at = len(cfg)
			break
		}
		at += nl + 1
	}
	return cfg[:at] + block.String() + cfg[at:]
}

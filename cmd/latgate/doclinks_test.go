package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestDocLinks: every relative link of README.md and docs/ names a file
// or folder of this repository (never one outside it), and every #anchor
// names a heading of its Markdown file, as GitHub forms the anchors: the
// README sends readers to docs/, so a moved section must leave no link
// behind.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = headingAnchors(string(b))
		return anchors[path]
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		for _, l := range markdownLinks(string(b)) {
			target, anchor, _ := strings.Cut(l.dest, "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path := f
			if target != "" {
				if filepath.IsAbs(target) {
					t.Errorf("%s:%d: %s is an absolute path", rel, l.line, l.dest)
					continue
				}
				path = filepath.Join(filepath.Dir(f), filepath.FromSlash(target))
				if in, err := filepath.Rel(root, path); err != nil || in == ".." || strings.HasPrefix(in, ".."+string(filepath.Separator)) {
					t.Errorf("%s:%d: %s is outside the repository", rel, l.line, l.dest)
					continue
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: %s: no such file in the repository", rel, l.line, l.dest)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(path, ".md") {
				t.Errorf("%s:%d: %s: an anchor into a file that is not Markdown", rel, l.line, l.dest)
				continue
			}
			if !anchorsOf(path)[anchor] {
				t.Errorf("%s:%d: %s: no heading of %s has the anchor #%s", rel, l.line, l.dest, filepath.Base(path), anchor)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d links in README.md and docs/: is the link pattern still right?", checked)
	}
}

// TestDocLinksFindBrokenOnes: the checker's parts on small texts, so that
// TestDocLinks can fail.
func TestDocLinksFindBrokenOnes(t *testing.T) {
	t.Parallel()
	text := "# Title\n\n## `browser` — the team's page: the client stage\n\n## Main's trend\n## Main's trend\n\n" +
		"See [a](docs/x.md#y), `[not](code.md)` and [b](#mains-trend-1).\n```\n[c](fenced.md)\n## not a heading\n```\n"
	var got []string
	for _, l := range markdownLinks(text) {
		got = append(got, l.dest+"@"+strconv.Itoa(l.line))
	}
	if strings.Join(got, " ") != "docs/x.md#y@8 #mains-trend-1@8" {
		t.Errorf("links: %v", got)
	}
	a := headingAnchors(text)
	for _, want := range []string{"title", "browser--the-teams-page-the-client-stage", "mains-trend", "mains-trend-1"} {
		if !a[want] {
			t.Errorf("no anchor %q in %v", want, a)
		}
	}
	if a["not-a-heading"] {
		t.Error("a fenced line made a heading")
	}
}

type mdLink struct {
	dest string
	line int
}

var (
	linkPattern = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	codeSpan    = regexp.MustCompile("`[^`\n]*`")
)

// markdownLinks are the destinations of the inline links of a Markdown
// text, outside fenced blocks and code spans, with their line numbers.
func markdownLinks(text string) []mdLink {
	var out []mdLink
	fenced := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkPattern.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
			out = append(out, mdLink{m[1], i + 1})
		}
	}
	return out
}

// headingAnchors are the anchors GitHub gives a Markdown text's headings:
// the text lowercased, without its punctuation and symbols, spaces made
// hyphens; a repeated one gets -1, -2, ….
func headingAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		h := strings.TrimLeft(line, "#")
		if fenced || len(h) == len(line) || len(line)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		h = linkPattern.ReplaceAllString(strings.TrimSpace(h), "]") // [text](url) reads as its text
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

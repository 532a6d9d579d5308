package fileio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOutput: an output never replaces an input or a file latgate did
// not write; its own earlier outputs it replaces.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	at := func(name, content string) string {
		p := filepath.Join(dir, name)
		if content != "" {
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	ours := at("results.json", "")
	if err := Write(ours, file(run("e", "s", "fp", nil))); err != nil {
		t.Fatal(err)
	}
	suite := at("latgate.yaml", "endpoints: []\n")
	notes := at("notes.md", "# my notes\n")
	report := at("latgate-report.md", "### ✅ latgate: latency pass\n")
	comment := at("comment.md", "<!-- latgate:comment key=\"k\" -->\n### ❌ latgate: latency fail\n")
	mentions := at("mentions.md", "# notes\n\n### about latgate: it gates latency\n")
	page := at("latgate-report.html", "<!DOCTYPE html>\n<html><head><title>latgate report</title>")
	for _, c := range []struct {
		name, path string
		kind       Kind
		inputs     []string
		want       string // "" = may be written
	}{
		{"a new file", filepath.Join(dir, "new.json"), Results, []string{suite}, ""},
		{"latgate's results again", ours, Results, []string{suite}, ""},
		{"the baseline as results", ours, Results, []string{suite, ours}, "is also an input"},
		{"the suite as results", suite, Results, []string{suite}, "is also an input"},
		{"the same file by another path", filepath.Join(dir, ".", "latgate.yaml"), Results, []string{suite}, "is also an input"},
		{"the user's notes as report", notes, Markdown, nil, "latgate did not write it"},
		{"the user's notes as results", notes, Results, nil, "latgate did not write it"},
		{"latgate's report", report, Markdown, nil, ""},
		{"latgate's comment", comment, Markdown, nil, ""},
		{"notes that mention latgate", mentions, Markdown, nil, "latgate did not write it"},
		{"latgate's page", page, HTML, nil, ""},
		{"a report as a page", report, HTML, nil, "latgate did not write it"},
		{"a folder", dir, Results, nil, "not a regular file"},
	} {
		err := CheckOutput(c.path, c.kind, c.inputs...)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latgate/latgate/fileio"
)

// dryRunOutputs puts the outputs of a dry run whose places were not given
// (the results of gate, the Markdown report and its HTML page) in a new
// temporary folder instead of the current one, where they would sit
// beside the user's files as if to be committed; it returns the folder
// ("" when nothing moved) and which outputs moved there.
func dryRunOutputs(env Env, in Inputs, command string) (Inputs, string, []string, error) {
	names := []string{"results", "report"}
	if command == "publish" {
		names = names[1:] // publish reads its results
	}
	var moved []string
	for _, n := range names {
		if in.defaulted[n] {
			moved = append(moved, n)
		}
	}
	if !in.DryRun || len(moved) == 0 {
		return in, "", nil, nil
	}
	dir, err := os.MkdirTemp(env.Getenv("TMPDIR"), "latgate-dry-run-") // "": the system's
	if err != nil {
		return in, "", nil, AsCannotRun(fmt.Errorf("dry run: a folder for its outputs: %w", err))
	}
	for _, n := range moved {
		switch n {
		case "results":
			in.Results = filepath.Join(dir, filepath.Base(in.Results))
		case "report":
			in.Report = filepath.Join(dir, filepath.Base(in.Report))
		}
	}
	return in, dir, moved, nil
}

// dryRunDone ends a dry run whose outputs went to a temporary folder: it
// says where they are, or removes the folder when nothing was written
// there (the run stopped before).
func (p *pipeline) dryRunDone() {
	if p.dryDir == "" {
		return
	}
	if entries, err := os.ReadDir(p.dryDir); err == nil && len(entries) == 0 {
		_ = os.Remove(p.dryDir)
		return
	}
	fmt.Fprintln(p.env.Stderr, "latgate: dry run: "+dryRunNote(p.dryMoved, p.dryDir, HTMLPath(p.in.Report)))
}

// dryRunNote says where a dry run's outputs went: "the results file and
// the report are in DIR, not in this folder (…)".
func dryRunNote(moved []string, dir, html string) string {
	words := map[string]string{"results": "the results file", "report": "the report"}
	var what, flags []string
	for _, n := range moved {
		what, flags = append(what, words[n]), append(flags, "--"+n+" FILE")
	}
	verb, choose := "is", "chooses its place"
	if len(moved) > 1 {
		verb, choose = "are", "choose their places"
	}
	open := ""
	if slices.Contains(moved, "report") {
		open = "open " + filepath.Base(html) + " there; "
	}
	return fmt.Sprintf("%s %s in %s, not in this folder (%s%s %s)", strings.Join(what, " and "), verb, dir, open, strings.Join(flags, " and "), choose)
}

// commentKey is the sticky comment's key: the comment-key input, else
// workflow/job/config, the config as given or, given as an absolute path,
// relative to the repository (the workspace in Actions, else the git
// working tree that holds it): a key names no machine's folders, so it is
// the same on every run and every runner.
func (p *pipeline) commentKey() string {
	if p.in.CommentKey != "" {
		return p.in.CommentKey
	}
	cfg := p.in.Config
	if filepath.IsAbs(cfg) {
		root := p.env.Getenv("GITHUB_WORKSPACE")
		if root == "" {
			root = fileio.Root(filepath.Dir(cfg))
		}
		if rel, err := filepath.Rel(root, cfg); err == nil && !strings.HasPrefix(rel, "..") {
			cfg = filepath.ToSlash(rel)
		} else {
			cfg = filepath.Base(cfg)
		}
	}
	return strings.Trim(strings.Join([]string{p.gc.Workflow, p.gc.Job, cfg}, "/"), "/")
}

// The results files run (and import) and ab write when -o is not given.
const (
	RunResults = "results.json"
	ABResults  = "ab.json"
)

// DefaultOutputs are what latgate writes into the folder it runs in when
// their places are not given: run's and ab's results files, gate's
// results file, report and the report's HTML page, and record's baseline
// folder (with a trailing slash); latgate init has .gitignore ignore them.
func DefaultOutputs() []string {
	out := []string{RunResults, ABResults}
	for _, s := range InputSpecs {
		switch s.Name {
		case "results":
			out = append(out, s.Default)
		case "report":
			out = append(out, s.Default, HTMLPath(s.Default))
		case "baseline-dir":
			out = append(out, s.Default+"/")
		}
	}
	return out
}

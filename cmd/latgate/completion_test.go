package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
)

var needShells = flag.Bool("shells", false, "fail, rather than skip, when bash, zsh or fish is missing (make test installs them: scripts/install-shells.sh)")

// shellDrivers complete a command line the way each shell does, with the
// script at $1 loaded and the line's words after it (the last the word
// being completed), one candidate a line:
//   - bash calls the completion function with COMP_WORDS and COMP_CWORD
//     set and prints COMPREPLY;
//   - zsh loads the script from fpath (as compinit autoloads it) or sources
//     it, with words and CURRENT set; compadd, usable only inside
//     completion widgets, is replaced by one that prints the candidates
//     matching the current word, as compadd matches them;
//   - fish sources the script and asks complete -C, fish's own completion
//     of a command line.
var shellDrivers = map[string][]string{
	"bash": {"bash", "--norc", "--noprofile", "-c", `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _latgate; printf '%s\n' "${COMPREPLY[@]}"`, "bash"},
	"zsh": {"zsh", "-f", "-c", `compdef() { :; }
compadd() { while (( $# )) && [[ $1 != -- ]]; do shift; done; shift; local w; for w in "$@"; do [[ $w == "${words[CURRENT]}"* ]] && print -r -- $w; done }
_files() { print -r -- '<files>'; }
script=$1; shift; words=("$@"); CURRENT=$#
if [[ $ZSH_LOAD == fpath ]]; then d=$(mktemp -d); cp $script $d/_latgate; fpath=($d $fpath); autoload -U _latgate; _latgate; rm -r $d
else source $script; _latgate; fi
:`, "zsh"},
	"fish": {"fish", "--no-config", "-c", `source $argv[1]; complete -C (string join ' ' -- $argv[2..-1]) | string replace -r '\t.*' ''; true`},
}

// TestCompletionScripts: each shell's own parser accepts latgate's script
// (bash -n, zsh -n, fish -n), and the script completes the commands, their
// flags and the values of --format (from the format registries) and
// --mode, in each shell.
func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		line      string // the words typed; the last is being completed
		want, not []string
		exact     bool
	}{
		{line: "latgate co", want: []string{"compare", "completion"}, exact: true},
		{line: "latgate ", want: []string{"run", "validate", "check", "ab", "compare", "gate", "publish", "merge", "import", "trend", "demo", "sim", "init", "completion", "version", "help"}, exact: true},
		{line: "latgate compare --fo", want: []string{"--format"}, exact: true},
		{line: "latgate compare --format ", want: report.ReportFormats.Names(), exact: true},
		{line: "latgate ab --format o", want: []string{"openmetrics", "otlp", "otlp-traces"}, exact: true},
		{line: "latgate trend --format ", want: report.TrendFormats.Names(), exact: true},
		{line: "latgate gate --mode ", want: gate.Modes, exact: true},
		{line: "latgate run -", want: []string{"-c", "--config", "--scenario", "--requests", "-o"}, not: []string{"--format", "--mode"}},
		{line: "latgate gate --", want: []string{"--baseline-artifact", "--dry-run", "--scenario", "--mode"}, not: []string{"--format"}},
		{line: "latgate completion ", want: cli.Shells, exact: true},
		{line: "latgate help tr", want: []string{"trend"}, exact: true},
	}
	for _, shell := range cli.Shells {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(shell); err != nil {
				if *needShells {
					t.Fatalf("%s is not installed (scripts/install-shells.sh installs it)", shell)
				}
				t.Skipf("%s is not installed (go test -shells fails instead; scripts/install-shells.sh installs it)", shell)
			}
			r := runCLI(t, nil, "completion", shell)
			if r.code != 0 {
				t.Fatalf("completion %s: exit %d: %s", shell, r.code, r.stderr)
			}
			dir := t.TempDir() // file names completed are this empty folder's
			script := filepath.Join(dir, "latgate."+shell)
			if err := os.WriteFile(script, []byte(r.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(shell, "-n", script).CombinedOutput(); err != nil {
				t.Fatalf("%s -n: %v\n%s", shell, err, out)
			}
			loads := []string{""}
			if shell == "zsh" {
				loads = []string{"source", "fpath"}
			}
			for _, load := range loads {
				for _, c := range cases {
					got := complete(t, shell, load, dir, script, c.line)
					if c.exact && !sameSet(got, c.want) || !c.exact && !containsAll(got, c.want) || slices.ContainsFunc(c.not, func(w string) bool { return slices.Contains(got, w) }) {
						t.Errorf("%s %s: %q completes to %q; want %q (exact %v), none of %q", shell, load, c.line, got, c.want, c.exact, c.not)
					}
				}
			}
		})
	}
}

// complete runs a shell's driver on a command line: the candidates.
func complete(t *testing.T, shell, load, dir, script, line string) []string {
	t.Helper()
	words := strings.Split(line, " ")
	args := append(append(append([]string{}, shellDrivers[shell]...), script), words...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "ZSH_LOAD="+load)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s completing %q: %v\n%s", shell, line, err, out)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			got = append(got, l)
		}
	}
	return got
}

func containsAll(got, want []string) bool {
	return !slices.ContainsFunc(want, func(w string) bool { return !slices.Contains(got, w) })
}

func sameSet(got, want []string) bool {
	return len(got) == len(want) && containsAll(got, want)
}

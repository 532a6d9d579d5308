package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
)

// testTable has a command of each kind of arguments; what runs records
// its arguments and flags in the environment.
func testTable() *Table[*[]string] {
	record := func(fs *flag.FlagSet) func(*[]string, []string) error {
		o := fs.String("o", "out.json", "results `file`")
		fs.Var(Words{V: new(string), Words: []string{"gate", "record"}}, "mode", "the mode")
		return func(e *[]string, args []string) error {
			if len(args) == 0 {
				return ErrUsage
			}
			*e = append(append(*e, args...), "-o="+*o)
			return nil
		}
	}
	none := func(*flag.FlagSet) func(*[]string, []string) error {
		return func(e *[]string, _ []string) error { *e = append(*e, "ran"); return nil }
	}
	return &Table[*[]string]{Program: "prog", Intro: "prog does things.", Outro: "bye\n", Commands: []Command[*[]string]{
		{Name: "compare", Synopsis: "A B   two files\nAB   one file", About: "compare files", Flags: record, Args: FileArgs},
		{Name: "version", About: "it's the version", Flags: none, Aliases: []string{"--version"}},
		{Name: "completion", Synopsis: "bash|zsh|fish", About: "a script", Flags: none, Args: WordArgs, Words: Shells},
	}}
}

func TestDispatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args      []string
		err, said string // err: the error's words ("" none); said: on stderr
		ran       string
	}{
		{nil, "no command given", "prog does things.\n\nUsage:\n  prog compare A B   two files\n  prog compare AB   one file\n        compare files\n", ""},
		{[]string{"frob"}, `unknown command "frob"`, "", ""},
		{[]string{"comapre", "a.json"}, `unknown command "comapre" (did you mean "compare"?)`, "", ""},
		{[]string{"compare", "a.json", "-o", "x.json", "b.json"}, "", "", "a.json b.json -o=x.json"},
		{[]string{"compare", "--", "-o"}, "", "", "-o -o=out.json"},
		{[]string{"compare"}, "usage: prog compare A B   two files\n       prog compare AB   one file", "", ""},
		{[]string{"compare", "-x"}, "flag provided but not defined: -x (prog compare -h lists the flags)", "", ""},
		{[]string{"compare", "--mdoe", "gate"}, "flag provided but not defined: -mdoe (did you mean --mode?) (prog compare -h lists the flags)", "", ""},
		{[]string{"compare", "-h"}, ErrHelp.Error(), "usage: prog compare A B   two files\n       prog compare AB   one file\n\ncompare files\n\nFlags:\n  -mode", ""},
		{[]string{"version", "x"}, `version takes no arguments, got "x" (see prog version -h)`, "", ""},
		{[]string{"--version"}, "", "", "ran"},
	}
	for _, tt := range tests {
		var ran []string
		var stderr bytes.Buffer
		err := testTable().Dispatch(&ran, &stderr, tt.args)
		got := ""
		if err != nil {
			got = err.Error()
		}
		var ue *UsageError
		if got != tt.err || !strings.Contains(stderr.String(), tt.said) || tt.said == "" && stderr.Len() > 0 || strings.Join(ran, " ") != tt.ran ||
			err != nil && !errors.Is(err, ErrHelp) && !errors.As(err, &ue) {
			t.Errorf("%q: error %v (%T), stderr %q, ran %q; want %q, %q, %q", tt.args, err, err, stderr.String(), ran, tt.err, tt.said, tt.ran)
		}
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := testTable().Help(&b, []string{"compare"}); err != nil || !strings.Contains(b.String(), "-o file\n") || !strings.Contains(b.String(), `(default "out.json")`) {
		t.Errorf("help compare: %v\n%s", err, b.String())
	}
	var ue *UsageError
	if err := testTable().Help(&b, []string{"verison"}); !errors.As(err, &ue) || err.Error() != `unknown command "verison" (did you mean "version"?)` || ue.Hint != "Run 'prog help' for the commands." {
		t.Errorf("help verison: %v", err)
	}
	if err := testTable().Help(&b, []string{"a", "b"}); !errors.Is(err, ErrUsage) {
		t.Errorf("help a b: %v", err)
	}
}

// TestCompletionFromTheTable: the scripts name every command, flag and
// word of the table, with one dash for a one-letter flag and two for a
// longer one, the values of a Choices flag, file names for a file's value,
// and fish's descriptions quoted.
func TestCompletionFromTheTable(t *testing.T) {
	t.Parallel()
	tab := testTable()
	bash, err := tab.Completion("bash")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`compgen -W "compare version completion"`, `compgen -W "--mode -o"`, `-mode|--mode) COMPREPLY=($(compgen -W "gate record"`,
		"-o|--o) :; return", `compgen -W "bash zsh fish"`, "complete -o default -F _prog prog"} {
		if !strings.Contains(bash, want) {
			t.Errorf("bash lacks %q:\n%s", want, bash)
		}
	}
	fish, _ := tab.Completion("fish")
	for _, want := range []string{`-a version -d 'it\'s the version'`, "-s o -r -F -d 'results file'", "-l mode -x -a 'gate record'"} {
		if !strings.Contains(fish, want) {
			t.Errorf("fish lacks %q:\n%s", want, fish)
		}
	}
	zsh, _ := tab.Completion("zsh")
	if !strings.HasPrefix(zsh, "#compdef prog\n") || !strings.Contains(zsh, "-o|--o) _files; return") {
		t.Errorf("zsh:\n%s", zsh)
	}
	if _, err := tab.Completion("tcsh"); err == nil || err.Error() != `want bash, zsh or fish, got "tcsh"` {
		t.Errorf("tcsh: %v", err)
	}
}

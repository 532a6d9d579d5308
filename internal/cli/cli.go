// Package cli runs a program's command table. Each command is one row —
// its name, its forms, what it does, its flags and what runs it — and the
// overview, each command's -h, dispatch and the shells' completion scripts
// (completion.go) are all derived from the rows, so none of them can drift
// from the commands. Flags may come before or after the positional
// arguments.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/latgate/latgate/internal/didyoumean"
)

// Command is one row of a command table; E is the program's environment,
// handed to what runs the command.
type Command[E any] struct {
	Name string
	// Synopsis is the command's forms after "PROGRAM NAME", one a line;
	// About says what it does (its first line describes it in completion).
	Synopsis, About string
	// Flags defines the command's flags on fs and returns what runs the
	// command with its positional arguments once they are parsed.
	Flags func(fs *flag.FlagSet) func(e E, args []string) error
	Args  Args
	Words []string // the arguments of WordArgs
	// Aliases run the command too (--version); they are not completed.
	Aliases []string
}

// Args is what a command's positional arguments are.
type Args int

// What positional arguments are.
const (
	NoArgs      Args = iota // an argument is a usage error
	FileArgs                // files
	WordArgs                // one of the command's Words
	CommandArgs             // a command's name (help)
)

// Table is a program's commands.
type Table[E any] struct {
	Program string
	// Intro and Outro open and close the overview.
	Intro, Outro string
	Commands     []Command[E]
}

// ErrUsage is what a command's run returns to have Dispatch say the
// command's usage (a UsageError).
var ErrUsage = errors.New("usage")

// ErrHelp is returned when -h printed a command's help.
var ErrHelp = errors.New("help shown")

// UsageError is a command line that names no command or an unknown one,
// or gives a command flags or arguments it does not take.
type UsageError struct {
	msg string
	// Hint is one line to say after the error: where to look next.
	Hint string
}

func (e *UsageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}

// Lookup finds a command by its name or an alias.
func (t *Table[E]) Lookup(name string) (Command[E], bool) {
	for _, c := range t.Commands {
		if c.Name == name || slices.Contains(c.Aliases, name) {
			return c, true
		}
	}
	return Command[E]{}, false
}

// Dispatch runs the command that args name, in e. Without a command the
// overview goes to stderr; an unknown one is the error, with the nearest
// command's name and a hint (not the overview, which would bury it); -h
// writes the command's help to stderr.
func (t *Table[E]) Dispatch(e E, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, t.Overview())
		return usageErrorf("no command given")
	}
	c, ok := t.Lookup(args[0])
	if !ok {
		return t.unknown(args[0])
	}
	fs, run := t.flagSet(c)
	pos, err := parseFlags(fs, args[1:], stderr)
	if err != nil {
		return err
	}
	if len(pos) > 0 && c.Args == NoArgs {
		return usageErrorf("%s takes no arguments, got %q (see %s %s -h)", c.Name, pos[0], t.Program, c.Name)
	}
	if err := run(e, pos); !errors.Is(err, ErrUsage) {
		return err
	}
	return usageErrorf("%s", t.usage(c))
}

// unknown is the error for a command the table does not have.
func (t *Table[E]) unknown(name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	var names []string
	for _, c := range t.Commands {
		names = append(names, c.Name)
	}
	if s := didyoumean.Suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return &UsageError{msg: msg, Hint: fmt.Sprintf("Run '%s help' for the commands.", t.Program)}
}

// usage is a command's forms: "usage: PROGRAM NAME FORM", one a line.
func (t *Table[E]) usage(c Command[E]) string {
	var lines []string
	for i, form := range strings.Split(c.Synopsis, "\n") {
		lead := "       "
		if i == 0 {
			lead = "usage: "
		}
		lines = append(lines, strings.TrimRight(lead+t.Program+" "+c.Name+" "+form, " "))
	}
	return strings.Join(lines, "\n")
}

// flagSet is the command's flags, its -h printing its usage, what it does
// and the flags; run runs the command once they are parsed.
func (t *Table[E]) flagSet(c Command[E]) (fs *flag.FlagSet, run func(E, []string) error) {
	fs = flag.NewFlagSet(t.Program+" "+c.Name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "%s\n\n%s\n", t.usage(c), c.About)
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs, c.Flags(fs)
}

// Overview is every command's forms and what it does.
func (t *Table[E]) Overview() string {
	var b strings.Builder
	b.WriteString(t.Intro + "\n\nUsage:\n")
	for _, c := range t.Commands {
		for _, form := range strings.Split(c.Synopsis, "\n") {
			fmt.Fprintf(&b, "  %s\n", strings.TrimSpace(t.Program+" "+c.Name+" "+form))
		}
		for _, line := range strings.Split(c.About, "\n") {
			fmt.Fprintf(&b, "        %s\n", line)
		}
	}
	b.WriteString("\n" + t.Outro)
	return b.String()
}

// Help writes the overview, or with a command's name that command's help.
func (t *Table[E]) Help(w io.Writer, args []string) error {
	if len(args) == 0 {
		_, err := io.WriteString(w, t.Overview())
		return err
	}
	if len(args) > 1 {
		return ErrUsage
	}
	c, ok := t.Lookup(args[0])
	if !ok {
		return t.unknown(args[0])
	}
	fs, _ := t.flagSet(c)
	fs.SetOutput(w)
	fs.Usage()
	return nil
}

// parseFlags parses flags that may come before or after positional
// arguments (Go's flag package stops at the first positional one). It
// returns the positional arguments; -h prints the help and returns
// ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	// The flag package would print the error and the whole usage; the
	// error is said once, by the program, and the usage only when asked.
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stderr)
				fs.Usage()
				return nil, ErrHelp
			}
			return nil, usageErrorf("%v%s (%s -h lists the flags)", err, flagSuggestion(fs, err), fs.Name())
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagSuggestion is " (did you mean --NAME?)" for a flag the set does not
// define that is a likely typo of one it does, else "".
func flagSuggestion(fs *flag.FlagSet, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	s := didyoumean.Suggest(strings.TrimLeft(name, "-"), names)
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", dashes(s))
}

// Given reports whether a flag was given on the command line.
func Given(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

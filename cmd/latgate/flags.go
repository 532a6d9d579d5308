package main

import (
	"errors"
	"flag"
	"io"
	"strings"

	"github.com/latgate/latgate/gate"
)

// parseFlags parses flags that may come before or after positional
// arguments (Go's flag package stops at the first positional one).
// It returns the positional arguments; -h prints the flags and returns
// errHelp.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	fs.SetOutput(stderr)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, gate.AsBadInput(err)
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

var errHelp = errors.New("help shown")

// set reports whether a flag was given on the command line.
func set(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

// listFlag is a repeatable string flag.
type listFlag struct{ v *[]string }

func (l listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}
func (l listFlag) Set(s string) error { *l.v = append(*l.v, s); return nil }

// selectionFlags registers --scenario (repeatable) and --requests.
func selectionFlags(fs *flag.FlagSet) *gate.Selection {
	sel := &gate.Selection{}
	fs.Var(listFlag{&sel.Scenarios}, "scenario", "run only this `scenario` (repeatable)")
	fs.IntVar(&sel.Requests, "requests", 0, "measured requests per scenario and endpoint (`N`; overrides the config)")
	return sel
}

package main

import (
	"errors"
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/suite"
)

// parseFlags parses flags that may come before or after positional
// arguments (Go's flag package stops at the first positional one).
// It returns the positional arguments; -h prints the flags and returns
// errHelp.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	// The flag package would print the error and the whole usage; the
	// error is said once, by main, and the usage only when asked for.
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(stderr)
				fs.Usage()
				return nil, errHelp
			}
			return nil, gate.BadInputf("%v (%s -h lists the flags)", err, fs.Name())
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

// requestsFlag is --requests N, checked as the requests key is: a whole
// number of at least 1 (0 is not "keep the config's").
type requestsFlag struct{ v *int }

func (r requestsFlag) String() string {
	if r.v == nil || *r.v == 0 {
		return ""
	}
	return strconv.Itoa(*r.v)
}
func (r requestsFlag) Set(s string) error {
	n, err := suite.ParseRequests(s)
	if err != nil {
		return err
	}
	*r.v = n
	return nil
}

// selectionFlags registers --scenario (repeatable) and --requests.
func selectionFlags(fs *flag.FlagSet) *gate.Selection {
	sel := &gate.Selection{}
	fs.Var(listFlag{&sel.Scenarios}, "scenario", "run only this `scenario` (repeatable)")
	fs.Var(requestsFlag{&sel.Requests}, "requests", "measured requests per scenario and endpoint, at least 1 (`N`; a fixed count that overrides the config's)")
	return sel
}

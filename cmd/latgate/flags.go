package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/suite"
)

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
	fs.Var(cli.List{V: &sel.Scenarios}, "scenario", "run only this `scenario` (repeatable)")
	fs.Var(requestsFlag{&sel.Requests}, "requests", "measured requests per scenario and endpoint, at least 1 (`N`; a fixed count that overrides the config's)")
	fs.IntVar(&sel.Lanes, "lanes", 0, "run `N` copies of each scenario's load at once, 1 to 256 (overrides the config's lanes)")
	return sel
}

// thresholdFlags registers the flags that override the config's thresholds.
func thresholdFlags(fs *flag.FlagSet) *gate.Overrides {
	o := &gate.Overrides{}
	fs.StringVar(&o.Tolerance, "tolerance", "", "smallest relative change worth failing for, 10% or 0.10: at least 0 and below 100% (overrides the config)")
	fs.StringVar(&o.MinDelta, "min-delta", "", "smallest absolute change worth failing for, with its unit: 25ms (overrides the config)")
	fs.StringVar(&o.Alpha, "alpha", "", "family-wise significance level, 0.05 or 5%: above 0 and below 0.5 (overrides the config)")
	fs.StringVar(&o.FailOn, "fail-on", "", "statuses that fail the gate, comma-separated (overrides the config)")
	return o
}

// formatFlag is --format: one of a registry's formats (report.Formats),
// which its help, its check and the shells' completion read.
type formatFlag[T any] struct {
	reg *report.Formats[T]
	f   report.Format[T]
}

func (v *formatFlag[T]) String() string { return v.f.Name }
func (v *formatFlag[T]) Set(s string) (err error) {
	v.f, err = v.reg.Lookup(s)
	return err
}
func (v *formatFlag[T]) Choices() []string { return v.reg.Names() }

// formatVar registers --format for a registry's formats, by default the
// registry's.
func formatVar[T any](fs *flag.FlagSet, reg *report.Formats[T]) *report.Format[T] {
	v := &formatFlag[T]{reg: reg, f: reg.Default()}
	fs.Var(v, "format", "output `format`: "+cli.OrList(reg.Names()))
	return &v.f
}

// optionalInt is an int flag with no default of its own (its help says
// what its absence means): or gives the default when it was not given.
type optionalInt struct {
	v   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number, got %q", s)
	}
	o.v, o.set = n, true
	return nil
}

func (o *optionalInt) or(def int) int {
	if !o.set {
		return def
	}
	return o.v
}

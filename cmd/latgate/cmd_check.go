package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
)

// checkFlags: latgate check sends one request to each endpoint of the
// suite and says what is wrong with each, and how to fix it.
func checkFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.CheckOptions{}
	fs.StringVar(&o.Config, "c", gate.DefaultConfig, "suite `file`")
	fs.StringVar(&o.Config, "config", gate.DefaultConfig, "suite `file` (same as -c)")
	return func(e *env, _ []string) error { return gate.Check(e.ctx, e.gateEnv(), o) }
}

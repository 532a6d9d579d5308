package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
)

// validateFlags: latgate validate checks the suite with every rule run
// applies and sends nothing.
func validateFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.ValidateOptions{}
	fs.StringVar(&o.Config, "c", gate.DefaultConfig, "suite `file`")
	fs.StringVar(&o.Config, "config", gate.DefaultConfig, "suite `file` (same as -c)")
	fs.BoolVar(&o.SkipEnv, "skip-env", false, "do not resolve API keys and ${VAR}s from the environment (a pre-commit hook or an editor has no secrets)")
	return func(e *env, _ []string) error { return gate.Validate(e.gateEnv(), o) }
}

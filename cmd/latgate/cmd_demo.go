package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
)

// demoFlags: latgate demo runs the whole flow with no API key (gate.Demo).
func demoFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.DemoOptions{}
	fs.StringVar(&o.BaseProfile, "baseline-profile", "fast", "simulator `profile` of the base branch's build")
	fs.StringVar(&o.HeadProfile, "candidate-profile", "slow", "simulator `profile` of the pull request's build")
	fs.StringVar(&o.Dir, "dir", "", "keep the results files in this `folder` (default: a temporary folder)")
	return func(e *env, _ []string) error { return gate.Demo(e.ctx, e.gateEnv(), o) }
}

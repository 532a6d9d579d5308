package main

import (
	"flag"

	"github.com/latgate/latgate/gate"
)

// cmdDemo runs the whole flow with no API key (gate.Demo).
func cmdDemo(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate demo", flag.ContinueOnError)
	o := gate.DemoOptions{}
	fs.StringVar(&o.BaseProfile, "baseline-profile", "fast", "simulator `profile` of the base branch's build")
	fs.StringVar(&o.HeadProfile, "candidate-profile", "slow", "simulator `profile` of the pull request's build")
	fs.StringVar(&o.Dir, "dir", "", "keep the results files in this `folder` (default: a temporary folder)")
	if _, err := parseFlags(fs, args, e.stderr); err != nil {
		return err
	}
	return gate.Demo(e.ctx, e.gateEnv(), o)
}

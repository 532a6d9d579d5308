package main

import "github.com/latgate/latgate/suite"
import "github.com/latgate/latgate/baseline"

func cmdCompare(e *env, args []string) error { return usagef("compare: not built yet") }
func cmdGate(e *env, args []string) error    { return usagef("gate: not built yet") }
func cmdPublish(e *env, args []string) error { return usagef("publish: not built yet") }
func demoCompare(e *env, cfg *suite.Config, base, cur *baseline.File, bp, cp string) error {
	return nil
}

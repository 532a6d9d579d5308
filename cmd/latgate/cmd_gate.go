package main

import (
	"flag"
	"fmt"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
)

// inputFlags registers every input of gate or publish as a flag and
// resolves them with the Action inputs and defaults (gate.ResolveInputs).
func inputFlags(cmd string) func(fs *flag.FlagSet) func(*env, []string) error {
	return func(fs *flag.FlagSet) func(*env, []string) error {
		vals := map[string]*string{}
		for _, d := range gate.SpecsFor(cmd) {
			usage := fmt.Sprintf("%s (Action input %q", d.Usage, d.Name)
			if def := d.DefaultFor(cmd); def != "" {
				usage += fmt.Sprintf("; default %s", def)
			}
			vals[d.Name] = new(string)
			switch {
			case d.Bool:
				fs.Var(cli.Bool{V: vals[d.Name], Words: d.Words}, d.Name, usage+")")
			case d.Words != nil:
				fs.Var(cli.Words{V: vals[d.Name], Words: d.Words}, d.Name, usage+")")
			default:
				fs.StringVar(vals[d.Name], d.Name, "", usage+")")
			}
		}
		fs.StringVar(vals["config"], "c", "", "suite file (same as --config)")
		var sel *gate.Selection
		if cmd == "gate" {
			sel = selectionFlags(fs)
		}
		return func(e *env, _ []string) error {
			given := map[string]string{}
			for name, v := range vals {
				if cli.Given(fs, name) || (name == "config" && cli.Given(fs, "c")) {
					given[name] = *v
				}
			}
			in, err := gate.ResolveInputs(cmd, given, e.getenv)
			if err != nil {
				return err
			}
			if cmd == "publish" {
				return gate.Publish(e.ctx, e.gateEnv(), in)
			}
			in.Select = *sel
			return gate.Gate(e.ctx, e.gateEnv(), in)
		}
	}
}

package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/version"
)

// boolFlag is a real boolean flag (--dry-run, --dry-run=false) that
// remembers its text, so INPUT_* can fill it when it is absent; words are
// other values it takes (--comment=required).
type boolFlag struct {
	v     *string
	words []string
}

func (b boolFlag) String() string {
	if b.v == nil {
		return ""
	}
	return *b.v
}
func (b boolFlag) Set(s string) error {
	if _, err := strconv.ParseBool(s); err != nil && !slices.Contains(b.words, s) {
		ok := append([]string{"true", "false"}, b.words...)
		return fmt.Errorf("want %s or %s, got %q", strings.Join(ok[:len(ok)-1], ", "), ok[len(ok)-1], s)
	}
	*b.v = s
	return nil
}
func (b boolFlag) IsBoolFlag() bool { return true }

// parseInputs registers every input of the command as a flag and resolves
// them with the Action inputs and defaults (gate.ResolveInputs).
func parseInputs(e *env, cmd string, args []string) (gate.Inputs, error) {
	fs := flag.NewFlagSet("latgate "+cmd, flag.ContinueOnError)
	vals := map[string]*string{}
	for _, d := range gate.SpecsFor(cmd) {
		usage := fmt.Sprintf("%s (Action input %q", d.Usage, d.Name)
		if def := d.DefaultFor(cmd); def != "" {
			usage += fmt.Sprintf("; default %s", def)
		}
		vals[d.Name] = new(string)
		if d.Bool {
			fs.Var(boolFlag{vals[d.Name], d.Words}, d.Name, usage+")")
		} else {
			fs.StringVar(vals[d.Name], d.Name, "", usage+")")
		}
	}
	fs.StringVar(vals["config"], "c", "", "suite file (same as --config)")
	var sel *gate.Selection
	if cmd == "gate" {
		sel = selectionFlags(fs)
	}
	pos, err := parseFlags(fs, args, e.stderr)
	if err != nil {
		return gate.Inputs{}, err
	}
	if len(pos) > 0 {
		return gate.Inputs{}, gate.BadInputf("%s takes no arguments, got %q (see latgate %s -h)", cmd, pos[0], cmd)
	}
	given := map[string]string{}
	for name, v := range vals {
		if set(fs, name) || (name == "config" && set(fs, "c")) {
			given[name] = *v
		}
	}
	in, err := gate.ResolveInputs(cmd, given, e.getenv)
	if sel != nil {
		in.Select = *sel
	}
	return in, err
}

func (e *env) gateEnv() gate.Env {
	return gate.Env{Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv, Color: isTerminal(e.stdout), TTY: progressBar(e), ToolVersion: version.Tool()}
}

func cmdGate(e *env, args []string) error {
	in, err := parseInputs(e, "gate", args)
	if err != nil {
		return err
	}
	return gate.Gate(e.ctx, e.gateEnv(), in)
}

func cmdPublish(e *env, args []string) error {
	in, err := parseInputs(e, "publish", args)
	if err != nil {
		return err
	}
	return gate.Publish(e.ctx, e.gateEnv(), in)
}

package main

import (
	"bytes"
	"flag"
	"fmt"
	"regexp"
	"slices"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/scaffold"
)

func cmdInit(e *env, args []string) error {
	fs := flag.NewFlagSet("latgate init", flag.ContinueOnError)
	dir := fs.String("dir", ".", "`folder` to write latgate.yaml and .github/workflows/latgate.yml into")
	o := scaffold.InitOptions{Getenv: e.getenv}
	fs.StringVar(&o.BaseURL, "base-url", "", "endpoint `URL`, with --model (default: detected from the API keys in the environment, else the simulator)")
	fs.StringVar(&o.Model, "model", "", "`model` name (required with --base-url, except the simulator's)")
	fs.StringVar(&o.KeyEnv, "api-key-env", "", "environment `variable` holding the API key")
	force := fs.Bool("force", false, "overwrite existing files")
	if pos, err := parseFlags(fs, args, e.stderr); err != nil || len(pos) > 0 {
		if err == nil {
			err = gate.BadInputf("init takes no arguments (see latgate init -h)")
		}
		return err
	}
	files, how, err := scaffold.Init(o)
	if err != nil {
		return gate.AsBadInput(err)
	}
	written, err := scaffold.Write(*dir, files, *force, func(path string, data []byte) error {
		return fileio.WriteAtomic(path, data) // 0644: files to commit
	})
	for _, p := range written {
		fmt.Fprintf(e.stderr, "latgate: wrote %s\n", p)
	}
	if err != nil {
		if len(written) == 0 {
			return gate.AsBadInput(err)
		}
		return gate.AsCannotRun(err)
	}
	fmt.Fprintf(e.stderr, "latgate: %s\nNext: edit the scenarios, try it with `latgate run`, then commit both files.\n", how)
	return nil
}

// completionCommands reads each command's flags from its own -h output, so
// completion can never drift from the flags.
func completionCommands(e *env) []scaffold.Command {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	var out []scaffold.Command
	for _, name := range []string{"run", "ab", "compare", "gate", "publish", "merge", "import", "trend", "init", "demo", "sim", "completion", "version"} {
		var help bytes.Buffer
		sub := &env{stdout: &help, stderr: &help, getenv: func(string) string { return "" }, ctx: e.ctx}
		_ = dispatch(sub, []string{name, "-h"})
		c := scaffold.Command{Name: name, Files: slices.Contains([]string{"compare", "merge", "import", "trend"}, name)}
		for _, m := range flagLine.FindAllStringSubmatch(help.String(), -1) {
			c.Flags = append(c.Flags, m[1])
		}
		out = append(out, c)
	}
	return out
}

func cmdCompletion(e *env, args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(e.stderr, "usage: latgate completion bash|zsh|fish")
		return errHelp
	}
	if len(args) != 1 {
		return gate.BadInputf("usage: latgate completion bash|zsh|fish")
	}
	cmds := completionCommands(e)
	switch args[0] {
	case "bash":
		fmt.Fprint(e.stdout, scaffold.Bash(cmds))
	case "zsh":
		fmt.Fprint(e.stdout, scaffold.Zsh(cmds))
	case "fish":
		fmt.Fprint(e.stdout, scaffold.Fish(cmds))
	default:
		return gate.BadInputf("completion: want bash, zsh or fish, got %q", args[0])
	}
	return nil
}

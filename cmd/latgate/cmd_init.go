package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/scaffold"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
)

func initFlags(fs *flag.FlagSet) func(*env, []string) error {
	dir := fs.String("dir", ".", "`folder` to write latgate.yaml and "+scaffold.WorkflowPath+" into (and add latgate's outputs to its .gitignore)")
	o := scaffold.InitOptions{}
	fs.StringVar(&o.BaseURL, "base-url", "", "endpoint `URL`, with --model (default: detected from the API keys in the environment, else the simulator)")
	fs.StringVar(&o.Model, "model", "", "`model` name (required with --base-url, except the simulator's)")
	fs.StringVar(&o.KeyEnv, "api-key-env", "", "environment `variable` holding the API key")
	force := fs.Bool("force", false, "overwrite existing files")
	return func(e *env, _ []string) error {
		o.Getenv = e.getenv
		files, how, err := scaffold.Init(o)
		if err != nil {
			return gate.AsBadInput(err)
		}
		detect, err := sensitivity(files["latgate.yaml"])
		if err != nil {
			return err
		}
		files["latgate.yaml"] = scaffold.WithComment(files["latgate.yaml"], append(detect, ""))
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
		ignored, err := ignoreOutputs(*dir)
		if err != nil {
			return gate.AsCannotRun(err)
		}
		if ignored != "" {
			fmt.Fprintf(e.stderr, "latgate: %s\n", ignored)
		}
		fmt.Fprintf(e.stderr, "latgate: %s\n\n%s\n\nNext: latgate validate, then latgate run; commit %s and %s.\n",
			how, strings.Join(detect, "\n"), strings.Join(scaffold.Paths, ", "), scaffold.Gitignore)
		return nil
	}
}

// sensitivity is what the suite init wrote can detect and how long it
// runs (report.SensitivityLines), for latency as noisy as the simulator's
// realistic profile.
func sensitivity(cfgText string) ([]string, error) {
	cfg, err := suite.Parse(gate.DefaultConfig, []byte(cfgText), suite.Options{SkipKeys: true})
	if err != nil {
		return nil, fmt.Errorf("the suite init writes does not parse (a bug): %w", err)
	}
	model, err := sim.Named("realistic")
	if err != nil {
		return nil, err
	}
	s, err := gate.SuiteSensitivity(cfg, model)
	if err != nil {
		return nil, err
	}
	return report.SensitivityLines(s, gate.DefaultConfig, 88), nil
}

// ignoreOutputs adds latgate's outputs (gate.DefaultOutputs) to the
// .gitignore of dir, keeping what it holds; it says what it added ("" for
// nothing).
func ignoreOutputs(dir string) (string, error) {
	path := filepath.Join(dir, scaffold.Gitignore)
	old, err := fileio.ReadLimited(path, 1<<20)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	add, lines := scaffold.IgnoreLines(string(old), gate.DefaultOutputs())
	if add == "" {
		return "", nil
	}
	if err := fileio.WriteAtomic(path, append(old, add...)); err != nil {
		return "", err
	}
	verb := "added latgate's outputs to"
	if len(old) == 0 {
		verb = "wrote"
	}
	return fmt.Sprintf("%s %s (%s)", verb, path, strings.Join(lines, " ")), nil
}

package main

import (
	"flag"
	"fmt"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/scaffold"
)

func initFlags(fs *flag.FlagSet) func(*env, []string) error {
	dir := fs.String("dir", ".", "`folder` to write latgate.yaml and .github/workflows/latgate.yml into")
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
}

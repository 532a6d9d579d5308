// Command latgate measures the latency users of an LLM product feel, compares
// it with a baseline and gates CI on drift. See README.md and docs/.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/version"
)

// Exit codes, mapped in one place from the pipeline's error kinds.
const (
	exitOK     = 0
	exitFail   = 1 // the gate failed: a regression or a blown budget
	exitUsage  = 2 // bad usage, config or input
	exitCannot = 3 // the run could not produce trustworthy results (or an internal error)
)

func exitCode(err error) int {
	if err == nil || errors.Is(err, errHelp) {
		return exitOK
	}
	switch gate.KindOf(err) {
	case gate.Failed:
		return exitFail
	case gate.BadInput:
		return exitUsage
	}
	return exitCannot
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) }

// env bundles the injected process environment.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	ctx            context.Context
	// client sends latgate run's requests; nil: the one gate sizes for
	// the suite. Tests give one that reaches a simulator on virtual time
	// (internal/clocktest).
	client *http.Client
}

const usageText = `latgate measures LLM streaming latency and gates CI on drift.

Usage:
  latgate run     [-c latgate.yaml] [-o results.json]     run the suite, write results
  latgate ab      [-c HEAD.yaml] --base-config BASE.yaml [-o ab.json] [--base-url E=URL] [--head-url E=URL]
                                                           base and head interleaved in one job (recommended)
  latgate compare BASELINE CURRENT | B1 B2 ... CURRENT | AB.json [-c latgate.yaml] [--format text|markdown|json|html|benchstat|bmf|csv|otlp|openmetrics]
  latgate gate    [-c latgate.yaml] [--mode gate|record|ab] [--baseline FILE] [--dry-run]
  latgate publish --results FILE [--baseline FILE] [--pr N | --head-sha SHA]
  latgate merge   A.json B.json ... -o all.json
  latgate import  --from vllm|aiperf|guidellm FILE... -o results.json
                                                           other tools' per-request results as a results file
  latgate trend   DIR|FILES... [--format text|markdown|json|html]
                                                           main's trend: series and change points of recorded runs
  latgate demo                                             the whole flow on the built-in simulator
  latgate sim     [--addr 127.0.0.1:8080] [--profile realistic]  serve the simulator
  latgate init    [--base-url URL --model M --api-key-env VAR]  write latgate.yaml and a workflow
  latgate completion bash|zsh|fish
  latgate version

Run 'latgate COMMAND -h' for a command's flags.
Exit codes: 0 pass, 1 gate failed, 2 bad usage/config/input, 3 could not run.
`

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	// Ctrl-C / SIGTERM cancel the context: in-flight streams are aborted
	// and what was measured is still written.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runContext(ctx, args, stdout, stderr, getenv)
}

func runContext(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	return runEnv(&env{stdout: stdout, stderr: stderr, getenv: getenv, ctx: ctx}, args)
}

// runEnv runs a command in e and returns its exit code.
func runEnv(e *env, args []string) int {
	err := dispatch(e, args)
	if err != nil && gate.KindOf(err) != gate.Failed && !errors.Is(err, errHelp) {
		fmt.Fprintln(e.stderr, "latgate: "+oneLine(err.Error()))
	}
	return exitCode(err)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func dispatch(e *env, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usageText)
		return gate.BadInputf("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return cmdRun(e, rest)
	case "compare":
		return cmdCompare(e, rest)
	case "ab":
		return cmdAB(e, rest)
	case "gate":
		return cmdGate(e, rest)
	case "publish":
		return cmdPublish(e, rest)
	case "merge":
		return cmdMerge(e, rest)
	case "import":
		return cmdImport(e, rest)
	case "trend":
		return cmdTrend(e, rest)
	case "demo":
		return cmdDemo(e, rest)
	case "sim":
		return cmdSim(e, rest)
	case "init":
		return cmdInit(e, rest)
	case "completion":
		return cmdCompletion(e, rest)
	case "version", "--version", "-version":
		fmt.Fprintln(e.stdout, version.String())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, usageText)
		return nil
	}
	fmt.Fprint(e.stderr, usageText)
	return gate.BadInputf("unknown command %q", cmd)
}

// progressBar reports whether to draw a bar: on a terminal, and never in CI
// logs (some runners give steps a terminal).
func progressBar(e *env) bool {
	return isTerminal(e.stderr) && e.getenv("CI") == "" && e.getenv("GITHUB_ACTIONS") != "true"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

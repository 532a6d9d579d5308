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
	"time"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/internal/version"
	"github.com/latgate/latgate/suite"
)

// Exit codes, mapped in one place from the pipeline's error kinds.
const (
	exitOK     = 0
	exitFail   = 1 // the gate failed: a regression or a blown budget
	exitUsage  = 2 // bad usage, config or input
	exitCannot = 3 // the run could not produce trustworthy results (or an internal error)
)

func exitCode(err error) int {
	if err == nil || errors.Is(err, cli.ErrHelp) {
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
	// client sends the suite's requests (run, ab, gate), github talks to
	// the GitHub API; nil: the ones gate makes. Tests give clients that
	// reach simulators and the fake GitHub API on virtual time
	// (internal/clocktest).
	client, github *http.Client
}

func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go stopOn(sigs, done, cancel, stderr, time.After, exitNow)
	return runEnv(&env{stdout: stdout, stderr: stderr, getenv: getenv, ctx: ctx}, args)
}

// stopSignals are the signals that stop a run as Ctrl-C does: the
// terminal's (interrupt, hangup, quit) and SIGTERM. Each ends the run
// through its cleanup (the browser's processes ended, its temporary
// folder removed), never as the signal's default would, at once.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// exitNow ends the process at once with code: the browsers still running
// are killed and their temporary folders removed first (gate.AbortBrowsers).
func exitNow(code int) {
	gate.AbortBrowsers()
	os.Exit(code)
}

// stopGrace is how long a run may take to stop after a signal (streams
// aborted, the browser closed, what was measured written).
const stopGrace = 10 * time.Second

// stopOn stops the run on a signal (stopSignals): the first cancels its
// context (in-flight streams are aborted and what was measured is still
// written); a second one, or a run still going stopGrace later, ends the
// process at once (exit with exitCannot: exitNow in the program, which
// kills the browsers first), whatever it waits for. It returns when done
// closes (the run ended). after is time.After in the program.
func stopOn(sigs <-chan os.Signal, done <-chan struct{}, cancel context.CancelFunc, stderr io.Writer,
	after func(time.Duration) <-chan time.Time, exit func(int)) {
	var sig os.Signal
	select {
	case sig = <-sigs:
	case <-done:
		return
	}
	cancel()
	fmt.Fprintf(stderr, "latgate: %v: stopping (again to exit at once)\n", sig)
	select {
	case again := <-sigs:
		fmt.Fprintf(stderr, "latgate: %v again: exiting without waiting\n", again)
	case <-after(stopGrace):
		fmt.Fprintf(stderr, "latgate: still stopping %v after %v: exiting without waiting\n", stopGrace, sig)
	case <-done:
		return
	}
	exit(exitCannot)
}

// runEnv runs a command in e and returns its exit code.
func runEnv(e *env, args []string) int {
	err := dispatch(e, args)
	if err != nil && gate.KindOf(err) != gate.Failed && !errors.Is(err, cli.ErrHelp) {
		for _, line := range errorLines(err) {
			fmt.Fprintln(e.stderr, "latgate: "+line)
		}
		if hint := gate.HintOf(err); hint != "" {
			fmt.Fprintln(e.stderr, hint)
		}
	}
	return exitCode(err)
}

// errorLines is how an error is said: a suite's mistakes one a line
// (file:line: what, as editors and CI logs read them), anything else as
// one line.
func errorLines(err error) []string {
	var es suite.Errors
	if !errors.As(err, &es) {
		return []string{oneLine(err.Error())}
	}
	var out []string
	for _, line := range strings.Split(es.Error(), "\n") {
		out = append(out, oneLine(line))
	}
	return out
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func (e *env) gateEnv() gate.Env {
	return gate.Env{Stdout: e.stdout, Stderr: e.stderr, Getenv: e.getenv, HTTPClient: e.github, ProbeClient: e.client,
		Color: isTerminal(e.stdout), TTY: progressBar(e), ToolVersion: version.Tool()}
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

package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/internal/version"
)

// command is one row of the command table.
type command = cli.Command[*env]

// commands is latgate's command table: the overview, each command's -h,
// dispatch and the shells' completion come from it (internal/cli). A new
// command is one row here and its flags function in a file of its own.
func commands() *cli.Table[*env] {
	return &cli.Table[*env]{
		Program: "latgate",
		Intro:   "latgate measures LLM streaming latency and gates CI on drift.",
		Outro:   "Run 'latgate COMMAND -h' for a command's flags.\nExit codes: 0 pass, 1 gate failed, 2 bad usage/config/input, 3 could not run.\n",
		Commands: []command{
			{Name: "run", Synopsis: "[-c latgate.yaml] [-o results.json]", About: "run the suite, write its results", Flags: runFlags},
			{Name: "validate", Synopsis: "[-c latgate.yaml] [--skip-env]", About: "check the suite as run does, sending nothing (pre-commit hooks, editors, CI's first step)", Flags: validateFlags},
			{Name: "check", Synopsis: "[-c latgate.yaml]", About: "one request to each endpoint, and what is wrong with it and how to fix it (exit 3 when one is not usable)", Flags: checkFlags},
			{Name: "ab", Synopsis: "[-c HEAD.yaml] --base-config BASE.yaml [-o ab.json] [--base-url ENDPOINT=URL ...] [--head-url ENDPOINT=URL ...]",
				About: "base and head interleaved in one job (recommended), compared", Flags: abFlags},
			{Name: "compare", Synopsis: "BASELINE.json CURRENT.json   a baseline and a current run\n" +
				"B1.json B2.json ... CURRENT.json   a baseline history (oldest first) and a current run\n" +
				"AB.json   the variants of an interleaved A/B run (latgate ab)",
				About: "compare results files: the verdict and the report", Flags: compareFlags, Args: cli.FileArgs},
			{Name: "gate", Synopsis: "[-c latgate.yaml] [--mode " + strings.Join(gate.Modes, "|") + "] [--baseline FILE] [--dry-run]",
				About: "what the Action runs: measure, then compare or record, then publish", Flags: inputFlags("gate")},
			{Name: "publish", Synopsis: "--results FILE [--baseline FILE] [--pr N | --head-sha SHA]",
				About: "compare a results file measured elsewhere and publish the verdict (the fork-safe split)", Flags: inputFlags("publish")},
			{Name: "merge", Synopsis: "[--shards] A.json B.json ... -o all.json", About: "combine results files (matrix legs in several regions, or --shards: legs that drove one load together)", Flags: mergeFlags, Args: cli.FileArgs},
			{Name: "import", Synopsis: "--from vllm|aiperf|guidellm FILE... [-o results.json] [--region R]", About: "other tools' per-request results as a results file\n" +
				"vllm: the JSON of vllm bench serve --save-result --save-detailed\n" +
				"aiperf: profile_export.jsonl (the summary beside it names the model and the load)\nguidellm: benchmarks.json",
				Flags: importFlags, Args: cli.FileArgs},
			{Name: "trend", Synopsis: "DIR|FILES...", About: "main's trend: series and change points of recorded runs\n" +
				"DIR: a baseline folder (the artifact of mode: record): its results files and main's trend file\n" +
				"FILES: results files (latgate run, gate) and trend files (latgate-trend.json.gz), in any order",
				Flags: trendFlags, Args: cli.FileArgs},
			{Name: "demo", About: "the whole flow on the built-in simulator", Flags: demoFlags},
			{Name: "sim", Synopsis: "[--addr 127.0.0.1:8080] [--profile realistic]", About: "serve the simulator", Flags: simFlags},
			{Name: "init", Synopsis: "[--base-url URL --model M --api-key-env VAR]", About: "write latgate.yaml and a workflow", Flags: initFlags},
			{Name: "completion", Synopsis: strings.Join(cli.Shells, "|"), About: "the shell's completion script", Flags: completionFlags,
				Args: cli.WordArgs, Words: cli.Shells},
			{Name: "version", About: "latgate's version, commit and Go version", Flags: versionFlags, Aliases: []string{"--version", "-version"}},
			{Name: "help", Synopsis: "[COMMAND]", About: "this overview, or a command's flags", Flags: helpFlags, Args: cli.CommandArgs,
				Aliases: []string{"-h", "--help"}},
		},
	}
}

func dispatch(e *env, args []string) error {
	err := commands().Dispatch(e, e.stderr, args)
	if ue, ok := err.(*cli.UsageError); ok {
		return &gate.Error{Kind: gate.BadInput, Err: err, Hint: ue.Hint}
	}
	return err
}

func helpFlags(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error { return commands().Help(e.stdout, args) }
}

func versionFlags(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, _ []string) error {
		fmt.Fprintln(e.stdout, version.String())
		return nil
	}
}

func completionFlags(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, args []string) error {
		if len(args) != 1 {
			return cli.ErrUsage
		}
		script, err := commands().Completion(args[0])
		if err != nil {
			return gate.BadInputf("completion: %v", err)
		}
		fmt.Fprint(e.stdout, script)
		return nil
	}
}

package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/cli"
	"github.com/latgate/latgate/sim"
)

func runFlags(fs *flag.FlagSet) func(*env, []string) error {
	o := gate.RunOptions{}
	fs.StringVar(&o.Config, "c", gate.DefaultConfig, "suite `file`")
	fs.StringVar(&o.Config, "config", gate.DefaultConfig, "suite `file` (same as -c)")
	fs.StringVar(&o.Out, "o", gate.RunResults, "results `file` to write")
	fs.StringVar(&o.Out, "output", gate.RunResults, "results `file` (same as -o)")
	fs.StringVar(&o.Region, "region", "", "region label recorded in the results (default $LATGATE_REGION)")
	fs.StringVar(&o.StartAt, "start-at", "", "start the suite's capacity ladders (capacity.levels) at this `time`, each level in its window: RFC 3339 (2025-06-01T10:00:00Z) or +DURATION from now (+90s); every leg of a sharded matrix gets the same")
	fs.BoolVar(&o.FailOnBudget, "fail-on-budget", false, "exit 1 when the run blows a budget of the suite (without it, run says so and exits 0)")
	sel := selectionFlags(fs)
	return func(e *env, _ []string) error {
		o.Select = *sel
		return gate.Run(e.ctx, e.gateEnv(), o)
	}
}

func simFlags(fs *flag.FlagSet) func(*env, []string) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
	o := sim.Options{}
	fs.StringVar(&o.Profile, "profile", "realistic", "latency `profile` of requests whose model names no profile: "+fmt.Sprint(sim.ProfileNames()))
	seed := fs.Uint64("seed", 1, "random seed")
	key := fs.String("require-key", "", "require this API key (tests 401 handling)")
	fs.DurationVar(&o.TTFT, "ttft", 0, "override: fixed time to first token")
	itl := fs.String("itl", "", "override: fixed inter-token `gap`, e.g. 20ms (default: the profile's)")
	fs.IntVar(&o.Tokens, "tokens", 0, "override: output tokens")
	fs.BoolVar(&o.Stamp, "stamp", false, "write each first output's send time as an SSE comment (fidelity benchmarks)")
	fs.Float64Var(&o.Speed.Slowdown, "slowdown", 0, "make every delay this much slower, e.g. 0.3 (the slower head of an A/B test)")
	fs.Float64Var(&o.Speed.TTFTSlowdown, "ttft-slowdown", 0, "make every time to first token this much slower on top, the inter-token gaps unchanged, e.g. 0.2")
	fs.Float64Var(&o.Speed.Swing, "swing", 0, "swing every delay by ± this share over time, e.g. 0.4 (a drifting provider)")
	fs.DurationVar(&o.Speed.SwingPeriod, "swing-period", 0, "the swing's `period`, e.g. 3s")
	fs.BoolVar(&o.Buffered, "buffered", false, "hold each response and release it at once, as a buffering proxy does")
	var toolSteps optionalInt
	fs.Var(&toolSteps, "tool-steps", "override: tool-call `steps` before the answer for a request that offers tools (0: never call; default: the profile's)")
	fs.IntVar(&o.ToolCalls, "tool-calls", 0, "override: parallel tool `calls` per step (default: the profile's, 1)")
	fs.IntVar(&o.ToolArgs, "tool-args", 0, "override: `characters` of each call's JSON arguments (default 24)")
	fs.IntVar(&o.ToolChunk, "tool-chunk", 0, "override: argument `characters` per delta (default 8; Gemini sends each call whole)")
	fs.DurationVar(&o.ToolLatency, "tool-latency", 0, "override: how long the ai-sdk route takes to run a tool, e.g. 150ms")
	fs.BoolVar(&o.PrefixCache, "prefix-cache", false, "report the prompt tokens of the longest conversation start seen before as cached")
	fs.DurationVar(&o.PrefillPerToken, "prefill-per-token", 0, "override: lengthen each TTFT by this `duration` per prompt token no cache holds, e.g. 50us (the trace profile's)")
	fs.IntVar(&o.BlockCache, "block-cache", 0, "override: a prefix cache of blocks of this many prompt `tokens`, chained as vLLM's, e.g. 16 (the trace profile's)")
	fs.DurationVar(&o.ColdStart, "cold-start", 0, "scale to zero: the first request, and one arriving after --idle-after with none in flight, waits this `duration` before its answer starts, e.g. 2s")
	fs.DurationVar(&o.IdleAfter, "idle-after", 0, "scale to zero after this `duration` with no request in flight, e.g. 30s (default: only the first request starts cold)")
	fs.IntVar(&o.Slots, "slots", 0, "override: serve at most this many requests at once, queueing the rest (the engine profile has 8)")
	var eng sim.Engine
	fs.DurationVar(&eng.Front, "engine-front", 0, "an engine that reports its own time: the part of each TTFT in front of it, e.g. 15ms (the rest is its prefill; its queue is the wait for a --slots slot)")
	report := fs.String("engine-report", "", "an engine that reports its own time in these `forms`, comma-separated: "+strings.Join(sim.Reports, ", ")+" (Ollama's /api/chat always does)")
	engine := fs.Bool("engine", false, "an engine with its defaults: 2ms in front, its time in vLLM's form, one GPU at /dcgm/metrics (--gpus), 8 slots unless --slots or the profile says")
	var gpus optionalInt
	fs.Var(&gpus, "gpus", "an engine with this `many` GPUs at /dcgm/metrics in dcgm-exporter's names, their utilization the share of the slots in use (default with --engine: 1)")
	fs.IntVar(&eng.SpecTokens, "spec-tokens", 0, "an engine that decodes speculatively, this many draft `tokens` a draft (vLLM's counters at /metrics)")
	fs.Float64Var(&eng.SpecAccept, "spec-accept", 0.75, "the share of draft tokens accepted, with --spec-tokens")
	certFile := fs.String("tls-cert", "", "serve HTTPS and wss:// with this certificate `file` (PEM; with --tls-key)")
	keyFile := fs.String("tls-key", "", "the TLS certificate's private key `file` (PEM)")
	return func(e *env, _ []string) error {
		if toolSteps.set {
			o.ToolSteps, o.SetToolSteps = toolSteps.v, true
		}
		if *report != "" {
			eng.Report = strings.Split(*report, ",")
		}
		simEngine(&o, &eng, *engine, gpus.or(-1), *report != "")
		if *itl != "" {
			d, err := time.ParseDuration(*itl)
			if err != nil {
				return gate.BadInputf("-itl: want a duration such as 20ms, got %q", *itl)
			}
			o.ITL, o.SetITL = d, true
		}
		s, err := o.Server(*seed)
		if err != nil {
			return gate.BadInputf("sim: %v", err)
		}
		s.APIKey = *key
		s.Warn = func(msg string) { fmt.Fprintln(e.stderr, "latgate sim: warning: "+msg) }
		tc, err := simTLS(*certFile, *keyFile)
		if err != nil {
			return err
		}
		scheme := "http"
		if tc != nil {
			scheme = "https"
		}
		err = sim.ListenAndServe(e.ctx, *addr, s, tc, func(a string) {
			fmt.Fprintf(e.stderr, "latgate sim: serving profile %q on %s://%s (Ctrl-C to stop); a request whose model names another profile (%s) is served at that one. Every api at once:\n%s",
				o.Profile, scheme, a, strings.Join(sim.ProfileNames(), ", "), sim.Routes(a, tc != nil))
		})
		return gate.AsCannotRun(err)
	}
}

// simEngine turns on the simulator's engine: with --engine, its defaults
// (2 ms in front, vLLM's form, one GPU, 8 slots when the profile has
// none); with --engine-front, --engine-report, --gpus or --spec-tokens,
// what they say.
func simEngine(o *sim.Options, eng *sim.Engine, on bool, gpus int, reports bool) {
	if on {
		if eng.Front == 0 {
			eng.Front = 2 * time.Millisecond
		}
		if !reports {
			eng.Report = []string{sim.ReportVLLM}
		}
		eng.GPUs = 1
		if o.Slots == 0 {
			if p, err := sim.Named(o.Profile); err == nil && p.Capacity.Slots == 0 {
				o.Slots = 8
			}
		}
	}
	if gpus != -1 {
		eng.GPUs = gpus
	}
	if eng.SpecTokens == 0 {
		eng.SpecAccept = 0
	}
	if on || eng.Front != 0 || reports || eng.GPUs != 0 || eng.SpecTokens != 0 {
		o.Engine = eng
	}
}

// simTLS is the simulator's TLS configuration from --tls-cert and
// --tls-key (both or neither); nil without them.
func simTLS(certFile, keyFile string) (*tls.Config, error) {
	switch {
	case certFile == "" && keyFile == "":
		return nil, nil
	case certFile == "" || keyFile == "":
		return nil, gate.BadInputf("sim: --tls-cert and --tls-key go together (a certificate and its private key, PEM)")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, gate.BadInputf("sim: --tls-cert %s, --tls-key %s: %v", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}}, nil
}

func mergeFlags(fs *flag.FlagSet) func(*env, []string) error {
	out := fs.String("o", "", "merged results `file` to write (required)")
	shards := fs.Bool("shards", false, "the files are legs that measured the same suite at once: one run per (endpoint, scenario, level) with every leg's requests")
	return func(e *env, pos []string) error {
		if *out == "" || len(pos) < 1 {
			return cli.ErrUsage
		}
		m, err := gate.MergeFiles(pos, *out, *shards)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "latgate: merged %d files (%d runs) into %s\n", len(pos), len(m.Runs), *out)
		return nil
	}
}

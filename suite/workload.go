package suite

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Workload is a scenario's load drawn from a trace (workload: in
// latgate.yaml): the trace file, its format, the entries drawn per side
// and how they are timed. Reading and drawing are the pipeline's (package
// workload); the suite only checks what is written.
type Workload struct {
	// Trace is the file as written; Path the file to open (relative to the
	// config file's folder).
	Trace, Path string
	// Format is the trace's reader; "" to detect it.
	Format string
	// Sample is the entries drawn per side (the scenario's requests).
	Sample int
	// Timing is "replay" (open loop at the trace's times over Speedup) or
	// "concurrency" (the scenario's closed loop).
	Timing  string
	Speedup float64
	// BlockTokens is the trace's hash_ids block size in tokens.
	BlockTokens int
	// ExactOutput asks the server for each entry's output length exactly
	// (min_tokens and ignore_eos, where the API has them), not at most.
	ExactOutput bool
	Line        int
}

// Workload timings.
const (
	TimingReplay      = "replay"
	TimingConcurrency = "concurrency"
)

// DefaultBlockTokens is Mooncake's block of hash_ids: 512 tokens.
const DefaultBlockTokens = 512

type rawWorkload struct {
	Trace       string  `yaml:"trace"`
	Format      string  `yaml:"format"`
	Sample      *int    `yaml:"sample"`
	Timing      string  `yaml:"timing"`
	Speedup     *scalar `yaml:"speedup"`
	BlockTokens *int    `yaml:"block_tokens"`
	ExactOutput bool    `yaml:"exact_output"`
}

// scenarioWorkload reads a scenario's workload: and refuses what a trace
// cannot be combined with: a prompt of its own, a session, a capacity
// search, adaptive requests, a rate, a cache setting.
func (p *parser) scenarioWorkload(ip string, rs rawScenario, s *Scenario) {
	rw := rs.Workload
	if rw == nil {
		return
	}
	ip += ".workload"
	kl := func(key string) int { return p.line(ip + "." + key) }
	w := &Workload{Trace: rw.Trace, Format: rw.Format, Timing: rw.Timing, Speedup: 1, BlockTokens: DefaultBlockTokens, ExactOutput: rw.ExactOutput, Line: p.line(ip)}
	s.Workload = w
	for key, given := range map[string]bool{"prompt, prompt_file or messages": rs.Prompt != "" || rs.PromptFile != "" || len(rs.Messages) > 0,
		"tools or turns": len(rs.Tools) > 0 || len(rs.Turns) > 0, "capacity": rs.Capacity != nil, "rate": rs.Rate != nil, "cache": rs.Cache != ""} {
		if given {
			p.errf(w.Line, "scenario %q: a workload draws its prompts, sessions and times from the trace: give no %s beside it", s.Name, key)
		}
	}
	switch {
	case strings.TrimSpace(w.Trace) == "":
		p.errf(w.Line, "scenario %q: workload.trace is required: the trace file, relative to the config file", s.Name)
	case filepath.IsAbs(w.Trace):
		p.errf(kl("trace"), "scenario %q: workload.trace: %s: a file of the suite is named relative to the config file, inside its repository", s.Name, w.Trace)
	default:
		w.Path = filepath.Join(filepath.Dir(p.path), w.Trace)
	}
	p.workloadSample(kl, rw, rs, s)
	switch w.Timing {
	case "":
		w.Timing = TimingConcurrency
	case TimingReplay, TimingConcurrency:
	default:
		p.errf(kl("timing"), "scenario %q: workload.timing: want replay (the trace's times) or concurrency (the scenario's), got %q", s.Name, w.Timing)
	}
	if rw.Speedup != nil {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rw.Speedup.Value), "x"), 64)
		if err != nil || !(v > 0 && v <= 1e6) {
			p.errf(kl("speedup"), "scenario %q: workload.speedup: want how many times faster than the trace, above 0 and at most 1000000, got %q", s.Name, rw.Speedup.Value)
		}
		w.Speedup = v
		if w.Timing != TimingReplay {
			p.errf(kl("speedup"), "scenario %q: workload.speedup times a replay: give timing: replay with it", s.Name)
		}
	}
	if w.Timing == TimingReplay && rs.Concurrency != nil {
		p.errf(p.line(ip[:len(ip)-len(".workload")]+".concurrency"), "scenario %q: a replay sends at the trace's times, not at a concurrency: give max_in_flight to bound the requests in flight", s.Name)
	}
	if b := rw.BlockTokens; b != nil {
		if *b < 1 || *b > 1<<20 {
			p.errf(kl("block_tokens"), "scenario %q: workload.block_tokens: want the trace's hash_ids block size in tokens, from 1 to 1048576, got %d", s.Name, *b)
		}
		w.BlockTokens = *b
	}
}

// workloadSample sets the entries drawn per side: sample, or the
// scenario's fixed requests; the two must agree when both are given.
func (p *parser) workloadSample(kl func(string) int, rw *rawWorkload, rs rawScenario, s *Scenario) {
	w := s.Workload
	r := rs.Requests
	if r != nil && r.Range != nil {
		p.errf(kl("sample"), "scenario %q: a workload draws a fixed sample: give requests as a number (or sample alone), not {min, max}", s.Name)
	}
	switch {
	case rw.Sample != nil:
		if *rw.Sample < 1 || *rw.Sample > maxSample {
			p.errf(kl("sample"), "scenario %q: workload.sample: want the entries to draw per side, from 1 to %d, got %d", s.Name, maxSample, *rw.Sample)
		}
		w.Sample = *rw.Sample
		if r != nil && r.Fixed != nil && *r.Fixed != w.Sample {
			p.errf(kl("sample"), "scenario %q: workload.sample (%d) and requests (%d) differ: the sample is the requests; give one", s.Name, w.Sample, *r.Fixed)
		}
	case r != nil && r.Fixed != nil:
		w.Sample = *r.Fixed
	default:
		w.Sample = s.Requests
	}
	s.Requests, s.RequestsMin = w.Sample, 0
}

// maxSample bounds a workload's draw per side.
const maxSample = 100_000

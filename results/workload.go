package results

import (
	"errors"
	"fmt"
	"slices"
)

// Workload is how a run's requests were drawn from a trace (a scenario's
// workload:); nil for a run of written prompts. Both sides of an A/B file
// hold the same draw.
type Workload struct {
	// Trace is the trace file's base name, Format its reader, Lines the
	// entries read from it and Sessions the conversations among them.
	Trace    string `json:"trace"`
	Format   string `json:"format"`
	Lines    int    `json:"lines"`
	Sessions int    `json:"sessions,omitempty"`
	// Sample is the entries drawn (per side), Seed what the draw was
	// seeded with (from the trace's own bytes: the same trace, the same
	// draw).
	Sample int    `json:"sample"`
	Seed   string `json:"seed"`
	// Timing is "replay" (open loop at the trace's times over Speedup) or
	// "concurrency" (the scenario's closed loop).
	Timing      string  `json:"timing"`
	Speedup     float64 `json:"speedup,omitempty"`
	BlockTokens int     `json:"block_tokens,omitempty"`
	// Strata are the upper bounds of input length (tokens, inclusive) of
	// the strata the draw was stratified by, in order; a request's
	// Trace.Stratum indexes them from 1.
	Strata []int `json:"strata"`
	// Tokens is how the synthesized prompts' length was counted in the
	// endpoint model's tokens: PerWord tokens per word of latgate's
	// lexicon and Overhead tokens the API adds to every prompt (its chat
	// template), Source where they were learned ("prompt_tokens" of
	// calibration requests, or "assumed" when the server reports none).
	Tokens TokenModel `json:"tokens"`
}

// TokenModel is a linear count of a synthesized prompt's tokens.
type TokenModel struct {
	PerWord  float64 `json:"per_word"`
	Overhead float64 `json:"overhead"`
	Source   string  `json:"source"`
}

// TraceRef is which trace entry a request replayed, with the lengths the
// trace gave it.
type TraceRef struct {
	Line    int `json:"line"`
	Input   int `json:"input_tokens"`
	Output  int `json:"output_tokens,omitempty"`
	Stratum int `json:"stratum"`
	// Turn is the entry's turn in its session (from 1); 0 without one.
	Turn int `json:"turn,omitempty"`
	// ScheduledMs is the trace's arrival compressed by the speedup, from
	// the run's start: when the replay meant to send it (timing: replay).
	ScheduledMs *float64 `json:"scheduled_ms,omitempty"`
}

// maxStrata bounds a run's strata.
const maxStrata = 64

// Check refuses a workload no draw gives.
func (w *Workload) Check() error {
	if w == nil {
		return nil
	}
	for _, c := range [...]struct {
		key string
		v   int
	}{{"lines", w.Lines}, {"sessions", w.Sessions}, {"sample", w.Sample}, {"block_tokens", w.BlockTokens}} {
		if c.v < 0 || c.v > maxCount {
			return fmt.Errorf("workload.%s is %d: a count is from 0 to %g", c.key, c.v, float64(maxCount))
		}
	}
	if len(w.Strata) == 0 || len(w.Strata) > maxStrata || !slices.IsSorted(w.Strata) || w.Strata[0] < 0 {
		return fmt.Errorf("workload.strata: %d bounds, want 1 to %d in increasing order", len(w.Strata), maxStrata)
	}
	if !(w.Speedup >= 0 && w.Speedup <= MaxMs) || !(w.Tokens.PerWord >= 0 && w.Tokens.PerWord <= 1e3) || !(w.Tokens.Overhead > -1e6 && w.Tokens.Overhead < 1e6) {
		return errors.New("workload: speedup or tokens out of range")
	}
	for _, s := range []string{w.Trace, w.Format, w.Seed, w.Timing, w.Tokens.Source} {
		if !plainText(s, MaxReason) {
			return fmt.Errorf("workload: over %d bytes or not printable text", MaxReason)
		}
	}
	return nil
}

// check refuses a trace reference no draw gives (its stratum is checked
// against its run's workload by the run: RunCheck).
func (t *TraceRef) check() error {
	if t == nil {
		return nil
	}
	if t.Line < 1 || t.Line > maxCount || t.Input < 0 || t.Input > maxCount || t.Output < 0 || t.Output > maxCount || t.Turn < 0 || t.Turn > maxCount {
		return errors.New("trace: a line, a length or a turn out of range")
	}
	if t.Stratum < 1 || t.Stratum > maxStrata {
		return fmt.Errorf("trace.stratum is %d: a stratum is from 1 to %d", t.Stratum, maxStrata)
	}
	if t.ScheduledMs != nil && !(*t.ScheduledMs >= 0 && *t.ScheduledMs <= MaxMs) {
		return fmt.Errorf("trace.scheduled_ms is %g: a time is from 0 to %g ms", *t.ScheduledMs, MaxMs)
	}
	return nil
}

// checkTrace refuses a run whose requests and workload disagree: a request
// that replayed a trace entry in a run without a workload, or whose
// stratum the workload does not have.
func (r Run) checkTrace(c RunCheck) error {
	switch {
	case c.stratum > 0 && r.Workload == nil:
		return errors.New("requests replay a trace (trace) but the run has no workload")
	case r.Workload != nil && c.stratum > len(r.Workload.Strata):
		return fmt.Errorf("a request is in stratum %d but the workload has %d strata", c.stratum, len(r.Workload.Strata))
	}
	return r.Workload.Check()
}

// Package gate is latgate's pipeline: it wires the stages — suite (config)
// → probe (measure) → results and baseline (files, history) → compare
// (statistics) → report (render) → publish (GitHub) — into what the
// commands and the Action do: Measure and MeasureAB, CompareFiles,
// CompareStored (a baseline history) and CompareAB (an interleaved run),
// Gate and Publish (the Action), AB and Demo. Thresholds builds the
// comparison settings once from the config and the flags.
//
// Every error it returns carries a Kind (BadInput, CannotRun, or ErrFailed
// for the gate's own verdict) that the command maps to an exit code. Bad
// input is reported before any request is sent. It does not parse flags or
// exit the process; time, I/O and the environment come in through Env and
// the options.
package gate

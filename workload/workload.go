// Package workload is load that looks like production: a team's trace
// (Mooncake JSONL, Azure LLM inference CSV, BurstGPT CSV, OpenTelemetry
// GenAI spans as OTLP JSON, a latgate results file) read as entries, one
// registered reader per format (reader_NAME.go), the format detected when
// not given; a sample drawn from it, stratified by input length and whole
// sessions, the same for base and head; and prompts synthesized to each
// entry's input length, equal prefix blocks (Mooncake's hash_ids) giving
// equal text so that a prefix cache sees the trace's sharing.
//
// It is pure: it reads what it is handed (an io.Reader, opened by the
// caller within its bounds) and keeps no clock; every bad line is an
// error naming the file, the line and the field.
package workload

import (
	"fmt"
	"time"
)

// Entry is one request of a trace.
type Entry struct {
	// Line is where the entry is in its file: the line from 1 (a CSV's
	// header is line 1), or for a JSON document the position of its span
	// or request from 1.
	Line int
	// At is the arrival, in the trace's own time (not compressed): from
	// the trace's origin as Read gives it (its start, or the Unix epoch
	// for wall-clock formats), from the trace's earliest entry in a Draw.
	At time.Duration
	// Input and Output are the trace's token counts (Output 0: not given).
	Input, Output int
	// Hashes are the entry's prefix blocks (Mooncake's hash_ids), each
	// Options.BlockTokens tokens of the prompt from its start, the last
	// one partial; nil when the trace has none.
	Hashes []uint64
	// Session is the conversation the entry is a turn of ("" when none);
	// its turns are ordered by At.
	Session string
}

// Error is a bad line of a trace: its file, line and field, and why.
type Error struct {
	File  string
	Line  int // 0: the file as a whole
	Field string
	Why   string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %s", e.File, e.Why)
	case e.Field == "":
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Why)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Why)
}

package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Mooncake's trace (kvcache-ai/Mooncake, FAST'25, as AIPerf and Dynamo
// replay it): JSON lines of {"timestamp": ms from the trace's start,
// "input_length", "output_length", "hash_ids": [blocks of the prompt],
// "session_id" (optional, a string or a number)}; other keys ignored.
func init() {
	register(Format{Name: "mooncake", Sniff: sniffMooncake, Read: readMooncake})
}

func sniffMooncake(head []byte) bool {
	l := firstLine(head)
	return len(l) > 0 && l[0] == '{' && bytes.Contains(l, []byte(`"input_length"`)) && !bytes.Contains(l, []byte(`"resourceSpans"`))
}

type mooncakeRow struct {
	Timestamp *float64        `json:"timestamp"`
	Input     *int64          `json:"input_length"`
	Output    *int64          `json:"output_length"`
	Hashes    []uint64        `json:"hash_ids"`
	Session   json.RawMessage `json:"session_id"`
}

func readMooncake(r io.Reader, file string, emit func(Entry) error, _ func(int) error) error {
	l := newLines(r, file)
	for {
		line, ok := l.next()
		if !ok {
			return l.err()
		}
		if blank(line) {
			continue
		}
		e, err := mooncakeEntry(l, line)
		if err != nil {
			return err
		}
		if err := emit(e); err != nil {
			return err
		}
	}
}

func mooncakeEntry(l *lines, line []byte) (Entry, error) {
	var row mooncakeRow
	if err := json.Unmarshal(line, &row); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Entry{}, l.fail(te.Field, "a JSON %s where a %s is wanted", clip(te.Value), wanted(te.Field))
		}
		return Entry{}, l.fail("", "not a JSON object: %v", err)
	}
	e := Entry{Line: l.n, Hashes: row.Hashes}
	var why string
	switch {
	case row.Timestamp == nil:
		return e, l.fail("timestamp", "missing")
	case row.Input == nil:
		return e, l.fail("input_length", "missing")
	case row.Output == nil:
		return e, l.fail("output_length", "missing")
	}
	if e.At, why = since(*row.Timestamp, time.Millisecond); why != "" {
		return e, l.fail("timestamp", "%s", why)
	}
	if e.Input, why = tokenCount(float64(*row.Input)); why != "" {
		return e, l.fail("input_length", "%s", why)
	}
	if e.Output, why = tokenCount(float64(*row.Output)); why != "" {
		return e, l.fail("output_length", "%s", why)
	}
	switch {
	case len(row.Hashes) > MaxHashes:
		return e, l.fail("hash_ids", "%d blocks: an entry holds at most %d", len(row.Hashes), MaxHashes)
	case len(row.Hashes) > e.Input:
		return e, l.fail("hash_ids", "%d blocks for %d input tokens: a block holds at least one token", len(row.Hashes), e.Input)
	}
	s, err := sessionID(row.Session)
	if err != "" {
		return e, l.fail("session_id", "%s", err)
	}
	e.Session = s
	return e, nil
}

// wanted names the JSON value a Mooncake key holds.
func wanted(field string) string {
	switch field {
	case "timestamp":
		return "number (milliseconds)"
	case "session_id":
		return "string or number"
	case "hash_ids":
		return "list of whole numbers ≥ 0"
	}
	return "whole number"
}

// sessionID is a session id given as a JSON string or whole number ("":
// none).
func sessionID(raw json.RawMessage) (string, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", ""
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", "not a string"
		}
	} else if _, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		s = string(raw)
	} else {
		return "", fmt.Sprintf("%s: a session id is a string or a whole number", clip(string(raw)))
	}
	if len(s) > MaxSessionID {
		return "", fmt.Sprintf("%d bytes: a session id is at most %d", len(s), MaxSessionID)
	}
	return s, ""
}

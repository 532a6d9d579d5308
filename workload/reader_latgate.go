package workload

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"time"
)

// A latgate results file (latgate/results/v1): each measured request an
// entry, sent_ms its arrival, prompt_tokens its input and output_tokens
// its output. Runs are laid end to end in file order: a run's sent_ms are
// from its own start, so each run is offset by the span (the last
// sent_ms) of the runs before it. In an A/B file only the base's runs are
// read. A request with prompt_tokens 0 (one that failed before the server
// counted its prompt) is skipped, and counted. An entry's line is the
// request's position in the file from 1 (every request counted).
func init() {
	register(Format{Name: "latgate", Sniff: sniffLatgate, Read: readLatgate})
}

var latgateRE = regexp.MustCompile(`^\s*\{\s*"schema"\s*:\s*"latgate/results/v1"`)

func sniffLatgate(head []byte) bool { return latgateRE.Match(head) }

// latgateRun is what reading a run keeps.
type latgateRun struct {
	offset time.Duration // the runs before it
	span   time.Duration // its last sent_ms
	head   bool
	read   bool // its requests were read
}

func readLatgate(r io.Reader, file string, emit func(Entry) error, skip func(int) error) error {
	w := newWalker(r, file)
	pos := 0 // requests so far
	var offset time.Duration
	schema := false
	run := func() error {
		rn := latgateRun{offset: offset}
		err := w.object("runs", func(key string) error {
			switch key {
			case "variant":
				t, err := w.scalar(key)
				rn.head = t == "head"
				if rn.head && rn.read {
					return w.fail(pos, "variant", "after the run's requests: not a file latgate wrote")
				}
				return err
			case "requests":
				rn.read = true
				return w.array(key, func() error {
					pos++
					return latgateRequest(w, &rn, pos, emit, skip)
				})
			}
			return w.skip()
		})
		if !rn.head {
			offset += min(rn.span, MaxAt-offset) // at MaxAt, a later request is refused
		}
		return err
	}
	err := w.object("", func(key string) error {
		switch key {
		case "schema":
			t, err := w.scalar(key)
			if err == nil && t != "latgate/results/v1" {
				return w.fail(1, "schema", "%s: latgate reads traces from latgate/results/v1 files", clip(fmt.Sprint(t)))
			}
			schema = true
			return err
		case "runs":
			if !schema {
				return w.fail(1, "schema", "missing before runs: not a latgate results file")
			}
			return w.array(key, run)
		}
		return w.skip()
	})
	if err != nil {
		return err
	}
	if !schema {
		return w.fail(1, "schema", "missing: not a latgate results file")
	}
	return nil
}

// latgateRequest reads one request of a run as an entry at its position.
func latgateRequest(w *walker, rn *latgateRun, pos int, emit func(Entry) error, skip func(int) error) error {
	var sent, prompt, output json.Token
	err := w.object("requests", func(key string) error {
		var err error
		switch key {
		case "sent_ms":
			sent, err = w.scalar(key)
		case "prompt_tokens":
			prompt, err = w.scalar(key)
		case "output_tokens":
			output, err = w.scalar(key)
		default:
			err = w.skip()
		}
		return err
	})
	if err != nil || rn.head {
		return err
	}
	e := Entry{Line: pos}
	var why string
	ms, ok := sent.(json.Number)
	if !ok {
		return w.fail(pos, "sent_ms", "missing or not a number")
	}
	v, _ := ms.Float64()
	if e.At, why = since(v, time.Millisecond); why != "" {
		return w.fail(pos, "sent_ms", "%s", why)
	}
	rn.span = max(rn.span, e.At)
	if e.At > MaxAt-rn.offset {
		return w.fail(pos, "sent_ms", "with the runs before it, past %v from the file's start", MaxAt)
	}
	e.At += rn.offset
	for _, f := range []struct {
		key string
		t   json.Token
		n   *int
	}{{"prompt_tokens", prompt, &e.Input}, {"output_tokens", output, &e.Output}} {
		n, ok := f.t.(json.Number)
		if !ok {
			return w.fail(pos, f.key, "missing or not a number")
		}
		v, err := n.Float64()
		if err != nil || math.IsInf(v, 0) {
			return w.fail(pos, f.key, "%q is not a number", clip(n.String()))
		}
		if *f.n, why = tokenCount(v); why != "" {
			return w.fail(pos, f.key, "%s", why)
		}
	}
	if e.Input == 0 {
		return skip(pos)
	}
	return emit(e)
}

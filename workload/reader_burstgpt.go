package workload

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// BurstGPT (HPMLL/BurstGPT): CSV with the header Timestamp,Model,Request
// tokens,Response tokens,Total tokens,Log Type (newer releases add
// Session ID and Elapsed time); Timestamp is seconds from the trace's
// start. Columns are found by name. A row whose Response tokens is 0 is a
// failed request (BurstGPT's README): it is skipped, and counted.
func init() {
	register(Format{Name: "burstgpt", Sniff: sniffBurstGPT, Read: readBurstGPT})
}

var burstColumns = []string{"Timestamp", "Request tokens", "Response tokens"}

func sniffBurstGPT(head []byte) bool { return hasColumns(firstLine(head), burstColumns) }

func readBurstGPT(r io.Reader, file string, emit func(Entry) error, skip func(int) error) error {
	l := newLines(r, file)
	return l.csv(burstColumns, []string{"Session ID"}, func(cols []string, idx map[string]int) error {
		e, err := burstEntry(l, cols, idx)
		switch {
		case err != nil:
			return err
		case e.Output == 0:
			return skip(l.n)
		}
		return emit(e)
	})
}

func burstEntry(l *lines, cols []string, idx map[string]int) (Entry, error) {
	e := Entry{Line: l.n}
	ts := cols[idx["Timestamp"]]
	v, err := strconv.ParseFloat(ts, 64)
	if err != nil {
		return e, l.fail("Timestamp", "%q is not a number of seconds", clip(ts))
	}
	var why string
	if e.At, why = since(v, time.Second); why != "" {
		return e, l.fail("Timestamp", "%s", why)
	}
	if e.Input, why = tokens(cols[idx["Request tokens"]]); why != "" {
		return e, l.fail("Request tokens", "%s", why)
	}
	if e.Output, why = tokens(cols[idx["Response tokens"]]); why != "" {
		return e, l.fail("Response tokens", "%s", why)
	}
	if i := idx["Session ID"]; i >= 0 {
		e.Session = strings.TrimSpace(cols[i])
		if len(e.Session) > MaxSessionID {
			return e, l.fail("Session ID", "%s", fmt.Sprintf("%d bytes: a session id is at most %d", len(e.Session), MaxSessionID))
		}
	}
	return e, nil
}

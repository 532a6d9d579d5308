package workload

import (
	"io"
	"strings"
	"time"
)

// The Azure LLM inference traces (Azure/AzurePublicDataset, 2023 and
// 2024): CSV with the header TIMESTAMP,ContextTokens,GeneratedTokens;
// TIMESTAMP is a wall-clock time, "2023-11-16 18:15:46.6805900" (2023:
// no zone, 7 fractional digits) or "2024-05-10 00:00:00.009930+00:00"
// (2024); a time without a zone is UTC. At is from the Unix epoch.
func init() {
	register(Format{Name: "azure", Sniff: sniffAzure, Read: readAzure})
}

var azureColumns = []string{"TIMESTAMP", "ContextTokens", "GeneratedTokens"}

func sniffAzure(head []byte) bool { return hasColumns(firstLine(head), azureColumns) }

// hasColumns reports whether a CSV header holds every name (without case).
func hasColumns(header []byte, names []string) bool {
	if len(header) == 0 || header[0] == '{' {
		return false
	}
	cols, err := splitCSV(header)
	if err != nil {
		return false
	}
	for _, n := range names {
		found := false
		for _, c := range cols {
			found = found || strings.EqualFold(c, n)
		}
		if !found {
			return false
		}
	}
	return true
}

func readAzure(r io.Reader, file string, emit func(Entry) error, _ func(int) error) error {
	l := newLines(r, file)
	return l.csv(azureColumns, nil, func(cols []string, idx map[string]int) error {
		e := Entry{Line: l.n}
		var why string
		if e.At, why = wallClock(cols[idx["TIMESTAMP"]]); why != "" {
			return l.fail("TIMESTAMP", "%s", why)
		}
		if e.Input, why = tokens(cols[idx["ContextTokens"]]); why != "" {
			return l.fail("ContextTokens", "%s", why)
		}
		if e.Output, why = tokens(cols[idx["GeneratedTokens"]]); why != "" {
			return l.fail("GeneratedTokens", "%s", why)
		}
		return emit(e)
	})
}

// wallClockLayouts are the times the Azure traces write; a fraction of
// a second after the seconds is read without being in the layout.
var wallClockLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02 15:04:05Z07:00",
	"2006-01-02T15:04:05", "2006-01-02T15:04:05Z07:00",
}

// wallClock is a wall-clock time as the time since the Unix epoch.
func wallClock(s string) (time.Duration, string) {
	s = strings.TrimSpace(s)
	for _, layout := range wallClockLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if t.Before(time.Unix(0, 0)) || t.After(time.Unix(0, 0).Add(MaxAt)) {
			return 0, "before 1970 or after 2169"
		}
		return t.Sub(time.Unix(0, 0)), ""
	}
	if s == "" {
		return 0, "missing"
	}
	return 0, "\"" + clip(s) + "\" is not a time like 2023-11-16 18:15:46.6805900"
}

package workload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzRead reads hostile bytes as format: never a panic; an error is an
// *Error; every entry within the bounds.
func fuzzRead(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		b, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		_, err := read(strings.NewReader(string(b)), "f", format, func(e Entry) error {
			n++
			if e.At < 0 || e.At > MaxAt || e.Input < 0 || e.Input > MaxTokens || e.Output < 0 || e.Output > MaxTokens ||
				len(e.Hashes) > MaxHashes || len(e.Session) > MaxSessionID || e.Line < 1 {
				t.Fatalf("entry out of bounds: %+v", e)
			}
			return nil
		}, func(int) {})
		var we *Error
		if err != nil && !errors.As(err, &we) {
			t.Fatalf("%T %v: not an *Error", err, err)
		}
		if err == nil && n > 0 {
			if _, err := Sample(opener(string(b)), "f", format, 3); err != nil {
				t.Fatalf("read, but not drawn: %v", err)
			}
		}
	})
}

func FuzzReadMooncake(f *testing.F) { fuzzRead(f, "mooncake", "mooncake.jsonl") }
func FuzzReadAzure(f *testing.F)    { fuzzRead(f, "azure", "azure2023.csv", "azure2024.csv") }
func FuzzReadBurstGPT(f *testing.F) { fuzzRead(f, "burstgpt", "burstgpt.csv", "burstgpt_sessions.csv") }
func FuzzReadOTLP(f *testing.F)     { fuzzRead(f, "otlp", "otlp.jsonl", "otlp.json") }
func FuzzReadLatgate(f *testing.F)  { fuzzRead(f, "latgate", "latgate.json") }

package gate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/publish"
	"github.com/latgate/latgate/results"
)

func TestSameSuiteStartsANewHistoryOnAConfigChange(t *testing.T) {
	t.Parallel()
	file := func(fp string, at time.Time) *results.File {
		v := 100.0
		return &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion, CreatedAt: at,
			Runs: []results.Run{{Endpoint: "e", Scenario: "s", Fingerprint: fp, Requests: []results.Request{{OK: true, TTFTMs: &v, TotalMs: &v}}}}}
	}
	hist := func(f *results.File) publish.HistoryFile {
		b, _ := json.Marshal(f)
		hf, err := publish.NewHistoryFile(publish.HistoryName(f.CreatedAt), b)
		if err != nil {
			t.Fatal(err)
		}
		return hf
	}
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	prev := []publish.HistoryFile{hist(file("old", t0)), hist(file("new", t0.Add(time.Hour)))}
	var log bytes.Buffer
	got := sameSuite(prev, file("new", t0.Add(2*time.Hour)), &log)
	if len(got) != 1 || got[0].Name != prev[1].Name {
		t.Errorf("kept %d files, want only the one with the same configuration", len(got))
	}
	if !strings.Contains(log.String(), "configuration changed") {
		t.Errorf("log %q: want the dropped file explained", log.String())
	}
	// The load is the configuration too: a history measured on one lane
	// is not the history of a run on 48.
	wide := file("new", t0.Add(2*time.Hour))
	wide.Runs[0].Config.Lanes = 48
	log.Reset()
	if got := sameSuite(prev[1:], wide, &log); len(got) != 0 || !strings.Contains(log.String(), "configuration changed since (lanes 1 → 48)") {
		t.Errorf("kept %d files at 48 lanes after 1, log %q; want it dropped, the lanes named", len(got), log.String())
	}
}

func TestUploadHint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		artifact string
		want     string
	}{
		{"", "upload the folder as an artifact and give its name as baseline-artifact"},
		{"latgate-baseline", `upload the folder as the artifact "latgate-baseline"`},
	}
	for _, tt := range tests {
		t.Run(tt.artifact, func(t *testing.T) {
			if got := uploadHint(tt.artifact); !strings.Contains(got, tt.want) || strings.Contains(got, `""`) {
				t.Errorf("got %q, want it to say %q", got, tt.want)
			}
		})
	}
}

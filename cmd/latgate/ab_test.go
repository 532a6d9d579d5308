package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/baseline"
	"github.com/latgate/latgate/sim"
)

// driftingProfile is a server whose speed swings ±40 % within seconds, as
// a shared provider's does: a stored baseline cannot be trusted against it.
func driftingProfile(slowdown float64) sim.Profile {
	return sim.Profile{
		TTFT: sim.LogNormal(200*time.Millisecond, 0.15), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 16,
		Speed: sim.Speed{Swing: 0.4, SwingPeriod: 1500 * time.Millisecond, Slowdown: slowdown},
	}
}

// TestABSurvivesDrift: an A/A run against a drifting server passes and says
// what the suite can detect; the same run with the head 30 % slower fails;
// the results file holds both variants with their blocks.
func TestABSurvivesDrift(t *testing.T) {
	base := sim.New(driftingProfile(0), 3)
	head := sim.New(driftingProfile(0.3), 4) // started at the same moment: the same swing
	bs, hs := httptest.NewServer(base), httptest.NewServer(head)
	t.Cleanup(bs.Close)
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "latgate.yaml")
	suiteText := "endpoints:\n  - {name: app, base_url: " + bs.URL + "/v1, model: m}\n" +
		"scenarios:\n  - {name: chat, prompt: hi, max_tokens: 16, requests: 80, concurrency: 8}\n"
	if err := os.WriteFile(cfg, []byte(suiteText), 0o644); err != nil {
		t.Fatal(err)
	}
	aa := filepath.Join(dir, "aa.json")
	r := runCLI(t, nil, "ab", "-c", cfg, "--base-config", cfg, "-o", aa)
	if r.code != 0 {
		t.Fatalf("A/A against a drifting server: exit %d, want 0:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "A/A run") || !strings.Contains(r.stdout, "detects (80% power)") {
		t.Errorf("the A/A run does not state what the suite can detect:\n%s", r.stdout)
	}
	f, err := baseline.Read(aa)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Runs) != 2 || f.Runs[0].Variant != "base" || f.Runs[1].Variant != "head" {
		t.Fatalf("runs %d, want a base and a head run", len(f.Runs))
	}
	blocks := map[int]int{}
	for _, run := range f.Runs {
		if len(run.Requests) != 80 {
			t.Errorf("%s: %d requests, want 80", run.Variant, len(run.Requests))
		}
		for _, q := range run.Requests {
			blocks[q.Block]++
		}
	}
	for b, n := range blocks {
		if b < 1 || n != 2 {
			t.Errorf("block %d holds %d requests, want one of each variant", b, n)
		}
	}
	// compare AB.json gives the same verdict from the file.
	if r := runCLI(t, nil, "compare", aa, "--format", "json"); r.code != 0 || !strings.Contains(r.stdout, `"verdict": "pass"`) {
		t.Errorf("compare of the A/A file: exit %d\n%s", r.code, r.stdout)
	}

	// The head 30 % slower, on the same drifting load: fails.
	r = runCLI(t, nil, "ab", "-c", cfg, "--base-config", cfg, "--head-url", "app="+hs.URL+"/v1", "-o", filepath.Join(dir, "slow.json"))
	if r.code != 1 || !strings.Contains(r.stdout, "regression") {
		t.Errorf("head 30%% slower: exit %d, want 1 with a regression:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

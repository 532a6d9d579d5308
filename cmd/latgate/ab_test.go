package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/internal/gittest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

// driftingProfile is a server whose speed swings ±40 % within seconds, as
// a shared provider's does: a stored baseline cannot be trusted against it.
func driftingProfile(slowdown float64) sim.Profile {
	return sim.Profile{
		TTFT: sim.LogNormal(200*time.Millisecond, 0.15), ITL: sim.Fixed(2 * time.Millisecond), Tokens: 2,
		Speed: sim.Speed{Swing: 0.4, SwingPeriod: 1500 * time.Millisecond, Slowdown: slowdown},
	}
}

// TestABSurvivesDrift: an A/A run against a drifting server passes and says
// what the suite can detect; the same run with the head 30 % slower fails;
// the results file holds both variants with their blocks.
func TestABSurvivesDrift(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		base := sim.New(driftingProfile(0), 3)
		head := sim.New(driftingProfile(0.3), 4) // started at the same moment: the same swing
		bs, hs := clocktest.NewServer(t, base), clocktest.NewServer(t, head)
		onLoopback(t, bs.Client())
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
		if !strings.Contains(r.stdout, "A/A run") || !strings.Contains(r.stdout, "catches (80% power)") {
			t.Errorf("the A/A run does not state what the suite can detect:\n%s", r.stdout)
		}
		f, err := fileio.Read(aa)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Runs) != 2 || f.Runs[0].Variant != "base" || f.Runs[1].Variant != "head" {
			t.Fatalf("runs %d, want a base and a head run", len(f.Runs))
		}
		blocks := map[int]map[vocab.Side]int{}
		for _, run := range f.Runs {
			if len(run.Requests) != 80 {
				t.Errorf("%s: %d requests, want 80", run.Variant, len(run.Requests))
			}
			for _, q := range run.Requests {
				if blocks[q.Block] == nil {
					blocks[q.Block] = map[vocab.Side]int{}
				}
				blocks[q.Block][run.Variant]++
			}
		}
		for b, n := range blocks {
			if b < 1 || n[vocab.Base] != gate.ABBlockSize || n[vocab.Head] != gate.ABBlockSize {
				t.Errorf("block %d holds %v, want %d of each variant (the calibrated design)", b, n, gate.ABBlockSize)
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
	})
}

// gitRepo makes dir a git repository with two commits: the base (every
// file of base) and the head (every other file in dir). It returns both.
func gitRepo(t *testing.T, dir string, base ...string) (baseSHA, headSHA string) {
	t.Helper()
	gittest.Need(t)
	git := func(args ...string) string { return gittest.Run(t, dir, args...) }
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("app\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(append([]string{"add", "README.md"}, base...)...)
	git("commit", "-q", "-m", "base")
	baseSHA = git("rev-parse", "HEAD")
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "head")
	return baseSHA, git("rev-parse", "HEAD")
}

// TestGateABOnThePullRequestThatAddsTheSuite: mode ab on the pull request
// that adds latgate.yaml (absent at the base commit) measures the head
// alone, passes and says "no baseline yet"; with the suite at the base
// commit it measures both variants; latgate ab, which has no such
// fallback, says what to give.
func TestGateABOnThePullRequestThatAddsTheSuite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		atBase       bool // latgate.yaml is in the base commit
		cmd          string
		wantCode     int
		want         string
		wantVariants bool
	}{
		{"the PR adds the suite", false, "gate", 0, "latgate.yaml does not exist at the base commit {base}: the suite is new in this pull request; measuring the head alone", false},
		{"the suite is at the base", true, "gate", 0, "base variant: ", true},
		{"latgate ab", false, "ab", 2, "there is no base variant to compare with yet; give --base-config", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
				var base []string
				if tt.atBase {
					base = append(base, "latgate.yaml")
				}
				baseSHA, headSHA := gitRepo(t, dir, base...)
				env := actionsEnv(t, dir, newFakeAPI(t))
				_ = os.WriteFile(env["GITHUB_EVENT_PATH"], []byte(`{"pull_request":{"number":7,"base":{"sha":"`+baseSHA+`"},"head":{"sha":"`+headSHA+`"}}}`), 0o644)
				res := filepath.Join(dir, "r.json")
				args := []string{"gate", "--mode", "ab", "-c", cfg, "--dry-run", "--results", res}
				if tt.cmd == "ab" {
					args = []string{"ab", "-c", cfg, "-o", res}
				}
				r := runCLI(t, env, args...)
				want := strings.ReplaceAll(tt.want, "{base}", baseSHA[:12])
				if r.code != tt.wantCode || !strings.Contains(r.stdout+r.stderr, want) {
					t.Fatalf("got exit %d, want %d and %q:\n%s\n%s", r.code, tt.wantCode, want, r.stdout, r.stderr)
				}
				if tt.wantCode != 0 {
					return
				}
				f, err := fileio.Read(res)
				if err != nil {
					t.Fatal(err)
				}
				if got := f.Interleaved(); got != tt.wantVariants {
					t.Errorf("got a results file with variants %v, want %v", got, tt.wantVariants)
				}
				if !tt.wantVariants && !strings.Contains(r.stdout, "no baseline yet: the suite is new in this pull request") {
					t.Errorf("the comment does not say that only the head was measured:\n%s", r.stdout)
				}
			})
		})
	}
}

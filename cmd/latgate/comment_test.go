package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/ghfake"
)

// linesWith returns the lines of text that contain s.
func linesWith(text, s string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// TestPublishFailedCommentExits3: the publish job exists to comment, so a
// comment GitHub refuses or fails is "could not run" (exit 3), said in one
// line; a rate limit says so and when it resets, not that the token is a
// fork's.
func TestPublishFailedCommentExits3(t *testing.T) {
	t.Parallel()
	// The subtests publish (each in a bubble of its own) the results of one
	// run, kept with its suite in a folder of the test's.
	kept := t.TempDir()
	cfg, res := filepath.Join(kept, "latgate.yaml"), filepath.Join(kept, "r.json")
	synctest.Test(t, func(t *testing.T) {
		_, suite, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", suite, "-o", res); r.code != 0 {
			t.Fatal(r.stderr)
		}
		if b, err := os.ReadFile(suite); err != nil || os.WriteFile(cfg, b, 0o644) != nil {
			t.Fatal(err)
		}
	})
	reset := time.Now().Add(30 * time.Minute)
	tests := []struct {
		status  int
		limited bool
		want    string
	}{
		{403, false, "Pull requests from forks get a read-only token"},
		{404, false, "HTTP 404: Not Found"},
		{502, false, "HTTP 502: Server Error"},
		{403, true, "GitHub's API rate limit is exhausted (HTTP 403); it resets at " + reset.UTC().Format("15:04:05 UTC")},
		{429, true, "GitHub's API rate limit is exhausted (HTTP 429); it resets at "},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d limited=%v", tt.status, tt.limited), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				api := newFakeAPI(t)
				if tt.limited {
					api.RateLimit(ghfake.CreateComment, tt.status, reset)
				} else {
					api.FailWith(ghfake.CreateComment, tt.status)
				}
				env := workflowRunEnv(t, t.TempDir(), api, "o/r", "branch-7", "c0ffee0000000000000000000000000000000000")
				api.Expect(ghfake.ListPulls, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
				r := runCLI(t, env, "publish", "--results", res, "--baseline", "none", "-c", cfg)
				if r.code != 3 {
					t.Errorf("exit %d, want 3", r.code)
				}
				lines := linesWith(r.stderr, "the comment was not posted")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "latgate: the comment was not posted: ") || !strings.Contains(lines[0], tt.want) {
					t.Errorf("want one line saying %q:\n%s", tt.want, r.stderr)
				}
				if tt.limited && strings.Contains(r.stderr, "fork") {
					t.Errorf("a rate limit is reported as a fork's token:\n%s", r.stderr)
				}
				if !strings.Contains(r.stdout, "::error::the comment was not posted") {
					t.Errorf("no error annotation:\n%s", r.stdout)
				}
				out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
				if !strings.Contains(string(out), "verdict<<") || !strings.Contains(string(out), "\npass\n") {
					t.Errorf("the verdict output is not kept:\n%s", out)
				}
				noSecrets(t, "output", r.stdout, r.stderr)
			})
		})
	}
}

// TestGateRateLimitedComment: in gate mode a comment that cannot be posted
// is a warning (the verdict decides), and a rate limit says what it is.
func TestGateRateLimitedComment(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		reset := time.Now().Add(45 * time.Minute)
		api.RateLimit(ghfake.ListComments, 403, reset)
		api.Expect(ghfake.GetUser, ghfake.ListComments)
		r := runCLI(t, actionsEnv(t, dir, api), "gate", "-c", cfg, "--baseline", "none", "--results", filepath.Join(dir, "r.json"))
		if r.code != 0 {
			t.Errorf("exit %d, want 0: the gate passed and the comment was not required", r.code)
		}
		want := "rate limit is exhausted (HTTP 403); it resets at " + reset.UTC().Format("15:04:05 UTC")
		if lines := linesWith(r.stderr, want); len(lines) != 1 || strings.Contains(r.stderr, "fork") {
			t.Errorf("want one warning saying %q and nothing about forks:\n%s", want, r.stderr)
		}
	})
}

// TestGateRequiredComment: comment: required makes a comment that could
// not be posted exit 3 when the gate passed; a failed gate still exits 1,
// with the comment's error said.
func TestGateRequiredComment(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, extra string
		code        int
	}{
		{"gate passed", "", 3},
		{"gate failed", "budgets:\n  ttft: {p50: 1ms}\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), tt.extra)
				api := newFakeAPI(t)
				api.FailWith(ghfake.CreateComment, 502)
				api.Expect(ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
				env := actionsEnv(t, dir, api)
				env["INPUT_COMMENT"] = "required"
				r := runCLI(t, env, "gate", "-c", cfg, "--baseline", "none", "--results", filepath.Join(dir, "r.json"))
				if r.code != tt.code {
					t.Errorf("exit %d, want %d", r.code, tt.code)
				}
				if lines := linesWith(r.stderr, "the comment was required and was not posted"); len(lines) != 1 || !strings.Contains(lines[0], "HTTP 502") {
					t.Errorf("want one line saying the required comment failed:\n%s", r.stderr)
				}
			})
		})
	}
}

// TestGateBaselineArtifactForbidden: a 403 on the baseline artifact names
// the permission the token lacks.
func TestGateBaselineArtifactForbidden(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		api.FailWith(ghfake.ListWorkflowRuns, 403)
		api.Expect(ghfake.ListWorkflowRuns)
		r := runCLI(t, actionsEnv(t, dir, api), "gate", "-c", cfg, "--baseline-artifact", "latgate-baseline", "--comment=false", "--results", filepath.Join(dir, "r.json"))
		if r.code != 3 || !strings.Contains(r.stderr, "the token needs the actions: read permission") {
			t.Errorf("exit %d, want 3 and the actions: read permission named:\n%s", r.code, r.stderr)
		}
	})
}

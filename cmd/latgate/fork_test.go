package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/internal/ghfake"
)

// actionWith returns the inputs (with:) of the latgate step of a ready
// workflow in docs/workflows, with its ${{ }} expressions replaced by
// values, as Action inputs (INPUT_*) into env.
func actionWith(t *testing.T, workflow string, values map[string]string, env map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../docs/workflows", workflow))
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string
				With map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, job := range w.Jobs {
		for _, s := range job.Steps {
			if !strings.HasPrefix(s.Uses, "latgate/latgate@") {
				continue
			}
			found++
			for k, v := range s.With {
				for expr, val := range values {
					v = strings.ReplaceAll(v, expr, val)
				}
				if strings.Contains(v, "${{") {
					t.Fatalf("%s: input %s: no value for %s", workflow, k, v)
				}
				env["INPUT_"+strings.ToUpper(k)] = v
			}
		}
	}
	if found != 1 {
		t.Fatalf("%s has %d latgate steps, want 1", workflow, found)
	}
}

// TestForkSplit runs the documented fork-safe split against the fake API:
// the pull_request job of a fork (latgate-fork-approved.yml's inputs)
// measures and writes the results; the workflow_run job
// (latgate-fork-publish.yml's inputs, in another workflow) reads them,
// fetches main's baseline from the push runs of the workflow that records
// it (not from its own runs, nor from the fork's planted artifact) and
// comments on the fork's pull request alone.
func TestForkSplit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, s := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		good, _ := resultsAt(t, cfg, filepath.Join(dir, "main.json"), -2*time.Hour)
		api.AddRun(ghfake.Run{ID: 9, Workflow: "latgate.yml", Branch: "main", Artifacts: []ghfake.Artifact{
			{ID: 5, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "latgate-results.json", Body: good})}}})
		const head = "f04c000000000000000000000000000000000000"
		api.AddPull(ghfake.Pull{Number: 4, HeadSHA: head, HeadRef: "main", HeadRepo: api.ForkOf("mallory")})

		// Part 1: the fork's pull request is measured, slower than main.
		s.SetProfile(fastProfile(120 * time.Millisecond))
		prDir := t.TempDir()
		copyFile(t, cfg, filepath.Join(prDir, "latgate.yaml"))
		env := actionsEnv(t, prDir, api)
		event := filepath.Join(prDir, "event.json")
		_ = os.WriteFile(event, []byte(`{"pull_request":{"number":4,"head":{"sha":"`+head+`","ref":"main","repo":{"full_name":"mallory/r"}},
			"base":{"sha":"ba5e000000000000000000000000000000000000","ref":"main","repo":{"full_name":"o/r"}}},"repository":{"full_name":"o/r","default_branch":"main"}}`), 0o644)
		env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = event, "pull_request_target"
		env["INPUT_WORKING_DIRECTORY"] = prDir
		actionWith(t, "latgate-fork-approved.yml", nil, env)
		r := runCLI(t, env, "gate") // no API call: no comparison, no comment
		if r.code != 0 {
			t.Fatalf("measure: exit %d:\n%s", r.code, r.stderr)
		}
		// The planted baseline: the fork's own pull_request run of latgate.yml
		// on its branch "main" uploaded its slow run as latgate-baseline.
		planted, _ := os.ReadFile(filepath.Join(prDir, "latgate-results.json"))
		api.AddRun(ghfake.Run{ID: 30, Workflow: "latgate.yml", Branch: "main", Event: "pull_request", HeadRepo: api.ForkOf("mallory"), HeadSHA: head,
			Artifacts: []ghfake.Artifact{{ID: 6, Name: "latgate-baseline", Zip: ghfake.Zip(ghfake.File{Name: "latgate-results.json", Body: string(planted)})}}})

		// Part 2: the workflow_run job, with the default branch checked out
		// and the results artifact downloaded into pr-results/.
		pubDir := t.TempDir()
		copyFile(t, cfg, filepath.Join(pubDir, "latgate.yaml"))
		copyFile(t, filepath.Join(prDir, "latgate-results.json"), filepath.Join(pubDir, "pr-results", "latgate-results.json"))
		env = actionsEnv(t, pubDir, api)
		delete(env, "TEST_API_KEY") // the publish job has no model secrets
		delete(env, "GITHUB_BASE_REF")
		event = filepath.Join(pubDir, "event.json")
		_ = os.WriteFile(event, []byte(`{"action":"completed","workflow_run":{"id":31,"head_sha":"`+head+`","head_branch":"main",
			"head_repository":{"full_name":"mallory/r"},"pull_requests":[]},"repository":{"full_name":"o/r","default_branch":"main"}}`), 0o644)
		env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = event, "workflow_run"
		env["GITHUB_WORKFLOW"], env["GITHUB_JOB"] = "latency-publish", "publish"
		env["GITHUB_WORKFLOW_REF"] = "o/r/.github/workflows/latgate-fork-publish.yml@refs/heads/main"
		env["GITHUB_REF"], env["GITHUB_REF_NAME"] = "refs/heads/main", "main"
		env["INPUT_WORKING_DIRECTORY"] = pubDir
		actionWith(t, "latgate-fork-publish.yml", map[string]string{"${{ github.event.workflow_run.head_sha }}": head}, env)
		if env["INPUT_COMMAND"] != "publish" {
			t.Fatalf("latgate-fork-publish.yml runs command %q", env["INPUT_COMMAND"])
		}
		api.Expect(ghfake.ListWorkflowRuns, ghfake.ListArtifacts, ghfake.DownloadArtifact, ghfake.Storage,
			ghfake.ListPulls, ghfake.GetUser, ghfake.ListComments, ghfake.CreateComment)
		r = runCLI(t, env, "publish")
		if r.code != 1 {
			t.Errorf("publish: exit %d, want 1 (slower than main's baseline):\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		calls := api.Take()
		if len(calls) == 0 || calls[0] != "GET /repos/o/r/actions/workflows/latgate.yml/runs?branch=main&event=push&per_page=20&status=success" {
			t.Errorf("the baseline was not looked for in latgate.yml's push runs on main: %v", calls)
		}
		if !strings.Contains(r.stderr, `from artifact "latgate-baseline" of `+api.RunURL(9)) {
			t.Errorf("the baseline is not main's push run 9:\n%s", r.stderr)
		}
		for _, c := range calls {
			if strings.Contains(c, "/runs/30/") || strings.Contains(c, "/artifacts/6/") {
				t.Errorf("the fork's run was read: %s", c)
			}
		}
		if c := api.Comments(4); len(c) != 1 || !strings.Contains(c[0].Body, "regression") {
			t.Errorf("comments on the fork's pull request #4: %+v, want one reporting the regression", c)
		}
		if c := api.Comments(7); len(c) != 1 {
			t.Errorf("another pull request was commented on: %+v", c)
		}
		noSecrets(t, "publish output", r.stdout, r.stderr)
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// workflowRunEnv is the publish job's environment for a workflow_run of
// headRepo's branch at sha, with the results to publish in dir/r.json.
func workflowRunEnv(t *testing.T, dir string, api *ghfake.Fake, headRepo, branch, sha string) map[string]string {
	env := actionsEnv(t, dir, api)
	delete(env, "TEST_API_KEY")
	delete(env, "GITHUB_BASE_REF")
	event := filepath.Join(dir, "wr-event.json")
	_ = os.WriteFile(event, []byte(`{"action":"completed","workflow_run":{"id":31,"head_sha":"`+sha+`","head_branch":"`+branch+`",
		"head_repository":{"full_name":"`+headRepo+`"},"pull_requests":[]},"repository":{"full_name":"o/r","default_branch":"main"}}`), 0o644)
	env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = event, "workflow_run"
	env["GITHUB_WORKFLOW_REF"] = "o/r/.github/workflows/latgate-fork-publish.yml@refs/heads/main"
	return env
}

// TestPublishNoMatchingPullRequest: a fork's run whose head commit is that
// of pull request #7 (anyone can push any commit to a fork), from a branch
// with no pull request, comments nowhere and says why in one line.
func TestPublishNoMatchingPullRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		dir, cfg, _ := simSuite(t, fastProfile(10*time.Millisecond), "")
		api := newFakeAPI(t)
		res := filepath.Join(dir, "r.json")
		if r := runCLI(t, map[string]string{"TEST_API_KEY": testKey}, "run", "-c", cfg, "-o", res); r.code != 0 {
			t.Fatal(r.stderr)
		}
		env := workflowRunEnv(t, dir, api, "mallory/r", "main", "c0ffee0000000000000000000000000000000000")
		api.Expect(ghfake.ListPulls)
		r := runCLI(t, env, "publish", "--results", res, "--baseline", "none", "-c", cfg, "--head-sha", "c0ffee0000000000000000000000000000000000")
		if r.code != 0 {
			t.Errorf("exit %d, want 0: there is no pull request to comment on:\n%s", r.code, r.stderr)
		}
		if c := api.Comments(7); len(c) != 1 {
			t.Errorf("pull request #7 (another repository's branch) got the comment: %+v", c)
		}
		var lines []string
		for _, l := range strings.Split(r.stderr, "\n") {
			if strings.Contains(l, "no open pull request") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 || !strings.Contains(lines[0], "no open pull request from branch main of mallory/r") || !strings.Contains(lines[0], "no comment posted") {
			t.Errorf("want one line saying no pull request matches:\n%s", r.stderr)
		}
	})
}

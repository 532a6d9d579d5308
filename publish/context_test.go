package publish

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runnerEnv is what the runner gives a step, with the event payload in a
// file.
func runnerEnv(t *testing.T, event string) map[string]string {
	env := map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_SHA": "0123abcd", "GITHUB_REF": "refs/pull/7/merge",
		"GITHUB_REF_NAME": "7/merge", "GITHUB_BASE_REF": "main", "GITHUB_WORKFLOW": "latency", "GITHUB_JOB": "gate",
		"GITHUB_WORKFLOW_REF": "o/r/.github/workflows/latgate.yml@refs/pull/7/merge",
		"GITHUB_RUN_ID":       "42", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_SERVER_URL": "https://ghe.test/",
		"GITHUB_API_URL": "https://ghe.test/api/v3", "GITHUB_WORKSPACE": "/w", "RUNNER_NAME": "GitHub Actions 7",
	}
	if event != "" {
		p := filepath.Join(t.TempDir(), "event.json")
		if err := os.WriteFile(p, []byte(event), 0o644); err != nil {
			t.Fatal(err)
		}
		env["GITHUB_EVENT_PATH"] = p
	}
	return env
}

const prEvent = `{"action":"synchronize","number":7,"repository":{"full_name":"o/r","default_branch":"trunk"},"pull_request":{"number":7,
 "head":{"sha":"f04c","ref":"main","repo":{"full_name":"alice/r"}},
 "base":{"sha":"ba5e","ref":"main","repo":{"full_name":"o/r"}}}}`

// A fork's run: pull_requests is empty.
const forkRunEvent = `{"action":"completed","workflow_run":{"id":99,"head_sha":"f04c","head_branch":"main",
 "head_repository":{"full_name":"alice/r"},"pull_requests":[]}}`

// A run of this repository: pull_requests names its pull request (and,
// as GitHub does, one of another repository with the same branch).
const ownRunEvent = `{"workflow_run":{"id":98,"head_sha":"5a3e","head_branch":"feature","head_repository":{"full_name":"o/r"},
 "pull_requests":[
  {"number":12,"head":{"sha":"5a3e","ref":"feature"},"base":{"sha":"0ther","ref":"main","repo":{"url":"https://ghe.test/api/v3/repos/x/r"}}},
  {"number":3,"head":{"sha":"5a3e","ref":"feature"},"base":{"sha":"ba5e","ref":"main","repo":{"url":"https://ghe.test/api/v3/repos/o/r"}}}]}}`

// A fork's run whose branch and commit are those of a pull request of this
// repository: the payload may name that pull request, which is not the
// run's (its head lives in another repository).
const forkRunNamingOurs = `{"workflow_run":{"id":97,"head_sha":"5a3e","head_branch":"feature","head_repository":{"full_name":"mallory/r"},
 "pull_requests":[
  {"number":3,"head":{"sha":"5a3e","ref":"feature","repo":{"url":"https://ghe.test/api/v3/repos/o/r"}},"base":{"sha":"ba5e","ref":"main","repo":{"url":"https://ghe.test/api/v3/repos/o/r"}}}]}}`

func TestContext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, eventName, event string
		pr                     int
		baseSHA                string
		head                   Head
		trigger                int64
	}{
		{"pull_request", "pull_request", prEvent, 7, "ba5e", Head{"f04c", "alice/r", "main"}, 0},
		{"pull_request_target", "pull_request_target", prEvent, 7, "ba5e", Head{"f04c", "alice/r", "main"}, 0},
		{"workflow_run of a fork", "workflow_run", forkRunEvent, 0, "", Head{"f04c", "alice/r", "main"}, 99},
		{"workflow_run of a branch", "workflow_run", ownRunEvent, 3, "ba5e", Head{"5a3e", "o/r", "feature"}, 98},
		{"workflow_run of a fork naming our pull request", "workflow_run", forkRunNamingOurs, 0, "", Head{"5a3e", "mallory/r", "feature"}, 97},
		{"push", "push", `{"ref":"refs/heads/main","after":"0123abcd"}`, 0, "", Head{}, 0},
		{"no event file", "push", "", 0, "", Head{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := runnerEnv(t, tt.event)
			env["GITHUB_EVENT_NAME"] = tt.eventName
			c, err := NewContext(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if c.PullRequest != tt.pr || c.BaseSHA != tt.baseSHA || c.Head != tt.head || c.TriggerRunID != tt.trigger {
				t.Errorf("pr %d, base %q, head %+v, trigger %d; want %d, %q, %+v, %d",
					c.PullRequest, c.BaseSHA, c.Head, c.TriggerRunID, tt.pr, tt.baseSHA, tt.head, tt.trigger)
			}
			if !c.InActions || c.EventName != tt.eventName || c.Repository != "o/r" || c.SHA != "0123abcd" || c.Ref != "refs/pull/7/merge" ||
				c.BaseRef != "main" || c.RunnerName != "GitHub Actions 7" || c.APIURL != "https://ghe.test/api/v3" || c.Workspace != "/w" ||
				c.Workflow != "latency" || c.Job != "gate" || c.RunID != 42 {
				t.Errorf("context %+v", c)
			}
			if got := c.RunURL(); got != "https://ghe.test/o/r/actions/runs/42" {
				t.Errorf("RunURL = %q", got)
			}
			if got := c.WorkflowFile(); got != "latgate.yml" {
				t.Errorf("WorkflowFile = %q", got)
			}
			if want := map[bool]string{true: "trunk"}[tt.event == prEvent]; c.DefaultBranch != want {
				t.Errorf("DefaultBranch = %q, want %q", c.DefaultBranch, want)
			}
		})
	}
}

func TestContextOutsideActions(t *testing.T) {
	t.Parallel()
	c, err := NewContext(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if c.InActions || c.Repository != "" || c.PullRequest != 0 || c.RunURL() != "" || c.WorkflowFile() != "" ||
		c.APIURL != "https://api.github.com" || c.ServerURL != "https://github.com" {
		t.Errorf("outside Actions: %+v", c)
	}
	if _, err := c.NewGitHub(nil, ""); err == nil || !strings.Contains(err.Error(), "GITHUB_REPOSITORY is not set") {
		t.Errorf("NewGitHub outside Actions: %v", err)
	}
}

func TestContextRerunURL(t *testing.T) {
	t.Parallel()
	env := runnerEnv(t, "")
	env["GITHUB_RUN_ATTEMPT"] = "2"
	c, err := NewContext(func(k string) string { return env[k] })
	if err != nil || c.RunURL() != "https://ghe.test/o/r/actions/runs/42/attempts/2" {
		t.Errorf("RunURL = %q, %v", c.RunURL(), err)
	}
}

func TestContextErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, value, want string
	}{
		{"bad run id", "GITHUB_RUN_ID", "forty-two", `GITHUB_RUN_ID="forty-two"`},
		{"bad GITHUB_ACTIONS", "GITHUB_ACTIONS", "yes please", `GITHUB_ACTIONS="yes please"`},
		{"event not JSON", "event", "{", "payload"},
		{"event of the wrong shape", "event", `{"pull_request":{"number":"seven"}}`, "reading the pull_request event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := runnerEnv(t, prEvent)
			if tt.key == "event" {
				env = runnerEnv(t, tt.value)
			} else {
				env[tt.key] = tt.value
			}
			_, err := NewContext(func(k string) string { return env[k] })
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to say %q", err, tt.want)
			}
		})
	}
}

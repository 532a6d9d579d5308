package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/suite"
)

// TestActionPassesEveryInput checks action.yml against the binary: every
// input is passed to the step explicitly (composite actions receive no
// INPUT_* variables from GitHub's runner) and is a flag of latgate gate,
// and every documented output is wired from the step.
func TestActionPassesEveryInput(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Inputs  map[string]struct{ Default string }
		Outputs map[string]struct{ Value string }
		Runs    struct {
			Using string
			Steps []struct {
				ID  string
				Env map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	var env map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "latgate" {
			env = s.Env
		}
	}
	flags := map[string]bool{}
	for _, in := range gate.InputSpecs {
		flags[in.Name] = true
	}
	for name := range a.Inputs {
		switch name {
		case "version": // used by the install step
			continue
		case "command":
			if env["LATGATE_COMMAND"] != "${{ inputs.command }}" {
				t.Error("input command is not passed")
			}
			continue
		}
		v := "INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if env[v] != "${{ inputs."+name+" }}" {
			t.Errorf("input %q is not passed as %s", name, v)
		}
		if !flags[name] {
			t.Errorf("input %q is not a flag of latgate gate", name)
		}
	}
	for _, in := range gate.InputSpecs {
		if _, ok := a.Inputs[in.Name]; !ok {
			t.Errorf("flag --%s is not an input of action.yml", in.Name)
		}
	}
	for _, out := range []string{"verdict", "results", "report", "regressions", "comment-url"} {
		if a.Outputs[out].Value != "${{ steps.latgate.outputs."+out+" }}" {
			t.Errorf("output %q is not wired from the step: %q", out, a.Outputs[out].Value)
		}
	}
	if got := a.Inputs["config"].Default; got != gate.DefaultConfig {
		t.Errorf("input config defaults to %q in action.yml, want %q as latgate gate", got, gate.DefaultConfig)
	}
	if a.Inputs["github-token"].Default != "${{ github.token }}" {
		t.Error("github-token does not default to github.token")
	}
}

// TestExampleSuiteParses keeps examples/latgate.yaml valid.
func TestExampleSuitesParse(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 3 {
		t.Fatalf("found %d example suites, want at least 3", len(files))
	}
	// The examples read their URL and token from the environment.
	getenv := func(k string) string {
		return map[string]string{"APP_URL": "http://127.0.0.1:8000", "APP_TOKEN": "t", "OPENAI_API_KEY": "k"}[k]
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := suite.Parse(f, b, suite.Options{ReadFile: os.ReadFile, Getenv: getenv}); err != nil {
			t.Error(err)
		}
	}
}

// TestWorkflowsDocMatchesExample keeps the stored-baseline workflow that
// docs/workflows.md shows copy-paste correct.
func TestWorkflowsDocMatchesExample(t *testing.T) {
	t.Parallel()
	guide, err := os.ReadFile("../../docs/workflows.md")
	if err != nil {
		t.Fatal(err)
	}
	wf, err := os.ReadFile("../../docs/workflows/latgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```yaml\n"+string(wf)+"```") {
		t.Error("docs/workflows.md's workflow differs from docs/workflows/latgate.yml")
	}
	files, _ := filepath.Glob("../../docs/workflows/*.yml")
	if len(files) < 7 {
		t.Fatalf("found %d workflows, want at least 7", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var w struct {
			On   any            `yaml:"on"`
			Jobs map[string]any `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(b, &w); err != nil || w.On == nil || len(w.Jobs) == 0 {
			t.Errorf("%s: not a workflow (%v)", f, err)
		}
	}
}

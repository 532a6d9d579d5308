package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/gate"
	"github.com/latgate/latgate/suite"
)

// TestActionPassesEveryInput checks action.yml against the binary: every
// input is passed to the step explicitly (composite actions receive no
// INPUT_* variables from GitHub's runner) and is a flag of latgate gate,
// and every output of SPEC §7 is wired from the step.
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
		return map[string]string{"APP_URL": "http://127.0.0.1:8000", "APP_TOKEN": "t"}[k]
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

// TestREADMEWorkflowMatchesExample keeps the README's workflow copy-paste correct.
func TestREADMEWorkflowMatchesExample(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	wf, err := os.ReadFile("../../docs/workflows/latgate.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```yaml\n"+string(wf)+"```") {
		t.Error("README's workflow differs from docs/workflows/latgate.yml")
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

// TestInstallPinnedSHADownloadsTheRelease: an Action pinned to a release
// commit's full SHA (RELEASE in its checkout) downloads that release's
// binary and checks it against SHA256SUMS instead of building from source.
func TestInstallPinnedSHADownloadsTheRelease(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	asset := "latgate_" + runtime.GOOS + "_" + runtime.GOARCH
	if runtime.GOOS != "linux" {
		t.Skip("the stand-in release is for linux runners")
	}
	bin := []byte("#!/bin/sh\necho released\n")
	sum := sha256.Sum256(bin)
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Path)
		switch r.URL.Path {
		case "/o/latgate/releases/download/v9.9.9/" + asset:
			_, _ = w.Write(bin)
		case "/o/latgate/releases/download/v9.9.9/SHA256SUMS":
			fmt.Fprintf(w, "%s  %s\n", hex.EncodeToString(sum[:]), asset)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	action := t.TempDir()
	if err := os.WriteFile(filepath.Join(action, "RELEASE"), []byte("v9.9.9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "output")
	cmd := exec.Command("bash", "../../scripts/install.sh")
	cmd.Env = append(os.Environ(), "LATGATE_ACTION_PATH="+action, "LATGATE_ACTION_REF="+strings.Repeat("ab", 20),
		"LATGATE_ACTION_REPOSITORY=o/latgate", "GH_SERVER="+srv.URL, "RUNNER_TOOL_CACHE="+t.TempDir(), "GITHUB_OUTPUT="+out, "GITHUB_PATH=", "LATGATE_VERSION=")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, b)
	}
	o, _ := os.ReadFile(out)
	path := strings.TrimSpace(strings.TrimPrefix(string(o), "bin="))
	if data, err := os.ReadFile(path); err != nil || string(data) != string(bin) {
		t.Errorf("bin=%q does not hold the released binary (%v); requests %v\n%s", path, err, got, b)
	}
	if strings.Contains(string(b), "building from source") {
		t.Errorf("a pinned release commit was built from source:\n%s", b)
	}
}

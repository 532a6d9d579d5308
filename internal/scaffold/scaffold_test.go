package scaffold

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/latgate/latgate/suite"
)

func TestInitWritesASuiteThatParses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opt     InitOptions
		env     map[string]string
		wantURL string
		wantKey string
		wantSim bool // the workflow starts the simulator
	}{
		{"no key: the simulator", InitOptions{}, nil, "http://127.0.0.1:8080/v1", "", true},
		{"detected key", InitOptions{}, map[string]string{"GROQ_API_KEY": "x"}, "https://api.groq.com/openai/v1", "GROQ_API_KEY", false},
		{"anthropic", InitOptions{}, map[string]string{"ANTHROPIC_API_KEY": "x"}, "https://api.anthropic.com", "ANTHROPIC_API_KEY", false},
		{"an API's own key before a compatible host's", InitOptions{}, map[string]string{"GROQ_API_KEY": "x", "GEMINI_API_KEY": "x"},
			"https://generativelanguage.googleapis.com/v1beta", "GEMINI_API_KEY", false},
		{"openai first", InitOptions{}, map[string]string{"GEMINI_API_KEY": "x", "OPENAI_API_KEY": "x"}, "https://api.openai.com/v1", "OPENAI_API_KEY", false},
		{"flags win", InitOptions{BaseURL: "http://vllm:8000/v1", Model: "m", KeyEnv: "MY_KEY"}, map[string]string{"OPENAI_API_KEY": "x"}, "http://vllm:8000/v1", "MY_KEY", false},
		{"the simulator's URL needs no model", InitOptions{BaseURL: SimURL + "/"}, nil, SimURL, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Getenv = func(k string) string { return tt.env[k] }
			files, _, err := Init(tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			for name, text := range files {
				if !strings.HasSuffix(text, "\n") || strings.HasSuffix(text, "\n\n") {
					t.Errorf("%s ends with %q, want one newline", name, text[max(0, len(text)-20):])
				}
			}
			cfgText := files["latgate.yaml"]
			if !strings.HasPrefix(cfgText, "# yaml-language-server: $schema="+SchemaURL) {
				t.Errorf("no schema line:\n%s", cfgText)
			}
			cfg, err := suite.Parse("latgate.yaml", []byte(cfgText), suite.Options{SkipKeys: true, Getenv: tt.opt.Getenv})
			if err != nil {
				t.Fatalf("the written suite does not parse: %v\n%s", err, cfgText)
			}
			if got := cfg.Endpoints[0].BaseURL; got != tt.wantURL {
				t.Errorf("base_url = %q, want %q", got, tt.wantURL)
			}
			if got := cfg.Endpoints[0].APIKeyEnv; got != tt.wantKey {
				t.Errorf("api_key_env = %q, want %q", got, tt.wantKey)
			}
			// An A/B run to max fits the suite's caps: every request of both
			// variants, and all their output tokens.
			sc, l := cfg.Scenarios[0], cfg.Limits
			if reqs := 2 * (sc.Requests + sc.Warmup); reqs > l.MaxRequests || reqs*sc.MaxTokens > l.MaxOutputTokens || cfg.Lanes < 1 || sc.RequestsMin == 0 {
				t.Errorf("%d requests of up to %d tokens on %d lanes (min %d) against the caps %d requests, %d tokens", reqs, sc.MaxTokens, cfg.Lanes, sc.RequestsMin, l.MaxRequests, l.MaxOutputTokens)
			}
			var wf struct {
				On struct {
					PullRequest struct{ Types []string } `yaml:"pull_request"`
				}
				Jobs map[string]struct {
					If          string
					Concurrency map[string]any
					Steps       []struct {
						Uses string
						Run  string
						With map[string]string
						Env  map[string]string
					}
				}
			}
			if err := yaml.Unmarshal([]byte(files[WorkflowPath]), &wf); err != nil {
				t.Fatalf("workflow: %v", err)
			}
			// Adding or removing the accept label re-runs the check; no
			// other label does, nor cancels a measurement (job-level group).
			for _, typ := range []string{"opened", "synchronize", "reopened", "labeled", "unlabeled"} {
				if !slices.Contains(wf.On.PullRequest.Types, typ) {
					t.Errorf("pull_request types %v, want %q among them", wf.On.PullRequest.Types, typ)
				}
			}
			job := wf.Jobs["latency"]
			if !strings.Contains(job.If, "github.event.label.name == 'latency-accepted'") || job.Concurrency["group"] == nil {
				t.Errorf("job if %q, concurrency %v: want only the accept label to re-run it, in a job-level group", job.If, job.Concurrency)
			}
			steps := job.Steps
			step := steps[len(steps)-1]
			if step.With["mode"] != "ab" || step.With["config"] != "latgate.yaml" {
				t.Errorf("workflow's last step with = %v, want mode ab on latgate.yaml", step.With)
			}
			// A runner has no simulator: a suite that measures it starts it
			// first, on the suite's address, with latgate put on PATH.
			var install, sim bool
			for _, st := range steps[:len(steps)-1] {
				install = install || st.With["command"] == "install"
				if strings.Contains(st.Run, "latgate sim --addr 127.0.0.1:8080 ") && strings.Contains(st.Run, "http://127.0.0.1:8080/v1/models") {
					sim = true
					if out, err := exec.Command("bash", "-n", "-c", st.Run).CombinedOutput(); err != nil {
						t.Errorf("the simulator step is not valid bash: %v\n%s", err, out)
					}
				}
			}
			if install != tt.wantSim || sim != tt.wantSim {
				t.Errorf("got an install step %v and a simulator step %v before the gate, want %v", install, sim, tt.wantSim)
			}
			if tt.wantKey != "" && step.Env[tt.wantKey] != "${{ secrets."+tt.wantKey+" }}" {
				t.Errorf("workflow env = %v, want the key from secrets", step.Env)
			}
		})
	}
}

func TestInitBaseURLNeedsAModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  InitOptions
		want string // "" for no error
	}{
		{"an API without a model", InitOptions{BaseURL: "https://api.example.com/v1"}, "--base-url https://api.example.com/v1 needs --model"},
		{"a detected key does not help", InitOptions{BaseURL: "http://vllm:8000/v1", Getenv: func(string) string { return "x" }}, "needs --model"},
		{"with a model", InitOptions{BaseURL: "https://api.example.com/v1", Model: "m"}, ""},
		{"the simulator", InitOptions{BaseURL: SimURL}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, _, err := Init(tt.opt)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			case tt.want != "" && files != nil:
				t.Errorf("got files with the error, want none")
			}
		})
	}
}

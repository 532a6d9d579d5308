package gate

import (
	"strings"
	"testing"
)

func TestResolveInputsDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		command    string
		given, env map[string]string
		want       string
	}{
		{"gate", "gate", nil, nil, "latgate.yaml"},
		{"publish", "publish", nil, nil, "latgate.yaml"},
		{"the Action input", "gate", nil, map[string]string{"INPUT_CONFIG": "suites/api.yaml"}, "suites/api.yaml"},
		{"the flag wins", "gate", map[string]string{"config": "x.yaml"}, map[string]string{"INPUT_CONFIG": "suites/api.yaml"}, "x.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := ResolveInputs(tt.command, tt.given, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if in.Config != tt.want {
				t.Errorf("config: got %q, want %q", in.Config, tt.want)
			}
		})
	}
}

func TestBaselineWorkflowInput(t *testing.T) {
	tests := []struct {
		name       string
		given, env map[string]string
		want, err  string
	}{
		{"none: this workflow", nil, nil, "", ""},
		{"the Action input", nil, map[string]string{"INPUT_BASELINE-WORKFLOW": "latgate.yml"}, "latgate.yml", ""},
		{"a wrapper's underscores", nil, map[string]string{"INPUT_BASELINE_WORKFLOW": "latency.yaml"}, "latency.yaml", ""},
		{"the flag, as a path", map[string]string{"baseline-workflow": ".github/workflows/latgate.yml"}, nil, "latgate.yml", ""},
		{"not a workflow file", map[string]string{"baseline-workflow": "latency"}, nil, "", "want a workflow's file name"},
		{"another folder", map[string]string{"baseline-workflow": "../x/latgate.yml"}, nil, "", "want a workflow's file name"},
	}
	for _, command := range []string{"gate", "publish"} {
		for _, tt := range tests {
			t.Run(command+"/"+tt.name, func(t *testing.T) {
				in, err := ResolveInputs(command, tt.given, func(k string) string { return tt.env[k] })
				if tt.err != "" {
					if KindOf(err) != BadInput || !strings.Contains(err.Error(), tt.err) {
						t.Errorf("err = %v, want bad input saying %q", err, tt.err)
					}
					return
				}
				if err != nil || in.BaselineWorkflow != tt.want {
					t.Errorf("got %q, %v; want %q", in.BaselineWorkflow, err, tt.want)
				}
			})
		}
	}
	in := Inputs{Mode: "gate", BaselineWorkflow: "latgate.yml"}
	if err := in.Validate("gate"); KindOf(err) != BadInput || !strings.Contains(err.Error(), "give baseline-artifact too") {
		t.Errorf("baseline-workflow without baseline-artifact: %v", err)
	}
}

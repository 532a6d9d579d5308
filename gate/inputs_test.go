package gate

import "testing"

func TestResolveInputsDefaults(t *testing.T) {
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

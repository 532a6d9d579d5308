package gate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/suite"
)

func TestSelection(t *testing.T) {
	t.Parallel()
	base := func() *suite.Config {
		return &suite.Config{Path: "l.yaml", Scenarios: []suite.Scenario{{Name: "a", Requests: 50}, {Name: "b", Requests: 50}, {Name: "c", Requests: 50}}}
	}
	tests := []struct {
		name    string
		sel     Selection
		want    string // scenario:requests, comma-separated
		wantErr string
	}{
		{"all", Selection{}, "a:50,b:50,c:50", ""},
		{"two, in config order", Selection{Scenarios: []string{"c", "a"}}, "a:50,c:50", ""},
		{"requests", Selection{Scenarios: []string{"b"}, Requests: 5}, "b:5", ""},
		{"unknown", Selection{Scenarios: []string{"d"}}, "", `--scenario "d" is not in l.yaml; it has: a, b, c`},
		{"a typo", Selection{Scenarios: []string{"bb"}}, "", `--scenario "bb" is not in l.yaml (did you mean "b"?); it has: a, b, c`},
		{"negative", Selection{Requests: -1}, "", "want a positive number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base()
			err := tt.sel.Apply(cfg)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || KindOf(err) != BadInput {
					t.Fatalf("err = %v, want bad input containing %q", err, tt.wantErr)
				}
				return
			}
			var got []string
			for _, s := range cfg.Scenarios {
				got = append(got, s.Name+":"+strconv.Itoa(s.Requests))
			}
			if g := strings.Join(got, ","); g != tt.want {
				t.Errorf("got %s, want %s", g, tt.want)
			}
		})
	}
}

func TestConfigWarningsArePrinted(t *testing.T) {
	t.Parallel()
	cfg, err := suite.Parse("w.yaml", []byte("endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\npricing:\n  other-model: {input: 1, output: 2}\n"), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	ConfigWarnings(&b, cfg)
	if !strings.Contains(b.String(), "latgate: warning: w.yaml:") || !strings.Contains(b.String(), "other-model") {
		t.Errorf("warnings %q, want the unused price named with its line", b.String())
	}
}

// --requests replaces the warnings about the file's request counts, so
// they are printed after the selection is applied.
func TestRequestsWarningsFollowTheSelection(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		sel  Selection
		want string
	}{
		{"file's count", Selection{}, `latgate: warning: w.yaml:4: scenario "s": requests: 8 can never be tested`},
		{"--requests 50", Selection{Requests: 50}, ""},
		{"--requests 20", Selection{Requests: 20}, "latgate: warning: --requests: 20 leaves p95 untested"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := suite.Parse("w.yaml", []byte("endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: 8}\n"), suite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.sel.Apply(cfg); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			ConfigWarnings(&b, cfg)
			if got := b.String(); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
				t.Errorf("got warnings %q, want %q", got, tt.want)
			}
		})
	}
}

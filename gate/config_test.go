package gate

import (
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/suite"
)

// A threshold flag accepts and rejects what the same key in the config
// does, with the same message, and gives the same value.
func TestThresholdFlagsParseAsTheConfig(t *testing.T) {
	t.Parallel()
	const base = "endpoints:\n  - {name: a, base_url: http://x/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi}\nregression:\n  "
	tests := []struct {
		key, flag, value string
		over             Overrides
		want             string // the message after the key or the flag; "" = accepted
	}{
		{"tolerance", "tolerance", "150%", Overrides{Tolerance: "150%"}, "150% is out of range: want at least 0% and below 100% (such as 10%)"},
		{"tolerance", "tolerance", "10", Overrides{Tolerance: "10"}, `"10" is ambiguous (a bare number is a fraction, so 10 means 1000%): write 10% or 0.1`},
		{"tolerance", "tolerance", "-5%", Overrides{Tolerance: "-5%"}, "-5% is out of range"},
		{"tolerance", "tolerance", "15%", Overrides{Tolerance: "15%"}, ""},
		{"min_delta", "min-delta", "50", Overrides{MinDelta: "50"}, `"50" has no unit: write 50ms or 50s`},
		{"min_delta", "min-delta", "-5ms", Overrides{MinDelta: "-5ms"}, `must not be negative, got "-5ms"`},
		{"min_delta", "min-delta", "50ms", Overrides{MinDelta: "50ms"}, ""},
		{"min_delta", "min-delta", "0", Overrides{MinDelta: "0"}, ""},
		{"alpha", "alpha", "5%", Overrides{Alpha: "5%"}, ""},
		{"alpha", "alpha", "0.01", Overrides{Alpha: "0.01"}, ""},
		{"alpha", "alpha", "3", Overrides{Alpha: "3"}, `want a number between 0 and 0.5 (such as 0.05 or 5%), got "3"`},
		{"alpha", "alpha", "50%", Overrides{Alpha: "50%"}, `want a number between 0 and 0.5 (such as 0.05 or 5%), got "50%"`},
	}
	for _, tt := range tests {
		t.Run(tt.flag+" "+tt.value, func(t *testing.T) {
			cfg, cfgErr := suite.Parse("l.yaml", []byte(base+tt.key+": "+tt.value+"\n"), suite.Options{})
			th, flagErr := CompareConfig(nil, tt.over)
			if tt.want == "" {
				if cfgErr != nil || flagErr != nil {
					t.Fatalf("got config error %v, flag error %v; want both accepted", cfgErr, flagErr)
				}
				fromCfg, err := CompareConfig(cfg, Overrides{})
				if err != nil {
					t.Fatal(err)
				}
				if th.Tolerance != fromCfg.Tolerance || th.MinDelta != fromCfg.MinDelta || th.Alpha != fromCfg.Alpha {
					t.Errorf("got flag thresholds %+v, want the config's %+v", th, fromCfg)
				}
				return
			}
			if want := "l.yaml:6: regression." + tt.key + ": " + tt.want; cfgErr == nil || !strings.HasPrefix(cfgErr.Error(), want) {
				t.Errorf("got config error %v, want %s", cfgErr, want)
			}
			if want := tt.flag + ": " + tt.want; flagErr == nil || !strings.HasPrefix(flagErr.Error(), want) || KindOf(flagErr) != BadInput {
				t.Errorf("got flag error %v, want bad input %s", flagErr, want)
			}
		})
	}
	th, err := CompareConfig(nil, Overrides{MinDelta: "1.5s", Alpha: "5%"})
	if err != nil || th.MinDelta != float64(1500*time.Millisecond/time.Millisecond) || th.Alpha != 0.05 {
		t.Errorf("got min_delta %v ms, alpha %v, err %v; want 1500, 0.05", th.MinDelta, th.Alpha, err)
	}
}

package money

import "testing"

func TestUSD(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, "$0.00"}, {2, "$2.00"}, {12.345, "$12.35"}, {1.254, "$1.254"}, {0.0103, "$0.0103"},
		{0.0052, "$0.0052"}, {0.00168, "$0.00168"}, {0.0000075, "$0.0000075"}, {0.0000001, "$0.0000001"},
	} {
		if got := USD(tt.v); got != tt.want {
			t.Errorf("USD(%v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}

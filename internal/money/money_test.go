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

func TestCapAmounts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v         float64
		want      string
		limit     float64
		wantAbove string
	}{
		{0, "$0.00", 0, "$0.00"},
		{2, "$2.00", 2, "$2.00"},
		{12.3456, "$12.35", 12.3456, "$12.35"},
		{0.0052, "$0.0052", 0.005, "$0.0052"},
		{0.0000075, "$0.0000075", 0.0000075, "$0.0000075"},
		{1.000004, "$1.00", 1.000003, "$1.000004"},
		{0.12345678, "$0.1235", 0.1234567, "$0.1235"},
	} {
		if got := USD(tt.v); got != tt.want {
			t.Errorf("USD(%v): got %s, want %s", tt.v, got, tt.want)
		}
		if got := AtLeast(tt.v, tt.limit); got != tt.wantAbove {
			t.Errorf("AtLeast(%v, %v): got %s, want %s", tt.v, tt.limit, got, tt.wantAbove)
		}
	}
	for v, want := range map[float64]string{2: "$2.00", 0.005: "$0.005", 0.0000001: "$0.0000001", 1.5: "$1.50", 1.00001: "$1.00001"} {
		if got := Exact(v); got != want {
			t.Errorf("Exact(%v): got %s, want %s", v, got, want)
		}
	}
}

package report

import (
	"math"
	"testing"
)

// TestTokenWidth pins the widths a table's breakpoint is made of: a
// summary's line of another statistic is 12 px (its label joined to its
// value by a no-break space), an interval's 11 px, and a title that
// happens to say "more" leaves its line at 14 px.
func TestTokenWidth(t *testing.T) {
	for _, c := range []struct {
		name, cell string
		nowrap     bool
		want       float64
	}{
		{"main line", `<b class="v bad">1706 → 2106 (+23%)</b>`, false, 6 * 9.7},
		{"other statistic, 12 px", `<b class="v bad">1 → 2</b><br><b class="v more bad">p95` + "\u00a0" + `1955 → 2575</b>`, false, 8 * 9.7 * 12 / 14},
		{"interval, 11 px", `<b class="v">1 → 2</b><span class="ci">95% CI [+115%, +174%]</span>`, false, 7 * 9.7 * 11 / 14},
		{"a title saying more", `<span class="v" title="needs more requests">123456789</span>`, false, 9 * 9.7},
		{"nowrap line", `<span>a b c</span>`, true, 5 * 9.7},
		{"emoji", `<b>12 ⛔</b>`, false, 2 * 9.7},
	} {
		if got := tokenWidth(c.cell, c.nowrap); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: tokenWidth = %.2f, want %.2f", c.name, got, c.want)
		}
	}
}

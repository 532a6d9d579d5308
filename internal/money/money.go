// Package money formats amounts of dollars the one way every output of
// latgate shows a cost. It does nothing else.
package money

import (
	"math"
	"strconv"
	"strings"
)

// USD formats an amount of dollars to 4 significant digits, and at least
// to the cent: $2.00, $12.35, $0.0052, $0.0000075 (a small cost is never
// rounded to $0.00).
func USD(v float64) string { return Digits(v, 4) }

// Digits formats an amount of dollars to sig significant digits, at least
// to the cent.
func Digits(v float64, sig int) string {
	dec := 2
	if v > 0 && !math.IsInf(v, 0) {
		dec = max(2, sig-1-int(math.Floor(math.Log10(v))))
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = strings.TrimRight(s, "0")
		s += strings.Repeat("0", max(0, i+3-len(s)))
	}
	return "$" + s
}

// Exact formats an amount as given (a cap), at least to the cent.
func Exact(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	i := strings.IndexByte(s, '.')
	if i < 0 {
		s, i = s+".", len(s)
	}
	return "$" + s + strings.Repeat("0", max(0, i+3-len(s)))
}

// AtLeast formats v, which is at least limit, with as many digits as it
// takes to show that it is: $0.0052 against $0.005, never $0.01 against
// $0.01.
func AtLeast(v, limit float64) string {
	s := USD(v)
	for sig := 5; sig <= 17; sig++ {
		if f, err := strconv.ParseFloat(s[1:], 64); err != nil || f >= limit {
			break
		}
		s = Digits(v, sig)
	}
	return s
}

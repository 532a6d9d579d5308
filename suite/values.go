package suite

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A value in latgate.yaml always says its unit: a bare number is accepted
// only where it cannot be misread (a fraction below 1, a count, a
// milliseconds budget of at least 1 ms). "tolerance: 10" (1,000 % as a
// fraction) or "min_delta: 25" (ms? s?) are errors that say what to write.

// ParseRate parses a request rate with its unit: "2/s", "120/m", "0.5/s",
// "30/h". A bare number is an error: "rate: 120" is as likely meant per
// minute as per second.
func ParseRate(s string) (float64, error) {
	s = strings.TrimSpace(s)
	i := strings.Index(s, "/")
	if i < 0 {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return 0, fmt.Errorf("%q has no unit: write %s/s (per second) or %s/m (per minute)", s, s, s)
		}
		return 0, fmt.Errorf("want a positive rate such as 2/s, got %q", s)
	}
	per := 1.0
	switch strings.TrimSpace(s[i+1:]) {
	case "s", "sec", "second":
	case "m", "min", "minute":
		per = 60
	case "h", "hour":
		per = 3600
	default:
		return 0, fmt.Errorf("want N/s, N/m or N/h, got %q", s)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s[:i]), 64)
	if err != nil || !(v > 0) || v > 1e9 {
		return 0, fmt.Errorf("want a positive rate such as 2/s, got %q", s)
	}
	return v / per, nil
}

// ParsePercent parses a share: "10%" or a fraction below 1 such as 0.1.
// A bare number of 1 or more is an error ("10" would be 1,000 %).
func ParsePercent(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64)
		if err != nil || v != v {
			return 0, fmt.Errorf("want a percentage such as 10%%, got %q", s)
		}
		return v / 100, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != v {
		return 0, fmt.Errorf("want a percentage such as 10%% or a fraction such as 0.10, got %q", s)
	}
	if v >= 1 || v <= -1 {
		return 0, fmt.Errorf("%q is ambiguous (a bare number is a fraction, so %s means %s%%): write %s%% or %s", s, s, strconv.FormatFloat(v*100, 'g', -1, 64), s, strconv.FormatFloat(v/100, 'g', -1, 64))
	}
	return v, nil
}

// ParseDuration parses a duration with its unit: Go's forms ("25ms",
// "1.5s", "1h30m") and days ("14d"). A bare number is an error, except 0.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("%q has no unit: write %sms or %ss", s, s, s)
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		v, err := strconv.ParseFloat(days, 64)
		if err != nil || v != v || v < -1e5 || v > 1e5 {
			return 0, fmt.Errorf("want a duration such as 14d or 336h, got %q", s)
		}
		return time.Duration(v * 24 * float64(time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 25ms, 1.5s or 14d, got %q", s)
	}
	return d, nil
}

// ParseMillis parses a latency limit (budgets, goodput): a duration with its
// unit ("800ms", "1.2s") or a bare number of milliseconds ("800"). A bare
// number below 10 is an error: no LLM answers within 1.5 ms, so 1.5 is
// almost surely meant as seconds; with its unit any value is taken.
func ParseMillis(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if v != v || v > 1e9 {
			return 0, fmt.Errorf("want a number of milliseconds such as 800, got %q", s)
		}
		if v > 0 && v < 10 {
			return 0, fmt.Errorf("%q is ambiguous (a bare number is milliseconds, and no answer comes within %s ms): write %ss if you meant seconds, or %sms", s, s, s, s)
		}
		return time.Duration(v * float64(time.Millisecond)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want milliseconds such as 800, 800ms or 1.2s, got %q", s)
	}
	return d, nil
}

// The keys that command-line flags also set (--tolerance, --min-delta,
// --alpha, --requests) are checked by these, for the file and the flags
// alike; the caller prefixes the key or the flag.

// ParseTolerance parses regression.tolerance: a share of at least 0 and
// below 100 %.
func ParseTolerance(s string) (float64, error) {
	v, err := ParsePercent(s)
	if err != nil {
		return 0, err
	}
	if v < 0 || v >= 1 {
		return 0, fmt.Errorf("%s is out of range: want at least 0%% and below 100%% (such as 10%%)", strings.TrimSpace(s))
	}
	return v, nil
}

// ParseMinDelta parses regression.min_delta: a duration with its unit, not
// negative.
func ParseMinDelta(s string) (time.Duration, error) {
	v, err := ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fmt.Errorf("must not be negative, got %q", strings.TrimSpace(s))
	}
	return v, nil
}

// ParseAlpha parses regression.alpha: above 0 and below 0.5, as a fraction
// or a percentage.
func ParseAlpha(s string) (float64, error) {
	v, err := ParsePercent(s)
	if err != nil || !(v > 0 && v < 0.5) {
		return 0, fmt.Errorf("want a number between 0 and 0.5 (such as 0.05 or 5%%), got %q", s)
	}
	return v, nil
}

// ParseRequests parses a fixed request count (--requests N): a whole
// number of at least 1, as the requests key.
func ParseRequests(s string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("want a whole number, got %q", s)
	}
	if v < 1 {
		return 0, fmt.Errorf("must be at least 1, got %d", v)
	}
	return v, nil
}

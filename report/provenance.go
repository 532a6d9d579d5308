package report

// What every format says about what was compared: commits, sides, links.

import (
	"fmt"
	"math"
	"strings"
)

// hasProvenance reports whether the report says anything about what was
// compared (every format then has a provenance line).
func hasProvenance(r *Report) bool {
	p := r.Provenance
	return p.Mode != "" || p.BaseSHA != "" || p.BaseRef != "" || !p.BaselineCreated.IsZero() || p.HeadSHA != "" || p.HeadRef != "" || !p.HeadCreated.IsZero() ||
		p.HistoryRuns > 0 || perSide(r) != "" || p.Runner != "" || p.Region != "" || safeURL(p.RunURL) != "" || safeURL(p.ReportURL) != "" || safeURL(p.TrendURL) != ""
}

// shortSHA is a commit as people read it in a report: its first 7
// characters, as GitHub shows commits (a link holds it whole), only
// [0-9A-Za-z] kept.
func shortSHA(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return -1
	}, s)
	return s[:min(7, len(s))]
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// safeURL keeps http(s) URLs only, with characters that would end a
// Markdown link escaped.
func safeURL(u string) string {
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return ""
	}
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E", "\n", "", "\r", "", "\"", "%22", "`", "%60").Replace(u)
}

// perSide says how many requests each side had: "50 requests per side" or
// "20–50 requests per side".
func perSide(r *Report) string {
	lo, hi := math.MaxInt, 0
	for _, s := range r.Scenarios {
		for _, b := range []*Breakdown{s.Base, s.Current} {
			if b != nil {
				lo, hi = min(lo, b.N), max(hi, b.N)
			}
		}
	}
	switch {
	case hi == 0:
		return ""
	case lo == hi:
		return plural(hi, "request", "requests") + " per side"
	}
	return fmt.Sprintf("%d–%d requests per side", lo, hi)
}

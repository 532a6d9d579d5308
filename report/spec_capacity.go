package report

import (
	"math"
	"strings"
)

// specLine is a side's speculative decoding at its capacity (else at its
// lowest level with one), as the server's counters gave it over the
// level: "spec. acceptance 60%, length 3.4 at capacity (6 users)"; ""
// without.
func (s CapacitySide) specLine() string {
	var at *LevelPoint
	for i, l := range s.Levels {
		if math.IsNaN(l.levelSpec()) {
			continue
		}
		if at == nil || l.Value == s.Result.Capacity || at.Value != s.Result.Capacity && l.Load < at.Load {
			at = &s.Levels[i]
		}
	}
	if at == nil {
		return ""
	}
	rate, length, counted, _ := specOf(at.Server)
	out := "spec. acceptance " + cell(rate, "%")
	if !math.IsNaN(length) {
		out += ", length " + trimFloat(math.Round(100*length)/100)
	}
	if !counted {
		out += " (gauges of its last batch)"
	}
	if at.Value == s.Result.Capacity {
		return out + " at capacity (" + s.load(at.Value) + ")"
	}
	return out + " at " + s.load(at.Value)
}

// specDetails is c's speculative decoding under its row, each side's
// ("base …") when there are two, shown and not tested (the counters are
// a level's totals, with no per-request sample); "" when neither side's
// pages gave it.
func (c Capacity) specDetails() string {
	h := c.Head.specLine()
	if c.Base == nil {
		if h == "" {
			return ""
		}
		return h + ", not tested"
	}
	b := c.Base.specLine()
	if h == "" && b == "" {
		return ""
	}
	if h == "" {
		h = "no spec. decoding counters"
	}
	if b == "" {
		b = "no spec. decoding counters"
	}
	return h + "; base " + strings.TrimPrefix(b, "spec. ") + ", not tested"
}

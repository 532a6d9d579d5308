package capacity

import "github.com/latgate/latgate/vocab"

// A ladder (Spec.Levels, a scenario's capacity.levels) is a fixed design
// instead of a search: every level of it is measured once, in ascending
// order, to its count (no early stop: Hopeless is not asked; no level
// measured again; no level below the capacity's), whatever the levels
// before it decided. So every runner of a sharded matrix drives the same
// load at the same time, whatever its own share of the requests decides,
// and merge --shards decides each level from all of them (Decide).
//
// Its capacity is the search's: the highest level within the SLO below
// every level that is not (Level.Meets), its saturation judged against
// the nearest level below it within the SLO. Its interval is the
// search's too, at the ladder's Step: Lower the highest level at or below
// the capacity shown to hold; Upper the level just below the lowest level
// shown to fail (one user less, or, of a rate, a thousandth of a request
// per second less: the resolution a results file keeps), not the ladder's
// level below it, which the ladder's gap would claim without a
// measurement; the ladder's top when none fails.

// LadderStep is the Step of a ladder of vary's loads: what Upper lies
// below the lowest level shown to fail.
func LadderStep(vary vocab.Vary) float64 {
	if vary == vocab.VaryRate {
		return 0.001
	}
	return 1
}

// IsLadder reports whether the spec is a ladder (Levels given).
func (sp Spec) IsLadder() bool { return len(sp.Levels) > 0 }

// ladderBracket is the bracket of a ladder whose first len(pts) levels were
// measured (b: the capacity's level and the lowest level not within the
// SLO among them): its next level in order, or, once every level was
// measured, why it ended: at the top when every level is within the SLO,
// at the bottom when the lowest is not, found else.
func (sp Spec) ladderBracket(pts []point, b bracket) bracket {
	switch {
	case len(pts) < len(sp.Levels):
		b.next = sp.Levels[len(pts)]
	case b.hi < 0:
		b.stop = vocab.AtTop
	case b.lo < 0:
		b.stop = vocab.AtBottom
	default:
		b.stop = vocab.Found
	}
	return b
}

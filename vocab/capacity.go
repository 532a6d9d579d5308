package vocab

import "math"

// Vary is the load a capacity search varies (a scenario's capacity.vary).
type Vary string

// The loads a capacity search varies.
const (
	// VaryConcurrency: users at once, each sending its next request when
	// its last one is answered (closed loop).
	VaryConcurrency Vary = "concurrency"
	// VaryRate: requests per second arriving as a Poisson process, whether
	// or not earlier ones were answered (open loop).
	VaryRate Vary = "rate"
)

// Varies lists what a capacity search can vary.
var Varies = []Vary{VaryConcurrency, VaryRate}

// LevelStatus is how a level of a capacity search is decided, on every
// request it measured (a level measured again pools its measurements).
type LevelStatus string

// The statuses of a level.
const (
	// Holds: every objective of the SLO shown to hold with confidence, and
	// the server not saturated.
	Holds LevelStatus = "holds"
	// Fails: an objective shown to be missed with confidence, or the
	// server saturated.
	Fails LevelStatus = "fails"
	// Undecided: neither shown to hold nor to fail (such a level may be
	// measured again).
	Undecided LevelStatus = "undecided"
)

// LevelStatuses lists every status of a level.
var LevelStatuses = []LevelStatus{Holds, Fails, Undecided}

// LevelLooks are the measured requests at which a level of a capacity
// search is decided: requests_per_level, then, while it is undecided and
// the search's caps allow, as many again, then twice that. The last is the
// most a level measures.
func LevelLooks(perLevel int) []int { return []int{perLevel, 2 * perLevel, 4 * perLevel} }

// MostPerLevel is the most requests a level measures: the last of its
// LevelLooks.
func MostPerLevel(perLevel int) int { l := LevelLooks(perLevel); return l[len(l)-1] }

// Limit is why a level of a capacity search does not hold.
type Limit string

// Why a level does not hold.
const (
	// LimitSLO: an objective of the SLO is not shown to hold (or is shown
	// to be missed).
	LimitSLO Limit = "slo"
	// LimitErrors: so many requests failed that the SLO cannot hold
	// whatever the others measured.
	LimitErrors Limit = "errors"
	// LimitSaturated: the throughput rose by less than a quarter of the
	// added load: the server is saturated and more load only queues.
	LimitSaturated Limit = "saturated"
)

// LevelLimits lists every reason a level does not hold.
var LevelLimits = []Limit{LimitSLO, LimitErrors, LimitSaturated}

// Why a capacity search ended (beside Interrupted and Capped, which cut
// it: a cut search is never a pass).
const (
	// Found: the capacity and the lowest level above it that is not within
	// the SLO are one step apart.
	Found Stop = "found"
	// AtTop: the top of the range (capacity.to) is within the SLO: the
	// capacity is at least that.
	AtTop Stop = "at_top"
	// AtBottom: the bottom of the range (capacity.from) is not within the
	// SLO.
	AtBottom Stop = "at_bottom"
)

// MinHold is the fewest requests with which a share of misses can be shown
// to be at most share, one-sided at alpha: with none missed, the exact
// binomial test needs (1 − share)^n ≤ alpha. A p95 objective
// (share 0.05) needs 59 requests at alpha 0.05, a p50 objective 5, p99 299.
func MinHold(share, alpha float64) int {
	if share <= 0 || share >= 1 || alpha <= 0 || alpha >= 1 {
		return math.MaxInt32
	}
	return int(math.Ceil(math.Log(alpha)/math.Log1p(-share) - 1e-9))
}

// MaxLadder is the most levels of a capacity ladder (capacity.levels: a
// fixed ladder of loads, each measured once, in order).
const MaxLadder = 32

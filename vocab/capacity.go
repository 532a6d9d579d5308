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

// Limit is why a level of a capacity search does not pass.
type Limit string

// Why a level does not pass.
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

// LevelLimits lists every reason a level does not pass.
var LevelLimits = []Limit{LimitSLO, LimitErrors, LimitSaturated}

// Why a capacity search ended (beside Interrupted and Capped, which cut
// it: a cut search is never a pass).
const (
	// Found: the highest passing level and the lowest failing one are one
	// step apart.
	Found Stop = "found"
	// AtTop: the top of the range (capacity.to) passes: the capacity is at
	// least that.
	AtTop Stop = "at_top"
	// AtBottom: the bottom of the range (capacity.from) does not pass.
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

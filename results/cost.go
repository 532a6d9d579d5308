package results

import (
	"fmt"

	"github.com/latgate/latgate/vocab"
)

// maxPerMTok bounds a recorded cost per million output tokens: the
// highest price at the least goodput a cost is computed from.
const maxPerMTok = vocab.MaxPerHour / 3600 * 1e6 / vocab.MinGoodTPS

// costSince is the first design of a search that records a price.
const costSince = 3

// checkCost refuses a search's price or cost no search records: a price
// outside (0, vocab.MaxPerHour], a cost without a price or out of range, or
// either in a search of a design before version 3 (they had none).
func (s Search) checkCost() error {
	h, c := s.CostPerHour, s.CostPerMTok
	switch {
	case h == nil && c == nil:
		return nil
	case s.Version < costSince:
		return fmt.Errorf("cost_per_hour or cost_per_mtok in a search of version %d, which has none (a search of version %d or later has them)", s.Version, costSince)
	case h == nil:
		return fmt.Errorf("cost_per_mtok without cost_per_hour: a cost needs the price it was computed from")
	case !finite(*h) || !(*h >= vocab.MinPerHour && *h <= vocab.MaxPerHour):
		return fmt.Errorf("cost_per_hour is %g: want a price from %g to %g USD an hour", *h, vocab.MinPerHour, float64(vocab.MaxPerHour))
	case c != nil && (!finite(*c) || !(*c > 0 && *c <= maxPerMTok)):
		return fmt.Errorf("cost_per_mtok is %g: no cost of a million tokens at a price of at most %g USD an hour", *c, float64(vocab.MaxPerHour))
	}
	return nil
}

package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/latgate/latgate/internal/didyoumean"
	"github.com/latgate/latgate/suite"
)

// Selection narrows a suite for quick local iteration: only the named
// scenarios (all when empty), and a request count for each (0 keeps the
// config's); Lanes (0 keeps the config's) sets the suite's lanes.
type Selection struct {
	Scenarios []string
	Requests  int
	Lanes     int
}

// Apply narrows cfg in place. An unknown scenario name is bad input that
// lists the names there are.
func (s Selection) Apply(cfg *suite.Config) error {
	if s.Requests < 0 {
		return BadInputf("requests: want a positive number, got %d", s.Requests)
	}
	if len(s.Scenarios) > 0 {
		var names []string
		for _, sc := range cfg.Scenarios {
			names = append(names, sc.Name)
		}
		for _, want := range s.Scenarios {
			if !slices.Contains(names, want) {
				hint := ""
				if s := didyoumean.Suggest(want, names); s != "" {
					hint = fmt.Sprintf(" (did you mean %q?)", s)
				}
				return BadInputf("--scenario %q is not in %s%s; it has: %s", want, cfg.Path, hint, strings.Join(names, ", "))
			}
		}
		cfg.Scenarios = slices.DeleteFunc(cfg.Scenarios, func(sc suite.Scenario) bool { return !slices.Contains(s.Scenarios, sc.Name) })
	}
	if s.Requests > 0 {
		cfg.SetRequests(s.Requests)
	}
	if s.Lanes != 0 {
		if err := suite.CheckLanes(s.Lanes); err != nil {
			return BadInputf("lanes: %v", err)
		}
		cfg.Lanes = s.Lanes
	}
	return nil
}

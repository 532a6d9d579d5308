package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Merge combines results files (for example from a matrix of regions). Runs
// with the same (endpoint, scenario) are a conflict unless identical.
func Merge(files []*File, names []string) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("nothing to merge")
	}
	out := *files[0]
	out.ID, out.StartedAt = "", nil // the files' measurements, not one
	out.Runs = nil
	out.Notes = nil
	capacity, err := mergeSearches(files, names)
	if err != nil {
		return nil, err
	}
	out.Capacity = capacity
	from := map[string]int{}
	var raw [][]byte // each kept run as it was in its file
	var fileOf []string
	var regions, runners, incomplete []string
	interleaved := func(f *File) bool { return len(f.Runs) > 0 && f.Runs[0].Variant != "" }
	for i, f := range files {
		if f.MetricsVersion != files[0].MetricsVersion {
			return nil, fmt.Errorf("%s has metrics_version %d but %s has %d: cannot merge", names[i], f.MetricsVersion, names[0], files[0].MetricsVersion)
		}
		if interleaved(f) != interleaved(files[0]) {
			ab, plain := names[i], names[0]
			if interleaved(files[0]) {
				ab, plain = names[0], names[i]
			}
			return nil, fmt.Errorf("%s is an interleaved A/B file (latgate ab) and %s is not: cannot merge them", ab, plain)
		}
		if f.Incomplete != "" {
			incomplete = append(incomplete, names[i]+": "+f.Incomplete)
		}
		regions = appendUnique(regions, f.Source.Region)
		runners = appendUnique(runners, f.Source.Runner)
		out.Notes = append(out.Notes, f.Notes...)
		if f.CreatedAt.After(out.CreatedAt) {
			out.CreatedAt = f.CreatedAt
		}
		for _, r := range f.Runs {
			this, _ := json.Marshal(r)
			if r.Region == "" {
				r.Region = f.Source.Region
			}
			if j, ok := from[r.Key()]; ok {
				if !bytes.Equal(raw[j], this) {
					return nil, fmt.Errorf("endpoint %q, scenario %q is in both %s and %s with different data: give each matrix leg its own endpoint name (for example the region)", r.Endpoint, r.Scenario, fileOf[j], names[i])
				}
				continue
			}
			from[r.Key()] = len(out.Runs)
			fileOf = append(fileOf, names[i])
			raw = append(raw, this)
			out.Runs = append(out.Runs, r)
		}
	}
	for _, f := range files[1:] {
		if !f.Budgets.Equal(files[0].Budgets) {
			out.Budgets = nil // measured with other budgets: the merge records none
		}
	}
	out.Source.Region = strings.Join(regions, ",")
	out.Source.Runner = strings.Join(runners, ",")
	// An incomplete part makes the whole incomplete: it must never become
	// a baseline or pass a gate by being merged.
	out.Incomplete = strings.Join(incomplete, "; ")
	// The cost is the kept runs' (a run in two files counts once).
	out.CostUSD = nil
	for _, r := range out.Runs {
		if r.CostUSD != nil {
			sum := *r.CostUSD
			if out.CostUSD != nil {
				sum += *out.CostUSD
			}
			out.CostUSD = &sum
		}
	}
	return &out, nil
}

func appendUnique(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// mergeSearches is the capacity searches of every file, each once: the
// same search in two files is a conflict unless identical.
func mergeSearches(files []*File, names []string) ([]Search, error) {
	var out []Search
	from := map[string]int{}
	var fileOf []string
	for i, f := range files {
		for _, s := range f.Capacity {
			j, ok := from[s.Key()]
			if !ok {
				from[s.Key()] = len(out)
				out, fileOf = append(out, s), append(fileOf, names[i])
				continue
			}
			a, _ := json.Marshal(out[j])
			b, _ := json.Marshal(s)
			if !bytes.Equal(a, b) {
				return nil, fmt.Errorf("the capacity search of endpoint %q, scenario %q is in %s and %s with different data: give each matrix leg its own endpoint name (for example the region), or merge a level measured by several legs with --shards", s.Endpoint, s.Scenario, fileOf[j], names[i])
			}
		}
	}
	return out, nil
}

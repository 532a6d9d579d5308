package results

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/latgate/latgate/vocab"
)

// MergeShards combines the legs of an Actions matrix that each measured a
// share of the same suite at the same moment: the runs of one (endpoint,
// scenario, variant, level) become one run holding every leg's requests,
// its Shards the legs that measured it (each at the run's load: the server
// saw Shards times it). Legs whose suites differ are refused: another set
// of runs, another fingerprint or configuration, another capacity search,
// another metrics version. An A/B file's blocks are numbered anew per leg
// (they were sent at the same moments only within a leg). The outcomes of
// capacity searches are the first leg's (a leg's cut cuts the merged
// search): decide them again from the merged levels (package capacity).
// Each file must be one leg's own, given once (checkLegs): the merge
// counts each as one leg, at most MaxShards.
func MergeShards(files []*File, names []string) (*File, error) {
	if len(files) < 2 {
		return nil, errors.New("--shards needs the files of at least two legs")
	}
	first := files[0]
	for i, f := range files[1:] {
		if err := sameSuite(first, f, names[0], names[i+1]); err != nil {
			return nil, err
		}
	}
	if err := checkLegs(files, names); err != nil {
		return nil, err
	}
	if err := unwindowed(first, names[0]); err != nil {
		return nil, err
	}
	out := *first
	out.ID, out.StartedAt = "", nil // the legs' measurements, not one
	out.Runs = make([]Run, len(first.Runs))
	out.Notes = []string{fmt.Sprintf("merged from %d shards (latgate merge --shards): each run holds every leg's requests", len(files))}
	out.Capacity = slices.Clone(first.Capacity)
	var runners, incomplete []string
	for i, f := range files {
		runners = appendUnique(runners, f.Source.Runner)
		if f.Incomplete != "" {
			incomplete = append(incomplete, names[i]+": "+f.Incomplete)
		}
		if f.CreatedAt.After(out.CreatedAt) {
			out.CreatedAt = f.CreatedAt
		}
	}
	for j := range first.Runs {
		note, together, err := checkWindows(files, names, j)
		if err != nil {
			return nil, err
		}
		if note != "" {
			out.Notes = append(out.Notes, note)
		}
		out.Runs[j] = mergeRun(files, j)
		alignLegs(files, j, &out.Runs[j], together)
	}
	for k := range out.Capacity {
		s := &out.Capacity[k]
		s.Requests, s.DurationMs = 0, 0
		for _, f := range files {
			leg := f.Capacity[k]
			s.Requests += leg.Requests // at most MaxShards × maxCount: no overflow
			s.DurationMs = max(s.DurationMs, leg.DurationMs)
			if leg.Stop == vocab.Capped || leg.Stop == vocab.Interrupted || leg.Stop == vocab.FailedFast {
				s.Stop, s.StopReason = leg.Stop, leg.StopReason // a leg's cut cuts the whole
			}
		}
		if s.Requests > maxCount {
			return nil, fmt.Errorf("the legs' capacity searches of endpoint %q, scenario %q sent %d requests together, more than the %g a search may send", s.Endpoint, s.Scenario, s.Requests, float64(maxCount))
		}
	}
	out.Source.Runner = strings.Join(runners, ",")
	out.Incomplete = strings.Join(incomplete, "; ")
	out.CostUSD = sumCost(files, func(f *File) *float64 { return f.CostUSD })
	return &out, nil
}

// mergeRun is run j of every leg (sameSuite put them in the same order)
// as one run.
func mergeRun(files []*File, j int) Run {
	r := files[0].Runs[j]
	r.Requests, r.Shards = nil, len(files) // each a leg's own (checkLegs)
	r.CostUSD = sumCost(files, func(f *File) *float64 { return f.Runs[j].CostUSD })
	blocks := 0
	for _, f := range files {
		leg := f.Runs[j]
		most := 0
		for _, q := range leg.Requests {
			if q.Block > 0 {
				most = max(most, q.Block)
				q.Block += blocks
			}
			r.Requests = append(r.Requests, q)
		}
		blocks += most
	}
	if r.Requests == nil {
		r.Requests = []Request{}
	}
	return r
}

// checkLegs refuses files that are not each one leg's own, once: more
// than MaxShards, a file already merged from legs (its runs have shards),
// or the same leg twice (sameLeg), which would count every request twice
// and the load as two legs'.
func checkLegs(files []*File, names []string) error {
	if len(files) > MaxShards {
		return fmt.Errorf("%d legs: a run merges at most %d (a matrix runs at most %d jobs)", len(files), MaxShards, MaxShards)
	}
	for i, f := range files {
		for j, r := range f.Runs {
			if r.Shards != 0 {
				return fmt.Errorf("%s is not a leg's own results: runs[%d] (endpoint %q, scenario %q) was already merged from %d legs; merge --shards takes the file each leg wrote", names[i], j, r.Endpoint, r.Scenario, r.Shards)
			}
		}
	}
	return sameLeg(files, names)
}

// sameLeg refuses two files of one leg. A leg is known by the ID its measurement drew (File.ID), and by
// its requests, which no other leg measures: files that share requests,
// in any order, their values rounded to the microsecond a results file
// keeps (legTimes), are one leg — a file given twice, copied, uploaded
// again, reordered or lightly edited. They share a tenth of the smaller
// leg's timed requests, at least one (a coincidence of a few among
// thousands is not), or nine tenths when both have an ID of their own
// (legs measured on one virtual clock share requests that no runner's
// clock would: a copy given another ID shares them all). Legs without
// timed requests are one when their content is (legDigest). What this
// cannot tell is a leg made up whole: a file from a pull request is
// untrusted data.
func sameLeg(files []*File, names []string) error {
	ids, digests := map[string]int{}, map[[sha256.Size]byte]int{}
	owner := map[[sha256.Size]byte]int{} // a timed request's leg: the first that holds it
	timed := make([]int, len(files))
	for i, f := range files {
		if k, ok := ids[f.ID]; ok && f.ID != "" {
			return fmt.Errorf("%s and %s are the same leg (measurement %s%s): each leg's file is merged once", names[k], names[i], f.ID, startedAt(f))
		}
		ids[f.ID] = i
		d := legDigest(f)
		if k, ok := digests[d]; ok {
			n, what := f.Requests(), "requests"
			if n == 1 {
				what = "request"
			}
			return fmt.Errorf("%s and %s are the same leg (the same %d %s): each leg's file is merged once", names[k], names[i], n, what)
		}
		digests[d] = i
		shared := make([]int, i) // with each leg before it
		for j := range f.Runs {
			for k := range f.Runs[j].Requests {
				q := &f.Runs[j].Requests[k]
				if !q.timed() {
					continue
				}
				timed[i]++
				fp := legTimes(q)
				if o, ok := owner[fp]; !ok {
					owner[fp] = i
				} else if o != i {
					shared[o]++
				}
			}
		}
		for k, n := range shared {
			least := min(timed[k], timed[i]) / 10
			if files[k].ID != "" && f.ID != "" {
				least = min(timed[k], timed[i]) * 9 / 10
			}
			if n > 0 && n >= max(1, least) {
				return fmt.Errorf("%s and %s are the same leg: they share %d of their timed requests (%d and %d), in any order, to the microsecond; each leg's file is merged once", names[k], names[i], n, timed[k], timed[i])
			}
		}
	}
	return nil
}

// startedAt says when a leg's measurement started, when its file says.
func startedAt(f *File) string {
	if f.StartedAt == nil {
		return ""
	}
	return ", started " + f.StartedAt.UTC().Format(time.RFC3339)
}

// timed reports whether the request has a time of its own (a request
// that measured nothing tells no leg from another).
func (q *Request) timed() bool {
	return q.SentMs > 0 || q.DNSMs > 0 || q.ConnectMs > 0 || q.TTFBMs != nil || q.TTFTMs != nil || q.TotalMs != nil
}

// legTimes is a digest of a request's values, each number rounded to the
// microsecond a results file keeps: the same request, edited below that
// precision, has the same.
func legTimes(q *Request) [sha256.Size]byte {
	b, _ := json.Marshal(q) // a Request always encodes: it was decoded
	return sha256.Sum256(roundNumbers(b))
}

// roundNumbers rounds every number of a JSON document to three decimals.
func roundNumbers(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for ; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				}
			}
			out = append(out, b[i:min(j+1, len(b))]...)
			i = j + 1
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(b) && strings.IndexByte("0123456789.eE+-", b[j]) >= 0 {
				j++
			}
			v, err := strconv.ParseFloat(string(b[i:j]), 64)
			if err != nil {
				out = append(out, b[i:j]...)
			} else {
				out = strconv.AppendFloat(out, math.Round(v*1e3)/1e3, 'g', -1, 64)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// legDigest is a digest of a leg's requests, or of the whole file when it
// holds none.
func legDigest(f *File) [sha256.Size]byte {
	h := sha256.New()
	enc := json.NewEncoder(h)
	if f.Requests() == 0 {
		_ = enc.Encode(f) // a File always encodes: it read from JSON
	}
	for _, r := range f.Runs {
		_ = enc.Encode(r.Requests)
	}
	var id [sha256.Size]byte
	h.Sum(id[:0])
	return id
}

// sumCost adds up a cost over the legs; nil when none has one.
func sumCost(files []*File, of func(*File) *float64) *float64 {
	var sum *float64
	for _, f := range files {
		if v := of(f); v != nil {
			s := *v
			if sum != nil {
				s += *sum
			}
			sum = &s
		}
	}
	return sum
}

// sameSuite refuses two legs that did not measure the same suite: their
// runs (in the same order, with the same fingerprint and configuration),
// their capacity searches (the same settings and levels), metrics and
// budgets.
func sameSuite(a, b *File, an, bn string) error {
	differ := func(what string) error {
		return fmt.Errorf("%s and %s measured different suites (%s): the legs of a sharded matrix run the same suite", an, bn, what)
	}
	switch {
	case a.MetricsVersion != b.MetricsVersion:
		return differ(fmt.Sprintf("metrics_version %d and %d", a.MetricsVersion, b.MetricsVersion))
	case len(a.Runs) != len(b.Runs):
		return differ(fmt.Sprintf("%d and %d runs", len(a.Runs), len(b.Runs)))
	case len(a.Capacity) != len(b.Capacity):
		return differ(fmt.Sprintf("%d and %d capacity searches", len(a.Capacity), len(b.Capacity)))
	case !a.Budgets.Equal(b.Budgets):
		return differ("budgets")
	}
	for i := range a.Runs {
		ra, rb := &a.Runs[i], &b.Runs[i]
		switch {
		case ra.Key() != rb.Key():
			return differ(fmt.Sprintf("runs[%d] is endpoint %q, scenario %q%s in one and endpoint %q, scenario %q%s in the other (a leg's --region labels its endpoints)",
				i, ra.Endpoint, ra.Scenario, levelLabel(ra), rb.Endpoint, rb.Scenario, levelLabel(rb)))
		case ra.Fingerprint != rb.Fingerprint || ra.Config != rb.Config || ra.Model != rb.Model:
			return differ(fmt.Sprintf("endpoint %q, scenario %q%s is configured otherwise", ra.Endpoint, ra.Scenario, levelLabel(ra)))
		case ra.RequestsMin > 0:
			return fmt.Errorf("%s: endpoint %q, scenario %q is adaptive (requests: {min, max}): its sequential design is a leg's own, so it cannot be sharded; give it a fixed count", an, ra.Endpoint, ra.Scenario)
		case ra.Level != nil && !sameLevel(*ra.Level, *rb.Level):
			return differ(fmt.Sprintf("endpoint %q, scenario %q searched level %g at step %d in one and %g in the other: drive one level per leg (capacity from = to), or a ladder (capacity.levels) from one --start-at",
				ra.Endpoint, ra.Scenario, ra.Level.Value, ra.Level.Step, rb.Level.Value))
		}
	}
	for i := range a.Capacity {
		if !sameSettings(a.Capacity[i], b.Capacity[i]) {
			return differ(fmt.Sprintf("the capacity search of endpoint %q, scenario %q", a.Capacity[i].Endpoint, a.Capacity[i].Scenario))
		}
	}
	return nil
}

// sameSettings reports whether two searches have the same settings (their
// outcomes may differ).
func sameSettings(a, b Search) bool {
	clear := func(s Search) []byte {
		s.Stop, s.StopReason, s.Capacity, s.Lower, s.Upper, s.GoodputRPS, s.GoodputTPS, s.Requests, s.DurationMs = "", "", nil, nil, nil, nil, nil, 0, 0
		s.CostPerMTok = nil // an outcome too (its price is a setting)
		out, _ := json.Marshal(s)
		return out
	}
	return bytes.Equal(clear(a), clear(b))
}

// sameLevel reports whether two legs measured the same level at the same
// step (its status may differ: each leg decided it on its own requests).
func sameLevel(a, b Level) bool {
	a.Status, b.Status = "", ""
	a.Window, b.Window = nil, nil // each leg's own times: checkWindows
	return a == b
}

func levelLabel(r *Run) string {
	if r.Level == nil {
		return ""
	}
	return fmt.Sprintf(" at %s %g", r.Level.Vary, r.Level.Value)
}

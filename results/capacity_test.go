package results

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

func level(r Run, v float64, step int) Run {
	r.Level = &Level{Vary: vocab.VaryConcurrency, Value: v, Step: step}
	return r
}

func search() Search {
	return Search{Endpoint: "e", Scenario: "s", Vary: vocab.VaryConcurrency, From: 1, To: 8, Step: 1, RequestsPerLevel: 1,
		Alpha: 0.05, SLO: []Objective{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 800}}, Stop: vocab.Found}
}

// Levels of one search are runs apart by their load; a level without its
// search, a step twice or a search twice is refused; levels are not
// matched run by run.
func TestLevels(t *testing.T) {
	t.Parallel()
	f := file(level(run("e", "s", "fp", nil), 1, 1), level(run("e", "s", "fp", nil), 2, 2), run("e", "other", "fp", nil))
	f.Capacity = []Search{search()}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := f.Levels(f.Capacity[0]); len(got) != 2 || got[1].Level.Value != 2 {
		t.Fatalf("levels %v", got)
	}
	if p := Match(f, f); len(p) != 1 || p[0].Scenario != "other" {
		t.Fatalf("pairs %v: levels are not matched run by run", p)
	}
	// A search of version 2 measures a level again: a run of its own,
	// apart from the first by its round.
	g := file(level(run("e", "s", "fp", nil), 1, 1), level(run("e", "s", "fp", nil), 1, 2))
	g.Capacity = []Search{search()}
	g.Capacity[0].Version, g.Runs[1].Level.Round, g.Runs[1].Level.Status = 2, 2, vocab.Holds
	if err := g.Validate(); err != nil {
		t.Fatalf("a level measured again: %v", err)
	}
	g.Runs[1].Level.Round = 0
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Fatalf("a level's first measurement twice: %v", err)
	}
	f.Capacity[0].Stop, f.Incomplete = vocab.Interrupted, "interrupted by a signal"
	if err := f.Validate(); err != nil {
		t.Fatalf("a cut search in an incomplete file: %v", err)
	}
	for _, c := range []struct {
		name   string
		mutate func(f *File)
		want   string
	}{
		{"no search", func(f *File) { f.Capacity = nil }, "runs[0]: a level of a capacity search that the file's \"capacity\" does not hold"},
		{"a step twice", func(f *File) { f.Runs[1].Level.Step = 1 }, "runs[1]: step 1 of its search appears twice"},
		{"a search twice", func(f *File) { f.Capacity = append(f.Capacity, search()) }, "capacity[1]: endpoint \"e\", scenario \"s\" is searched twice"},
		{"from above to", func(f *File) { f.Capacity[0].From = 16 }, "capacity[0]: from 16, to 8"},
		{"another vary", func(f *File) { f.Runs[0].Level.Vary = vocab.VaryRate }, "runs[0]: level rate 1 (step 1) is not a level of its concurrency search"},
		{"no objective", func(f *File) { f.Capacity[0].SLO[0].Metric = "cost" }, "capacity[0]: slo cost p95 800 is no objective of a search"},
		{"a rate over 1", func(f *File) { f.Capacity[0].SLO[0] = Objective{Metric: vocab.Errors, Stat: vocab.Rate, Value: 5} }, "is no objective"},
		{"a billion a level", func(f *File) { f.Capacity[0].RequestsPerLevel = 1e9 }, "want alpha in (0, 1) and 1 to 1000000 requests per level"},
		{"no stop of a search", func(f *File) { f.Capacity[0].Stop = vocab.Decided }, `capacity[0]: stop is "decided": not why a search ends`},
		{"a stop reason of escapes", func(f *File) { f.Capacity[0].StopReason = "\x1b]8;;http://x\x07" }, "capacity[0]: stop_reason: over 300 bytes or not printable text"},
		{"cut in a complete file", func(f *File) { f.Capacity[0].Stop = vocab.Capped },
			"capacity[0]: the search of endpoint \"e\", scenario \"s\" was cut (capped), but the file is not marked incomplete"},
		{"a design from the future", func(f *File) { f.Capacity[0].Version = 4 }, "capacity[0]: version is 4: this latgate knows searches of version 1 to 3"},
		{"a lower end in version 1", func(f *File) { v := 2.0; f.Capacity[0].Lower = &v }, "capacity[0]: lower is set in a search of version 1"},
		{"a round in version 1", func(f *File) { f.Runs[1].Level.Round = 2 }, "runs[1]: a level of a search of version 1 has a round or status"},
		{"round 1 said", func(f *File) { f.Capacity[0].Version, f.Runs[1].Level.Round = 2, 1 }, "runs[1]: level 2 is measurement 1 of its level: want none for the first, or 2 to 3"},
		{"a fourth measurement", func(f *File) { f.Capacity[0].Version, f.Runs[1].Level.Round = 2, 4 }, "is measurement 4 of its level"},
		{"an unknown status", func(f *File) { f.Capacity[0].Version, f.Runs[1].Level.Status = 2, "passes" }, `runs[1]: level 2 has status "passes", want holds, fails or undecided`},
	} {
		g := file(level(run("e", "s", "fp", nil), 1, 1), level(run("e", "s", "fp", nil), 2, 2))
		g.Capacity = []Search{search()}
		c.mutate(g)
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Shards: the same run of every leg becomes one, its blocks numbered anew
// per leg; legs of another suite or with adaptive runs are refused.
func TestMergeShards(t *testing.T) {
	t.Parallel()
	ab := func(ttft float64) *File {
		r := run("e", "s", "fp", nil)
		r.Variant = vocab.Head
		r.Requests = append(r.Requests, r.Requests[0])
		r.Requests[0].Block, r.Requests[1].Block, r.Requests[1].TTFTMs = 1, 2, &ttft
		r.Requests[0].SentMs = ttft // each leg's requests its own
		return file(r)
	}
	m, err := MergeShards([]*File{ab(101), ab(102), ab(103)}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	var blocks []int
	for _, q := range m.Runs[0].Requests {
		blocks = append(blocks, q.Block)
	}
	if m.Runs[0].Shards != 3 || len(blocks) != 6 || blocks[5] != 6 || blocks[2] != 3 {
		t.Fatalf("shards %d, blocks %v", m.Runs[0].Shards, blocks)
	}
	other := file(run("e@eu", "s", "fp", nil))
	if _, err := MergeShards([]*File{file(run("e", "s", "fp", nil)), other}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "a and b measured different suites") {
		t.Errorf("another region: %v", err)
	}
	adaptive := run("e", "s", "fp", nil)
	adaptive.RequestsMin = 40
	again := adaptive
	again.Requests = []Request{{Status: 500}}
	if _, err := MergeShards([]*File{file(adaptive), file(again)}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "cannot be sharded") {
		t.Errorf("adaptive: %v", err)
	}
	if _, err := MergeShards([]*File{file(run("e", "s", "fp", nil))}, []string{"a"}); err == nil {
		t.Error("one leg was sharded")
	}
}

// TestMergeShardsCountsEachLegOnce: a leg is one leg, once. The same leg
// twice (its file given again, or a copy) is refused, naming both files,
// as is a file already merged from legs and more legs than a matrix has;
// the legs' searches' requests are summed within a search's bound. Each
// was accepted: the same leg twice held every request twice at the load
// of two legs, and a leg of shards 2^63−1 overflowed the sum.
func TestMergeShardsCountsEachLegOnce(t *testing.T) {
	t.Parallel()
	leg := func(ttft float64) *File {
		r := run("e", "s", "fp", nil)
		r.Requests[0].TTFTMs = &ttft
		return file(level(r, 4, 1))
	}
	withSearch := func(f *File, requests int) *File {
		f.Capacity = []Search{search()}
		f.Capacity[0].From, f.Capacity[0].To, f.Capacity[0].Requests = 4, 4, requests
		return f
	}
	a, b := withSearch(leg(101), 10), withSearch(leg(102), 10)
	if m, err := MergeShards([]*File{a, b}, []string{"a.json", "b.json"}); err != nil || m.Runs[0].Shards != 2 || m.Capacity[0].Requests != 20 {
		t.Fatalf("two legs: %v", err)
	}
	copyOfA := withSearch(leg(101), 10)
	copyOfA.Source.Runner = "another runner"
	for _, c := range []struct {
		name  string
		files []*File
		want  string
	}{
		{"the same file twice", []*File{a, b, a}, "a.json and c.json are the same leg (the same 1 request): each leg's file is merged once"},
		{"a copy", []*File{a, copyOfA}, "a.json and b.json are the same leg"},
		{"a merged file", []*File{a, func() *File { f := withSearch(leg(103), 10); f.Runs[0].Shards = 4; return f }()},
			"b.json is not a leg's own results: runs[0] (endpoint \"e\", scenario \"s\") was already merged from 4 legs"},
		{"shards of 2^63-1", []*File{a, func() *File { f := withSearch(leg(103), 10); f.Runs[0].Shards = 1<<63 - 1; return f }()}, "b.json is not a leg's own results"},
		{"requests beyond a search's", []*File{withSearch(leg(101), 6e8), withSearch(leg(102), 6e8)}, "sent 1200000000 requests together, more than the 1e+09"},
	} {
		names := []string{"a.json", "b.json", "c.json"}[:len(c.files)]
		if _, err := MergeShards(c.files, names); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	many := make([]*File, MaxShards+1)
	for i := range many {
		many[i] = withSearch(leg(float64(i)), 10)
	}
	if _, err := MergeShards(many, make([]string, len(many))); err == nil || !strings.Contains(err.Error(), "257 legs: a run merges at most 256") {
		t.Errorf("257 legs: %v", err)
	}
}

// legRequests are n requests of a leg, their times drawn from seed.
func legRequests(n int, seed uint64) []Request {
	rng := rand.New(rand.NewPCG(seed, 1))
	ms := func(lo, hi float64) *float64 { v := math.Round((lo+rng.Float64()*(hi-lo))*1e3) / 1e3; return &v }
	qs := make([]Request, n)
	for i := range qs {
		qs[i] = Request{OK: true, Status: 200, TTFTMs: ms(100, 400), TotalMs: ms(400, 900), ITLMs: Gaps{*ms(5, 20), *ms(5, 20)}, SentMs: *ms(0, 6e4)}
	}
	return qs
}

// TestMergeShardsKnowsALeg: a leg is known by the ID its measurement drew
// and by its requests, in any order, to the microsecond. The legs of a
// matrix merge, even when a few of their requests coincide (half of them,
// legs of their own IDs); the same leg twice is refused whatever became
// of its copy: the same ID, reordered, a TTFT moved by a nanosecond or one
// request edited (without its ID), a superset, a reordered copy given
// another ID. Before, a leg was its
// requests' digest: the reordered and tweaked copies merged as two legs,
// "8 requests" of a leg of 4.
func TestMergeShardsKnowsALeg(t *testing.T) {
	t.Parallel()
	leg := func(seed uint64) *File {
		r := run("e", "s", "fp", nil)
		r.Requests = legRequests(50, seed)
		f := file(level(r, 4, 1))
		f.ID = NewID()
		return f
	}
	copyOf := func(f *File, edit func(qs []Request) []Request) *File {
		c := *f
		c.ID = ""
		c.Runs = slices.Clone(f.Runs)
		c.Runs[0].Requests = edit(slices.Clone(f.Runs[0].Requests))
		return &c
	}
	a := leg(1)
	matrix := []*File{a, leg(2), leg(3), leg(4)}
	matrix[3].Runs[0].Requests[0], matrix[3].Runs[0].Requests[1] = a.Runs[0].Requests[0], a.Runs[0].Requests[1] // 2 of 50 coincide
	if m, err := MergeShards(matrix, []string{"a", "b", "c", "d"}); err != nil || len(m.Runs[0].Requests) != 200 || m.ID != "" {
		t.Fatalf("four legs: %v", err)
	}
	// Legs measured on one virtual clock, each with its ID, share requests
	// no runner's clock would: 25 of 50.
	lockstep := leg(6)
	copy(lockstep.Runs[0].Requests[:25], a.Runs[0].Requests)
	if _, err := MergeShards([]*File{a, lockstep}, []string{"a", "b"}); err != nil {
		t.Errorf("legs of their own IDs sharing half their requests: %v", err)
	}
	reupload := copyOf(a, func(qs []Request) []Request { return qs })
	reupload.ID = a.ID
	reupload.Runs[0].Requests[0].TTFTMs = new(float64)
	for _, c := range []struct {
		name string
		leg  *File
		want string
	}{
		{"the same ID", reupload, "a and b are the same leg (measurement " + a.ID},
		{"reordered", copyOf(a, func(qs []Request) []Request { slices.Reverse(qs); return qs }), "a and b are the same leg: they share 50 of their timed requests (50 and 50)"},
		{"a TTFT moved by a nanosecond", copyOf(a, func(qs []Request) []Request {
			v := *qs[0].TTFTMs + 1e-6
			qs[0].TTFTMs = &v
			return qs
		}), "share 50 of their timed requests"},
		{"one request edited", copyOf(a, func(qs []Request) []Request {
			v := *qs[0].TTFTMs + 1
			qs[0].TTFTMs = &v
			return qs
		}), "share 49 of their timed requests"},
		{"a superset", copyOf(a, func(qs []Request) []Request { return append(qs, legRequests(5, 9)...) }), "share 50 of their timed requests (50 and 55)"},
		{"reordered, given an ID of its own", func() *File {
			c := copyOf(a, func(qs []Request) []Request { slices.Reverse(qs); return qs })
			c.ID = NewID()
			return c
		}(), "share 50 of their timed requests"},
	} {
		if _, err := MergeShards([]*File{a, c.leg}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestCountsBounded: a results file whose runs or searches claim counts
// no run gives is refused on read, with the key: shards outside 2 to
// MaxShards (1,000,000 said "holds at least 4.000004e+06 users" of a level
// of 4), users, requests and rates below zero or beyond their bounds.
func TestCountsBounded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		mutate func(f *File)
		want   string
	}{
		{"a million shards", func(f *File) { f.Runs[0].Shards = 1_000_000 }, "runs[0]: shards is 1000000: a run merges 2 to 256 matrix legs"},
		{"shards of 2^63-1", func(f *File) { f.Runs[1].Shards = 1<<63 - 1 }, "runs[1]: shards is 9223372036854775807"},
		{"one shard", func(f *File) { f.Runs[0].Shards = 1 }, "runs[0]: shards is 1"},
		{"negative shards", func(f *File) { f.Runs[0].Shards = -2 }, "runs[0]: shards is -2"},
		{"a billion users and more", func(f *File) { f.Runs[0].Config.Concurrency = 2e9 }, "runs[0]: config.concurrency is 2000000000: a count is from 0 to 1e+09"},
		{"negative requests", func(f *File) { f.Runs[1].Config.Requests = -1 }, "runs[1]: config.requests is -1"},
		{"a negative rate", func(f *File) { f.Runs[0].Config.Rate = -3 }, "runs[0]: config.rate is -3"},
		{"a search's requests", func(f *File) { f.Capacity[0].Requests = 1 << 62 }, "capacity[0]: requests 4611686018427387904, max_requests 0: a search sends 0 to 1e+09 requests"},
		{"a search's negative duration", func(f *File) { f.Capacity[0].DurationMs = -1 }, "capacity[0]: duration_ms -1"},
	} {
		f := file(level(run("e", "s", "fp", nil), 1, 1), level(run("e", "s", "fp", nil), 2, 2))
		f.Capacity = []Search{search()}
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		c.mutate(f)
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

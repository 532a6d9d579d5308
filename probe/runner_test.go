package probe

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/vocab"
)

func group(t *testing.T, srv *clocktest.Server, n, warmup, conc int) Group {
	return Group{Request: Request{URL: srv.URL + "/v1/chat/completions", Body: body(t, 0)}, Requests: n, Warmup: warmup, Concurrency: conc}
}

// collect runs groups and returns the measured records per group, as the
// Sink received them.
func collect(ctx context.Context, r *Runner, groups []Group) ([][]Record, Result) {
	got := make([][]Record, len(groups))
	r.Sink = func(g int, rec Record) { got[g] = append(got[g], rec) }
	res := r.Run(ctx, groups)
	return got, res
}

// TestRunnerCountsWarmupAndConcurrency: requests of exactly 20ms. The 3
// warmup requests run at once (0-20ms); the 20 measured ones, 5 at a time,
// are sent in 4 rounds at 0, 20, 40 and 60ms of their phase: exactly 5 in
// flight, never more, never fewer.
func TestRunnerCountsWarmupAndConcurrency(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 3}, 1)
		srv := clocktest.NewServer(t, s)
		warm := 0
		r := &Runner{Prober: &Prober{Client: srv.Client()}, OnRecord: func(_ int, _ Record, w bool) {
			if w {
				warm++
			}
		}}
		start := time.Now()
		got, res := collect(context.Background(), r, []Group{group(t, srv, 20, 3, 5)})
		if len(got[0]) != 20 || warm != 3 || res.Sent != 23 || s.Requests() != 23 {
			t.Errorf("measured %d, warmup %d, sent %d, server saw %d; want 20, 3, 23, 23", len(got[0]), warm, res.Sent, s.Requests())
		}
		if !res.Complete() || res.Cause != "" {
			t.Errorf("complete %v, cause %q; want a complete run", res.Complete(), res.Cause)
		}
		exactly(t, "run time", time.Since(start), 20*time.Millisecond+4*20*time.Millisecond)
		rounds := map[time.Duration]int{}
		for _, rec := range got[0] {
			if rec.IntendedAt != Missing || rec.ScheduleLag() != Missing {
				t.Fatalf("closed loop: intended %v, lag %v; want no schedule", rec.IntendedAt, rec.ScheduleLag())
			}
			if rec.Variant != "" || rec.Block != 0 {
				t.Fatalf("single-variant record has variant %q block %d", rec.Variant, rec.Block)
			}
			rounds[rec.SentAt]++
		}
		if want := map[time.Duration]int{0: 5, 20 * ms: 5, 40 * ms: 5, 60 * ms: 5}; fmt.Sprint(rounds) != fmt.Sprint(want) {
			t.Errorf("requests sent at %v, want %v", rounds, want)
		}
	})
}

func TestRunnerCaps(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 10}, 1))
		r := &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxRequests: 7}}
		got, res := collect(context.Background(), r, []Group{group(t, srv, 5, 0, 1), group(t, srv, 5, 0, 1)})
		if res.Sent != 7 || len(got[0]) != 5 || len(got[1]) != 2 || res.Cap != (Cap{Limit: CapRequests, Value: 7}) {
			t.Errorf("sent %d, groups %d+%d, cap %+v", res.Sent, len(got[0]), len(got[1]), res.Cap)
		}
		if res.Complete() || res.Cause != vocab.Capped {
			t.Errorf("cause %q, complete %v; want capped, incomplete", res.Cause, res.Complete())
		}
		r = &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxOutputTokens: 25}}
		_, res = collect(context.Background(), r, []Group{group(t, srv, 10, 0, 1)})
		if res.Sent != 3 || res.Cap != (Cap{Limit: CapOutputTokens, Value: 25}) || res.Cause != vocab.Capped {
			t.Errorf("sent %d, cap %+v (%q); want 3 requests of 10 tokens, capped", res.Sent, res.Cap, res.Cause)
		}
		// A cap that is reached exactly when the plan ends stops nothing.
		r = &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxRequests: 5}}
		if _, res = collect(context.Background(), r, []Group{group(t, srv, 5, 0, 1)}); !res.Complete() {
			t.Errorf("a plan of exactly max_requests is incomplete: %q %+v", res.Cause, res.Cap)
		}
	})
}

// TestRunnerInterruptAbortsStreamsPromptly: streams take 5s each; the run
// is interrupted at 300ms and returns at that very moment, the streams in
// flight aborted.
func TestRunnerInterruptAbortsStreamsPromptly(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), ITL: sim.Fixed(100 * time.Millisecond), Tokens: 50}, 1))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		r := &Runner{Prober: &Prober{Client: srv.Client()}}
		start := time.Now()
		got, res := collect(ctx, r, []Group{group(t, srv, 10, 0, 2)})
		exactly(t, "time to stop", time.Since(start), 300*time.Millisecond)
		if res.Cause != vocab.Interrupted || res.Complete() || len(got[0]) != 0 {
			t.Errorf("cause %q, %d records; want interrupted and no aborted record counted as a failure", res.Cause, len(got[0]))
		}
	})
}

// TestOpenLoopRate: requests that take no time, at 100/s: each is sent at
// exactly its intended time from the pure schedule, and the run lasts
// until the last one.
func TestOpenLoopRate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1))
		g := group(t, srv, 30, 0, 1)
		g.Rate = 100
		r := &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 3}
		start := time.Now()
		got, _ := collect(context.Background(), r, []Group{g})
		if len(got[0]) != 30 {
			t.Fatalf("%d records", len(got[0]))
		}
		sched := Schedule(g.Rate, seedsOf(3, 0)[1], 30)
		exactly(t, "run time", time.Since(start), sched[29])
		intended := map[time.Duration]bool{}
		for _, d := range sched {
			intended[d] = true
		}
		for _, rec := range got[0] {
			if !intended[rec.IntendedAt] {
				t.Errorf("intended %v is not in the schedule", rec.IntendedAt)
			}
			exactly(t, "schedule lag", rec.ScheduleLag(), 0)
		}
	})
}

// seedsOf repeats Run's derivation of the warmup and measurement seeds.
func seedsOf(seed uint64, group int) [2]uint64 {
	var out [2]uint64
	rng := newSeeds(seed, group)
	out[0], out[1] = rng.Uint64(), rng.Uint64()
	return out
}

// TestScheduleLagShowsASaturatedPool: one worker, requests of exactly 20ms,
// arrivals every millisecond or so. The k-th request waits for the k
// before it: it is sent at k × 20ms, whatever its intended time, and its
// lag shows the coordinated omission.
func TestScheduleLagShowsASaturatedPool(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), Tokens: 1}, 1))
		g := group(t, srv, 10, 0, 1)
		g.Rate, g.MaxInFlight = 1000, 1
		got, _ := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
		sched := Schedule(g.Rate, seedsOf(0, 0)[1], 10)
		if len(got[0]) != 10 || sched[9] >= 20*ms {
			t.Fatalf("%d records, last intended at %v; want 10, all due before the second is sent", len(got[0]), sched[9])
		}
		for k, rec := range got[0] {
			exactly(t, fmt.Sprintf("request %d: intended", k), rec.IntendedAt, sched[k])
			exactly(t, fmt.Sprintf("request %d: sent", k), rec.SentAt, time.Duration(k)*20*ms)
		}
	})
}

func TestPrepareVariesEachRequest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1))
		seen := map[string]bool{}
		g := group(t, srv, 5, 2, 1)
		g.Prepare = func(i int, req *Request) {
			req.Body = []byte(strings.Replace(string(body(t, 0)), "hello there", "req "+string(rune('a'+i)), 1))
			seen[string(req.Body)] = true
		}
		got, _ := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
		if len(got[0]) != 5 || len(seen) != 7 {
			t.Errorf("%d records, %d distinct bodies; want 5 and 7 (warmup included)", len(got[0]), len(seen))
		}
	})
}

// abServer answers base and head requests (told apart by path) with one
// token, and logs the order in which they arrive.
type abServer struct {
	mu    sync.Mutex
	order []string
	sim   http.Handler
}

func (a *abServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.order = append(a.order, strings.Trim(strings.TrimSuffix(r.URL.Path, "/v1/chat/completions"), "/"))
	a.mu.Unlock()
	r.URL.Path = "/v1/chat/completions"
	a.sim.ServeHTTP(w, r)
}

func abGroup(t *testing.T, srv *clocktest.Server, n, warmup, block int) Group {
	head := Request{URL: srv.URL + "/head/v1/chat/completions", Body: body(t, 0)}
	return Group{Request: Request{URL: srv.URL + "/base/v1/chat/completions", Body: body(t, 0)}, Head: &head,
		Requests: n, Warmup: warmup, Concurrency: 1, BlockSize: block}
}

func TestInterleavedAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 2}, 1)}
		srv := clocktest.NewServer(t, a)
		warm := map[vocab.Side]int{}
		r := &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 7, OnRecord: func(_ int, rec Record, w bool) {
			if w {
				warm[rec.Variant]++
			}
		}}
		got, res := collect(context.Background(), r, []Group{abGroup(t, srv, 9, 2, 2)})
		if !res.Complete() || res.Sent != 22 {
			t.Fatalf("complete %v, sent %d; want 2×(9+2) = 22", res.Complete(), res.Sent)
		}
		if warm[vocab.Base] != 2 || warm[vocab.Head] != 2 {
			t.Errorf("warmup %v, want 2 of each variant", warm)
		}
		// Blocks of 2 per variant: 9 = 2+2+2+2+1, so 5 blocks of 4,4,4,4,2.
		perBlock := map[int]map[vocab.Side]int{}
		for _, rec := range got[0] {
			if perBlock[rec.Block] == nil {
				perBlock[rec.Block] = map[vocab.Side]int{}
			}
			perBlock[rec.Block][rec.Variant]++
			if !rec.OK {
				t.Fatalf("request failed: %s", rec.Error)
			}
		}
		for b := 1; b <= 5; b++ {
			want := 2
			if b == 5 {
				want = 1
			}
			if perBlock[b][vocab.Base] != want || perBlock[b][vocab.Head] != want {
				t.Errorf("block %d holds %v, want %d of each variant", b, perBlock[b], want)
			}
		}
		if len(perBlock) != 5 {
			t.Errorf("blocks %v, want 1..5", perBlock)
		}
		// The server saw the variants in the planned order (closed loop, one
		// worker): warmup blocks first, then the measured ones.
		var want []string
		seeds := newSeeds(7, 0)
		for _, n := range []int{2, 9} {
			seed := seeds.Uint64()
			for _, s := range interleave(n, 2, seed) {
				want = append(want, string(s.variant))
			}
		}
		if fmt.Sprint(a.order) != fmt.Sprint(want) {
			t.Errorf("server saw %v\nwant        %v", a.order, want)
		}
	})
}

// TestLanes: requests of exactly 20ms, one at a time per lane. The warmup
// request of each variant goes on a lane of its own (20ms); then three
// lanes of an A/B group share its 10 requests per variant (4, 3 and 3 in
// blocks of 2 + 2: lane 0 sends 8 requests, so that takes 8 × 20ms); every
// block holds the requests of one lane, numbered in the order blocks are
// due, and exactly three requests are in flight until the shorter lanes
// are done. Four lanes of a single-variant group at concurrency 2 keep 8
// in flight.
func TestLanes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		a := &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(20 * time.Millisecond), ITL: sim.Fixed(0), Tokens: 2}, 1)}
		srv := clocktest.NewServer(t, a)
		g := abGroup(t, srv, 10, 1, 2) // one warmup request per variant, on two lanes at once
		g.Lanes = 3
		start := time.Now()
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 3}, []Group{g})
		exactly(t, "A/B run time", time.Since(start), 20*time.Millisecond+8*20*time.Millisecond)
		if !res.Complete() || len(got[0]) != 20 {
			t.Fatalf("complete %v, %d records; want 20", res.Complete(), len(got[0]))
		}
		lane := map[int]int{} // block → lane, from the block number
		perBlock := map[int]map[vocab.Side]int{}
		at := map[time.Duration]int{}
		for _, rec := range got[0] {
			lane[rec.Block] = (rec.Block - 1) % 3
			if perBlock[rec.Block] == nil {
				perBlock[rec.Block] = map[vocab.Side]int{}
			}
			perBlock[rec.Block][rec.Variant]++
			at[rec.SentAt]++
		}
		// Lane 0: blocks 1, 4 (2+2 each); lanes 1 and 2: blocks 2, 5 and
		// 3, 6 (2+2, then 1+1).
		want := map[int]int{1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1}
		for b, k := range want {
			if perBlock[b][vocab.Base] != k || perBlock[b][vocab.Head] != k {
				t.Errorf("block %d holds %v, want %d of each variant", b, perBlock[b], k)
			}
		}
		if len(perBlock) != len(want) {
			t.Errorf("blocks %v, want 1..6", perBlock)
		}
		for k := range 8 {
			in := 3
			if k >= 6 {
				in = 1 // lane 0 alone
			}
			if c := at[time.Duration(k)*20*time.Millisecond]; c != in {
				t.Errorf("%d requests sent at %v, want %d", c, time.Duration(k)*20*time.Millisecond, in)
			}
		}
		single := group(t, srv, 16, 0, 2)
		single.Lanes = 4
		start = time.Now()
		got, _ = collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{single})
		exactly(t, "single-variant run time", time.Since(start), 2*20*time.Millisecond)
		if len(got[0]) != 16 {
			t.Errorf("%d records, want 16", len(got[0]))
		}
	})
}

func TestInterleavedABCancel(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), ITL: sim.Fixed(100 * time.Millisecond), Tokens: 50}, 1)})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		g := abGroup(t, srv, 10, 0, 1)
		g.Concurrency = 2
		got, res := collect(ctx, &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
		if res.Cause != vocab.Interrupted || len(got[0]) != 0 {
			t.Errorf("cause %q, %d records; want interrupted, no aborted record", res.Cause, len(got[0]))
		}
	})
}

func TestInterleave(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, size int
		blocks  []int // requests of each variant per block
	}{
		{n: 0, size: 1},
		{n: 1, size: 1, blocks: []int{1}},
		{n: 5, size: 1, blocks: []int{1, 1, 1, 1, 1}},
		{n: 5, size: 2, blocks: []int{2, 2, 1}},
		{n: 4, size: 0, blocks: []int{1, 1, 1, 1}}, // size defaults to 1
		{n: 3, size: 10, blocks: []int{3}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d,size=%d", tt.n, tt.size), func(t *testing.T) {
			got := interleave(tt.n, tt.size, 1)
			counts := map[int]map[vocab.Side]int{}
			last := 0
			for _, s := range got {
				if s.block < last {
					t.Fatalf("block %d after block %d: blocks must be contiguous", s.block, last)
				}
				last = s.block
				if counts[s.block] == nil {
					counts[s.block] = map[vocab.Side]int{}
				}
				counts[s.block][s.variant]++
			}
			if len(counts) != len(tt.blocks) {
				t.Fatalf("%d blocks, want %d", len(counts), len(tt.blocks))
			}
			for i, k := range tt.blocks {
				if c := counts[i+1]; c[vocab.Base] != k || c[vocab.Head] != k {
					t.Errorf("block %d = %v, want %d of each", i+1, c, k)
				}
			}
		})
	}
	// Seeded: the same seed gives the same order, another seed another one,
	// and both variants lead some blocks.
	a, b, c := interleave(200, 1, 1), interleave(200, 1, 1), interleave(200, 1, 2)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same seed gave different orders")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("different seeds gave the same order")
	}
	baseFirst := 0
	for i := 0; i < len(a); i += 2 {
		if a[i].variant == vocab.Base {
			baseFirst++
		}
	}
	if baseFirst < 70 || baseFirst > 130 {
		t.Errorf("base went first in %d of 200 blocks, want about half", baseFirst)
	}
}

func TestSchedule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rate  float64
		count int
		want  int
	}{
		{"no rate", 0, 10, 0},
		{"negative rate", -1, 10, 0},
		{"no requests", 5, 0, 0},
		{"one request starts at once", 5, 1, 1},
		{"many", 50, 20000, 20000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Schedule(tt.rate, 1, tt.count)
			if len(got) != tt.want {
				t.Fatalf("len = %d, want %d", len(got), tt.want)
			}
			if len(got) > 0 && got[0] != 0 {
				t.Errorf("first request due at %v, want 0", got[0])
			}
			for i := 1; i < len(got); i++ {
				if got[i] < got[i-1] {
					t.Fatalf("schedule goes back in time at %d", i)
				}
			}
		})
	}
	// Deterministic by seed.
	if a, b := Schedule(10, 4, 100), Schedule(10, 4, 100); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same seed gave different schedules")
	}
	if a, b := Schedule(10, 4, 100), Schedule(10, 5, 100); fmt.Sprint(a) == fmt.Sprint(b) {
		t.Error("different seeds gave the same schedule")
	}
	// A prefix does not depend on the count.
	if a, b := Schedule(10, 4, 50), Schedule(10, 4, 100); fmt.Sprint(a) != fmt.Sprint(b[:50]) {
		t.Error("a shorter schedule is not a prefix of a longer one")
	}
	// Mean rate: 20,000 arrivals at rate r span about 19,999/r seconds
	// (standard error 0.7%; a 3% band is over 4 standard errors wide).
	for _, rate := range []float64{0.5, 50, 5000} {
		s := Schedule(rate, 9, 20000)
		got := float64(len(s)-1) / s[len(s)-1].Seconds()
		if got < rate*0.97 || got > rate*1.03 {
			t.Errorf("rate %v: measured %.4g arrivals/s", rate, got)
		}
	}
}

func TestFailFast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		statuses []int // server answers in this order, then 200s
		limit    int
		stops    bool
		sent     int
	}{
		{name: "five 401s in a row stop", statuses: []int{401, 401, 401, 401, 401}, stops: true, sent: 5},
		{name: "404s stop", statuses: []int{404, 404, 404, 404, 404}, stops: true, sent: 5},
		{name: "403s stop at a custom limit", statuses: []int{403, 403, 403}, limit: 3, stops: true, sent: 3},
		{name: "a success breaks the streak", statuses: []int{401, 401, 401, 401, 200, 401, 401, 401, 401}, sent: 12},
		{name: "mixed statuses are not identical", statuses: []int{401, 404, 401, 404, 401, 404}, sent: 12},
		{name: "server errors never stop", statuses: []int{500, 500, 500, 500, 500, 500}, sent: 12},
		{name: "disabled", statuses: []int{401, 401, 401, 401, 401, 401}, limit: -1, sent: 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) { checkFailFast(t, tt.statuses, tt.limit, tt.stops, tt.sent) })
		})
	}
}

// checkFailFast runs two groups of 6 requests against a server that
// answers with statuses, then with successes.
func checkFailFast(t *testing.T, statuses []int, limit int, stops bool, sent int) {
	var mu sync.Mutex
	n := 0
	ok := sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)
	srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := n
		n++
		mu.Unlock()
		if i < len(statuses) && statuses[i] != 200 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(statuses[i])
			fmt.Fprintf(w, `{"error":{"message":"provider says no (%d)","type":"invalid_request_error"}}`, statuses[i])
			return
		}
		ok.ServeHTTP(w, r)
	}))
	r := &Runner{Prober: &Prober{Client: srv.Client()}, FailFast: limit}
	_, res := collect(context.Background(), r, []Group{group(t, srv, 6, 0, 1), group(t, srv, 6, 0, 1)})
	// A worker may start one more request while the aggregator
	// looks at the record that ends the streak.
	if res.Sent < sent || res.Sent > sent+1 || !stops && res.Sent != sent {
		t.Errorf("sent %d, want %d (+1 in flight when it stops)", res.Sent, sent)
	}
	if got := res.Cause == vocab.FailedFast; got != stops {
		t.Fatalf("cause %q, want fail-fast %v", res.Cause, stops)
	}
	if stops && (res.Failure == nil || !strings.Contains(res.Failure.Error, "provider says no") || res.Complete()) {
		t.Errorf("stopped on %+v, complete %v; want the provider's message and an incomplete run", res.Failure, res.Complete())
	}
}

// TestPointerThatNeverMatchesStopsAtOnce: a custom endpoint whose text
// pointer matches no event stops the run after the first request, saying
// what it saw, instead of recording hundreds of zero-token failures.
func TestPointerThatNeverMatchesStopsAtOnce(t *testing.T) {
	t.Parallel()
	srv := canned(t, 200, "text/event-stream", sse(`{"delta":"a"}`, `{"delta":"b"}`), nil)
	g := Group{Request: Request{API: Custom, URL: srv.URL, Stream: &StreamSpec{Format: "sse", Text: "/text"}}, Requests: 50}
	_, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
	if res.Cause != vocab.FailedFast || res.Sent > 2 || !res.Misread || !strings.Contains(res.Failure.Error, `stream.text /text matched no event; the most frequent kind of event (2 of 2) was: {"delta":"a"}`) {
		t.Errorf("cause %q, sent %d, misread %v, failure %+v", res.Cause, res.Sent, res.Misread, res.Failure)
	}
}

// TestNDJSONReadAsSSEStopsAtOnce: a custom endpoint configured as SSE
// whose server streams NDJSON stops after the first request and says
// which stream.format to set.
func TestNDJSONReadAsSSEStopsAtOnce(t *testing.T) {
	t.Parallel()
	srv := canned(t, 200, "application/x-ndjson", "{\"delta\":\"a\"}\n{\"delta\":\"b\"}\n", nil)
	g := Group{Request: Request{API: Custom, URL: srv.URL, Stream: &StreamSpec{Format: "sse", Text: "/delta"}}, Requests: 50}
	_, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
	if res.Cause != vocab.FailedFast || res.Sent > 2 || !res.Misread || !strings.Contains(res.Failure.Error, "the server streams NDJSON: set stream.format: ndjson") {
		t.Errorf("cause %q, sent %d, misread %v, failure %+v", res.Cause, res.Sent, res.Misread, res.Failure)
	}
}

// TestInterleavedABOpenLoop: at a rate, the A/B slots follow one schedule;
// both variants are in every block and every record has its intended time.
func TestInterleavedABOpenLoop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)})
		g := abGroup(t, srv, 6, 1, 1)
		g.Rate = 200
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 2}, []Group{g})
		if !res.Complete() || len(got[0]) != 12 || res.Sent != 14 {
			t.Fatalf("complete %v, %d records, sent %d; want 12 measured of 14", res.Complete(), len(got[0]), res.Sent)
		}
		sched := map[time.Duration]bool{}
		for _, d := range Schedule(200, seedsOf(2, 0)[1], 12) {
			sched[d] = true
		}
		blocks := map[int]map[vocab.Side]int{}
		for _, rec := range got[0] {
			if !sched[rec.IntendedAt] || rec.ScheduleLag() != 0 {
				t.Errorf("intended %v (lag %v): want a time from the schedule, met exactly", rec.IntendedAt, rec.ScheduleLag())
			}
			if blocks[rec.Block] == nil {
				blocks[rec.Block] = map[vocab.Side]int{}
			}
			blocks[rec.Block][rec.Variant]++
		}
		for b := 1; b <= 6; b++ {
			if blocks[b][vocab.Base] != 1 || blocks[b][vocab.Head] != 1 {
				t.Errorf("block %d = %v, want one of each", b, blocks[b])
			}
		}
	})
}

// TestInterleavedABCaps: the run-wide caps count both variants.
func TestInterleavedABCaps(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)})
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxRequests: 9}}, []Group{abGroup(t, srv, 10, 1, 2)})
		if res.Cause != vocab.Capped || res.Sent != 9 || len(got[0]) != 7 {
			t.Errorf("cause %q, sent %d, measured %d; want capped after 9 (2 warmup + 7)", res.Cause, res.Sent, len(got[0]))
		}
	})
}

// TestInterleavedABBodies: each variant numbers its own bodies from 1,
// warmup included.
func TestInterleavedABBodies(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)})
		var mu sync.Mutex
		seen := map[string][]int{}
		number := func(v string) func(int, *Request) {
			return func(i int, req *Request) {
				mu.Lock()
				seen[v] = append(seen[v], i)
				mu.Unlock()
				req.Body = body(t, 0)
			}
		}
		g := abGroup(t, srv, 3, 1, 1)
		g.Prepare, g.HeadPrepare = number("base"), number("head")
		collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
		for _, v := range []string{"base", "head"} {
			if fmt.Sprint(seen[v]) != "[1 2 3 4]" {
				t.Errorf("%s bodies %v, want [1 2 3 4]", v, seen[v])
			}
		}
	})
}

// TestFailFastPerVariant: a head that always gets 404 stops the run even
// though its requests alternate with a working base.
func TestFailFastPerVariant(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ok := sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/head/") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(404)
				fmt.Fprint(w, `{"error":{"message":"The model does not exist"}}`)
				return
			}
			r.URL.Path = "/v1/chat/completions"
			ok.ServeHTTP(w, r)
		}))
		_, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 1}, []Group{abGroup(t, srv, 50, 0, 1)})
		if res.Cause != vocab.FailedFast || res.Sent > 14 || res.Streak != 5 || res.Failure.Variant != vocab.Head || !strings.Contains(res.Failure.Error, "The model does not exist") {
			t.Errorf("cause %q, sent %d, streak %d, failure %+v", res.Cause, res.Sent, res.Streak, res.Failure)
		}
	})
}

// TestAdaptiveStop: a group with a decider is looked at every batch from
// MinRequests and stops sending when the decider says so; requests in
// flight still finish, an A/B group completes its block, the run stays
// complete.
func TestAdaptiveStop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		ab          bool
		n, min, bat int
		conc, block int
		lanes       int
		rate        float64 // open loop, at most conc in flight
		stopAt      int     // the look at which the decider stops; 0 never
		looks       []int   // the looks the decider sees
	}{
		{name: "stops at the first look", n: 50, min: 10, bat: 10, conc: 1, stopAt: 10, looks: []int{10}},
		{name: "stops at a later look", n: 50, min: 10, bat: 15, conc: 2, stopAt: 25, looks: []int{10, 25}},
		{name: "never stops: runs to max, no look at max", n: 30, min: 10, bat: 10, conc: 3, looks: []int{10, 20}},
		{name: "batch 0 means min", n: 30, min: 12, conc: 1, looks: []int{12, 24}},
		{name: "A/B stops at once, balanced", ab: true, n: 40, min: 8, bat: 8, conc: 3, block: 4, stopAt: 16, looks: []int{8, 16}},
		{name: "A/B on 3 lanes stops balanced", ab: true, n: 60, min: 6, bat: 6, conc: 1, lanes: 3, block: 4, stopAt: 12, looks: []int{6, 12}},
		{name: "A/B runs to max", ab: true, n: 20, min: 8, bat: 4, conc: 2, block: 2, looks: []int{8, 12, 16}},
		{name: "open loop stops", n: 60, min: 10, bat: 10, conc: 2, rate: 400, stopAt: 20, looks: []int{10, 20}},
		{name: "A/B open loop stops", ab: true, n: 40, min: 10, bat: 10, conc: 2, block: 2, rate: 400, stopAt: 10, looks: []int{10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1)})
				var g Group
				if tt.ab {
					g = abGroup(t, srv, tt.n, 1, tt.block)
				} else {
					g = Group{Request: Request{URL: srv.URL + "/base/v1/chat/completions", Body: body(t, 0)}, Requests: tt.n, Warmup: 1}
				}
				g.Concurrency, g.Lanes = tt.conc, tt.lanes
				if tt.rate > 0 {
					g.Rate, g.MaxInFlight = tt.rate, tt.conc
				}
				var seen []int
				counts := map[vocab.Side]int{}
				r := &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 5}
				r.Sink = func(_ int, rec Record) { counts[rec.Variant]++ }
				g.MinRequests, g.Batch = tt.min, tt.bat
				g.Decide = func(n int) bool {
					// The decider sees at least n records of each variant.
					for _, v := range []vocab.Side{"", vocab.Base, vocab.Head} {
						if c := counts[v]; c > 0 && c < n {
							t.Errorf("look %d: only %d records of variant %q so far", n, c, v)
						}
					}
					seen = append(seen, n)
					return n == tt.stopAt
				}
				res := r.Run(context.Background(), []Group{g})
				if !res.Complete() {
					t.Fatalf("run incomplete: %q", res.Cause)
				}
				if fmt.Sprint(seen) != fmt.Sprint(tt.looks) {
					t.Errorf("looks %v, want %v", seen, tt.looks)
				}
				want, slack := tt.n, 0
				if tt.stopAt > 0 {
					// In flight at the stop: up to one per worker but the
					// one whose record the look took (it starts nothing
					// more); for A/B the variant behind then catches up.
					want, slack = tt.stopAt, tt.conc*max(tt.lanes, 1)-1+tt.block
				}
				for _, v := range []vocab.Side{"", vocab.Base, vocab.Head} {
					if v == "" && tt.ab || v != "" && !tt.ab {
						continue
					}
					if c := counts[v]; c < want || c > want+slack {
						t.Errorf("variant %q: measured %d, want %d..%d", v, c, want, want+slack)
					}
				}
				if tt.ab && counts[vocab.Base] != counts[vocab.Head] {
					t.Errorf("base %d, head %d: an A/B stop must keep the variants balanced", counts[vocab.Base], counts[vocab.Head])
				}
			})
		})
	}
}

// TestAdaptiveIgnoredWithoutRange: a decider on a group whose min is not
// below its count is never called.
func TestAdaptiveIgnoredWithoutRange(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 1}, 1))
		for _, min := range []int{0, 10, 12} {
			g := group(t, srv, 10, 0, 1)
			called := false
			g.MinRequests, g.Decide = min, func(int) bool { called = true; return true }
			got, _ := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}}, []Group{g})
			if called || len(got[0]) != 10 {
				t.Errorf("min %d: decider called %v, %d records; want never, 10", min, called, len(got[0]))
			}
		}
	})
}

// A cost cap stops the run once what was received reaches it, and says
// which cap and what was spent (gate says it in words).
func TestCostCap(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cap, perReq float64
		sent        int
	}{{0.005, 0.0026, 2}, {0.0000001, 0.00000015, 1}, {2, 0.75, 3}, {1.00001, 0.500006, 2}} {
		synctest.Test(t, func(t *testing.T) {
			srv := clocktest.NewServer(t, sim.New(sim.Profile{TTFT: sim.Fixed(0), Tokens: 2}, 1))
			r := &Runner{Prober: &Prober{Client: srv.Client()}, Limits: Limits{MaxCost: tt.cap, Cost: func(int, Record) float64 { return tt.perReq }}}
			_, res := collect(context.Background(), r, []Group{group(t, srv, 10, 1, 1)})
			spent := float64(tt.sent) * tt.perReq
			if res.Cause != vocab.Capped || res.Cap.Limit != CapCost || res.Cap.Value != tt.cap || res.Cap.Spent != spent || res.Sent != tt.sent {
				t.Errorf("cap %v: %q %+v after %d requests, want capped at %v spent after %d", tt.cap, res.Cause, res.Cap, res.Sent, spent, tt.sent)
			}
		})
	}
}

// TestReplayAtTimes: a replayed trace (Group.At) sends the k-th request of
// each variant, made by Item(k), exactly at At[k] — base's and head's k-th
// request the same item, in one block — with a pool of MaxInFlight
// workers, not Concurrency's one; the warmup is not replayed.
func TestReplayAtTimes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, &abServer{sim: sim.New(sim.Profile{TTFT: sim.Fixed(30 * time.Millisecond), Tokens: 1}, 1)})
		at := []time.Duration{0, 5 * time.Millisecond, 5 * time.Millisecond, 40 * time.Millisecond, 41 * time.Millisecond, 90 * time.Millisecond, 300 * time.Millisecond}
		g := abGroup(t, srv, len(at), 2, 1)
		g.At = at
		var mu sync.Mutex
		made := map[vocab.Side][]int{}
		g.Item = func(k int, req *Request) {
			mu.Lock()
			made[vocab.Side(req.Headers["X-Side"])] = append(made[vocab.Side(req.Headers["X-Side"])], k)
			mu.Unlock()
		}
		g.Request.Headers = map[string]string{"X-Side": string(vocab.Base)}
		head := *g.Head
		head.Headers = map[string]string{"X-Side": string(vocab.Head)}
		g.Head = &head
		got, res := collect(context.Background(), &Runner{Prober: &Prober{Client: srv.Client()}, Seed: 4}, []Group{g})
		if !res.Complete() || len(got[0]) != 2*len(at) {
			t.Fatalf("complete %v, %d records; want %d", res.Complete(), len(got[0]), 2*len(at))
		}
		block := map[int]map[vocab.Side]int{}
		for _, rec := range got[0] {
			k := rec.Item - 1
			if k < 0 || k >= len(at) {
				t.Fatalf("item %d", rec.Item)
			}
			exactly(t, fmt.Sprintf("item %d intended", k), rec.IntendedAt, at[k])
			exactly(t, fmt.Sprintf("item %d lag", k), rec.ScheduleLag(), 0)
			if block[k] == nil {
				block[k] = map[vocab.Side]int{}
			}
			block[k][rec.Variant] = rec.Block
		}
		for k := range at {
			if b := block[k]; b[vocab.Base] == 0 || b[vocab.Base] != b[vocab.Head] {
				t.Errorf("item %d: blocks %v, want base and head in one block", k, b)
			}
		}
		for _, v := range []vocab.Side{vocab.Base, vocab.Head} {
			s := slices.Sorted(slices.Values(made[v]))
			if fmt.Sprint(s) != "[0 1 2 3 4 5 6]" {
				t.Errorf("%s made items %v, want each once", v, made[v])
			}
		}
	})
}

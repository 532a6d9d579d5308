package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/capacity"
	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// engineProfile is a server of slots slots with fixed delays: a first
// token after 100 ms plus 10 ms per other request in the batch, then 15
// gaps of 20 ms. Up to 8 users on 8 slots, every first token comes within
// 170 ms; a ninth user waits for a slot.
func engineProfile(slots int) sim.Profile {
	return sim.Profile{TTFT: sim.Fixed(100 * time.Millisecond), ITL: sim.Fixed(20 * time.Millisecond), Tokens: 16,
		Capacity: sim.Capacity{Slots: slots, PrefillPerRequest: 10 * time.Millisecond}}
}

// capacitySuite is a suite of one capacity scenario against srv.
func capacitySuite(t *testing.T, srv *clocktest.Server, capacityYAML string) *suite.Config {
	t.Helper()
	text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
		"scenarios:\n  - name: chat\n    prompt: hi\n    max_tokens: 16\n    capacity: " + capacityYAML + "\n" +
		"limits: {max_requests: 5000}\n"
	cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func levelsOf(f *results.File) []float64 {
	var out []float64
	for _, r := range f.Runs {
		if r.Level != nil {
			out = append(out, r.Level.Value)
		}
	}
	return out
}

// TestCapacitySearchOnVirtualTime: on 8 slots at ttft p95 ≤ 200 ms, the
// search through the whole pipeline brackets 1–16, bisects 12, 10, 9 and
// finds 8 exactly, 9 saturated against it (the throughput flat), then
// measures 7 to judge 8 against the level a step below it; each level is
// a run labelled with its load, the file validates against its schema and
// the search is decided again from it the same way.
func TestCapacitySearchOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := capacitySuite(t, srv, "{vary: concurrency, from: 1, to: 64, requests_per_level: 60, slo: {ttft: {p95: 200ms}}}")
		var log strings.Builder
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), Progress: &log})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := levelsOf(f), []float64{1, 2, 4, 8, 16, 12, 10, 9, 7}; !slices.Equal(got, want) {
			t.Fatalf("levels %v, want %v\n%s", got, want, log.String())
		}
		rec := f.Capacity[0]
		if rec.Capacity == nil || *rec.Capacity != 8 || *rec.Upper != 8 || rec.Stop != vocab.Found || f.Incomplete != "" {
			t.Fatalf("search %+v, incomplete %q", rec, f.Incomplete)
		}
		for _, r := range f.Runs {
			if r.Config.Concurrency != int(r.Level.Value) || r.Level.Step < 1 || r.Fingerprint == "" {
				t.Errorf("level %v: concurrency %d, step %d", r.Level.Value, r.Config.Concurrency, r.Level.Step)
			}
			// Up to 8 users, every request measured and none over 170 ms.
			if r.Level.Value <= 8 && (len(r.Requests) != 60 || *r.Requests[0].TTFTMs > 170) {
				t.Errorf("level %v: %d requests", r.Level.Value, len(r.Requests))
			}
		}
		if !strings.Contains(log.String(), "latgate: capacity of chat @ e: holds 8 users at TTFT p95 ≤ 200 ms (8 to 8); goodput ") ||
			!strings.Contains(log.String(), "; above: 9 users: saturated, 17.1 requests/s against 17 at 8 users: throughput rose less than a quarter of the added load;") {
			t.Errorf("progress output:\n%s", log.String())
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		sch := compileSchema(t, "results.schema.json")
		mustValidate(t, sch, "a capacity search's results", b)
		for _, bad := range []func(doc map[string]any){
			func(doc map[string]any) { walk(doc, "runs", 0, "level").(map[string]any)["vary"] = "users" },
			func(doc map[string]any) { walk(doc, "capacity", 0).(map[string]any)["stop"] = "done" },
			func(doc map[string]any) { delete(walk(doc, "capacity", 0).(map[string]any), "slo") },
		} {
			doc := instance(t, b).(map[string]any)
			bad(doc)
			if sch.Validate(doc) == nil {
				t.Error("the schema accepts a mistaken capacity search")
			}
		}
		if err := f.Validate(); err != nil {
			t.Fatal(err)
		}
		again, err := capacity.Replay(f, rec)
		if err != nil || again.Capacity != 8 || len(again.Levels) != 9 {
			t.Fatalf("replayed: %v, %v", again.Capacity, err)
		}
		t.Logf("%s", log.String())
	})
}

// spikyEngine is the simulator's capacity model with noise: 8 slots, a
// first token after a log-normal 420 ms (σ 0.08: a p95 of about 480 ms),
// 8 ms more per other request in the batch, and one request in 50 spiking
// 450–700 ms more; then 48 gaps of 12 ms.
func spikyEngine() sim.Profile {
	return sim.Profile{TTFT: sim.LogNormal(420*time.Millisecond, 0.08).WithSpikes(0.02, 450*time.Millisecond, 700*time.Millisecond), ITL: sim.Fixed(12 * time.Millisecond),
		Tokens: 48, Capacity: sim.Capacity{Slots: 8, PrefillPerRequest: 8 * time.Millisecond}}
}

// TestCapacityOneSlowRequest: a level whose TTFT p95 is about 480 ms
// against an SLO of 800 ms, one of its 60 requests slow, cannot be shown
// to hold with 60 requests (that takes all 60 within), but it is within
// the SLO, as its curve says: the search goes on above it and finds the
// server's capacity near its 8 slots, never "holds no load"; a search of
// that one level measures it again within its cap, and the level holds or
// is the capacity on its estimates. (Level 1 is one user at a time: its
// requests, drawn in order from the seeded simulator, are the same in
// every run.)
func TestCapacityOneSlowRequest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, capYAML string
	}{
		{"a search of 1–64", "{vary: concurrency, from: 1, to: 64, requests_per_level: 60, slo: {ttft: {p95: 800ms}}}"},
		{"a search of that level alone", "{vary: concurrency, from: 1, to: 1, requests_per_level: 60, max_requests: 400, slo: {ttft: {p95: 800ms}}}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				srv := clocktest.NewServer(t, sim.New(spikyEngine(), 4))
				cfg := capacitySuite(t, srv, c.capYAML)
				var log strings.Builder
				f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), Progress: &log})
				if err != nil {
					t.Fatal(err)
				}
				first := f.Runs[0] // level 1's first measurement
				ttft := capacity.SampleOf(&first).Values[vocab.TTFT]
				slow := 0
				for _, v := range ttft {
					if v > 800 {
						slow++
					}
				}
				p95 := compare.Quantile(compare.Sorted(ttft), 0.95)
				if first.Level.Value != 1 || len(ttft) != 60 || slow != 1 || !(p95 > 450 && p95 < 520) {
					t.Fatalf("level 1: %d requests, %d slow, p95 %.0f ms; the test wants 60, one slow, a p95 near 480 ms", len(ttft), slow, p95)
				}
				rec := f.Capacity[0]
				words := log.String()
				switch {
				case rec.Capacity == nil || strings.Contains(words, "holds no load"):
					t.Fatalf("no capacity (%v): %s", rec.Capacity, words)
				case c.capYAML[len("{vary: concurrency, from: 1, to: "):][0] == '6' && !(*rec.Capacity >= 4 && *rec.Capacity <= 9):
					t.Errorf("capacity %v, want near the 8 slots:\n%s", *rec.Capacity, words)
				}
				if rec.To == 1 {
					again := 0
					for _, r := range f.Runs {
						if r.Level != nil && r.Level.Value == 1 && r.Level.Round > 1 {
							again++
						}
					}
					st := f.Runs[len(f.Runs)-1].Level.Status
					if again == 0 || *rec.Capacity != 1 || st == vocab.Fails {
						t.Errorf("level 1 measured again %d times, capacity %v, %s:\n%s", again, *rec.Capacity, st, words)
					}
				}
				t.Log(words)
			})
		})
	}
}

// TestCapacityCaps: a search cut by its cap says so, writes what it
// measured marked incomplete, and cannot run to a pass.
func TestCapacityCaps(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := capacitySuite(t, srv, "{vary: concurrency, from: 1, to: 64, max_requests: 200, slo: {ttft: {p95: 200ms}}}")
		f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
		var inc *IncompleteError
		if !errors.As(err, &inc) || KindOf(err) != CannotRun {
			t.Fatalf("error %v, want an incomplete run", err)
		}
		rec := f.Capacity[0]
		if rec.Stop != vocab.Capped || !strings.Contains(rec.StopReason, "capacity.max_requests (200) reached") ||
			!strings.Contains(f.Incomplete, "was cut") || len(levelsOf(f)) != 3 {
			t.Fatalf("search %+v; incomplete %q; levels %v", rec, f.Incomplete, levelsOf(f))
		}
		th, _ := CompareConfig(nil, Overrides{})
		if _, err := CompareFiles(nil, f, "", "cur.json", th); err == nil {
			t.Fatal("a cut search was compared")
		}
	})
}

// TestCapacityNeedsItsRequests: a search whose most requests exceed
// limits.max_requests is refused before any request.
func TestCapacityNeedsItsRequests(t *testing.T) {
	t.Parallel()
	var hits int
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits++ }))
	defer srv.Close()
	// 1–1024: eleven doublings, then nine halvings of 512–1024, the level
	// below 512, and, were 512 saturated against it, a bisection of
	// 257–510 and the level below where it ends (10): 30 levels of 61
	// requests.
	text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
		"scenarios:\n  - {name: chat, prompt: hi, capacity: {vary: concurrency, from: 1, to: 1024, slo: {ttft: {p95: 200ms}}}}\n"
	cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Measure(context.Background(), cfg, MeasureOptions{})
	if KindOf(err) != BadInput || hits > 0 || !strings.Contains(fmt.Sprint(err), "the suite plans 1830 requests (warmup included, and the most its capacity search may need) but limits.max_requests is 1000") {
		t.Fatalf("error %v after %d requests", err, hits)
	}
}

// abCapacity measures base and head servers of baseSlots and headSlots
// with latgate ab's measurement and compares them.
func abCapacity(t *testing.T, baseSlots, headSlots int) (*results.File, vocab.Verdict, string) {
	t.Helper()
	base := clocktest.NewServer(t, sim.New(engineProfile(baseSlots), 1))
	head := clocktest.NewServer(t, sim.New(engineProfile(headSlots), 2))
	capYAML := "{vary: concurrency, from: 1, to: 64, slo: {ttft: {p95: 200ms}}}"
	bc, hc := capacitySuite(t, base, capYAML), capacitySuite(t, head, capYAML)
	var log strings.Builder
	f, err := MeasureAB(context.Background(), bc, hc, MeasureOptions{Client: base.Client(), Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	th, _ := CompareConfig(hc, Overrides{})
	rep, _, err := CompareAB(f, "ab.json", th)
	if err != nil {
		t.Fatal(err)
	}
	// In Actions, a capacity regression is an error annotation on its
	// scenario's line, and nothing else is.
	ann := annotations(Env{Getenv: func(string) string { return "" }}, Inputs{Config: "c.yaml"}, hc, rep)
	regressed := rep.Capacity[0].Status == vocab.Regression
	if regressed != (len(ann) == 1) || regressed && (ann[0].Line != hc.Scenarios[0].Line || ann[0].Line == 0 || ann[0].Title != "latgate: capacity of chat @ e" ||
		!strings.HasPrefix(ann[0].Msg, "holds 6 users at TTFT p95 ≤ 200 ms (6 to 6); base 8 (8 to 8): -25%; capacity regression")) {
		t.Errorf("annotations %+v", ann)
	}
	return f, rep.Verdict, strings.Join(append([]string{rep.Headline}, rep.Warnings...), "\n")
}

// TestCapacityAB: base and head are searched level by level, alternating;
// a head with 6 slots against a base with 8 is a capacity regression
// (−25 %), the same server is not.
func TestCapacityAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f, verdict, text := abCapacity(t, 8, 6)
		var order []string
		for _, r := range f.Runs {
			order = append(order, fmt.Sprintf("%s:%g", r.Variant, r.Level.Value))
		}
		// Alternating: base 1, head 1, base 2, head 2, … until each ends.
		if want := "base:1 head:1 base:2 head:2 base:4 head:4 base:8 head:8"; !strings.HasPrefix(strings.Join(order, " "), want) {
			t.Errorf("order %v", order)
		}
		if verdict != "fail" || text != "fail: chat @ e holds 6 users at TTFT p95 ≤ 200 ms (6 to 6); base 8 (8 to 8): -25%, a capacity regression" {
			t.Errorf("verdict %s:\n%s", verdict, text)
		}
		_, verdict, text = abCapacity(t, 8, 8)
		if verdict != "pass" || text != "pass: chat @ e holds 8 users at TTFT p95 ≤ 200 ms (8 to 8); base 8 (8 to 8): +0.0%, no change beyond 10% with confidence" {
			t.Errorf("A/A: verdict %s:\n%s", verdict, text)
		}
	})
}

// TestCapacityRateCountsTheLag: a rate search with two workers in front of
// 8 slots. Every request's own first token comes within 130 ms of its
// send (never more than two in flight), so a search that timed from the
// send would pass every rate; from the scheduled send, a rate the two
// workers cannot keep fails on its SLO.
func TestCapacityRateCountsTheLag(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		f := measureSuite(t, srv, "endpoints:\n  - {name: e, base_url: "+srv.URL+"/v1, model: m}\n"+
			"scenarios:\n  - name: chat\n    prompt: hi\n    max_tokens: 16\n    max_in_flight: 2\n"+
			"    capacity: {vary: rate, from: 0.5/s, to: 16/s, slo: {ttft: {p95: 200ms}}}\n")
		rec := f.Capacity[0]
		if rec.Capacity == nil || *rec.Capacity >= 4 || rec.Stop != vocab.Found {
			t.Fatalf("search %+v, levels %v", rec, levelsOf(f))
		}
		failed := 0
		for _, r := range f.Runs {
			if r.Level.Value <= *rec.Capacity {
				continue
			}
			failed++
			for _, q := range r.Requests {
				if *q.TTFTMs > 130 {
					t.Errorf("level %v: a first token %v ms after its send", r.Level.Value, *q.TTFTMs)
				}
			}
			if r.Config.Rate != r.Level.Value {
				t.Errorf("level %v: rate %v", r.Level.Value, r.Config.Rate)
			}
		}
		again, err := capacity.Replay(f, rec)
		if err != nil || failed == 0 {
			t.Fatal(err, failed)
		}
		for _, l := range again.Levels {
			if l.Value > *rec.Capacity && l.Limit != vocab.LimitSLO {
				t.Errorf("level %v fails on %s, want the SLO (timed from the schedule)", l.Value, l.Limit)
			}
		}
		t.Logf("rate capacity %v/s (levels %v)", *rec.Capacity, levelsOf(f))
	})
}

// TestMergeShards: four legs each drive 2 users at once of one level at the
// same moment against 8 slots (8 users in all); merged with --shards, the
// level is one run of 240 requests measured by 4 shards, and holds 8
// users. A leg of another suite is refused, and a plain merge says to
// use --shards.
func TestMergeShards(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := capacitySuite(t, srv, "{vary: concurrency, from: 2, to: 2, slo: {ttft: {p95: 200ms}}}")
		dir := t.TempDir()
		paths, _ := legs(t, 4, srv, cfg, time.Time{}, dir)
		ids := map[string]bool{}
		for _, p := range paths { // each leg's measurement has an ID of its own, and when it started
			f, err := fileio.Read(p)
			if err != nil || len(f.ID) != 32 || ids[f.ID] || f.StartedAt == nil || f.StartedAt.After(f.CreatedAt.Add(time.Second)) {
				t.Fatalf("%s: %v, id %q, started %v, created %v", p, err, f.ID, f.StartedAt, f.CreatedAt)
			}
			ids[f.ID] = true
		}
		out := filepath.Join(dir, "all.json")
		m, err := MergeFiles(paths, out, true)
		if err != nil {
			t.Fatal(err)
		}
		run := m.Runs[0]
		if len(m.Runs) != 1 || run.Shards != 4 || len(run.Requests) != 240 || run.Config.Concurrency != 2 {
			t.Fatalf("merged %d runs: shards %d, %d requests, concurrency %d", len(m.Runs), run.Shards, len(run.Requests), run.Config.Concurrency)
		}
		th, _ := CompareConfig(cfg, Overrides{})
		rep, err := CompareFiles(nil, m, "", out, th)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Headline != "pass: chat @ e holds at least 8 users at TTFT p95 ≤ 200 ms, the top of the range" || rep.Capacity[0].Head.Result.Shards != 4 {
			t.Errorf("merged report: %s", rep.Headline)
		}
		if _, err := MergeFiles(paths, out, false); err == nil || !strings.Contains(err.Error(), "--shards") {
			t.Errorf("a plain merge of shards: %v", err)
		}
		other := capacitySuite(t, srv, "{vary: concurrency, from: 2, to: 2, slo: {ttft: {p95: 300ms}}}")
		f, err := Measure(context.Background(), other, MeasureOptions{Client: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if err := fileio.Write(paths[3], f); err != nil {
			t.Fatal(err)
		}
		if _, err := MergeFiles(paths, out, true); KindOf(err) != BadInput || !strings.Contains(err.Error(), "measured different suites (the capacity search of endpoint \"e\", scenario \"chat\")") {
			t.Errorf("a leg of another suite: %v", err)
		}
	})
}

// TestCapacityAgainstStoredBaselines: a gate compares a search with the
// stored baseline's, and with a history's newest: 6 slots after 8 is a
// capacity regression either way.
func TestCapacityAgainstStoredBaselines(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// One address, as a deployment keeps its own: the fingerprints
		// (with its host) are the same, and the history is one suite's.
		sim8, sim6 := sim.New(engineProfile(8), 1), sim.New(engineProfile(6), 2)
		var served http.Handler = sim8
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served.ServeHTTP(w, r) }))
		measure := func(h http.Handler) *results.File {
			served = h
			f, err := Measure(context.Background(), capacitySuite(t, srv, "{vary: concurrency, from: 1, to: 64, slo: {ttft: {p95: 200ms}}}"), MeasureOptions{Client: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		old, newest, cur := measure(sim8), measure(sim8), measure(sim6)
		th, _ := CompareConfig(nil, Overrides{})
		for _, hist := range [][]*results.File{{newest}, {old, newest}} {
			rep, err := CompareStored(hist, []string{"a.json", "b.json"}[:len(hist)], cur, "cur.json", th)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != "fail" || rep.Headline != "fail: chat @ e holds 6 users at TTFT p95 ≤ 200 ms (6 to 6); base 8 (8 to 8): -25%, a capacity regression" {
				t.Errorf("%d baselines: %s: %s\n%v", len(hist), rep.Verdict, rep.Headline, rep.Warnings)
			}
		}
	})
}

// measureSuite measures the suite text against srv.
func measureSuite(t *testing.T, srv *clocktest.Server, text string) *results.File {
	t.Helper()
	cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

package gate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// inFlight is what the simulator's own page says it holds now: the
// requests running in its slots and waiting for one.
func inFlight(t *testing.T, srv *clocktest.Server) int {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		t.Error(err)
		return -1
	}
	defer resp.Body.Close()
	n := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "vllm:num_requests_running{") || strings.HasPrefix(line, "vllm:num_requests_waiting{") {
			v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
			if err != nil {
				t.Error(err)
			}
			n += int(v)
		}
	}
	return n
}

// legs measures cfg on n legs at once against srv, each started at start
// (none when zero), and writes their files into dir; it returns their
// paths and progress logs.
func legs(t *testing.T, n int, srv *clocktest.Server, cfg *suite.Config, start time.Time, dir string) ([]string, []string) {
	t.Helper()
	paths, logs := make([]string, n), make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("leg%d.json", i))
		wg.Go(func() {
			var log strings.Builder
			var f *results.File
			if f, errs[i] = Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), StartAt: start, Progress: &log}); errs[i] == nil {
				errs[i] = fileio.Write(paths[i], f)
			}
			logs[i] = log.String()
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return paths, logs
}

// TestShardedLadderOnVirtualTime: four legs in one process, one simulator
// of 8 slots, the same --start-at 30 s ahead and a ladder of 1, 2 and 4
// users in windows of 40 s. Each level holds exactly four legs' load on
// the server (the simulator's own count of its requests running and
// waiting, read in the middle of each window: 4, 8, 16), each leg drives
// its level from its window's start to its end, and merge --shards
// decides each level from all legs' requests at that load: 8 users on the
// server hold TTFT p95 ≤ 200 ms, 16 queue and fail.
func TestShardedLadderOnVirtualTime(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		const window = 40 * time.Second
		start := time.Now().Add(30 * time.Second).Truncate(time.Second)
		ladder := []float64{1, 2, 4}
		seen := make([]int, len(ladder))
		go func() {
			for k := range ladder { // between the simulator's events, which come at whole milliseconds
				time.Sleep(time.Until(start.Add(time.Duration(k)*window + window/2 + 500*time.Microsecond)))
				seen[k] = inFlight(t, srv)
			}
		}()
		dir := t.TempDir()
		paths, logs := legs(t, 4, srv, capacitySuite(t, srv, "{vary: concurrency, levels: [1, 2, 4], window: 40s, slo: {ttft: {p95: 200ms}}}"), start, dir)
		if want := []int{4, 8, 16}; !slices.Equal(seen, want) {
			t.Errorf("the simulator held %v requests in the middle of each window, want %v", seen, want)
		}
		if !strings.Contains(logs[0], "latgate: --start-at: chat @ e: 3 levels (1, 2, 4 users), windows of 40s, at most 1665 requests a level, 3 windows from "+clockText(start)+" to "+clockText(start.Add(3*window))+", each level's load driven for its whole window; waiting 30s for the first") {
			t.Errorf("leg's log:\n%s", logs[0])
		}
		// The time left is the windows', not the requests' pace (which
		// said "at most 35m left").
		if !strings.Contains(logs[0], " left (the last window ends at "+clockText(start.Add(3*window))+")") || regexp.MustCompile(`at most \S+ left`).MatchString(logs[0]) {
			t.Errorf("leg's progress does not count the windows:\n%s", logs[0])
		}
		overlap := make([][2]time.Time, len(ladder)) // every leg's requests, per level
		for i, p := range paths {
			f, err := fileio.Read(p)
			if err != nil {
				t.Fatal(err)
			}
			for k, r := range f.Runs {
				w := r.Level.Window
				if w == nil {
					t.Fatalf("leg %d, level %g: no window", i, r.Level.Value)
				}
				from, to := w.SentFrom, time.Time{}
				for _, q := range r.Requests {
					to = maxTime(to, from.Add(time.Duration((q.SentMs+*q.TotalMs)*1e6)))
				}
				first := from.Add(time.Duration(r.Requests[0].SentMs * 1e6))
				overlap[k][0], overlap[k][1] = maxTime(overlap[k][0], first), minTime(overlap[k][1], to)
				wantStart := start.Add(time.Duration(k) * window)
				// Its warmup and first request within a second of the window's
				// start (once the level before it drained, its warmup
				// answered); its last sent before the window's end and
				// answered within 1.5 s of it (a queued answer at 16 users
				// on 8 slots takes 0.9 s).
				if r.Level.Value != ladder[k] || w == nil || !w.Start.Equal(wantStart) || w.Ms != 40000 || w.SentFrom.Before(wantStart) || w.SentFrom.Sub(wantStart) > time.Second ||
					to.Before(wantStart.Add(window)) || to.After(wantStart.Add(window+1500*time.Millisecond)) {
					t.Errorf("leg %d, level %g: window %+v, requests to %v", i, r.Level.Value, w, to)
				}
			}
		}
		for k, o := range overlap {
			t.Logf("level %g: the 4 legs drove it together for %v of its %v window (%.1f %%)", ladder[k], o[1].Sub(o[0]), window, 100*float64(o[1].Sub(o[0]))/float64(window))
		}
		out := filepath.Join(dir, "all.json")
		m, err := MergeFiles(paths, out, true)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Notes) != 1 { // merged from 4 shards; no overlap below 90 %
			t.Errorf("notes %q", m.Notes)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		mustValidate(t, compileSchema(t, "results.schema.json"), "a sharded ladder's merged results", b)
		rec := m.Capacity[0]
		if rec.Capacity == nil || *rec.Capacity != 2 || *rec.Upper != 3 || rec.Stop != vocab.Found || !slices.Equal(rec.Levels, ladder) {
			t.Fatalf("merged search %+v", rec)
		}
		var statuses []vocab.LevelStatus
		for _, r := range m.Runs {
			statuses = append(statuses, r.Level.Status)
			if r.Shards != 4 {
				t.Errorf("level %g: %d shards", r.Level.Value, r.Shards)
			}
		}
		if want := []vocab.LevelStatus{vocab.Holds, vocab.Holds, vocab.Fails}; !slices.Equal(statuses, want) {
			t.Errorf("merged levels %v, want %v", statuses, want)
		}
		th, _ := CompareConfig(capacitySuite(t, srv, "{vary: concurrency, levels: [1, 2, 4], window: 40s, slo: {ttft: {p95: 200ms}}}"), Overrides{})
		rep, err := CompareFiles(nil, m, "", out, th)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(rep.Headline, "pass: chat @ e holds 8 users at TTFT p95 ≤ 200 ms") {
			t.Errorf("merged report: %s", rep.Headline)
		}
		t.Logf("%s\n%s", logs[0], rep.Headline)
	})
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// --start-at is bad input before any request: a time in the past or a day
// away, a suite with a scenario at one load or a search instead of a
// ladder, a ladder whose share of the requests is below
// requests_per_level; and a malformed time.
func TestStartAtBadInput(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		served := 0
		srv := clocktest.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { served++ }))
		ladder := "{vary: concurrency, levels: [1, 2], window: 40s, slo: {ttft: {p95: 200ms}}}"
		ahead := time.Now().Add(time.Minute)
		for _, c := range []struct {
			name  string
			cfg   string
			start time.Time
			want  string
		}{
			{"in the past", ladder, time.Now().Add(-12 * time.Second), "is 12s in the past: every leg must start before it"},
			{"a day away", ladder, time.Now().Add(25 * time.Hour), "is 25h0m0s away, more than 24h0m0s"},
			{"a search", "{vary: concurrency, from: 1, to: 8, slo: {ttft: {p95: 200ms}}}", ahead, `--start-at: scenario "chat"'s capacity is a search (from, to)`},
			{"too few requests", "{vary: concurrency, levels: [1, 2], max_requests: 100, slo: {ttft: {p95: 200ms}}}", ahead,
				`--start-at: scenario "chat": capacity.max_requests (100) ÷ its 2 levels leaves 49 requests a level beyond its warmup (1), fewer than requests_per_level (60)`},
		} {
			cfg := capacitySuite(t, srv, c.cfg)
			_, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), StartAt: c.start})
			if KindOf(err) != BadInput || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want %q", c.name, err, c.want)
			}
		}
		text := "endpoints:\n  - {name: e, base_url: " + srv.URL + "/v1, model: m}\n" +
			"scenarios:\n  - name: plain\n    prompt: hi\n    requests: 10\n  - name: chat\n    prompt: hi\n    capacity: " + ladder + "\n"
		cfg, err := suite.Parse("c.yaml", []byte(text), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Measure(context.Background(), cfg, MeasureOptions{Client: srv.Client(), StartAt: ahead}); KindOf(err) != BadInput ||
			!strings.Contains(err.Error(), `--start-at: scenario "plain" is measured at one load: a run started at a shared time measures capacity ladders only`) {
			t.Errorf("a scenario at one load: %v", err)
		}
		if served != 0 {
			t.Errorf("%d requests sent", served)
		}
	})
	now := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"+90s": "2025-06-01T10:01:30Z", "+5m": "2025-06-01T10:05:00Z", "2025-06-01T12:00:00+02:00": "2025-06-01T10:00:00Z",
		"+90": `--start-at "+90": a duration needs its unit: +90s`, "10:00": `--start-at "10:00": want an RFC 3339 time`, "+soon": `--start-at "+soon": want +DURATION`,
	} {
		got, err := ParseStartAt(in, now)
		if s := got.Format(time.RFC3339); err != nil && (KindOf(err) != BadInput || !strings.Contains(err.Error(), want)) || err == nil && s != want {
			t.Errorf("%s: %s, %v; want %s", in, s, err, want)
		}
	}
}

// An interruption while a leg waits for its window ends the wait at once:
// nothing was measured.
func TestStartAtInterrupted(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		cfg := capacitySuite(t, srv, "{vary: concurrency, levels: [1, 2], window: 40s, slo: {ttft: {p95: 200ms}}}")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(5*time.Second, cancel)
		began := time.Now()
		f, err := Measure(ctx, cfg, MeasureOptions{Client: srv.Client(), StartAt: time.Now().Add(time.Hour)})
		if KindOf(err) != CannotRun || time.Since(began) != 5*time.Second || f != nil && len(f.Runs) > 0 {
			t.Errorf("after %v: %v", time.Since(began), err)
		}
	})
}

// A merged ladder's level that its legs drove together for less than 90 %
// of its window is a warning of the run (shown in the report); one they
// drove together for 98 % of it is not.
func TestWindowWarning(t *testing.T) {
	t.Parallel()
	ms := func(v float64) *float64 { return &v }
	f := &results.File{Schema: results.Schema, MetricsVersion: results.MetricsVersion}
	for _, together := range []float64{25500, 59000} {
		f.Runs = append(f.Runs, results.Run{Endpoint: "e", Scenario: "chat", Shards: 4,
			Level: &results.Level{Vary: vocab.VaryConcurrency, Value: 8 * together / 25500, Step: len(f.Runs) + 1,
				Window: &results.Window{Start: time.Now(), Ms: 60000, SentFrom: time.Now(), TogetherMs: ms(together)}},
			Requests: []results.Request{{OK: true, Status: 200, TTFTMs: ms(100), TotalMs: ms(400), ITLMs: []float64{}}}})
	}
	w := RunWarnings(f)
	want := "chat @ e at concurrency 8: its 4 legs drove the level together for 26s of its 1m0s window (42 %): its load on the server was theirs together for that long only"
	if len(w) != 1 || !strings.HasPrefix(w[0], want) {
		t.Errorf("warnings %q, want one: %q", w, want)
	}
}

// In latgate ab, base and head take turns level by level, each level of
// each side in a window of its own, in the order they are measured.
func TestStartAtAB(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		ladder := "{vary: concurrency, levels: [1, 2], window: 30s, slo: {ttft: {p95: 200ms}}}"
		base, head := capacitySuite(t, srv, ladder), capacitySuite(t, srv, ladder)
		start := time.Now().Add(10 * time.Second)
		f, err := MeasureAB(context.Background(), base, head, MeasureOptions{Client: srv.Client(), StartAt: start})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range f.Runs {
			got = append(got, fmt.Sprintf("%s %g +%v", r.Variant, r.Level.Value, r.Level.Window.Start.Sub(start)))
		}
		if want := []string{"base 1 +0s", "head 1 +30s", "base 2 +1m0s", "head 2 +1m30s"}; !slices.Equal(got, want) {
			t.Errorf("windows %q, want %q", got, want)
		}
	})
}

// TestStartAtWindowTooShort: a ladder level whose window ends before it
// measured requests_per_level cannot be shown to hold (its first look is
// at requests_per_level), and the leg says so with the window its pace
// needs. Four legs of 1, 2 and 4 users in 20 s windows at 60 requests a
// level measured 30, 57 and 60 each; merged, 4 users (120 requests) and
// 8 users (226) with no request over TTFT p95 ≤ 150 ms read "undecided,
// within on its estimates (stopped early)", and nothing said why.
func TestStartAtWindowTooShort(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		srv := clocktest.NewServer(t, sim.New(engineProfile(8), 1))
		start := time.Now().Add(10 * time.Second).Truncate(time.Second)
		_, logs := legs(t, 1, srv, capacitySuite(t, srv, "{vary: concurrency, levels: [1, 4], window: 10s, slo: {ttft: {p95: 200ms}}}"), start, t.TempDir())
		m := regexp.MustCompile(`latgate: warning: capacity of chat @ e at 1: its window of 10s held (\d+) measured requests, fewer than requests_per_level \(60\), at which a ladder's level is first decided: it cannot be shown to hold, on this leg nor merged with legs like it; give it capacity.window of about (\d+)s\n`).FindStringSubmatch(logs[0])
		if m == nil {
			t.Fatalf("no warning of level 1's short window:\n%s", logs[0])
		}
		n, _ := strconv.Atoi(m[1])
		need, _ := strconv.Atoi(m[2])
		if n < 10 || n >= 60 || need < 10*60/n || need > 10*60/n+1 {
			t.Errorf("%d requests, a window of %ds asked: want under 60 and 10 s × 60 ÷ %d", n, need, n)
		}
		t.Log(m[0])
		if strings.Contains(logs[0], "at 4: its window") { // 4 users in 10 s measure more than 60
			t.Errorf("level 4 warned of though its window held requests_per_level:\n%s", logs[0])
		}
	})
}

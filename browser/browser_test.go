//go:build browser

// Tests of the driver in a real browser: Debian's chromium (make
// browser-test installs it with scripts/install-chromium.sh), never a
// mock; they skip, saying why, where no browser is found. The reference
// is the simulator's chat page (sim/chat/chat.js), which keeps stamps of
// its own: its click, each write of the answer with the frame that painted
// it (requestAnimationFrame + a post-frame message), its reader's first
// text delta.

package browser

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/latgate/latgate/sim"
)

// perf measures the figures of docs/performance.md with more requests
// (go test -tags browser ./browser -perf); make browser-test runs fewer.
var perf = flag.Bool("perf", false, "measure with the requests of docs/performance.md")

// browserPath finds the system browser, or skips the test.
func browserPath(t *testing.T) string {
	t.Helper()
	p, err := Find(OSEnv)
	if err != nil {
		t.Skipf("%v (make browser-test installs Debian's chromium)", err)
	}
	return p
}

// simChat serves the simulator with a fixed timing: TTFT, then tokens one
// gap apart, no tool steps.
func simChat(t *testing.T, ttft, itl time.Duration, tokens int) *httptest.Server {
	t.Helper()
	p, err := sim.Named("fast")
	if err != nil {
		t.Fatal(err)
	}
	p.ToolSteps, p.TTFT, p.ITL, p.Tokens = 0, sim.Fixed(ttft), sim.Fixed(itl), tokens
	srv := httptest.NewServer(sim.New(p, 1))
	t.Cleanup(srv.Close)
	return srv
}

// browserConfig is how the tests run the system browser: sandboxed,
// unless $LATGATE_BROWSER_NO_SANDBOX allows otherwise (make browser-test
// sets it as root, where the sandbox cannot run).
func browserConfig(t *testing.T) Config {
	t.Helper()
	path := browserPath(t)
	noSandbox, err := Sandbox(OSEnv)
	if err != nil {
		t.Fatal(err)
	}
	return Config{Path: path, NoSandbox: noSandbox}
}

// startBrowser starts one browser for the test, closed at its end.
func startBrowser(t *testing.T) *Browser {
	t.Helper()
	b, err := Start(context.Background(), browserConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// chatOptions drive the simulator's chat page at query.
func chatOptions(srv *httptest.Server, query string) Options {
	return Options{URL: srv.URL + "/chat?" + query, Input: "textarea", Submit: "button[type=submit]",
		Output: "[data-role=assistant]", Timeout: 20 * time.Second}
}

func openPage(t *testing.T, b *Browser, o Options) *Page {
	t.Helper()
	p, err := b.NewPage(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if err := p.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}

// chatStamps are the reference page's own stamps (page milliseconds).
type chatStamps struct {
	Clicks []float64
	Writes []struct {
		At, Painted float64
		Chars       int
	}
	FirstText []float64
}

// stampsOf reads the page's stamps from its main world.
func stampsOf(t *testing.T, p *Page) chatStamps {
	t.Helper()
	res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "JSON.stringify(window.__chatStamps)", ReturnByValue: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	var s string
	var st chatStamps
	if err := json.Unmarshal(res.Result.Value, &s); err != nil || json.Unmarshal([]byte(s), &st) != nil {
		t.Fatalf("the page's stamps: %s", res.Result.Value)
	}
	return st
}

// reference is the page's own TTFT, total and first text read, from its
// click (the first write with text, the last write; their painted
// frames).
func (s chatStamps) reference(t *testing.T) (ttft, total, firstText float64) {
	t.Helper()
	if len(s.Clicks) != 1 || len(s.Writes) == 0 || len(s.FirstText) != 1 {
		t.Fatalf("page stamps: %d clicks, %d writes, %d first texts", len(s.Clicks), len(s.Writes), len(s.FirstText))
	}
	ttft = math.NaN()
	for _, w := range s.Writes {
		if w.Chars > 0 && math.IsNaN(ttft) {
			ttft = w.Painted - s.Clicks[0]
		}
	}
	last := s.Writes[len(s.Writes)-1]
	return ttft, last.Painted - s.Clicks[0], s.FirstText[0] - s.Clicks[0]
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// quantile of xs (sorted copy), by the nearest rank.
func quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[max(0, min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1))]
}

func abs(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Abs(x)
	}
	return out
}

// measure runs n requests of one prompt and returns the driver's metrics
// with the page's stamps of each.
func measure(t *testing.T, p *Page, n int) ([]Metrics, []chatStamps) {
	t.Helper()
	var ms []Metrics
	var ss []chatStamps
	for i := range n {
		r := p.Request(context.Background(), []string{"Say something."})
		if !r.OK || len(r.Turns) != 1 {
			t.Fatalf("request %d: %s (%s) %v", i, r.Error, r.Failure, r.Console)
		}
		ms, ss = append(ms, r.Turns[0]), append(ss, stampsOf(t, p))
	}
	return ms, ss
}

// TestBrowserAccuracy: the driver's painted TTFT and total against the
// page's own stamps of the frames that painted its writes, within one
// frame (17 ms) at p50 and p95, for a page that appends each delta, one
// that writes once per animation frame (in its requestAnimationFrame
// callback: the frame that runs it paints it) and one that re-renders
// Markdown; and the answer stream's first text as the browser received it
// before the page's reader got it, within a few milliseconds (the clocks
// are paired right). Real clock: holds at load average 26–35 on 2 cores
// (5 of 5 runs, 2026-12-04); the driver's TTFT and total were within 0.4 ms
// of the page's at p95 (bound 17 ms), the page's read 0.15–0.25 ms after the
// wire's first text at p50 (bound 5 ms): both sides stamp the same frames,
// so load moves them together.
func TestBrowserAccuracy(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 150*time.Millisecond, 15*time.Millisecond, 24)
	n := 20 // a p95 of 20 is the 19th: within a frame still says the right frame
	if *perf {
		n = 30 // the figures of docs/performance.md
	}
	for _, render := range []string{"append", "frame", "markdown"} {
		p := openPage(t, b, chatOptions(srv, "render="+render))
		ms, ss := measure(t, p, n)
		var dTTFT, dTotal, dRead []float64
		for i, m := range ms {
			ttft, total, read := ss[i].reference(t)
			dTTFT = append(dTTFT, msOf(m.TTFT)-ttft)
			dTotal = append(dTotal, msOf(m.Total)-total)
			dRead = append(dRead, read-msOf(m.Stream.FirstText))
		}
		t.Logf("%s: TTFT − page's: p50 %+.2f p95 |%.2f| ms; total − page's: p50 %+.2f p95 |%.2f| ms; page's read − wire's first text: p50 %.2f p95 %.2f ms",
			render, quantile(dTTFT, .5), quantile(abs(dTTFT), .95), quantile(dTotal, .5), quantile(abs(dTotal), .95), quantile(dRead, .5), quantile(dRead, .95))
		for _, d := range []struct {
			what string
			xs   []float64
		}{{"TTFT", dTTFT}, {"total", dTotal}} {
			if p50, p95 := quantile(abs(d.xs), .5), quantile(abs(d.xs), .95); p50 > 17 || p95 > 17 {
				t.Errorf("%s: the driver's %s is off the page's by p50 %.1f, p95 %.1f ms: want within one frame (17 ms)", render, d.what, p50, p95)
			}
		}
		if lo, p50 := quantile(dRead, 0), quantile(dRead, .5); lo < -1 || p50 > 5 {
			t.Errorf("%s: the page read its first text %.2f ms (least) and %.2f ms (p50) after the wire's first text: want 0 to 5 ms (are the clocks paired?)", render, lo, p50)
		}
		p.Close()
	}
}

// TestBrowserCost: ?cost=40 (40 ms of main-thread work per update) shows
// in the client stage: its median exceeds the light page's by the work,
// 30 to 70 ms on loaded cores (40 ± 10 with -perf),
// and in the longest frame (40 ms or more, longer than the light page's). The deltas come 80 ms apart, so
// that the page is idle when the first one comes: a page busier than its
// stream (deltas closer than its work) paints later still, when Chrome
// runs the waiting network reads before the frame. Real clock: holds at load
// average 17–35 on 2 cores (2026-12-04): the difference measured 35.0–40.8
// ms in 5 runs at 26–35 and 55.3 ms in CI's rehearsal beside a CPU hog at
// 17–20 (the work spins on the page's clock, so load does not shorten it,
// but a renderer preempted before its paint paints later), the longest
// frame 57–82 ms with it and 18–37 ms without.
func TestBrowserCost(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 150*time.Millisecond, 80*time.Millisecond, 6)
	const n = 20
	client, longestP50 := map[string]float64{}, map[string]float64{}
	for _, q := range []string{"cost=0", "cost=40"} {
		ms, _ := measure(t, openPage(t, b, chatOptions(srv, q)), n)
		var c, longest []float64
		for _, m := range ms {
			c, longest = append(c, msOf(m.Client)), append(longest, msOf(m.MaxFrame))
		}
		client[q] = quantile(c, .5)
		t.Logf("%s: client p50 %.1f ms, p95 %.1f ms; longest frame p50 %.1f ms", q, client[q], quantile(c, .95), quantile(longest, .5))
		longestP50[q] = quantile(longest, .5)
	}
	// 40 ms of work between two paints makes a frame of 40 ms or more
	// whatever the machine; without it the longest frame is shorter (on
	// an idle machine a frame or two: 18.5 ms; loaded cores lengthen it).
	if lf, light := longestP50["cost=40"], longestP50["cost=0"]; lf < 40 || light >= lf {
		t.Errorf("the longest frame at p50: %.1f ms with 40 ms of work per update, %.1f ms without: want 40 ms or more with it, less without", lf, light)
	}
	// Load cannot shorten the work (it spins on the page's clock), but a
	// renderer that loses its core between the work and the paint paints
	// later: on loaded cores the difference may exceed 40 ms by a
	// scheduler's slices, never fall below it by more than a frame's
	// rounding. A driver counting the work twice (80 ms) or not at all
	// (0) fails either way; -perf asks for the idle figure, 40 ± 10.
	lo, hi := 30.0, 70.0
	if *perf {
		hi = 50
	}
	if d := client["cost=40"] - client["cost=0"]; d < lo || d > hi {
		t.Errorf("client stage with cost=40 − without: %.1f ms, want %.0f to %.0f (the 40 ms of work)", d, lo, hi)
	}
}

// TestBrowserBuffered: a page that shows nothing until its stream ended
// is buffered, its TTFT after the stream's end; a streaming page is not.
// Real clock: it compares the order of times, which load does not change,
// and holds at load average 26–35 on 2 cores (5 of 5 runs, 2026-12-04).
func TestBrowserBuffered(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 100*time.Millisecond, 15*time.Millisecond, 20)
	for _, c := range []struct {
		render   string
		buffered bool
	}{{"buffered", true}, {"append", false}} {
		ms, _ := measure(t, openPage(t, b, chatOptions(srv, "render="+c.render)), 3)
		for _, m := range ms {
			if m.Buffered != c.buffered || (c.buffered && (m.TTFT < m.Stream.End || len(m.Paints) != 1)) {
				t.Errorf("%s: buffered %v, TTFT %v, stream end %v, %d paints", c.render, m.Buffered, m.TTFT, m.Stream.End, len(m.Paints))
			}
		}
	}
}

// TestBrowserTurns: the next message is typed into the same conversation:
// each turn's answer is the new assistant message, measured from its own
// click; the request resets (reloads) before the next. Real clock: TTFT at
// least the simulator's 100 ms, a bound load cannot break; holds at load
// average 26–35 on 2 cores (5 of 5 runs, 2026-12-04).
func TestBrowserTurns(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 100*time.Millisecond, 10*time.Millisecond, 12)
	o := chatOptions(srv, "")
	o.Done = "[data-status=ready]"
	p := openPage(t, b, o)
	for range 2 {
		r := p.Request(context.Background(), []string{"First?", "And then?"})
		if !r.OK || len(r.Turns) != 2 {
			t.Fatalf("%s (%s)", r.Error, r.Failure)
		}
		st := stampsOf(t, p)
		if len(st.Clicks) != 2 || len(st.FirstText) != 2 {
			t.Fatalf("the page saw %d clicks and %d answers, want 2 of each (one conversation)", len(st.Clicks), len(st.FirstText))
		}
		for i, m := range r.Turns {
			if m.TTFT < 100*time.Millisecond || m.Paints[0].Chars > 20 || m.PaintedChars < 30 {
				t.Errorf("turn %d: TTFT %v, first paint %d chars, %d painted: want the new answer from its own click", i+1, m.TTFT, m.Paints[0].Chars, m.PaintedChars)
			}
		}
	}
}

// TestBrowserThrottleViewport: viewport sets the page's size, and
// cpu_throttle slows its work: a fixed loop timed at rates 4 and 1 in turn
// (interleaved, so that the machine's own load falls on both).
func TestBrowserThrottleViewport(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 50*time.Millisecond, 5*time.Millisecond, 4)
	o := chatOptions(srv, "")
	o.CPUThrottle, o.Viewport = 4, Viewport{Width: 390, Height: 844}
	p := openPage(t, b, o)
	eval := func(expr string) []float64 {
		res, err := chromedp.Call(p.ctx, runtime.Evaluate, runtime.EvaluateParams{ReturnByValue: ptr(true), Expression: expr})
		if err != nil {
			t.Fatal(err)
		}
		var v []float64
		if err := json.Unmarshal(res.Result.Value, &v); err != nil {
			t.Fatalf("%s: %v", res.Result.Value, err)
		}
		return v
	}
	if v := eval("[innerWidth, innerHeight]"); v[0] != 390 || v[1] != 844 {
		t.Errorf("viewport %v, want 390×844", v)
	}
	const loop = "(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 1e7; i++) x += i % 7; return [performance.now() - t, x]; })()"
	eval(loop) // compiled
	work := map[float64][]float64{}
	for range 5 {
		for _, rate := range []float64{4, 1} {
			if _, err := chromedp.Call(p.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
				t.Fatal(err)
			}
			work[rate] = append(work[rate], eval(loop)[0])
		}
	}
	slow, fast := quantile(work[4], .5), quantile(work[1], .5)
	t.Logf("a fixed loop: %.1f ms unthrottled, %.1f ms at cpu_throttle 4 (medians of 5)", fast, slow)
	// 3.5–4× on an idle machine; at a load average of 20–35 on 2 cores
	// the unthrottled loop waits for the CPU too, and the ratio measured
	// 1.4–1.8×: the test holds there, and -perf asks for the idle figure.
	// At load average 26–35 on 2 cores on 2026-12-04 it measured 3.4–4.9×
	// (5 of 5 runs).
	want := 1.3
	if *perf {
		want = 2.5
	}
	if slow < want*fast {
		t.Errorf("cpu_throttle 4 made the page's work %.1f× slower, want at least %.1f× (about 4× on an idle machine)", slow/fast, want)
	}
}

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
	"os"
	"slices"
	"strings"
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
// in the client stage and in the longest frame. The deltas come 80 ms
// apart, so that the page is idle when the first one comes: a page busier
// than its stream (deltas closer than its work) paints later still, when
// Chrome runs the waiting network reads before the frame. The two pages
// are measured in turn, request by request, so that a load on the machine
// falls on both alike, and each request against the page's own stamps.
// The bounds ask nothing of the load: the work spins 40 ms on the page's
// clock between its reader's first text (after the wire's) and the frame
// that paints it, so every client stage of the heavy page is 40 ms or
// more, and a frame that holds it is 40 ms or longer, at any load; and the
// driver's client stage is the page's own (its first painted write less
// its reader's first text) within a frame at p50, since both stamp the
// same frame (a driver counting the work twice is 40 ms off, one counting
// none under 40). A loaded renderer preempted before its paint paints
// later, which moves both alike: the difference between the two pages'
// client stages, 40 ± 10 ms on an idle machine, was 55.3 ms beside a CPU
// hog at load average 17–20, which the old bound of 30–70 ms could not
// hold for long; and the light page's longest frame, shorter than the
// heavy one's on an idle machine, was 73 against 83 ms at p50 at load 37
// (-perf asks for both idle figures). Real clock: holds at load average
// 27–34 on 2 cores (6 of 6 runs beside a CPU hog, 2026-12-07: the
// driver within 0.5 ms of the page's own at p50, the heavy page's least
// client stage 44.2 ms).
func TestBrowserCost(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 150*time.Millisecond, 80*time.Millisecond, 6)
	const n = 20
	queries := []string{"cost=0", "cost=40"}
	pages := map[string]*Page{}
	for _, q := range queries {
		pages[q] = openPage(t, b, chatOptions(srv, q))
	}
	client, page, longest := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	for range n {
		for _, q := range queries {
			ms, ss := measure(t, pages[q], 1)
			m, st := ms[0], ss[0]
			painted := math.NaN() // the page's first write with text, painted
			for _, w := range st.Writes {
				if w.Chars > 0 {
					painted = w.Painted
					break
				}
			}
			client[q] = append(client[q], msOf(m.Client))
			page[q] = append(page[q], painted-st.FirstText[0])
			longest[q] = append(longest[q], msOf(m.MaxFrame))
		}
	}
	for _, q := range queries {
		var d []float64
		for i := range client[q] {
			d = append(d, client[q][i]-page[q][i])
		}
		t.Logf("%s: client p50 %.1f ms (least %.1f, p95 %.1f), the page's own p50 %.1f, driver − page's p50 %+.2f ms; longest frame p50 %.1f ms (load average %s)",
			q, quantile(client[q], .5), quantile(client[q], 0), quantile(client[q], .95), quantile(page[q], .5), quantile(d, .5), quantile(longest[q], .5), loadAverage())
		if p50 := quantile(abs(d), .5); p50 > 17 {
			t.Errorf("%s: the driver's client stage is off the page's own by %.1f ms at p50: want within one frame (17 ms)", q, p50)
		}
	}
	if least := quantile(client["cost=40"], 0); least < 39 { // the spin; 1 ms for the rounding to whole ms
		t.Errorf("the client stage with 40 ms of work per update: %.1f ms at least, want 40 ms or more (the work)", least)
	}
	lf, light := quantile(longest["cost=40"], .5), quantile(longest["cost=0"], .5)
	if lf < 40 {
		t.Errorf("the longest frame at p50: %.1f ms with 40 ms of work per update: want 40 ms or more (the work)", lf)
	}
	if *perf { // an idle machine's figures: on loaded cores the light page's frames run long too (73 ms at p50 at load average 37)
		if d := quantile(client["cost=40"], .5) - quantile(client["cost=0"], .5); d < 30 || d > 50 {
			t.Errorf("client stage with cost=40 − without: %.1f ms, want 40 ± 10 (the work) on an idle machine", d)
		}
		if light >= lf {
			t.Errorf("the longest frame at p50: %.1f ms without the work, %.1f ms with it: want less without", light, lf)
		}
	}
}

// loadAverage is the machine's load average over the last minute.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(b))[0]
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
// cpu_throttle slows its work: a fixed loop timed at rates 1, 4 and 1 in
// turn, 40 times. Throttling 4× slows the loop 3.5–4× on an idle machine,
// but on loaded cores the unthrottled loop waits for the CPU too, and
// Chrome's throttler (a thread that suspends the renderer's, itself
// waiting for the CPU) loses its grip: 1.5–2× at p50 at load average
// 31–35, with single runs from 0.7× to 4.6× as the scheduler preempts one
// or another, so neither a fixed ratio nor a t-test on the ratios holds
// (t = 2.1 to 4.3 in three runs of 15). What does, whatever the load's
// tails: in how many triples the throttled run is the slowest of its
// three. Were cpu_throttle without effect the three runs would be alike,
// each the slowest of a triple one time in three (a drift in the load
// makes the middle run the slowest less often still), and 24 or more of
// 40 would come once in 2,000 (binomial, 1/3); at load average 27–31 it
// was 20 and 25 of 30, which 24 of 40 holds (99 % of runs at 3 in 4). -perf asks for the idle
// ratio, 2.5× or more. Real clock: holds at load average 30–31 on 2 cores
// (3 of 3 runs beside a CPU hog, 2026-12-07: 34, 37 and 40 of 40).
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
	const loop = "(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 2e7; i++) x += i % 7; return [performance.now() - t, x]; })()"
	eval(loop) // compiled
	const triples, enough = 40, 24
	var logs, ratios, fast []float64
	slowest := 0 // triples whose throttled run is the slowest of the three
	for range triples {
		var w [3]float64
		for i, rate := range []float64{1, 4, 1} {
			if _, err := chromedp.Call(p.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
				t.Fatal(err)
			}
			w[i] = eval(loop)[0]
		}
		if w[1] > w[0] && w[1] > w[2] {
			slowest++
		}
		r := 2 * w[1] / (w[0] + w[2])
		logs, ratios, fast = append(logs, math.Log(r)), append(ratios, r), append(fast, w[0], w[2])
	}
	mean, sd := meanSD(logs)
	ratio := quantile(ratios, .5)
	t.Logf("a fixed loop: %.1f ms unthrottled (p50), %.2f× at cpu_throttle 4 (p50 of %d, least %.2f; mean log ratio %.2f ± %.2f), the slowest of its triple %d times of %d (load average %s)",
		quantile(fast, .5), ratio, triples, quantile(ratios, 0), mean, sd, slowest, triples, loadAverage())
	if slowest < enough {
		t.Errorf("cpu_throttle 4: the throttled run was the slowest of its triple %d times of %d (%.2f× at p50), want %d or more (%d by chance were it without effect)", slowest, triples, ratio, enough, triples/3)
	}
	if *perf && ratio < 2.5 {
		t.Errorf("cpu_throttle 4 made the page's work %.2f× slower, want at least 2.5× on an idle machine (about 4×)", ratio)
	}
}

// meanSD is the mean and the sample standard deviation of xs.
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

//go:build browser

package browser

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestE2EBrowser measures a real frontend (make e2e-browser starts it): a
// chat page on the AI SDK's useChat with marked and highlight.js, served
// by the AI SDK route with its mock model, in two builds — base renders
// the answer's Markdown in memoized blocks, head the whole Markdown of
// every message on every token (with highlight.js guessing the language
// of a block that names none). Each request is a conversation of two
// turns, each answered with a long Markdown document (about 7,400
// characters in deltas of a few words, 10 ms apart, after 300 ms). Head's
// renderer shows in its client stage: a little at the first token on this
// CPU (on turn 2 it re-renders turn 1's whole answer), much in its last
// paint, which lags its stream's end (client_end_ms), and in its long
// frames.
// Real clock: the head's client stage and last paints against the base's
// hold at load average 22–24 on 2 cores (beside a CPU hog, 2026-12-04;
// at 21 on 2026-12-07 the head's last paint on turn 1 was 2.0× the
// base's, measured one build after the other: the builds now take turns,
// and at 20.7 they held in 2 of 2 runs, the head's last paints 2.0–3.1×
// and 5.8–7.0× the base's on turns 1 and 2);
// the light page's own first paint and the long frames' count only on a
// quiet machine (-perf).
func TestE2EBrowser(t *testing.T) {
	site := os.Getenv("LATGATE_E2E_BROWSER_URL")
	if site == "" {
		t.Skip("needs the frontend and its AI SDK route: make e2e-browser")
	}
	b := startBrowser(t)
	const n = 8
	type figures struct{ client1, client2, end1, end2, long2, ttft1 []float64 }
	builds := []string{"base", "head"}
	got, pages := map[string]*figures{}, map[string]*Page{}
	for _, build := range builds {
		o := Options{URL: site + "/" + build + "/?answer=markdown&delay_ms=300&chunk_ms=10", Input: "textarea",
			Submit: "button[type=submit]", Output: "[data-role=assistant]", Done: "[data-status=ready]", Timeout: time.Minute}
		pages[build], got[build] = openPage(t, b, o), &figures{}
	}
	// The builds in turn, request by request, so that a load on the
	// machine falls on both alike.
	for i := range n {
		for _, build := range builds {
			f := got[build]
			r := pages[build].Request(context.Background(), []string{"Write the long answer.", "Once more, please."})
			if !r.OK || len(r.Turns) != 2 {
				t.Fatalf("%s, request %d: %s (%s) %v", build, i, r.Error, r.Failure, r.Console)
			}
			t1, t2 := r.Turns[0], r.Turns[1]
			if t1.PaintedChars < 5000 || t1.Buffered || !t1.Stream.Found {
				t.Fatalf("%s: turn 1 painted %d characters, buffered %v, stream %+v: want the long answer, streamed", build, t1.PaintedChars, t1.Buffered, t1.Stream)
			}
			f.ttft1 = append(f.ttft1, msOf(t1.TTFT))
			f.client1, f.client2 = append(f.client1, msOf(t1.Client)), append(f.client2, msOf(t2.Client))
			f.end1, f.end2 = append(f.end1, msOf(t1.ClientEnd)), append(f.end2, msOf(t2.ClientEnd))
			f.long2 = append(f.long2, float64(t2.LongFrames))
		}
	}
	for _, build := range builds {
		f := got[build]
		both := append(append([]float64(nil), f.client1...), f.client2...)
		t.Logf("%s: TTFT p50 %.0f ms; client p50 turn 1 %.1f, turn 2 %.1f ms (both: p50 %.1f, p95 %.1f); client_end p50 %.0f, %.0f ms; long frames on turn 2 p50 %.0f (load average %s)",
			build, quantile(f.ttft1, .5), quantile(f.client1, .5), quantile(f.client2, .5), quantile(both, .5), quantile(both, .95),
			quantile(f.end1, .5), quantile(f.end2, .5), quantile(f.long2, .5), loadAverage())
		pages[build].Close()
	}
	base, head := got["base"], got["head"]
	// A light page's first paint within a few frames is a quiet machine's
	// figure (-perf): at load average 24 on 2 cores its frames ran late,
	// 67 ms at p50 (40 at 22).
	if c := quantile(base.client1, .5); *perf && c > 50 {
		t.Errorf("base: client stage %.1f ms at p50 on turn 1: a light page paints its first token within a few frames", c)
	}
	// On this CPU the first token is cheap to render in both builds: the
	// client stage of both turns together is larger at p50 by a few
	// milliseconds; the head's cost shows in its last paints, well after
	// its stream's end, and in its long frames. (At cpu_throttle 4 it shows
	// at the first token too: gate's TestE2EBrowserAB.)
	bc, hc := append(base.client1, base.client2...), append(head.client1, head.client2...)
	if h, bb := quantile(hc, .5), quantile(bc, .5); h <= bb {
		t.Errorf("client stage p50: head %.1f ms, base %.1f ms: a head that re-renders the whole Markdown on every token must show more", h, bb)
	}
	for _, e := range []struct {
		turn     int
		bse, hed []float64
	}{{1, base.end1, head.end1}, {2, base.end2, head.end2}} {
		// Half as much again as the base's and 10 ms more: the head's lag
		// scales with the CPU (14 → 68 ms on an idle machine, 8.5 → 38 on
		// turn 1 on a faster CI machine), but a loaded machine delays the
		// base's last paint too (41 against 82 ms on turn 1, 14 against
		// 79 on turn 2, at load average 21 with the builds measured one
		// after the other); a driver that stops at the stream's end reads
		// both alike. -perf asks for twice the base's.
		want := 1.5
		if *perf {
			want = 2
		}
		if h, bb := quantile(e.hed, .5), quantile(e.bse, .5); h < want*bb || h < bb+10 {
			t.Errorf("turn %d's client_end: head %.1f ms, base %.1f ms at p50: want head's last paint well after its stream's end (%g× the base's and 10 ms more)", e.turn, h, bb, want)
		}
	}
	// The count of long frames needs a quiet machine: on loaded cores the
	// light page's frames run long too and the heavy page's, longer still,
	// are fewer (seen at load average 22 on 2 cores: base 54, head 22 at
	// p50, while the client stage and the last paints above told the two
	// apart as ever), so it is asked for with -perf only.
	if h, bb := quantile(head.long2, .5), quantile(base.long2, .5); *perf && h <= bb {
		t.Errorf("long frames on turn 2: head %.0f, base %.0f at p50: want more in the head", h, bb)
	}
}

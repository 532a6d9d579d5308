//go:build browser

package browser

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/jpeg"
	"testing"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// TestBrowserShots: with Options.Shots a request keeps a screenshot at
// its first paint (after the painted TTFT, the answer on it) and one at
// its end (after its last paint), small JPEGs of the viewport; and what
// they cost: the request's time in the driver and the painted total and
// gaps of requests with and without them (logged, the figures of
// docs/performance.md; the total within a frame).
func TestBrowserShots(t *testing.T) {
	b := startBrowser(t)
	srv := simChat(t, 150*time.Millisecond, 15*time.Millisecond, 40)
	n := 8 // make browser-test: the shots and the total within a frame
	if *perf {
		n = 20 // the cost figures of docs/performance.md
	}
	wall, total, gap := map[bool][]float64{}, map[bool][]float64{}, map[bool][]float64{}
	sizes := []float64{}
	var late time.Duration // the most a screenshot came after what it follows
	// One page with screenshots and one without, their requests in turn,
	// so that the machine's own load falls on both alike.
	pages := map[bool]*Page{}
	for _, shots := range []bool{false, true} {
		o := chatOptions(srv, "render=markdown")
		o.Shots = shots
		pages[shots] = openPage(t, b, o)
	}
	for i := range n {
		for _, shots := range []bool{false, true} {
			start := time.Now()
			r := pages[shots].Request(context.Background(), []string{"Say something."})
			wall[shots] = append(wall[shots], msOf(time.Since(start)))
			if !r.OK {
				t.Fatalf("request %d: %s", i, r.Error)
			}
			m := r.Turns[0]
			total[shots] = append(total[shots], msOf(m.Total))
			for _, g := range m.ITL() {
				gap[shots] = append(gap[shots], msOf(g))
			}
			if !shots {
				if r.FirstPaint != nil || r.End != nil {
					t.Fatalf("request %d without Shots has screenshots", i)
				}
				continue
			}
			for _, s := range []struct {
				name  string
				shot  *Shot
				after time.Duration
			}{{"first paint", r.FirstPaint, m.TTFT}, {"end", r.End, m.Total}} {
				if s.shot == nil {
					t.Fatalf("request %d: no screenshot at its %s", i, s.name)
				}
				checkJPEG(t, s.name, s.shot.JPEG)
				if s.shot.At < s.after || s.shot.At > s.after+2*time.Second {
					t.Errorf("request %d: the %s screenshot at %v, want after %v (and soon)", i, s.name, s.shot.At, s.after)
				}
				sizes = append(sizes, float64(len(s.shot.JPEG)))
				late = max(late, s.shot.At-s.after)
			}
		}
	}
	for _, p := range pages {
		p.Close()
	}
	t.Logf("screenshot: p50 %.1f KB, max %.1f KB, at most %v after its paint", quantile(sizes, .5)/1024, quantile(sizes, 1)/1024, late.Round(time.Millisecond))
	for _, shots := range []bool{false, true} {
		t.Logf("shots %v: request in the driver p50 %.0f ms; painted total p50 %.1f ms, p95 %.1f; paint gaps p50 %.1f, p95 %.1f ms",
			shots, quantile(wall[shots], .5), quantile(total[shots], .5), quantile(total[shots], .95), quantile(gap[shots], .5), quantile(gap[shots], .95))
	}
	// The first-paint screenshot is taken while the answer streams: it
	// must not move what is measured after it by a frame (17 ms, -perf:
	// on a quiet machine). At a load average of 20 on 2 cores a frame is
	// late by tens of ms on either page, so the test asks for 3 frames.
	// Real clock: holds at load average 26–35 on 2 cores (5 of 5 runs,
	// 2026-12-04): the p50 moved by −2.6 to +3.1 ms, and a screenshot came
	// at most 542 ms after what it follows (3 runs that logged it;
	// bound 2 s).
	limit := 50.0
	if *perf {
		limit = 17
	}
	if d := quantile(total[true], .5) - quantile(total[false], .5); d > limit || d < -limit {
		t.Errorf("the painted total's p50 moved %+.1f ms with screenshots: want within %.0f ms", d, limit)
	}
}

// checkJPEG: b is a JPEG of the viewport within the bounds, one a
// results file takes (a baseline JPEG of one scan, checked by its markers).
func checkJPEG(t *testing.T, name string, b []byte) {
	t.Helper()
	if len(b) > MaxShotBytes {
		t.Errorf("%s: %d bytes, over %d", name, len(b), MaxShotBytes)
	}
	q := results.Request{Screenshots: []results.Screenshot{{At: vocab.End, JPEG: base64.StdEncoding.EncodeToString(b)}}}
	if err := q.Check(); err != nil {
		t.Errorf("%s: a results file refuses it: %v", name, err)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: not a JPEG: %v", name, err)
	}
	// The default viewport, 1280×800, scaled to 480 wide.
	if s := img.Bounds().Size(); s.X != ShotSide || s.Y != 300 {
		t.Errorf("%s: %v, want 480×300", name, s)
	}
}

package gate

import (
	"slices"
	"testing"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/probe"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// TestPageBoundsAgree: what latgate writes of a page fits what a results
// file may hold, and the API whose runs may hold screenshots is the
// browser's.
func TestPageBoundsAgree(t *testing.T) {
	if browser.MaxShotBytes > results.MaxScreenshotBytes || browser.ShotSide > results.MaxScreenshotSide || probe.MaxTimeline > results.MaxTimelinePoints {
		t.Errorf("the browser writes screenshots of %d bytes and %d px a side, timelines of %d points; a results file holds %d, %d, %d",
			browser.MaxShotBytes, browser.ShotSide, probe.MaxTimeline, results.MaxScreenshotBytes, results.MaxScreenshotSide, results.MaxTimelinePoints)
	}
	if string(probe.Browser) != results.BrowserAPI {
		t.Errorf("the browser's API is %q; a results file takes screenshots on %q's runs", probe.Browser, results.BrowserAPI)
	}
}

// TestKeepShown: a page record's timeline and screenshots in their file
// form; after the run only the median and p95 request by TTFT keep
// theirs, and the first three failures their screenshot.
func TestKeepShown(t *testing.T) {
	const ms = time.Millisecond
	var run results.Run
	for i := range 20 {
		rec := probe.Record{OK: true, TTFT: time.Duration(100+10*i) * ms, Total: time.Second, Page: &probe.PageRecord{MaxFrame: 16 * ms,
			Painted:  []probe.PagePoint{{At: 110 * ms, N: 4}, {At: 130 * ms, N: 9}},
			Received: []probe.PagePoint{{At: 100 * ms, N: 30}}},
			Shots: []probe.PageShot{{Kind: vocab.FirstPaint, At: 140 * ms, JPEG: []byte{0xff, 0xd8}}, {Kind: vocab.End, At: time.Second, JPEG: []byte{1}}}}
		if i%4 == 3 {
			rec = probe.Record{Error: "input matched nothing", Failure: vocab.Page, Shots: []probe.PageShot{{Kind: vocab.AtFailure, At: probe.Missing, JPEG: []byte{2}}}}
		}
		run.Requests = append(run.Requests, requestOf(rec))
	}
	q := run.Requests[0]
	if tl := q.PageTimeline; tl == nil || !slices.Equal(tl.Painted, [][2]float64{{110, 4}, {130, 9}}) || !slices.Equal(tl.Received, [][2]float64{{100, 30}}) {
		t.Fatalf("timeline %+v", q.PageTimeline)
	}
	if len(q.Screenshots) != 2 || q.Screenshots[0].At != vocab.FirstPaint || *q.Screenshots[0].Ms != 140 || q.Screenshots[0].JPEG != "/9g=" {
		t.Fatalf("screenshots %+v", q.Screenshots)
	}
	if f := run.Requests[3].Screenshots; len(f) != 1 || f[0].Ms != nil || f[0].JPEG != "Ag==" {
		t.Fatalf("the failure's screenshot %+v", f)
	}
	shown := report.PageShown(run.Requests)
	keepShown(&run)
	fails := 0
	for i, q := range run.Requests {
		kept := q.PageTimeline != nil || len(q.Screenshots) > 0
		switch {
		case !q.OK && kept:
			fails++
		case slices.Contains(shown, i) != kept:
			t.Errorf("request %d (TTFT %v): kept %v, shown %v", i, *q.TTFTMs, kept, shown)
		}
	}
	// 15 ok requests, TTFT 100 to 280 ms: the median (190 ms) and the one
	// nearest the p95 (273 ms).
	if len(shown) != 2 || *run.Requests[shown[0]].TTFTMs != 190 || *run.Requests[shown[1]].TTFTMs != 270 || fails != report.MaxFailureShots {
		t.Errorf("shown %v, %d failures' screenshots kept", shown, fails)
	}
}

// TestPageScreenshots: a page's screenshots are taken unless its suite
// says screenshots: false (they show whatever the page shows).
func TestPageScreenshots(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		key  string
		want bool
	}{{"", true}, {", screenshots: true", true}, {", screenshots: false", false}} {
		cfg, err := suite.Parse("page.yaml", []byte("endpoints:\n  - {name: web, api: browser, url: http://127.0.0.1:3000/, browser: {input: a, submit: b, output: c"+tt.key+"}}\nscenarios:\n  - {name: s, prompt: hi}\n"), suite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if o := pageOf(cfg.Endpoints[0]); o == nil || o.Shots != tt.want {
			t.Errorf("browser {…%s}: options %+v, want Shots %v", tt.key, o, tt.want)
		}
	}
}

package probe

import (
	"slices"
	"testing"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/vocab"
)

// TestPageRecord: a two-turn conversation on a page as a record: the
// first turn's painted TTFT, the last paint of the last turn from the
// first click, one step per turn, the answer's stream and client stage,
// the reader model on the painted characters (four to a token).
func TestPageRecord(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	stream := browser.StreamMetrics{Found: true, Status: 200, TTFB: 20 * ms, FirstText: 290 * ms, End: 500 * ms, Connect: 2 * ms,
		Received: []browser.Arrival{{At: 290 * ms, Bytes: 60}, {At: 500 * ms, Bytes: 90}}}
	turn := func(ttft time.Duration, paints ...browser.Paint) browser.Metrics {
		return browser.Metrics{TTFT: ttft, Total: paints[len(paints)-1].At, Paints: paints, PaintedChars: paints[len(paints)-1].Chars,
			LongFrames: 1, MaxFrame: 60 * ms, Stream: stream, Client: ttft - stream.FirstText, ClientEnd: paints[len(paints)-1].At - stream.End}
	}
	res := browser.Result{OK: true, Starts: []time.Duration{0, 2 * time.Second},
		FirstPaint: &browser.Shot{At: 330 * ms, JPEG: []byte("first")}, End: &browser.Shot{At: 3 * time.Second, JPEG: []byte("end")},
		Turns: []browser.Metrics{turn(300*ms, browser.Paint{At: 300 * ms, Chars: 40}, browser.Paint{At: 520 * ms, Chars: 80}),
			turn(310*ms, browser.Paint{At: 310 * ms, Chars: 20}, browser.Paint{At: 400 * ms, Chars: 24})}}
	rec := pageRecord(res, 2, 10)
	if !rec.OK || rec.TTFT != 300*ms || rec.TTFC != 300*ms || rec.TTFB != 20*ms || rec.Connect != 2*ms || rec.Reused ||
		rec.Total != 2400*ms || rec.Status != 200 || rec.OutputTokens != 4 || rec.TokensSource != "events" {
		t.Errorf("record %+v", rec)
	}
	if len(rec.ITL) != 2 || rec.ITL[0] != 220*ms || rec.ITL[1] != 90*ms {
		t.Errorf("paint gaps %v, want [220ms 90ms] (within turns)", rec.ITL)
	}
	// The page record is the answer's: the last turn's, from the first
	// click (2 s).
	p := rec.Page
	if p == nil || p.Client != 20*ms || p.ClientEnd != -100*ms || p.StreamTTFB != 2020*ms || p.FirstText != 2290*ms || p.StreamEnd != 2500*ms ||
		p.LongFrames != 2 || p.MaxFrame != 60*ms || p.PaintedChars != 24 {
		t.Errorf("page record %+v", p)
	}
	// The timelines of both turns, from the first click.
	wantPainted := []PagePoint{{300 * ms, 40}, {520 * ms, 80}, {2310 * ms, 20}, {2400 * ms, 24}}
	wantReceived := []PagePoint{{290 * ms, 60}, {500 * ms, 90}, {2290 * ms, 60}, {2500 * ms, 90}}
	if p == nil || !slices.Equal(p.Painted, wantPainted) || !slices.Equal(p.Received, wantReceived) {
		t.Errorf("timelines %+v %+v, want %v %v", p.Painted, p.Received, wantPainted, wantReceived)
	}
	if len(rec.Shots) != 2 || rec.Shots[0].Kind != vocab.FirstPaint || rec.Shots[0].At != 330*ms || string(rec.Shots[0].JPEG) != "first" ||
		rec.Shots[1].Kind != vocab.End || rec.Shots[1].At != 3*time.Second || string(rec.Shots[1].JPEG) != "end" {
		t.Errorf("shots %+v", rec.Shots)
	}
	s := rec.Session
	if s == nil || len(s.Steps) != 2 || s.Steps[1].Start != 2*time.Second || s.Steps[1].TTFT != 310*ms || s.Answer != 2310*ms || s.End != EndAnswer {
		t.Errorf("session %+v", s)
	}
	// 104 characters, 26 tokens at 10 a second: the reader starts at 300
	// ms and is never ahead of the paints.
	if rec.Perceived < rec.TTFT || rec.Perceived > rec.Total {
		t.Errorf("perceived %v, want between ttft %v and total %v", rec.Perceived, rec.TTFT, rec.Total)
	}
	failed := pageRecord(browser.Result{Error: `output ".a" matched nothing within 3s`, Failure: vocab.Page, Console: []string{"uncaught Error: boom"},
		Screenshot: []byte("shot")}, 1, 10)
	if failed.OK || failed.Failure != vocab.Page || failed.Error != `output ".a" matched nothing within 3s (the page: uncaught Error: boom)` ||
		failed.TTFT != Missing || failed.Page != nil || failed.Session != nil {
		t.Errorf("failed record %+v", failed)
	}
	if len(failed.Shots) != 1 || failed.Shots[0].Kind != vocab.AtFailure || failed.Shots[0].At != Missing || string(failed.Shots[0].JPEG) != "shot" {
		t.Errorf("the failed record's screenshot %+v", failed.Shots)
	}
	if pageRecord(res, 1, 10).Session != nil {
		t.Error("one turn is no session")
	}
}

// TestDownsample: a timeline of more than n points keeps n, evenly by
// their order, its first and last among them; a shorter one is kept.
func TestDownsample(t *testing.T) {
	t.Parallel()
	var pts []PagePoint
	for i := range 1000 {
		pts = append(pts, PagePoint{At: time.Duration(i) * time.Millisecond, N: i})
	}
	got := downsample(pts, MaxTimeline)
	if len(got) != MaxTimeline || got[0] != pts[0] || got[len(got)-1] != pts[999] {
		t.Fatalf("%d points from %v to %v", len(got), got[0], got[len(got)-1])
	}
	for i := 1; i < len(got); i++ {
		if d := got[i].N - got[i-1].N; d < 4 || d > 6 {
			t.Fatalf("points %d and %d are %d apart, want about 1000/200", i-1, i, d)
		}
	}
	if short := downsample(pts[:50], MaxTimeline); len(short) != 50 {
		t.Errorf("50 points became %d", len(short))
	}
}

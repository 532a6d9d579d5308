package probe

import (
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
	stream := browser.StreamMetrics{Found: true, Status: 200, TTFB: 20 * ms, FirstText: 290 * ms, End: 500 * ms, Connect: 2 * ms}
	turn := func(ttft time.Duration, paints ...browser.Paint) browser.Metrics {
		return browser.Metrics{TTFT: ttft, Total: paints[len(paints)-1].At, Paints: paints, PaintedChars: paints[len(paints)-1].Chars,
			LongFrames: 1, MaxFrame: 60 * ms, Stream: stream, Client: ttft - stream.FirstText, ClientEnd: paints[len(paints)-1].At - stream.End}
	}
	res := browser.Result{OK: true, Starts: []time.Duration{0, 2 * time.Second},
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
	s := rec.Session
	if s == nil || len(s.Steps) != 2 || s.Steps[1].Start != 2*time.Second || s.Steps[1].TTFT != 310*ms || s.Answer != 2310*ms || s.End != EndAnswer {
		t.Errorf("session %+v", s)
	}
	// 104 characters, 26 tokens at 10 a second: the reader starts at 300
	// ms and is never ahead of the paints.
	if rec.Perceived < rec.TTFT || rec.Perceived > rec.Total {
		t.Errorf("perceived %v, want between ttft %v and total %v", rec.Perceived, rec.TTFT, rec.Total)
	}
	failed := pageRecord(browser.Result{Error: `output ".a" matched nothing within 3s`, Failure: vocab.Page, Console: []string{"uncaught Error: boom"}}, 1, 10)
	if failed.OK || failed.Failure != vocab.Page || failed.Error != `output ".a" matched nothing within 3s (the page: uncaught Error: boom)` ||
		failed.TTFT != Missing || failed.Page != nil || failed.Session != nil {
		t.Errorf("failed record %+v", failed)
	}
	if pageRecord(res, 1, 10).Session != nil {
		t.Error("one turn is no session")
	}
}

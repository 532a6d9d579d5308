package probe

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/latgate/latgate/apis"
	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/vocab"
)

// Browser is the team's chat page in a real browser (package browser
// drives it over the DevTools protocol; Prober.Pages holds the browser):
// the prompt typed into the page, what the page painted measured from the
// click, and its answer stream as the browser received it.
const Browser API = "browser"

func init() {
	register(description{
		Spec: apis.Spec{
			Name: string(Browser), Order: 90, Title: "a chat page in a browser",
			Keys:    []string{apis.URL, "browser"},
			Needs:   []apis.Need{{Key: "browser", Says: "browser (the page's input, submit and output selectors)"}},
			Address: apis.Address{Key: apis.URL, Example: "http://127.0.0.1:3000/"},
			// The page holds the conversation: turns are typed into it; it
			// runs no tools of latgate's, and takes no temperature.
			Turns: true, NoTemperature: true, NoKey: true,
		},
		url:  func(t Target) string { return t.URL },
		body: func(p BodyParams) any { return pageBody{Prompts: []string{lastUser(p.Messages)}} },
		do: func(p *Prober, ctx context.Context, req Request) (Record, timeline) {
			return p.page(ctx, req), timeline{}
		},
		whole: true,
	})
}

// pageBody is a single call's prompt, as its Body carries it.
type pageBody struct {
	Prompts []string `json:"prompts"`
}

// lastUser is what is typed into the page: the last user message.
func lastUser(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].Content
		}
	}
	return ""
}

// prompts are what a request types into the page: its prompt, then each
// of its session's turns.
func prompts(req Request) []string {
	if s := req.Session; s != nil {
		return append([]string{lastUser(s.Params.Messages)}, s.Turns...)
	}
	var b pageBody
	_ = json.Unmarshal(req.Body, &b)
	return b.Prompts
}

// page measures one request of a chat page: a tab of Pages (the page
// loaded once, then reset by each request), every turn of it bounded,
// and all of them by the timeout.
func (p *Prober) page(ctx context.Context, req Request) Record {
	start := clock.Or(p.Clock).Now()
	rec := newRecord()
	rec.Start = start
	if req.Page == nil || p.Pages == nil {
		rec.Error, rec.Failure = "api browser: the request has no page, or the prober no browser", vocab.Request
		return rec
	}
	o := *req.Page
	if o.Timeout <= 0 {
		o.Timeout = p.Timeout
	}
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	pg, err := p.Pages.take(ctx, o)
	if err != nil {
		rec.Error, rec.Failure, rec.misread = p.redact(err.Error(), req), vocab.Page, errors.Is(err, browser.ErrOptions)
		if ctx.Err() != nil {
			rec.Failure = vocab.Timeout
		}
		return rec
	}
	turns := prompts(req)
	res := pg.Request(ctx, turns)
	p.Pages.put(o, pg, res)
	rec = pageRecord(res, len(turns), p.readingRate())
	rec.Start, rec.Error = start, p.redact(rec.Error, req)
	return rec
}

// pageRecord is a page's request of turns prompts as a record: the first
// turn's painted TTFT, the end of the last turn's paints, the paint gaps
// of every turn; a conversation of several turns is a session of one step
// per turn, and its page record is its last turn's (the answer's), from
// the first click.
func pageRecord(res browser.Result, turns int, rate float64) Record {
	rec := newRecord()
	rec.OK, rec.Error, rec.Failure = res.OK, res.Error, res.Failure
	if !res.OK && len(res.Console) > 0 {
		rec.Error += " (the page: " + strings.Join(res.Console, "; ") + ")"
	}
	rec.Shots = pageShots(res)
	if len(res.Turns) == 0 {
		return rec
	}
	first, st := res.Turns[0], res.Turns[0].Stream
	rec.TTFT, rec.TTFC, rec.TTFB, rec.Status = first.TTFT, first.TTFT, st.TTFB, st.Status
	rec.DNS, rec.Connect, rec.TLS, rec.Reused = st.DNS, st.Connect, st.TLS, st.Reused || !st.Found
	var events []outputEvent
	chars := 0
	pr := &PageRecord{MaxFrame: Missing}
	for i, m := range res.Turns {
		start := res.Starts[i]
		rec.Total = start + m.Total
		rec.ITL = append(rec.ITL, m.ITL()...)
		shown := 0
		for _, pt := range m.Paints {
			events = append(events, outputEvent{at: start + pt.At, chars: max(0, pt.Chars-shown), step: i})
			chars += max(0, pt.Chars-shown)
			shown = pt.Chars
		}
		pr.LongFrames += m.LongFrames
		pr.MaxFrame = max(pr.MaxFrame, m.MaxFrame)
		pr.answer(m, start)
		pr.timeline(m, start)
	}
	pr.Painted, pr.Received = downsample(pr.Painted, MaxTimeline), downsample(pr.Received, MaxTimeline)
	rec.OutputTokens, rec.TokensSource, rec.Page = len(events), "events", pr
	// The reader reads tokens: about four characters each.
	rec.Perceived = readerModel(events, spreadTokens(events, int(math.Ceil(float64(chars)/charsPerToken))), rate)
	if turns > 1 {
		rec.Session = pageSession(res)
	}
	return rec
}

// answer makes the page record its turn m's (which began at start, from
// the first click): the stream's times and the client stage.
func (pr *PageRecord) answer(m browser.Metrics, start time.Duration) {
	at := func(d time.Duration) time.Duration {
		if d == Missing {
			return Missing
		}
		return start + d
	}
	s := m.Stream
	pr.StreamTTFB, pr.FirstText, pr.StreamEnd = at(s.TTFB), at(s.FirstText), at(s.End)
	pr.Client, pr.ClientEnd, pr.PaintedChars, pr.Buffered = m.Client, m.ClientEnd, m.PaintedChars, m.Buffered
}

// timeline adds turn m's paints and its stream's text chunks (it began
// at start, from the first click) to the page's timeline.
func (pr *PageRecord) timeline(m browser.Metrics, start time.Duration) {
	for _, pt := range m.Paints {
		pr.Painted = append(pr.Painted, PagePoint{At: start + pt.At, N: pt.Chars})
	}
	for _, a := range m.Stream.Received {
		pr.Received = append(pr.Received, PagePoint{At: max(0, start+a.At), N: a.Bytes})
	}
}

// MaxTimeline bounds the points of each of a page record's timelines.
const MaxTimeline = 200

// downsample keeps n of pts evenly by their order, the first and the last
// among them; pts when it has no more.
func downsample(pts []PagePoint, n int) []PagePoint {
	if len(pts) <= n {
		return pts
	}
	out := make([]PagePoint, n)
	for k := range out {
		out[k] = pts[k*(len(pts)-1)/(n-1)]
	}
	return out
}

// pageShots are the request's screenshots: at its first paint and its
// end, or where it failed on the page.
func pageShots(res browser.Result) []PageShot {
	var out []PageShot
	for _, s := range []struct {
		kind vocab.Shot
		shot *browser.Shot
	}{{vocab.FirstPaint, res.FirstPaint}, {vocab.End, res.End}} {
		if s.shot != nil {
			out = append(out, PageShot{Kind: s.kind, At: s.shot.At, JPEG: s.shot.JPEG})
		}
	}
	if len(res.Screenshot) > 0 {
		out = append(out, PageShot{Kind: vocab.AtFailure, At: Missing, JPEG: res.Screenshot})
	}
	return out
}

// charsPerToken is the characters of a token the reader model assumes on
// a page's painted text (OpenAI's rule of thumb for English).
const charsPerToken = 4

// pageSession is a conversation's steps, one per turn, from its clicks.
func pageSession(res browser.Result) *SessionRecord {
	s := &SessionRecord{FirstToolCall: Missing, Answer: Missing, End: EndAnswer}
	for i, m := range res.Turns {
		s.Steps = append(s.Steps, Step{Turn: i, Start: res.Starts[i], TTFT: m.TTFT, TTFC: m.TTFT, FirstToolCall: Missing,
			ToolCall: Missing, Total: m.Total})
	}
	if !res.OK {
		s.End = EndError
		return s
	}
	last := len(res.Turns) - 1
	s.Answer = res.Starts[last] + res.Turns[last].TTFT
	return s
}

// PageRecord is what a request of a chat page in a browser measured
// beyond a stream's metrics (docs/metrics.md): its answer's stream as
// the browser received it (the last turn's, from the first click) and its
// client stage, its frames.
type PageRecord struct {
	StreamTTFB           time.Duration
	FirstText, StreamEnd time.Duration
	Client, ClientEnd    time.Duration
	LongFrames           int
	MaxFrame             time.Duration
	PaintedChars         int
	// Buffered: the page showed nothing until its stream had ended.
	Buffered bool
	// Painted is the answer's characters at each frame that changed it;
	// Received the bytes of the answer stream's chunks that carried text,
	// received until each of them (per turn); at most MaxTimeline each.
	Painted, Received []PagePoint
}

// PagePoint is a point of a page's timeline: when, from the first click,
// and how much (painted characters, received bytes).
type PagePoint struct {
	At time.Duration
	N  int
}

// PageShot is a screenshot of a page: when it was taken (Kind) and at
// what time from the first click (Missing: not known), a JPEG.
type PageShot struct {
	Kind vocab.Shot
	At   time.Duration
	JPEG []byte
}

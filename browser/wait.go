package browser

import (
	"fmt"
	"math"
	"time"

	"context"

	"github.com/latgate/latgate/vocab"
)

// progress is what the driver knows while a turn runs, in milliseconds on
// the page's clock.
type progress struct {
	Now, Armed, T0 float64
	// Chars is the answer's characters; Changed when it last changed (< 0:
	// never); Matched: output matches an element.
	Chars   int
	Matched bool
	Changed float64
	// Done: the done selector matches now (after t0); DoneLeft: it did not
	// match at some frame after t0.
	Done, DoneLeft bool
	// Stream is the answer stream so far (nil: none seen yet).
	Stream *Wire
}

// rules are the options that decide when a turn ends.
type rules struct {
	done, output, submit string
	quiet, click         float64 // milliseconds
}

// settle decides whether a turn has ended, and how: it ends when the done
// selector shows (after the answer's first text), or, without done, when
// the answer stream ended and the answer stayed unchanged for quiet (with
// no stream seen, once the answer stayed unchanged for quiet); it fails at
// once when the stream failed or answered an HTTP error, when the page saw
// no click, or when the stream ended and the page showed no text. It is
// pure.
func settle(pr progress, r rules) (bool, *failure) {
	w := pr.Stream
	ended := w != nil && w.End >= 0
	switch {
	case pr.T0 < 0:
		if pr.Now-pr.Armed > r.click {
			return true, pageFailure("the page saw no click on submit %q within %v", r.submit, time.Duration(r.click)*time.Millisecond)
		}
		return false, nil
	case w != nil && w.Failed != "":
		return true, &failure{kind: vocab.Connection, msg: fmt.Sprintf("the page's answer stream %s failed: %s", safeURL(w.URL), w.Failed)}
	case ended && w.Status >= 400:
		return true, &failure{kind: vocab.HTTPStatus, msg: fmt.Sprintf("the page's answer stream %s answered HTTP %d", safeURL(w.URL), w.Status)}
	case r.done != "":
		return pr.Done && pr.Chars > 0 && (pr.DoneLeft || ended), nil
	case ended && pr.Now-math.Max(pr.Changed, w.End) >= r.quiet:
		switch {
		case !pr.Matched:
			return true, pageFailure("the page's answer stream ended and output %q matched nothing", r.output)
		case pr.Chars == 0:
			return true, &failure{kind: vocab.NoOutput, msg: fmt.Sprintf("the page's answer stream ended and output %q showed no text", r.output)}
		}
		return true, nil
	case w == nil && pr.Chars > 0 && pr.Now-pr.Changed >= r.quiet:
		return true, nil
	}
	return false, nil
}

// pageState is what the instrument's state() returns.
type pageState struct {
	Now      float64 `json:"now"`
	T0       float64 `json:"t0"`
	Chars    int     `json:"chars"`
	Matched  bool    `json:"matched"`
	Changed  float64 `json:"changed"`
	Done     bool    `json:"done"`
	DoneLeft bool    `json:"doneLeft"`
}

// wait polls the page until the turn settles, fails, or its context ends
// (a timeout that says what was missing); shoot: it takes a screenshot
// (Page.first) at the first poll that sees answer text.
func (p *Page) wait(ctx context.Context, shoot bool) *failure {
	r := rules{done: p.o.Done, output: p.o.Output, submit: p.o.Submit,
		quiet: float64(p.o.Quiet) / float64(time.Millisecond), click: float64(clickWait) / float64(time.Millisecond)}
	armed := math.NaN()
	var st pageState
	for {
		if b := p.blockedNow(); b != "" {
			return &failure{kind: vocab.Page, msg: b}
		}
		if err := p.eval(ctx, "state()", &st); err != nil {
			if ctx.Err() != nil {
				return p.timedOut(st)
			}
			return p.lost(ctx, err)
		}
		if math.IsNaN(armed) {
			armed = st.Now
		}
		pr := progress{Now: st.Now, Armed: armed, T0: st.T0, Chars: st.Chars, Matched: st.Matched, Changed: st.Changed, Done: st.Done,
			DoneLeft: st.DoneLeft, Stream: p.answer(st.T0)}
		if end, f := settle(pr, r); end {
			return f
		}
		if shoot && st.Chars > 0 && st.T0 >= 0 {
			shoot, p.first = false, p.shotNow(st.T0)
		}
		if !sleep(ctx, poll) {
			return p.timedOut(st)
		}
	}
}

// timedOut says what the turn was waiting for when its time ran out.
func (p *Page) timedOut(st pageState) *failure {
	ctx := p.after()
	var has bool
	_ = p.eval(ctx, "has("+js(p.o.Output)+")", &has)
	t := p.o.Timeout
	switch {
	case st.T0 < 0:
		return pageFailure("the page saw no click on submit %q within %v", p.o.Submit, t)
	case !has:
		return pageFailure("output %q matched nothing within %v", p.o.Output, t)
	case st.Chars == 0:
		return &failure{kind: vocab.Timeout, msg: fmt.Sprintf("output %q showed no answer text within %v", p.o.Output, t), shot: true}
	case p.o.Done != "" && !st.Done:
		return &failure{kind: vocab.Timeout, msg: fmt.Sprintf("done %q did not match within %v", p.o.Done, t), shot: true}
	}
	return &failure{kind: vocab.Timeout, msg: fmt.Sprintf("the answer was still changing after %v", t)}
}

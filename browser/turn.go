package browser

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/latgate/latgate/vocab"
)

// clickWait bounds how long after the click the page may take to see it.
const clickWait = 5 * time.Second

// Result is one request: its turns (the prompt, then each next message
// typed into the same conversation) and, when it failed, why.
type Result struct {
	Turns []Metrics
	// Starts are the turns' clicks, from the first turn's.
	Starts  []time.Duration
	OK      bool
	Error   string
	Failure vocab.Failure
	// Console holds the page's console errors, uncaught exceptions and
	// failed requests during the request (bounded), for a failure.
	Console []string
	// Screenshot is a JPEG of the page when the request failed on the
	// page (Options.Shots): a selector that never matched, a page that
	// showed no text.
	Screenshot []byte
	// FirstPaint and End are screenshots (Options.Shots) at the first
	// turn's first paint (as soon as the driver saw its text) and at the
	// end of an ok request; nil when not taken.
	FirstPaint, End *Shot
}

// failure is why a turn failed.
type failure struct {
	kind vocab.Failure
	msg  string
	shot bool // keep a screenshot
}

func pageFailure(format string, args ...any) *failure {
	return &failure{kind: vocab.Page, msg: fmt.Sprintf(format, args...), shot: true}
}

// Request measures one request: the page starts clean (reset), then each
// prompt is typed and sent in turn, in the same conversation. Each turn is
// bounded by Options.Timeout; a failed turn ends the request.
func (p *Page) Request(ctx context.Context, prompts []string) Result {
	p.mu.Lock()
	p.console, p.blocked = nil, nil
	p.mu.Unlock()
	res := Result{OK: true}
	f := p.reset(ctx)
	first := math.NaN()
	for i := 0; f == nil && i < len(prompts); i++ {
		var m Metrics
		var t0 float64
		m, t0, f = p.turn(ctx, prompts[i], i == 0 && p.o.Shots)
		if i == 0 {
			res.FirstPaint, p.first = p.first, nil
		}
		if f == nil {
			if i == 0 {
				first = t0
			}
			res.Turns, res.Starts = append(res.Turns, m), append(res.Starts, ms(t0, first))
		}
		if f != nil && len(prompts) > 1 {
			f.msg = fmt.Sprintf("turn %d: %s", i+1, f.msg)
		}
	}
	p.mu.Lock()
	res.Console = append(append([]string(nil), p.console...), p.net.failures()...)
	p.mu.Unlock()
	if f != nil {
		res.OK, res.Error, res.Failure = false, f.msg, f.kind
		if f.shot && p.o.Shots {
			res.Screenshot = p.screenshot()
		}
	} else if p.o.Shots {
		res.End = p.shotNow(first)
	}
	return res
}

// reset starts a request clean: the page is reloaded, or the reset
// selector clicked (the first request loads the page either way).
func (p *Page) reset(ctx context.Context) *failure {
	ctx, cancel := p.bound(ctx, p.o.Timeout)
	defer cancel()
	if !p.loaded || p.o.Reset == ResetReload {
		if err := p.load(ctx); err != nil {
			return &failure{kind: loadFailure(ctx, err), msg: err.Error()}
		}
		return nil
	}
	x, y, f := p.clickable(ctx, "reset", p.o.Reset)
	if f != nil {
		return f
	}
	if err := p.click(ctx, x, y); err != nil {
		return &failure{kind: vocab.Page, msg: "reset: " + err.Error()}
	}
	return nil
}

func loadFailure(ctx context.Context, err error) vocab.Failure {
	if ctx.Err() != nil {
		return vocab.Timeout
	}
	if errors.Is(err, ErrNavigated) {
		return vocab.Page
	}
	return vocab.Connection
}

// turn types prompt, sends it and waits for the answer: its metrics and
// its t0 on the page's clock; shoot: a screenshot at its first paint
// (Page.first).
func (p *Page) turn(ctx context.Context, prompt string, shoot bool) (Metrics, float64, *failure) {
	ctx, cancel := p.bound(ctx, p.o.Timeout)
	defer cancel()
	if f := p.typeInto(ctx, prompt); f != nil {
		return Metrics{}, 0, f
	}
	var x, y float64
	if p.o.Submit != SubmitEnter {
		var f *failure
		if x, y, f = p.clickable(ctx, "submit", p.o.Submit); f != nil {
			return Metrics{}, 0, f
		}
	}
	p.net.arm()
	if err := p.eval(ctx, "arm("+js(p.o.Output)+","+js(p.o.Done)+")", nil); err != nil {
		return Metrics{}, 0, p.lost(ctx, err)
	}
	var err error
	if p.o.Submit == SubmitEnter {
		err = p.enter(ctx)
	} else {
		err = p.click(ctx, x, y)
	}
	if err != nil {
		return Metrics{}, 0, p.lost(ctx, err)
	}
	f := p.wait(ctx, shoot)
	var fr *framesJSON
	if err := p.eval(p.after(), "take()", &fr); err != nil || fr == nil {
		if f == nil {
			f = p.lost(ctx, err)
		}
		return Metrics{}, 0, f
	}
	return p.derive(fr), fr.T0, f
}

// after is a short context of the tab (3 s) for a call outside a turn's
// own: what follows a turn that may have used its time up, the replies
// to the page's events.
func (p *Page) after() context.Context {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	context.AfterFunc(ctx, cancel)
	return ctx
}

// lost is the failure of a turn whose page went away or timed out.
func (p *Page) lost(ctx context.Context, err error) *failure {
	switch {
	case ctx.Err() != nil:
		return &failure{kind: vocab.Timeout, msg: fmt.Sprintf("no answer within %v", p.o.Timeout)}
	case p.blockedNow() != "":
		return &failure{kind: vocab.Page, msg: p.blockedNow()}
	case errors.Is(err, ErrNavigated):
		return &failure{kind: vocab.Page, msg: err.Error()}
	case err == nil:
		err = errors.New("no result")
	}
	return &failure{kind: vocab.Page, msg: "the browser: " + err.Error()}
}

// waitFor polls until sel matches; the failure names the selector.
func (p *Page) waitFor(ctx context.Context, key, sel string) *failure {
	for {
		var ok bool
		err := p.eval(ctx, "has("+js(sel)+")", &ok)
		if err == nil && ok {
			return nil
		}
		if ctx.Err() != nil {
			return pageFailure("%s %q matched nothing within %v", key, sel, p.o.Timeout)
		}
		if err != nil {
			return p.lost(ctx, err)
		}
		sleep(ctx, poll)
	}
}

// typeInto focuses the input and types prompt into it (one insertText, as
// an input method commits text: the page gets its input events).
func (p *Page) typeInto(ctx context.Context, prompt string) *failure {
	if f := p.waitFor(ctx, "input", p.o.Input); f != nil {
		return f
	}
	var focused bool
	if err := p.eval(ctx, "focus("+js(p.o.Input)+")", &focused); err != nil {
		return p.lost(ctx, err)
	}
	if !focused {
		return pageFailure("input %q cannot take the focus", p.o.Input)
	}
	if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: prompt}); err != nil {
		return p.lost(ctx, err)
	}
	var value *string
	if err := p.eval(ctx, "value("+js(p.o.Input)+")", &value); err != nil {
		return p.lost(ctx, err)
	}
	if value == nil || *value == "" {
		return pageFailure("typing into input %q left it empty", p.o.Input)
	}
	return nil
}

// clickable waits until sel's first match can be clicked (present,
// enabled, not covered) and returns its center.
func (p *Page) clickable(ctx context.Context, key, sel string) (float64, float64, *failure) {
	var last struct {
		X, Y  float64
		Error string
		By    string
	}
	for {
		err := p.eval(ctx, "point("+js(sel)+")", &last)
		if err == nil && last.Error == "" {
			return last.X, last.Y, nil
		}
		if ctx.Err() != nil {
			why := map[string]string{"missing": "matched nothing", "disabled": "stayed disabled", "hidden": "has no size",
				"covered": "is covered by a " + last.By}[last.Error]
			return 0, 0, pageFailure("%s %q %s within %v", key, sel, why, p.o.Timeout)
		}
		if err != nil {
			return 0, 0, p.lost(ctx, err)
		}
		sleep(ctx, poll)
	}
}

// click presses and releases the left button at (x, y).
func (p *Page) click(ctx context.Context, x, y float64) error {
	for _, t := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMouseMoved,
		input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		ev := input.DispatchMouseEventParams{Type: t, X: x, Y: y}
		if t != input.DispatchMouseEventTypeMouseMoved {
			ev.Button, ev.Buttons, ev.ClickCount = input.MouseButtonLeft, 1, 1
		}
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, ev); err != nil {
			return err
		}
	}
	return nil
}

// enter presses Enter in the focused input.
func (p *Page) enter(ctx context.Context) error {
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "Enter", Code: "Enter",
		WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r"}
	up := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: "Enter", Code: "Enter",
		WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13}
	for _, ev := range []input.DispatchKeyEventParams{down, up} {
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, ev); err != nil {
			return err
		}
	}
	return nil
}

// framesJSON is what the instrument's take() returns.
type framesJSON struct {
	T0   float64   `json:"t0"`
	B    []float64 `json:"b"`
	L    []float64 `json:"l"`
	P    []float64 `json:"p"`
	N    []int     `json:"n"`
	D    []bool    `json:"d"`
	Text string    `json:"text"`
}

// derive computes a turn's metrics from the instrument's frames and the
// answer stream, on the page's clock.
func (p *Page) derive(fr *framesJSON) Metrics {
	n := min(len(fr.B), len(fr.L), len(fr.P), len(fr.N), len(fr.D))
	f := Frames{T0: fr.T0, Begin: fr.B[:n], Layout: fr.L[:n], Painted: fr.P[:n], Chars: fr.N[:n], Done: fr.D[:n]}
	return Derive(f, p.answer(f.T0))
}

// answer is the turn's answer stream on the page's clock, nil when none
// was seen or the clocks could not be paired.
func (p *Page) answer(t0 float64) *Wire {
	p.mu.Lock()
	off := p.offset
	p.mu.Unlock()
	if t0 < 0 || math.IsNaN(off) {
		return nil
	}
	r := p.net.answer(t0+off, p.o.Stream)
	if r == nil {
		return nil
	}
	return r.onPage(off)
}

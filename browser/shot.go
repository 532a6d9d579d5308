package browser

import (
	"context"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Screenshots are small JPEGs of the page's viewport: scaled to fit
// ShotSide CSS pixels a side, at quality 60 (30 when that is over
// MaxShotBytes; none when still over).
const (
	ShotSide     = 480
	MaxShotBytes = 48 << 10
)

// shotTimeout bounds one screenshot.
const shotTimeout = 3 * time.Second

// Shot is a screenshot: when it was taken, from the first turn's click,
// and its JPEG.
type Shot struct {
	At   time.Duration
	JPEG []byte
}

// screenshot is a JPEG of the page's viewport (ShotSide a side at most,
// MaxShotBytes at most), nil when none can be taken.
func (p *Page) screenshot() []byte {
	ctx, cancel := context.WithTimeout(p.ctx, shotTimeout)
	defer cancel()
	m, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
	if err != nil || m.CSSVisualViewport == nil {
		return nil
	}
	v := m.CSSVisualViewport
	if v.ClientWidth < 1 || v.ClientHeight < 1 {
		return nil
	}
	// The clip is in the document's CSS pixels: the visible part of a
	// scrolled page (a chat scrolls to its answer).
	clip := &page.Viewport{X: v.PageX, Y: v.PageY, Width: v.ClientWidth, Height: v.ClientHeight,
		Scale: min(1, ShotSide/v.ClientWidth, ShotSide/v.ClientHeight)}
	for _, q := range []int64{60, 30} {
		res, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatJpeg, Quality: &q, Clip: clip, OptimizeForSpeed: ptr(true)})
		if err != nil {
			return nil
		}
		if len(res.Data) <= MaxShotBytes {
			return res.Data
		}
	}
	return nil
}

// shotNow is a screenshot taken now, dated on the page's clock from t0
// (the first turn's click); nil when none can be taken.
func (p *Page) shotNow(t0 float64) *Shot {
	var now float64
	if err := p.eval(p.after(), "now()", &now); err != nil {
		return nil
	}
	b := p.screenshot()
	if b == nil {
		return nil
	}
	return &Shot{At: max(0, ms(now, t0)), JPEG: b}
}

package report

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// fixtureJPEG is a 480×300 screenshot, standard base64: a page of the
// color c with a darker answer block.
func fixtureJPEG(c color.RGBA) string {
	img := image.NewRGBA(image.Rect(0, 0, 480, 300))
	for y := range 300 {
		for x := range 480 {
			px := c
			if x > 40 && x < 440 && y > 60 && y < 200 {
				px = color.RGBA{c.R / 2, c.G / 2, c.B / 2, 255}
			}
			img.Set(x, y, px)
		}
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 60})
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// pageRun is fixtureRun of a chat page in a browser whose page adds
// about clientMs to every paint: each request has its stream and client stage;
// the median and p95 request by TTFT keep their page timeline and
// screenshots, and the first three failures (on the page) theirs, as
// latgate keeps them.
func pageRun(rng *rand.Rand, endpoint, scenario string, n int, ttft, clientMs, failRate float64) results.Run {
	r := fixtureRun(rng, endpoint, scenario, n, ttft, 0.017, failRate, false, false)
	fails := 0
	for i := range r.Requests {
		q := &r.Requests[i]
		if !q.OK {
			q.Status, q.Failure, q.Error = 0, vocab.Page, `input "#prompt" matched nothing within 20s`
			if fails++; fails <= MaxFailureShots {
				q.Screenshots = []results.Screenshot{{At: vocab.AtFailure, JPEG: fixtureJPEG(color.RGBA{240, 200, 200, 255})}}
			}
			continue
		}
		c := clientMs * math.Exp(0.2*rng.NormFloat64())
		first, end := *q.TTFTMs-c, *q.TotalMs-c
		q.Stream = &results.PageStream{TTFBMs: f64(first - 5), FirstTextMs: f64(first), EndMs: f64(end)}
		q.ClientMs, q.ClientEndMs, q.TokensSource = f64(c), f64(c), "events"
		chars, frames := 4*q.OutputTokens, 0
		q.PaintedChars, q.LongFrames, q.MaxFrameMs = &chars, &frames, f64(16.7)
	}
	for _, i := range PageShown(r.Requests) {
		q := &r.Requests[i]
		tl := &results.PageTimeline{}
		at := *q.TTFTMs
		for k, g := range append([]float64{0}, q.ITLMs...) {
			at += g
			tl.Painted = append(tl.Painted, [2]float64{at, float64(4 * (k + 1))})
			tl.Received = append(tl.Received, [2]float64{at - *q.ClientMs, float64(30 * (k + 1))})
		}
		q.PageTimeline = tl
		q.Screenshots = []results.Screenshot{{At: vocab.FirstPaint, Ms: f64(*q.TTFTMs + 20), JPEG: fixtureJPEG(color.RGBA{220, 230, 250, 255})},
			{At: vocab.End, Ms: f64(*q.TotalMs + 500), JPEG: fixtureJPEG(color.RGBA{200, 240, 210, 255})}}
	}
	return r
}

package results

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"github.com/latgate/latgate/vocab"
)

// encodeJPEG is a w×h JPEG.
func encodeJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, x%h, color.RGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 60}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withSize patches a JPEG's frame header (SOF0) to claim w×h pixels.
func withSize(t *testing.T, b []byte, w, h int) []byte {
	t.Helper()
	b = bytes.Clone(b)
	i := bytes.Index(b, []byte{0xFF, 0xC0})
	if i < 0 {
		t.Fatal("no SOF0 marker")
	}
	b[i+5], b[i+6], b[i+7], b[i+8] = byte(h>>8), byte(h), byte(w>>8), byte(w)
	return b
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// TestPageChecks: a page's timeline and screenshots as latgate writes
// them pass; what a hostile results file could embed is refused naming
// the field: an image that is not a JPEG (a PNG, an SVG, text), one too
// large in bytes or in pixels (a header claiming 60000×60000), a cut one,
// base64 that is not, a line break in it, an unknown or repeated moment,
// times out of bounds or out of order, counts that are no counts, too
// many points. (TestScreenshotLayout: what a JPEG must be.)
func TestPageChecks(t *testing.T) {
	t.Parallel()
	small := encodeJPEG(t, 480, 300)
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewRGBA(image.Rect(0, 0, 4000, 4000))); err != nil {
		t.Fatal(err)
	}
	ms := 120.0
	good := func() *Request {
		n := 40
		return &Request{PaintedChars: &n, PageTimeline: &PageTimeline{Painted: [][2]float64{{100, 5}, {120, 40}}, Received: [][2]float64{{90, 30}}},
			Screenshots: []Screenshot{{At: vocab.FirstPaint, Ms: &ms, JPEG: b64(small)}, {At: vocab.End, JPEG: b64(small)}}}
	}
	if err := good().Check(); err != nil {
		t.Fatalf("a good page: %v", err)
	}
	neg, huge := -1.0, 2e9
	many := make([][2]float64, MaxTimelinePoints+1)
	half := len(b64(small)) / 2
	for _, tt := range []struct {
		name string
		bad  func(q *Request)
		want string
	}{
		{"a PNG", func(q *Request) { q.Screenshots[0].JPEG = b64(pngBuf.Bytes()) }, "screenshots[0].jpeg: not a JPEG image (no SOI marker at its start): latgate's screenshots are JPEGs"},
		{"an SVG", func(q *Request) {
			q.Screenshots[1].JPEG = b64([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
		}, "screenshots[1].jpeg: not a JPEG image"},
		{"text", func(q *Request) { q.Screenshots[0].JPEG = b64([]byte("hello")) }, "screenshots[0].jpeg: not a JPEG image"},
		{"huge in pixels", func(q *Request) { q.Screenshots[0].JPEG = b64(withSize(t, small, 60000, 60000)) },
			"screenshots[0].jpeg: a JPEG of 60000×60000 pixels: a screenshot is at most 1024 a side"},
		{"huge in bytes", func(q *Request) { q.Screenshots[0].JPEG = strings.Repeat("A", 200<<10) }, "screenshots[0].jpeg: 204800 characters: a screenshot is at most 98304 bytes"},
		{"cut", func(q *Request) { q.Screenshots[0].JPEG = b64(small[:len(small)/2]) }, "screenshots[0].jpeg: not a whole JPEG image (no EOI marker at its end)"},
		{"wrong base64", func(q *Request) { q.Screenshots[0].JPEG = "!!not base64!!" }, "screenshots[0].jpeg: not standard base64 (illegal base64 data at input byte 0)"},
		{"a line break", func(q *Request) { s := b64(small); q.Screenshots[0].JPEG = s[:half] + "\n" + s[half:] }, "screenshots[0].jpeg: not standard base64 (a line break)"},
		{"unknown moment", func(q *Request) { q.Screenshots[0].At = "image/svg+xml" }, `screenshots[0].at is "image/svg+xml": a screenshot is taken at first_paint, end, failure`},
		{"two of a moment", func(q *Request) { q.Screenshots[1].At = vocab.FirstPaint }, `screenshots[1].at is "first_paint": a second screenshot of that moment`},
		{"a bad time", func(q *Request) { q.Screenshots[0].Ms = &neg }, "screenshots[0].ms is -1: a time is from 0 to 1e+09 ms"},
		{"a point too late", func(q *Request) { q.PageTimeline.Painted[1][0] = huge }, "page_timeline.painted[1] is at 2e+09 ms: a time is from 0 to 1e+09 ms"},
		{"out of order", func(q *Request) { q.PageTimeline.Painted[1][0] = 50 }, "page_timeline.painted[1] is at 50 ms, before the point ahead of it (100 ms)"},
		{"no count", func(q *Request) { q.PageTimeline.Received[0][1] = 2.5 }, "page_timeline.received[0] counts 2.5: a count is a whole number"},
		{"too many points", func(q *Request) { q.PageTimeline.Received = many }, "page_timeline.received has 1001 points: at most 1000"},
	} {
		q := good()
		tt.bad(q)
		if err := q.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

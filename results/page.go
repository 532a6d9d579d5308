package results

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"

	"github.com/latgate/latgate/vocab"
)

// PageTimeline is what a browser page painted and what its answer stream
// received, from the click: painted holds [ms, characters] at each frame
// that changed the answer, received [ms, bytes] at each chunk of the
// stream that carried answer text (the bytes of such chunks so far, per
// turn). Each holds at most MaxTimelinePoints, in time order.
type PageTimeline struct {
	Painted  [][2]float64 `json:"painted"`
	Received [][2]float64 `json:"received"`
}

// Screenshot is a screenshot of a browser page: when it was taken (At),
// at what time from the click (null: not known), and its JPEG as
// standard base64. It is a JPEG by its key: a reader never takes the
// type from the data.
type Screenshot struct {
	At   vocab.Shot `json:"at"`
	Ms   *float64   `json:"ms"`
	JPEG string     `json:"jpeg"`
}

// MaxShots is the most screenshots a request has: one at each moment.
var MaxShots = len(vocab.Shots)

// Bounds of what a results file may embed of a page (a file can come from
// an untrusted pull request's artifact and be rendered by a privileged
// job): every screenshot is checked when the file is read.
const (
	MaxTimelinePoints  = 1000
	MaxScreenshotBytes = 96 << 10
	MaxScreenshotSide  = 1024
)

// checkPage refuses a page timeline out of bounds or out of order, and a
// screenshot that is not a small JPEG, of an unknown moment, or a second
// of its moment.
func (q *Request) checkPage() error {
	if tl := q.PageTimeline; tl != nil {
		for _, s := range []struct {
			key string
			pts [][2]float64
		}{{"painted", tl.Painted}, {"received", tl.Received}} {
			if err := checkPoints(s.pts); err != nil {
				return fmt.Errorf("page_timeline.%s%v", s.key, err)
			}
		}
	}
	seen := map[vocab.Shot]bool{}
	for i, s := range q.Screenshots {
		if err := s.check(seen); err != nil {
			return fmt.Errorf("screenshots[%d].%v", i, err)
		}
	}
	return nil
}

// checkPoints: at most MaxTimelinePoints, times from 0 to MaxMs in order,
// counts from 0 to maxCount.
func checkPoints(pts [][2]float64) error {
	if len(pts) > MaxTimelinePoints {
		return fmt.Errorf(" has %d points: at most %d", len(pts), MaxTimelinePoints)
	}
	for i, p := range pts {
		switch {
		case !(p[0] >= 0 && p[0] <= MaxMs):
			return fmt.Errorf("[%d] is at %g ms: a time is from 0 to %g ms", i, p[0], MaxMs)
		case i > 0 && p[0] < pts[i-1][0]:
			return fmt.Errorf("[%d] is at %g ms, before the point ahead of it (%g ms): points are in time order", i, p[0], pts[i-1][0])
		case !(p[1] >= 0 && p[1] <= maxCount) || p[1] != float64(int64(p[1])):
			return fmt.Errorf("[%d] counts %g: a count is a whole number from 0 to %g", i, p[1], float64(maxCount))
		}
	}
	return nil
}

// check is one screenshot's check; seen holds the moments before it.
func (s Screenshot) check(seen map[vocab.Shot]bool) error {
	if !slices.Contains(vocab.Shots, s.At) {
		return fmt.Errorf("at is %q: a screenshot is taken at %s", s.At, shotNames())
	}
	if seen[s.At] {
		return fmt.Errorf("at is %q: a second screenshot of that moment", s.At)
	}
	seen[s.At] = true
	if s.Ms != nil && !(*s.Ms >= 0 && *s.Ms <= MaxMs) {
		return fmt.Errorf("ms is %g: a time is from 0 to %g ms", *s.Ms, MaxMs)
	}
	if err := checkJPEG(s.JPEG); err != nil {
		return fmt.Errorf("jpeg: %v", err)
	}
	return nil
}

// checkJPEG checks a screenshot: standard base64 without line breaks, of
// a JPEG of MaxScreenshotBytes at most whose markers say it is a baseline
// JPEG of one scan, MaxScreenshotSide pixels a side at most
// (checkJPEGLayout): its cost is one pass over its bytes, its pixels are
// never decoded.
func checkJPEG(s string) error {
	if n := base64.StdEncoding.EncodedLen(MaxScreenshotBytes); len(s) > n {
		return fmt.Errorf("%d characters: a screenshot is at most %d bytes (%d characters of base64)", len(s), MaxScreenshotBytes, n)
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	if err == nil && strings.ContainsAny(s, "\r\n") {
		err = fmt.Errorf("a line break")
	}
	if err != nil {
		return fmt.Errorf("not standard base64 (%v)", err)
	}
	return checkJPEGLayout(b)
}

// shotNames lists the moments of a screenshot, for a message.
func shotNames() string {
	names := make([]string, len(vocab.Shots))
	for i, s := range vocab.Shots {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

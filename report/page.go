package report

import (
	"math"
	"slices"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// What a digest keeps of a browser run's pages for the HTML report.
const (
	// maxPageCarriers bounds the requests with a page timeline or
	// screenshots a digest keeps to pick from (latgate's own files hold
	// two a run; a hostile one could hold one on every request).
	maxPageCarriers = 64
	// MaxFailureShots is how many failed requests of a run keep their
	// screenshot in a results file, and the report shows.
	MaxFailureShots = 3
)

// PageShown are the indices of the requests of a browser run whose page
// the HTML report draws: the ok requests whose TTFT is nearest the run's
// median and its p95 (one index when that is one request); none without
// an ok request with a TTFT.
func PageShown(reqs []results.Request) []int {
	var ttft []float64
	var at []int
	for i := range reqs {
		if q := &reqs[i]; q.OK && q.TTFTMs != nil {
			ttft, at = append(ttft, *q.TTFTMs), append(at, i)
		}
	}
	if len(ttft) == 0 {
		return nil
	}
	sorted := compare.Sorted(ttft)
	var out []int
	for _, p := range []float64{0.5, 0.95} {
		k := nearest(ttft, compare.Quantile(sorted, p))
		if !slices.Contains(out, at[k]) {
			out = append(out, at[k])
		}
	}
	return out
}

// nearest is the index of the first of xs nearest v.
func nearest(xs []float64, v float64) int {
	best := 0
	for i, x := range xs {
		if math.Abs(x-v) < math.Abs(xs[best]-v) {
			best = i
		}
	}
	return best
}

// hasShot reports whether q has a screenshot of moment at.
func hasShot(q *results.Request, at vocab.Shot) bool {
	return slices.ContainsFunc(q.Screenshots, func(s results.Screenshot) bool { return s.At == at })
}

// pageCopy is what the report draws of a request's page: its TTFT, its
// timeline and screenshots, and, failed, its error.
func pageCopy(q *results.Request) *results.Request {
	c := &results.Request{OK: q.OK, Error: q.Error, Failure: q.Failure, Status: q.Status, Screenshots: slices.Clone(q.Screenshots)}
	if q.TTFTMs != nil {
		v := *q.TTFTMs
		c.TTFTMs = &v
	}
	if tl := q.PageTimeline; tl != nil {
		c.PageTimeline = &results.PageTimeline{Painted: slices.Clone(tl.Painted), Received: slices.Clone(tl.Received)}
	}
	return c
}

// addPage keeps what the report draws of a browser request: a failed
// one's screenshot (the first MaxFailureShots), an ok one's timeline and
// screenshots (the first maxPageCarriers).
func (d *Digester) addPage(q *results.Request) {
	switch {
	case !q.OK && hasShot(q, vocab.AtFailure) && len(d.failShots) < MaxFailureShots:
		d.failShots = append(d.failShots, pageCopy(q))
	case q.OK && q.TTFTMs != nil && (q.PageTimeline != nil || len(q.Screenshots) > 0) && len(d.pages) < maxPageCarriers:
		d.pages = append(d.pages, pageCopy(q))
	}
}

// pagePicks are the kept pages nearest the run's TTFT median and p95
// (nil where none).
func pagePicks(pages []*results.Request, ttft Stage) [2]*results.Request {
	var out [2]*results.Request
	if len(pages) == 0 || math.IsNaN(ttft.P50) {
		return out
	}
	xs := make([]float64, len(pages))
	for i, q := range pages {
		xs[i] = *q.TTFTMs
	}
	out[0], out[1] = pages[nearest(xs, ttft.P50)], pages[nearest(xs, ttft.P95)]
	return out
}

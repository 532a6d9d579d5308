package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

// The page charts' CSS: the received text's line, the screenshots.
const pageCSS = `svg .recv{stroke:var(--fg);stroke-opacity:.55;fill:none;stroke-width:1.5;stroke-dasharray:5 2}.shots{display:flex;flex-wrap:wrap;gap:12px}
figure.shot{margin:8px 0 0;max-width:100%}figure.shot img{display:block;width:240px;max-width:100%;height:auto;border:1px solid var(--line)}figure.shot figcaption{color:var(--muted);font-size:12px;max-width:240px;overflow-wrap:anywhere}`

// pageRuns draws, for a browser scenario, the page of its median and p95
// request by TTFT (the current run's, and the baseline's when it kept
// them): what the page painted beside what its stream received, on one
// time axis, and its screenshots at the first paint and the end.
func (p *page) pageRuns(s Scenario) {
	for _, side := range sides(s) {
		picks := side.d.Pages
		for i, q := range picks {
			if q == nil || (i == 1 && q == picks[0]) {
				continue
			}
			pick := []string{"median", "p95"}[i]
			if i == 0 && q == picks[1] {
				pick = "median and p95"
			}
			p.pageRun(side.name+" "+pick+" request by TTFT", q, side.base)
		}
	}
}

// pageRun is one request's page: its timeline (two strips on one time
// axis: the painted characters, the received bytes of answer text) and
// its screenshots.
func (p *page) pageRun(label string, q *results.Request, base bool) {
	p.f("<div class=\"chart wide page-run\"><h3>%s (TTFT %s ms): painted on the page and received on the wire</h3>\n", esc(label), Millis(*q.TTFTMs))
	if tl := q.PageTimeline; tl != nil && (len(tl.Painted) > 0 || len(tl.Received) > 0) {
		hi := 1.0
		for _, pts := range [][][2]float64{tl.Painted, tl.Received} {
			if n := len(pts); n > 0 {
				hi = math.Max(hi, pts[n-1][0])
			}
		}
		const stripH, top = 64.0, 8.0
		height := 2*stripH + 3*top + 28
		x := axis{0, hi * 1.02, 0, 100}
		p.wideSVG(48, 8, height, "painted timeline")
		for _, t := range ticks(0, hi, 5) {
			p.f("<line class=\"grid\" x1=\"%s\" x2=\"%s\" y1=\"%.1f\" y2=\"%.1f\"/>", xpc(x.at(t)), xpc(x.at(t)), top, height-28)
			p.xTick(x.at(t), height-14, tickLabel(t, false))
		}
		cls := "cur"
		if base {
			cls = "base"
		}
		p.strip(x, top, stripH, tl.Painted, cls, "painted", "characters painted")
		p.strip(x, 2*top+stripH, stripH, tl.Received, "recv", "received", "bytes of answer text received")
		p.s("<text x=\"100%\" y=\"" + fmt.Sprintf("%.1f", height-2) + "\" text-anchor=\"end\">ms from the click</text></svg>\n")
	}
	p.s("<div class=\"shots\">")
	for _, at := range []vocab.Shot{vocab.FirstPaint, vocab.End} {
		for _, sh := range q.Screenshots {
			if sh.At == at {
				p.shot(sh, map[vocab.Shot]string{vocab.FirstPaint: "at the first paint", vocab.End: "at the end"}[at])
			}
		}
	}
	p.s("</div></div>\n")
}

// strip draws one timeline as a step line in a strip of height h at y0,
// its own scale from 0 to its largest count, named on its left.
func (p *page) strip(x axis, y0, h float64, pts [][2]float64, cls, kind, name string) {
	hi := 1.0
	for _, pt := range pts {
		hi = math.Max(hi, pt[1])
	}
	y := axis{0, hi, y0 + h, y0}
	p.f("<line class=\"axis\" x1=\"0\" x2=\"0\" y1=\"%.1f\" y2=\"%.1f\"/><line class=\"axis\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/>", y.p1, y.p0, y.p0, y.p0)
	p.f("<text x=\"0\" dx=\"-4\" y=\"%.1f\" text-anchor=\"end\">%.0f</text><text x=\"0\" dx=\"-4\" y=\"%.1f\" text-anchor=\"end\">0</text>\n", y.p1+10, hi, y.p0)
	p.f("<text class=\"wlabel\" x=\"0\" dx=\"6\" y=\"%.1f\">%s</text>\n", y.p1+11, esc(name))
	if len(pts) == 0 {
		return
	}
	// The line in an SVG stretched to the plot's width (x in percent of
	// it), its stroke of its own width.
	var b strings.Builder
	fmt.Fprintf(&b, "M%.3f %.1f", x.at(0), y.at(0))
	for _, pt := range pts {
		fmt.Fprintf(&b, "H%.3fV%.1f", x.at(pt[0]), y.at(pt[1]))
	}
	p.f("<svg class=\"stretch\" width=\"100%%\" height=\"%.0f\" viewBox=\"0 0 100 %.0f\" preserveAspectRatio=\"none\"><path class=\"%s\" data-kind=\"%s\" d=\"%s\"/></svg>\n",
		y0+h, y0+h, cls, kind, b.String())
}

// shot embeds a screenshot (checked a JPEG when its file was read; only
// base64's characters reach the attribute) with its caption.
func (p *page) shot(sh results.Screenshot, caption string) {
	if sh.JPEG == "" || strings.Trim(sh.JPEG, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
		return
	}
	if sh.Ms != nil {
		caption += " · " + Millis(*sh.Ms) + " ms"
	}
	p.f("<figure class=\"shot\" data-at=\"%s\"><img src=\"data:image/jpeg;base64,%s\" alt=\"%s\"><figcaption>%s</figcaption></figure>",
		esc(string(sh.At)), sh.JPEG, esc("the page "+caption), esc(caption))
}

// failureShots shows a run's failed requests' screenshots, each with its
// error.
func (p *page) failureShots(d *Digest) {
	if d == nil || len(d.FailureShots) == 0 {
		return
	}
	p.s("<div class=\"shots\">")
	for _, q := range d.FailureShots {
		for _, sh := range q.Screenshots {
			if sh.At == vocab.AtFailure {
				p.shot(sh, "failed ("+ErrorKind(q)+"): "+short(q.Error, 200))
			}
		}
	}
	p.s("</div>\n")
}

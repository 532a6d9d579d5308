package report

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// The report's tables are tables where they fit and cards where they do
// not: a card per row, its name and its status across the top, its values
// in as many columns as the card's width holds, each with its column's
// heading. A phone (at most 640 px) shows every table as cards; wider, a
// table is cards below the width it needs (tableFit), which the page
// knows before a browser lays it out: the widest text a column cannot
// break, in the widest font the report meets (DejaVu Sans, Chromium's
// on Linux), with the width a column of words is given. So the demo's
// summary of nine columns is cards at every width (at 900 px it needed
// 899 px of a laptop's 852 and cut its status off; at 1,150 it wrapped
// "mean" onto a line of its own), the failing fixture's of five a table
// from 840 px.

// Width wishes (em) of the columns of words, so that they wrap in a few
// lines, not a word a line: the summary's status, a budget table's stage
// and status.
const summaryStatusEm, budgetStageEm, budgetStatusEm = 11.0, 7.0, 8.0

// Cell box: 8 px of padding a side and a border. A page's body pads 24
// px a side (12 on a phone) and its text column is at most 1,100 px.
const cellPad, bodyPad, mainMax, phoneMax = 17.0, 48.0, 1100.0, 640

// cardsCSS are the rules that lay the tables sel selects out as cards;
// a value's heading is above it where the card has columns (stacked),
// before it on a phone's card of one.
func cardsCSS(sel string, stacked bool) string {
	css := `&,& tbody,& tr,& td{display:block}&{overflow:visible}& tr:first-child{display:none}
& tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(15em,1fr));border:1px solid var(--line);border-radius:6px;margin:0 0 8px;padding:4px 0}
& td{border:0;padding:1px 8px;text-align:left;white-space:normal;max-width:none;width:auto}& td:empty{display:none}
& td::before{content:attr(data-label) ": ";color:var(--muted)}& td:first-child{font-weight:600;grid-column:1/-1;order:-2}& td:first-child::before{content:none}
& td.lbl::before{content:attr(data-label) " "}& td.st{grid-column:1/-1;order:-1}& td.st::before{content:none}`
	if stacked {
		css += `& td{padding:2px 8px}& td::before{content:attr(data-label);display:block;font-size:12px}& td.lbl::before{content:attr(data-label)}`
	}
	return strings.ReplaceAll(css, "&", sel)
}

// layoutCSS is the tables' layout for the breakpoints the page's tables
// have (cardsAt): cards on a phone, and each table of a breakpoint below
// it; the columns of words their width where a table is a table.
func layoutCSS(bps map[int]bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "@media (max-width:%dpx){body{padding:12px}%s}\n", phoneMax, cardsCSS("table.cards", false))
	fmt.Fprintf(&b, "@media (min-width:%dpx){.summary td.st{width:%gem}.budget td:first-child{width:%gem}.budget td.st{width:%gem}}\n",
		phoneMax+1, summaryStatusEm, budgetStageEm, budgetStatusEm)
	keys := make([]int, 0, len(bps))
	for k := range bps {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, bp := range keys {
		if bp == cardsAlways {
			fmt.Fprintf(&b, "@media (min-width:%dpx){%s}\n", phoneMax+1, cardsCSS("table.cards.wall", true))
			continue
		}
		fmt.Fprintf(&b, "@media (min-width:%dpx) and (max-width:%.2fpx){%s}\n", phoneMax+1, float64(bp)-0.02, cardsCSS(fmt.Sprintf("table.cards.w%d", bp), true))
	}
	return b.String()
}

// cardsAlways is the breakpoint of a table too wide for the widest text
// column: cards at every width.
const cardsAlways = math.MaxInt32

// tableFit estimates the width a table needs: per column, its wish and
// the widest text it cannot break (tokenWidth), plus the cells' boxes.
type tableFit struct{ cols []float64 }

// add counts a cell of column col: its HTML (whose lines do not wrap
// when nowrap), or its width wish in px.
func (f *tableFit) add(col int, cellHTML string, nowrap bool, wish float64) {
	for len(f.cols) <= col {
		f.cols = append(f.cols, 0)
	}
	f.cols[col] = math.Max(f.cols[col], math.Max(wish, tokenWidth(cellHTML, nowrap)))
}

// need is the table's width in px where every column has its widest text
// on a line and its wish.
func (f *tableFit) need() float64 {
	w := 1.0 // the table's outer border
	for _, c := range f.cols {
		w += c + cellPad
	}
	return w
}

// cardsAt is the window width below which a table of width need is
// cards: 20 px steps (a few media queries a page), cardsAlways beyond
// the widest text column, 0 when it fits a phone's width too (641 px).
func cardsAt(need float64) int {
	switch {
	case need > mainMax:
		return cardsAlways
	case need+bodyPad <= phoneMax+1:
		return 0
	}
	return int(math.Ceil((need+bodyPad)/20)) * 20
}

var (
	tag      = regexp.MustCompile(`<[^>]*>`)
	lineTags = regexp.MustCompile(`<br>|<span class="(ci|sub)">`)
)

// tokenWidth is the width in px of the widest run of a cell's text that
// a browser cannot break (between spaces and tags; a no-break space
// joins; a line of a cell that does not wrap, nowrap, is one), in bold
// DejaVu Sans: 14 px (digits 9.7 px; an emoji 17), 12 px on a summary's
// line of another statistic (class more), 11 on an interval's (ci).
func tokenWidth(cellHTML string, nowrap bool) float64 {
	widest := 0.0
	for _, line := range strings.Split(lineTags.ReplaceAllString(cellHTML, "\n$0"), "\n") {
		size := 1.0
		switch {
		case strings.Contains(line, `class="ci"`):
			size = 11.0 / 14
		case strings.Contains(line, `class="v more`):
			size = 12.0 / 14
		}
		text := html.UnescapeString(tag.ReplaceAllString(line, " "))
		toks := strings.Fields(strings.ReplaceAll(text, "\u00a0", "_"))
		if nowrap {
			toks = []string{strings.TrimSpace(text)}
		}
		for _, tok := range toks {
			w := 0.0
			for _, r := range tok {
				switch {
				case r == '\ufe0f': // an emoji's presentation selector
				case r >= 0x2300 && utf8.RuneLen(r) > 2:
					w += 17
				default:
					w += 9.7
				}
			}
			widest = math.Max(widest, w*size)
		}
	}
	return widest
}

// htmlTable is a table the page lays out as cards where it does not fit:
// its class, headings and rows of cells (td), each column's width wish
// (px; none for a column without), and the columns whose cells break
// anywhere (td.name: a name without spaces), their heading their width.
type htmlTable struct {
	class string
	heads []string
	rows  [][]string
	wish  map[int]float64
	loose map[int]bool
}

// cardTable writes t, its breakpoint (cardsAt) a class of it and a rule
// of the page's.
func (p *page) cardTable(t htmlTable) {
	var f tableFit
	for i, h := range t.heads {
		f.add(i, h, false, t.wish[i])
	}
	// A cell of numbers (td.n) keeps its lines but in the summary and the
	// budget tables (htmlCSS).
	nowrap := t.class != "summary" && t.class != "budget"
	for _, row := range t.rows {
		for i, c := range row {
			if !t.loose[i] {
				f.add(i, c, nowrap && strings.Contains(c, ` class="n"`), 0)
			}
		}
	}
	class := strings.TrimSpace("cards " + t.class)
	switch bp := cardsAt(f.need()); bp {
	case 0:
	case cardsAlways:
		class += " wall"
		p.bps[bp] = true
	default:
		class += fmt.Sprintf(" w%d", bp)
		p.bps[bp] = true
	}
	p.f("<table class=\"%s\"><tr>", class)
	for _, h := range t.heads {
		p.f("<th>%s</th>", h)
	}
	p.s("</tr>\n")
	for _, row := range t.rows {
		p.f("<tr>%s</tr>\n", strings.Join(row, ""))
	}
	p.s("</table>\n")
}

// The wide charts (the timeline, a session's waterfall, a page's run)
// fill their box, at most a desktop's 714 px: a plot is an SVG whose x
// coordinates are percent of its width, its words set off from those in
// pixels (dx) into a margin on its left; a line of many steps is an SVG
// stretched to the plot's width whose strokes keep their width. A
// phone's 366 px shows all of one, marks and words at their size (they
// were 696 px wide, cut at the screen's edge).
const wideCSS = `.chart.wide{width:714px;max-width:100%}svg.stretch{overflow:visible}svg.stretch path{vector-effect:non-scaling-stroke}`

// wideSVG opens a wide chart's plot, its margins left and right in px.
func (p *page) wideSVG(left, right, height float64, label string) {
	p.f("<svg style=\"margin-left:%.0fpx;width:calc(100%% - %.0fpx)\" height=\"%.0f\" role=\"img\" aria-label=\"%s\">\n", left, left+right, height, esc(label))
}

// xpc is a coordinate in percent of a plot's width.
func xpc(v float64) string { return fmt.Sprintf("%.2f%%", v) }

// xTick writes an x axis's value at t (percent) under a wide plot at
// height y: the first and the last inside the plot.
func (p *page) xTick(at, y float64, label string) {
	anchor := "middle"
	switch {
	case at < 4:
		anchor = "start"
	case at > 96:
		anchor = "end"
	}
	p.f("<text x=\"%s\" y=\"%.1f\" text-anchor=\"%s\">%s</text>", xpc(at), y, anchor, label)
}

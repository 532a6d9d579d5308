//go:build browser

// Browser tests: the comments rendered as GitHub renders them
// (GitHub-flavoured Markdown) and the HTML report, in headless Chromium.
// Run with `make browser-test` (installs Debian's chromium first); they skip,
// saying why, where no browser exists. `make screenshots` regenerates the
// PNGs of docs/report.md from the same pages.

package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
)

var screenshots = flag.String("screenshots", "", "write PNGs of the comments and the HTML report to this directory")

// chromium finds the system browser, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: run scripts/install-chromium.sh (Debian: apt-get install chromium fonts-noto-color-emoji)")
	return ""
}

// gfm renders Markdown as GitHub does for a comment: GFM tables,
// strikethrough, autolinks, raw HTML passed (GitHub then keeps a safe subset).
func gfm(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	g := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))
	if err := g.Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// githubCSS approximates GitHub's comment styles (markdown-body) in the
// 828 px conversation column.
const githubCSS = `body{margin:0;background:#fff;color:#1f2328}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}.markdown-body table tr{background:#0d1117!important}.markdown-body th,.markdown-body td{border-color:#3d444d!important}a{color:#4493f8}}
.markdown-body{width:828px;padding:16px;box-sizing:content-box;font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji";overflow-wrap:break-word}
.markdown-body table{display:block;width:max-content;max-width:100%;overflow:auto;border-spacing:0;border-collapse:collapse;margin:0 0 16px}
.markdown-body th,.markdown-body td{padding:6px 13px;border:1px solid #d1d9e0}.markdown-body th{font-weight:600}
.markdown-body table tr{background:#fff;border-top:1px solid #d1d9e0}.markdown-body h3{font-size:1.25em;margin:24px 0 16px}
.markdown-body code{padding:.2em .4em;font-size:85%;background:rgba(129,139,152,.12);border-radius:6px}
.markdown-body sub{font-size:75%;line-height:0;position:relative;vertical-align:baseline;bottom:-.25em}
.markdown-body details{margin:0 0 16px}.markdown-body summary{cursor:pointer}.markdown-body ul{padding-left:2em}`

// probe is the script the tests add to a page: it records errors, any
// request for a resource and the layout, as JSON in #latgate-probe.
const probe = `<script>
(function(){
 var out={errors:[],requests:[],tables:[],height:0,text:"",elements:[],points:0,bars:0,barsOutside:0,cells:[],changes:[],wrows:[],pages:[],imgs:[],curves:[],zeros:[],ticks:[],lis:[],charts:[]};
 window.addEventListener("error",function(e){out.errors.push(String(e.message))});
 document.addEventListener("securitypolicyviolation",function(e){out.requests.push(e.blockedURI+" ("+e.violatedDirective+")")});
 var ce=console.error;console.error=function(){out.errors.push(Array.from(arguments).join(" "));ce.apply(console,arguments)};
 window.addEventListener("load",function(){
  document.querySelectorAll("details").forEach(function(d){d.open=true});
  performance.getEntriesByType("resource").forEach(function(r){out.requests.push(r.name)});
  var root=document.querySelector(".markdown-body")||document.body;
  root.querySelectorAll("table").forEach(function(t){out.tables.push({class:t.className,scroll:t.scrollWidth,client:t.clientWidth,right:t.getBoundingClientRect().right})});
  var rect=function(e){if(!e)return null;var r=e.getBoundingClientRect();return {left:r.left,right:r.right,top:r.top,bottom:r.bottom,width:r.width,height:r.height}};
  out.height=document.documentElement.scrollHeight;
  out.text=root.innerText;
  var seen={};root.querySelectorAll("*").forEach(function(e){seen[e.tagName.toLowerCase()]=1});out.elements=Object.keys(seen);
  root.querySelectorAll("svg circle").forEach(function(c){var r=c.getBoundingClientRect();if(r.width>0&&r.height>0&&r.right>0&&r.bottom>0)out.points++});
  root.querySelectorAll("svg[aria-label='session waterfall'] rect").forEach(function(b){var r=b.getBoundingClientRect(),s=b.ownerSVGElement.getBoundingClientRect();if(r.width>0&&r.height>0)out.bars++;if(r.left<s.left-0.5||r.right>s.right+0.5||r.top<s.top-0.5||r.bottom>s.bottom+0.5)out.barsOutside++});
  out.width=window.innerWidth;out.pageWidth=document.documentElement.scrollWidth;
  var col=function(v){var e=document.createElement("span");e.style.color="var("+v+")";document.body.appendChild(e);var c=getComputedStyle(e).color;e.remove();return c};
  out.colors={bad:col("--bad"),warn:col("--warn"),good:col("--good")};
  var box=function(e){if(!e)return null;var r=e.getBoundingClientRect();return {left:r.left,right:r.right}};
  root.querySelectorAll("table.cards td").forEach(function(td){var r=td.getBoundingClientRect(),cl=td.closest("table").classList,parts=[];
   td.querySelectorAll(".v").forEach(function(v){var st=getComputedStyle(v);parts.push({text:v.innerText,color:st.color,bold:parseInt(st.fontWeight)>=600})});
   var tb=td.closest("table"),tr=tb.getBoundingClientRect();
   out.cells.push({table:cl.contains("summary")?"summary":cl.contains("budget")?"budget":cl.contains("capacity")?"capacity":"other",label:td.dataset.label||"",text:td.innerText,parts:parts,left:r.left,right:r.right,width:r.width,height:r.height,shown:tr.left+tb.clientLeft+tb.clientWidth})});
  // The change chart's rows (an SVG's g.crow before, a grid's div.crow):
  // the label in full, the mark's class, and the label's, the mark's and
  // the change's boxes.
  root.querySelectorAll(".crow:not(.caxis)").forEach(function(g){var m=g.querySelector("circle,rect:not(.band)"),ti=g.querySelector("title"),ts=g.querySelectorAll("text"),l=g.querySelector(".clabel")||ts[0],v=g.querySelector(".cval")||ts[ts.length-1];
   out.changes.push({label:ti?ti.textContent:l.textContent,cls:m.getAttribute("class"),value:v.textContent,labelBox:rect(l),mark:rect(m),valueBox:rect(v)})});
  var cc=root.querySelector("[aria-label='change in percent per scenario']");if(cc){out.changeChart=rect(cc.closest(".chart"));
   cc.closest(".chart").querySelectorAll("line.zero").forEach(function(z){out.zeros.push(rect(z).left)});
   root.querySelectorAll(".caxis text").forEach(function(t){if(getComputedStyle(t).display!="none")out.ticks.push(rect(t))})}
  // Every chart: its box, whether it scrolls, and its marks and words
  // (drawn, with a size) that reach beyond it or the window.
  root.querySelectorAll(".chart").forEach(function(c){var cb=c.getBoundingClientRect(),h=c.querySelector("h3"),o={title:h?h.textContent:"",left:cb.left,right:cb.right,top:cb.top,bottom:cb.bottom,scroll:c.scrollWidth,client:c.clientWidth,marks:0,outside:[]};
   c.querySelectorAll("text,circle,rect,path,line").forEach(function(e){var r=e.getBoundingClientRect();if(r.width==0&&r.height==0)return;o.marks++;
    if(r.left<Math.max(cb.left,0)-1||r.right>Math.min(cb.right,innerWidth)+1)o.outside.push(e.tagName+" "+(e.textContent||e.getAttribute("class")||"")+" at "+Math.round(r.left)+"–"+Math.round(r.right))});
   out.charts.push(o)});
  var h2=root.querySelector("h2");root.querySelectorAll("li").forEach(function(li){out.lis.push({text:li.innerText,top:!h2||!!(li.compareDocumentPosition(h2)&Node.DOCUMENT_POSITION_FOLLOWING)})});
  root.querySelectorAll("g.wrow").forEach(function(g){var t=g.querySelectorAll("text");
   out.wrows.push({lane:+g.dataset.lane,label:t[0].textContent,what:t[t.length-1].textContent,wait:box(g.querySelector(".wwait")),gen:box(g.querySelector(".wgen,.wbase")),tool:box(g.querySelector(".wtool"))})});
  root.querySelectorAll("div.page-run").forEach(function(d){var s=d.querySelector("svg"),sb=s?s.getBoundingClientRect():null,o={title:d.querySelector("h3").textContent,lines:[]};
   d.querySelectorAll("path[data-kind]").forEach(function(pa){var r=pa.getBoundingClientRect();o.lines.push({kind:pa.dataset.kind,left:r.left,right:r.right,width:r.width,height:r.height,inside:r.left>=sb.left-0.5&&r.right<=sb.right+0.5&&r.top>=sb.top-0.5&&r.bottom<=sb.bottom+0.5,stroke:getComputedStyle(pa).stroke})});
   out.pages.push(o)});
  root.querySelectorAll("figure.shot").forEach(function(f){var i=f.querySelector("img"),r=i.getBoundingClientRect();
   out.imgs.push({at:f.dataset.at,complete:i.complete,natural:i.naturalWidth,naturalH:i.naturalHeight,width:r.width,left:r.left,right:r.right,visible:getComputedStyle(i).visibility==="visible"&&r.height>0,caption:f.querySelector("figcaption").textContent,src:i.getAttribute("src").slice(0,23)})});
  root.querySelectorAll("svg g.curve").forEach(function(g){var sb=g.ownerSVGElement.getBoundingClientRect(),c={metric:g.dataset.metric,slo:[],caps:[],points:[],outside:0};
   var mid=function(e){var r=e.getBoundingClientRect();return {x:r.left+r.width/2,y:r.top+r.height/2,w:r.width}};
   g.querySelectorAll("line.slo").forEach(function(l){c.slo.push({v:+l.dataset.ms,y:mid(l).y})});
   g.querySelectorAll("line.capm").forEach(function(l){c.caps.push({side:l.classList.contains("base")?"base":"cur",load:+l.dataset.load,x:mid(l).x})});
   g.querySelectorAll(".lpt").forEach(function(e){var m=mid(e),r=e.getBoundingClientRect();c.points.push({side:e.dataset.side,stat:e.dataset.stat,load:+e.dataset.load,v:+e.dataset.v,x:m.x,y:m.y,w:m.w,cut:e.tagName=="path"});
    if(r.left<sb.left-0.5||r.right>sb.right+0.5||r.top<sb.top-0.5||r.bottom>sb.bottom+0.5)c.outside++});
   out.curves.push(c)});
  var host=window.frameElement?parent.document:document; // a phone-wide frame (loadAt) reports to its page
  var p=host.createElement("pre");p.id="latgate-probe";p.textContent=JSON.stringify(out);host.body.appendChild(p);
 });
})();
</script>`

const testCSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`

type probeResult struct {
	Errors   []string
	Requests []string
	Tables   []struct {
		Class                 string
		Scroll, Client, Right float64
	}
	Height   int
	Text     string
	Elements []string
	Points   int // SVG circles laid out with a size, on the page
	// Bars are the session waterfall's bars laid out with a size;
	// BarsOutside those that reach beyond their chart.
	Bars, BarsOutside int
	// Width is the window's, PageWidth the page's (wider: it scrolls
	// sideways).
	Width, PageWidth float64
	// Colors are the report's status colors as the browser computes them.
	Colors struct{ Bad, Warn, Good string }
	// Cells are the HTML report's table cells as laid out: their table
	// (summary, budget, capacity or other), column, text, right edge and
	// width, and the values they hold (class v: one per statistic), each
	// with its color and weight.
	Cells []struct {
		Table, Label, Text string
		Parts              []struct {
			Text, Color string
			Bold        bool
		}
		Left, Right, Width, Height float64
		// Shown is the right edge of the cell's table's visible box (a
		// table wider than it scrolls).
		Shown float64
	}
	// Changes are the change chart's rows: the label (in full), the
	// class of the mark, the change in words, and the boxes of the
	// label, the mark and the change.
	Changes []struct {
		Label, Cls, Value        string
		LabelBox, Mark, ValueBox *box
	}
	// ChangeChart is the change chart's box; Zeros the left edges of its
	// zero lines (one a row, or one); Ticks the boxes of its axis's
	// values shown.
	ChangeChart *box
	Zeros       []float64
	Ticks       []box
	// Charts are the page's charts as laid out: their title, box, whether
	// they scroll (scroll wider than client), how many marks and words
	// they draw, and those that reach beyond the chart or the window.
	Charts []struct {
		Title                       string
		Left, Right, Scroll, Client float64
		Top, Bottom                 float64
		Marks                       int
		Outside                     []string
	}
	// Lis are the page's list items' texts, top those above its first
	// section (the notes).
	Lis []struct {
		Text string
		Top  bool
	}
	// Wrows are the session waterfall's step rows: the lane, the label,
	// the words after the bars and the bars' left and right edges (nil
	// for none).
	Wrows []struct {
		Lane            int
		Label, What     string
		Wait, Gen, Tool *struct{ Left, Right float64 }
	}
	// Pages are the page charts of a browser scenario: their title and
	// their lines as laid out (inside: within their chart).
	Pages []struct {
		Title string
		Lines []struct {
			Kind, Stroke               string
			Left, Right, Width, Height float64
			Inside                     bool
		}
	}
	// Imgs are the screenshots as laid out: their moment, whether they
	// decoded (natural size), their box and caption.
	Imgs []struct {
		At, Caption, Src   string
		Complete, Visible  bool
		Natural, NaturalH  int
		Width, Left, Right float64
	}
	// Curves are the latency–load charts of the capacity searches: the
	// metric, the SLO lines (value, height), the capacity marks (side,
	// load, position) and the points (side, statistic, load, value,
	// centre, width, drawn as ▲ beyond the axis), and how many points
	// lie outside their chart.
	Curves []struct {
		Metric string
		SLO    []struct{ V, Y float64 }
		Caps   []struct {
			Side    string
			Load, X float64
		}
		Points []struct {
			Side, Stat       string
			Load, V, X, Y, W float64
			Cut              bool
		}
		Outside int
	}
}

// box is an element's box in the window's coordinates.
type box struct{ Left, Right, Top, Bottom, Width, Height float64 }

// overlaps reports whether two boxes share more than half a pixel.
func (a box) overlaps(b box) bool {
	return a.Left < b.Right-0.5 && b.Left < a.Right-0.5 && a.Top < b.Bottom-0.5 && b.Top < a.Bottom-0.5
}

// load opens a page in headless Chromium and returns what the probe saw.
func load(t *testing.T, bin, page string) probeResult { return loadAt(t, bin, page, 1200) }

// loadAt is load in a window width pixels wide. Headless Chromium's
// window is at least 500 px wide: a narrower one, a phone's, is a frame
// of that width (its own viewport, which the page's media queries and
// the probe measure) in a page that holds the page as its srcdoc.
func loadAt(t *testing.T, bin, page string, width int) probeResult {
	t.Helper()
	if width < 500 {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		frame := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8">%s</head><body style="margin:0"><iframe style="border:0;width:%dpx;height:900px" srcdoc="%s"></iframe></body></html>`,
			testCSP, width, html.EscapeString(string(b)))
		page = strings.TrimSuffix(page, ".html") + fmt.Sprintf("-%dpx.html", width)
		if err := os.WriteFile(page, []byte(frame), 0o644); err != nil {
			t.Fatal(err)
		}
		width = 1200
	}
	out, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--host-resolver-rules=MAP * ~NOTFOUND", fmt.Sprintf("--window-size=%d,900", width), "--virtual-time-budget=3000",
		"--dump-dom", "file://"+page).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	m := regexp.MustCompile(`(?s)<pre id="latgate-probe">(.*?)</pre>`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the page did not finish loading (no probe result) in %s", page)
	}
	var r probeResult
	if err := json.Unmarshal([]byte(htmlUnescape(string(m[1]))), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&nbsp;", "\u00a0", "&amp;", "&").Replace(s)
}

// shot writes a PNG of a page, light or dark, as tall as the page.
func shot(t *testing.T, bin, page, png string, width, height int, dark bool) {
	t.Helper()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND",
		fmt.Sprintf("--window-size=%d,%d", width, min(height, 6000)), "--screenshot=" + png}
	if dark {
		args = append(args, "--force-dark-mode", "--blink-settings=preferredColorScheme=0")
	}
	if out, err := exec.Command(bin, append(args, "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
}

// phoneShot writes a PNG of a page in a frame width px wide (narrower
// than headless Chromium's window can be), cut to the frame.
func phoneShot(t *testing.T, bin, page, out string, width, height int) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	frame := strings.TrimSuffix(page, ".html") + "-phone.html"
	doc := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0"><iframe style="border:0;width:%dpx;height:%dpx" srcdoc="%s"></iframe></body></html>`,
		width, height, html.EscapeString(string(b)))
	if err := os.WriteFile(frame, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	shot(t, bin, frame, out, 600, height, false)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cut := img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(0, 0, width, height))
	var w bytes.Buffer
	if err := png.Encode(&w, cut); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, w.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func commentPage(t *testing.T, md string, open bool) string {
	body := gfm(t, md)
	if open {
		body = strings.ReplaceAll(body, "<details>", "<details open>")
	}
	return "<!DOCTYPE html><html><head><meta charset=\"utf-8\">" + testCSP + "<meta name=\"color-scheme\" content=\"light dark\"><style>" + githubCSS +
		"</style></head><body><div class=\"markdown-body\">" + body + "</div>" + probe + "</body></html>"
}

// allowed are the elements GitHub keeps in a comment that the report uses.
var allowed = map[string]bool{"h3": true, "p": true, "strong": true, "sub": true, "code": true, "table": true, "thead": true, "tbody": true,
	"tr": true, "th": true, "td": true, "br": true, "ul": true, "li": true, "details": true, "summary": true, "b": true, "a": true, "blockquote": true}

func TestBrowserComments(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			md := Markdown(rep, MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->", MaxLen: 65536, SummaryURL: "https://example.test/summary"})
			if len(md) > 65536 {
				t.Errorf("comment is %d characters, over 65,536", len(md))
			}
			page := filepath.Join(dir, sc.name+".html")
			if err := os.WriteFile(page, []byte(commentPage(t, md, true)), 0o644); err != nil {
				t.Fatal(err)
			}
			r := load(t, bin, page)
			t.Logf("%d characters, %d tables, %d px tall with every section open", len(md), len(r.Tables), r.Height)
			if len(r.Tables) == 0 || r.Text == "" {
				t.Fatal("the comment rendered no table")
			}
			if len(r.Errors) > 0 {
				t.Errorf("console errors: %v", r.Errors)
			}
			if len(r.Requests) > 0 {
				t.Errorf("the comment requested %v", r.Requests)
			}
			for i, tb := range r.Tables {
				if tb.Scroll > tb.Client+1 || tb.Right > 828+16+2 {
					t.Errorf("table %d is %.0f px wide in an 828 px column (visible %.0f)", i+1, tb.Scroll, tb.Client)
				}
			}
			for _, e := range r.Elements {
				if !allowed[e] {
					t.Errorf("the comment produced a <%s> element", e)
				}
			}
			// Leaked markup: Markdown or HTML syntax shown as text. The
			// hostile names are meant to show literally; take them out.
			text := r.Text
			for _, name := range []string{short(hostileName, 48), hostileName, "<script>alert(1)</script>", "| a | b |", "HTTP 500 <b>boom</b> | `x`", "max_requests <b>150</b> | `x` reached"} {
				text = strings.ReplaceAll(text, name, "")
			}
			for _, leak := range []string{"<br>", "</", "<sub", "<details", "**", "&#", "&lt;", "&amp;", "|---", "\\["} {
				if strings.Contains(text, leak) {
					i := strings.Index(text, leak)
					t.Errorf("leaked markup %q: …%s…", leak, text[max(0, i-60):min(len(text), i+60)])
				}
			}
			if sc.name == "hostile" && !strings.Contains(r.Text, "<script>alert(1)</script>") {
				t.Error("the hostile scenario name is not shown literally")
			}
			serverStagesShown(t, sc.name, r.Text)
		})
	}
}

// reportPage writes the HTML report of a case with the probe, under a
// policy that lets the probe run and still blocks (and reports) any
// request.
func reportPage(t *testing.T, dir string, rep *Report, name string) (path, page string) {
	t.Helper()
	var b strings.Builder
	if err := HTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	page = b.String()
	i := strings.Index(page, `<meta http-equiv="Content-Security-Policy"`)
	j := i + strings.Index(page[i:], ">") + 1
	path = filepath.Join(dir, name+".html")
	if err := os.WriteFile(path, []byte(page[:i]+testCSP+strings.Replace(page[j:], "</body>", probe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, page
}

// serverStagesShown: where people read it, the summary names the server's
// stage that moved when a TTFT check fails (engine), and the table says
// what a server does not report rather than showing 0 (pass).
func serverStagesShown(t *testing.T, name, text string) {
	t.Helper()
	switch name {
	case "engine":
		if !regexp.MustCompile(`regression\s*queue \+\d{3} ms, prefill \+\d\.\d ms, outside \+0\.0 ms`).MatchString(text) {
			t.Errorf("the stage that moved is not shown under the status:\n%.1500s", text)
		}
		for _, row := range []string{"Queue", "Prefill", "Outside", "Decode"} {
			if !regexp.MustCompile(`(?m)^\s*` + row + `\s`).MatchString(text) {
				t.Errorf("no %s row shown", row)
			}
		}
	case "pass":
		if !strings.Contains(text, "Queue, prefill, outside") || !strings.Contains(text, NotReported) {
			t.Errorf("the stages the server does not report are not said to be:\n%.1500s", text)
		}
	}
}

func TestBrowserHTMLReport(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			rep := buildCase(t, sc)
			path, page := reportPage(t, dir, rep, sc.name)
			r := load(t, bin, path)
			if len(r.Errors) > 0 {
				t.Errorf("console errors: %v", r.Errors)
			}
			if len(r.Requests) > 0 {
				t.Errorf("the report requested %v", r.Requests)
			}
			for _, e := range r.Elements {
				if e == "script" && strings.Count(page, "<script") > 1 || e == "img" && sc.name != "page" || e == "iframe" || e == "object" {
					t.Errorf("the report has a <%s> element", e)
				}
			}
			if strings.Contains(r.Text, "&lt;") || strings.Contains(r.Text, "&amp;") {
				t.Error("double-escaped text in the report")
			}
			// The agent's waterfall: a bar for each step's wait and
			// generation and each tool, of two sessions per side, drawn
			// inside the chart.
			if sc.name == "agent" && (r.Bars < 4*(2*3+2) || r.BarsOutside > 0 || !strings.Contains(r.Text, "Sessions step by step")) {
				t.Errorf("agent waterfall: %d bars drawn, %d outside the chart", r.Bars, r.BarsOutside)
			}
			checkCellColors(t, rep, r)
			checkChangeChart(t, rep, r)
			checkWaterfall(t, sc.name, r)
			checkPageRuns(t, sc.name, r)
			checkCurves(t, rep, r)
			serverStagesShown(t, sc.name, r.Text)
		})
	}
}

// checkCellColors: every value of the HTML summary and budget tables is
// colored by its own status, as the comment marks it: a failing one red
// and bold (⛔ over budget), an inconclusive one amber (⚠️), a faster one
// green (🟢), any other in the text's color and not bold; a summary cell
// that holds several statistics (its column's and its row's other failing
// or inconclusive ones) colors each. As many red, amber and green values
// as those cells hold failing, inconclusive and faster checks.
func checkCellColors(t *testing.T, rep *Report, r probeResult) {
	t.Helper()
	kind := func(c compare.Check) vocab.Status {
		switch {
		case c.Status == vocab.Regression || c.Status == vocab.OverBudget || c.Regressed:
			return vocab.Regression
		case c.Status == vocab.Inconclusive, c.Status == vocab.Improvement:
			return c.Status
		}
		return ""
	}
	want := map[string]map[vocab.Status]int{"summary": {}, "budget": {}}
	for _, s := range rep.Scenarios {
		for _, col := range summaryCols(rep) {
			row := s.row(col.stage)
			if _, ok := findCheck(rowChecks(row), col.stat); !ok {
				want["summary"][""]++ // "–"
			}
			for _, c := range rowChecks(row) {
				if k := kind(c); c.Stat == col.stat || k == vocab.Regression || k == vocab.Inconclusive {
					want["summary"][k]++
				}
			}
		}
		for _, row := range s.Rows {
			if !row.Silent() && row.Metric != "" {
				for _, c := range row.Checks {
					want["budget"][kind(c)]++
				}
			}
		}
	}
	got := map[string]map[vocab.Status]int{"summary": {}, "budget": {}}
	for _, c := range r.Cells {
		if got[c.Table] == nil {
			continue
		}
		for _, v := range c.Parts {
			marks := map[string]string{"⛔": r.Colors.Bad, "⚠️": r.Colors.Warn, "🟢": r.Colors.Good}
			for m, color := range marks {
				if strings.Contains(v.Text, m) && v.Color != color {
					t.Errorf("%s cell %q (%s): %q is %s, want %s", c.Table, c.Text, c.Label, v.Text, v.Color, color)
				}
			}
			k := map[string]vocab.Status{r.Colors.Bad: vocab.Regression, r.Colors.Warn: vocab.Inconclusive, r.Colors.Good: vocab.Improvement}[v.Color]
			got[c.Table][k]++
			if v.Bold != (k == vocab.Regression) {
				t.Errorf("%s cell %q (%s): %q is %s, bold %v", c.Table, c.Text, c.Label, v.Text, v.Color, v.Bold)
			}
		}
	}
	for _, table := range []string{"summary", "budget"} {
		for _, k := range []struct {
			st   vocab.Status
			what string
		}{{vocab.Regression, "red values (failing checks)"}, {vocab.Inconclusive, "amber values (inconclusive checks)"}, {vocab.Improvement, "green values (faster checks)"}, {"", "values of other statuses"}} {
			if got[table][k.st] != want[table][k.st] {
				t.Errorf("%s: %d %s, want %d", table, got[table][k.st], k.what, want[table][k.st])
			}
		}
	}
}

// rowChecks are a row's checks, none for no row.
func rowChecks(row *Row) []compare.Check {
	if row == nil {
		return nil
	}
	return row.Checks
}

// checkChangeChart: each row of the change chart charts the statistic
// that decided its row's status (no other tested check of the row has a
// worse one), marked in that status's color: red a failing one, amber an
// inconclusive one, green a faster one, grey one not significant (within
// tolerance, no regression shown); every row that fails, is inconclusive,
// faster or shows no regression with an interval beyond the tolerance is
// charted, and a row within tolerance only when its change lies beyond
// it; a row not tested is not.
func checkChangeChart(t *testing.T, rep *Report, r probeResult) {
	t.Helper()
	cls := map[vocab.Status]string{vocab.Regression: "sbad", vocab.OverBudget: "sbad", vocab.Inconclusive: "swarn", vocab.Improvement: "sgood",
		vocab.NoRegressionShown: "sok", vocab.WithinTolerance: "sok", vocab.OK: "sok"}
	charted := map[string]string{}
	for _, c := range r.Changes {
		charted[c.Label] = c.Cls
	}
	tol := 100 * rep.Thresholds.Tolerance
	for _, s := range rep.Scenarios {
		for _, row := range s.Rows {
			if row.Metric == "" || row.Metric.IsRate() || row.SameAs != "" || s.Base == nil {
				continue
			}
			worst, beyondTol := vocab.Status(""), false
			for _, c := range row.Checks {
				if !c.Untested() && !math.IsNaN(c.DeltaPct) {
					worst = worse(worst, rowStatus(c))
				}
			}
			found := false
			for _, c := range row.Checks {
				got, ok := charted[s.Scenario+" @ "+s.Endpoint+" · "+row.Stage+" "+string(c.Stat)]
				if !ok {
					continue
				}
				found, beyondTol = true, math.Abs(c.DeltaPct) > tol
				if rowStatus(c) != worst || got != cls[worst] {
					t.Errorf("%s @ %s %s: the chart draws %s (%s, as %s); its row is %s", s.Scenario, s.Endpoint, row.Stage, c.Stat, rowStatus(c), got, worst)
				}
			}
			switch {
			case !found && len(r.Changes) < 40 && worst != "" && worst != vocab.WithinTolerance && worst != vocab.OK:
				t.Errorf("%s @ %s %s (%s) is not on the change chart", s.Scenario, s.Endpoint, row.Stage, worst)
			case found && (worst == vocab.WithinTolerance || worst == vocab.OK) && !beyondTol:
				t.Errorf("%s @ %s %s (%s) is on the change chart, its change inside the tolerance", s.Scenario, s.Endpoint, row.Stage, worst)
			case found && worst == "":
				t.Errorf("%s @ %s %s, not tested, is on the change chart", s.Scenario, s.Endpoint, row.Stage)
			}
		}
	}
}

// checkWaterfall: a session's tool time is drawn where the tools ran,
// never over the next step: after its step's call in a loop latgate
// drives (agent), within the step on a server-driven agent (aisdk); each
// step labelled with its place (and turn), and the tool it called or
// "answer".
func checkWaterfall(t *testing.T, name string, r probeResult) {
	t.Helper()
	if name != "agent" && name != "aisdk" {
		return
	}
	if len(r.Wrows) < 4*3 {
		t.Fatalf("%s waterfall: %d step rows drawn, want those of two sessions a side", name, len(r.Wrows))
	}
	label := regexp.MustCompile(`^(turn \d+ · )?step \d+$`)
	turn2 := false
	for i, w := range r.Wrows {
		turn2 = turn2 || strings.HasPrefix(w.Label, "turn 2 · step 1")
		if !label.MatchString(w.Label) || w.Wait == nil || w.Gen == nil {
			t.Fatalf("waterfall row %d: label %q, bars %+v %+v", i, w.Label, w.Wait, w.Gen)
		}
		if w.Tool == nil {
			if w.What != "answer" && w.What != "failed" {
				t.Errorf("waterfall row %d (%s) without a tool says %q", i, w.Label, w.What)
			}
			continue
		}
		if w.What != "lookup_order" {
			t.Errorf("waterfall row %d (%s): its tool is labelled %q", i, w.Label, w.What)
		}
		inside := w.Tool.Right <= w.Gen.Right+0.5
		after := w.Tool.Left >= w.Gen.Right-0.5
		if name == "aisdk" && !inside || name == "agent" && !after || w.Tool.Left < w.Wait.Left-0.5 {
			t.Errorf("%s waterfall row %d (%s): tool %.1f–%.1f, step %.1f–%.1f", name, i, w.Label, w.Tool.Left, w.Tool.Right, w.Wait.Left, w.Gen.Right)
		}
		if i+1 < len(r.Wrows) && r.Wrows[i+1].Lane == w.Lane && w.Tool.Right > r.Wrows[i+1].Wait.Left+0.5 {
			t.Errorf("%s waterfall row %d (%s): the tool ends at %.1f, after the next step starts (%.1f)", name, i, w.Label, w.Tool.Right, r.Wrows[i+1].Wait.Left)
		}
	}
	if name == "aisdk" && !turn2 {
		t.Error("the conversation's waterfall names no second turn")
	}
}

// checkPageRuns: a browser scenario's page is drawn where a person sees
// it: for the median and the p95 request of each side, the painted
// characters and the received text as lines of a size inside their
// chart, the received line starting left of the painted one (the client
// stage), and the screenshots at the first paint and the end decoded
// (480×300), shown in the window; each failure's screenshot with its
// error.
func checkPageRuns(t *testing.T, name string, r probeResult) {
	t.Helper()
	if name != "page" {
		if len(r.Pages)+len(r.Imgs) > 0 {
			t.Errorf("%s: %d page charts, %d screenshots", name, len(r.Pages), len(r.Imgs))
		}
		return
	}
	titles := map[string]bool{}
	for _, pg := range r.Pages {
		for _, side := range []string{"baseline", "current"} {
			for _, pick := range []string{"median", "p95"} {
				if strings.HasPrefix(pg.Title, side+" "+pick+" request by TTFT (TTFT ") {
					titles[side+" "+pick] = true
				}
			}
		}
		lines := map[string]float64{}
		for _, l := range pg.Lines {
			if l.Width < 50 || l.Height < 20 || !l.Inside || l.Stroke == "none" {
				t.Errorf("%s: the %s line is %.0f×%.0f px, inside %v, stroke %s", pg.Title, l.Kind, l.Width, l.Height, l.Inside, l.Stroke)
			}
			lines[l.Kind] = l.Left
		}
		if len(lines) != 2 || lines["received"] > lines["painted"] {
			t.Errorf("%s: lines %v, want received left of painted", pg.Title, lines)
		}
	}
	if len(titles) != 4 {
		t.Errorf("page charts %v, want the median and p95 request of both sides", titles)
	}
	n := map[string]int{}
	for _, im := range r.Imgs {
		n[im.At]++
		if !im.Complete || im.Natural != 480 || im.NaturalH != 300 || !im.Visible || im.Width < 200 || im.Left < 0 || im.Right > r.Width+1 ||
			im.Src != "data:image/jpeg;base64," {
			t.Errorf("screenshot %+v: want a decoded 480×300 JPEG shown in the window", im)
		}
		if im.At == "failure" && !strings.Contains(im.Caption, `input "#prompt" matched nothing`) {
			t.Errorf("a failure's screenshot says %q, not its error", im.Caption)
		}
	}
	if n["first_paint"] != 4 || n["end"] != 4 || n["failure"] < 1 || n["failure"] > 3 {
		t.Errorf("screenshots %v, want 4 at the first paint, 4 at the end, the failures'", n)
	}
}

// checkCurves: each capacity search draws its TTFT, inter-token and
// throughput against the load, every level of each side a visible point
// inside its chart; on each chart a higher value is drawn higher and a
// larger load further right; a point over an SLO line is above it and one
// within it below; each side's capacity is marked where its points at that
// load are, and a cut search's not at all; each search's row is on the
// page.
func checkCurves(t *testing.T, rep *Report, r probeResult) {
	t.Helper()
	// Each search's charts in turn: TTFT, inter-token, throughput, with
	// a GPU page the GPU-utilization curve (a median and a max point for
	// each level with one), and with a price the cost–load curve (a
	// point for each level with a goodput).
	type chart struct {
		c      Capacity
		metric string
		points int
	}
	var want []chart
	for _, c := range rep.Capacity {
		levels, costs, gpus := 0, 0, 0
		for _, s := range []*CapacitySide{&c.Head, c.Base} {
			if s == nil {
				continue
			}
			levels += len(s.Levels)
			for _, l := range s.Levels {
				costs += b2i(!math.IsNaN(levelCostOf(*s, l)))
				m, _ := l.levelGPU()
				gpus += b2i(!math.IsNaN(m))
			}
		}
		for _, m := range []string{"ttft", "itl", "throughput"} {
			want = append(want, chart{c, m, 2 * levels})
		}
		if gpus > 0 {
			want = append(want, chart{c, "gpu_util", 2 * gpus})
		}
		if c.Cost != nil {
			want = append(want, chart{c, "cost", costs})
		}
	}
	if len(r.Curves) != len(want) {
		t.Fatalf("%d latency–load, GPU and cost–load charts drawn, want %d for %d capacity searches", len(r.Curves), len(want), len(rep.Capacity))
	}
	for k, cv := range r.Curves {
		c := want[k].c
		name := fmt.Sprintf("%s, %s chart", c.Name(), cv.Metric)
		if cv.Metric != want[k].metric {
			t.Errorf("%s: chart %d is %s, want %s", name, k, cv.Metric, want[k].metric)
		}
		if len(cv.Points) != want[k].points || cv.Outside > 0 {
			t.Errorf("%s: %d points (%d outside the chart), want %d", name, len(cv.Points), cv.Outside, want[k].points)
		}
		for i, a := range cv.Points {
			if a.W <= 0 {
				t.Errorf("%s: point %d is not drawn", name, i)
			}
			for _, b := range cv.Points[i+1:] {
				if a.Load < b.Load && a.X >= b.X || !a.Cut && !b.Cut && a.V < b.V && a.Y < b.Y-0.5 {
					t.Errorf("%s: %v at load %v is drawn at (%.1f, %.1f), %v at %v at (%.1f, %.1f)", name, a.V, a.Load, a.X, a.Y, b.V, b.Load, b.X, b.Y)
				}
			}
			for _, slo := range cv.SLO {
				if a.V > slo.V && a.Y > slo.Y || a.V < slo.V && a.Y < slo.Y {
					t.Errorf("%s: %v at load %v is drawn on the wrong side of the SLO line at %v", name, a.V, a.Load, slo.V)
				}
			}
		}
		checkCapacityMarks(t, name, c, cv.Caps, cv.Points)
		if cv.Metric == "ttft" && len(cv.SLO) == 0 {
			t.Errorf("%s: no SLO line", name)
		}
	}
	for _, c := range rep.Capacity {
		if !strings.Contains(r.Text, c.Line()) {
			t.Errorf("the page does not show %q", c.Line())
		}
	}
}

// checkCapacityMarks: each side with a capacity has one mark, at the x of
// its points at that load; a cut search none.
func checkCapacityMarks(t *testing.T, name string, c Capacity, caps []struct {
	Side    string
	Load, X float64
}, points []struct {
	Side, Stat       string
	Load, V, X, Y, W float64
	Cut              bool
}) {
	t.Helper()
	sides := map[string]*CapacitySide{"cur": &c.Head, "base": c.Base}
	for cls, s := range sides {
		if s == nil {
			continue
		}
		var marks []float64
		for _, m := range caps {
			if m.Side == cls {
				marks = append(marks, m.X)
				if want := s.Result.Capacity * float64(max(s.Result.Shards, 1)); m.Load != want {
					t.Errorf("%s: %s's capacity marked at %v, want %v", name, cls, m.Load, want)
				}
				for _, p := range points {
					if p.Side == cls && p.Load == m.Load && math.Abs(p.X-m.X) > 1 {
						t.Errorf("%s: %s's capacity mark at x %.1f, its points at that load at %.1f", name, cls, m.X, p.X)
					}
				}
			}
		}
		if want := !math.IsNaN(s.Result.Capacity) && s.Result.Complete(); len(marks) != map[bool]int{true: 1, false: 0}[want] {
			t.Errorf("%s: %d marks of %s's capacity (%v, complete %v)", name, len(marks), cls, s.Result.Capacity, s.Result.Complete())
		}
	}
}

// layoutCase is a report of a shape the layout test adds to suiteCases':
// its runs and its thresholds (its budgets).
type layoutCase struct {
	name string
	runs func(rng *rand.Rand) (base, cur []results.Run)
	th   func() compare.Config
}

var layoutCases = []layoutCase{
	// latgate demo's suite: two chats and an agent, the head about four
	// times slower, budgets on TTFT, perceived and answer p95. Its
	// summary has nine columns (perceived, the agent's answer, two
	// failing rows'), as the demo's: at 900 px that needed 899 of a
	// laptop's 852 px and cut its status column off.
	{"demo", func(rng *rand.Rand) (b, c []results.Run) {
		for _, sc := range []string{"chat-short", "chat-long"} {
			b = append(b, fixtureRun(rng, "sim", sc, 40, 0.13, 0.008, 0, false, false))
			c = append(c, fixtureRun(rng, "sim", sc, 40, 0.55, 0.024, 0, false, false))
		}
		sh := sessionShape{toolSteps: 1, toolTTFT: 0.13, answerTTFT: 0.13, toolMs: 100, pace: 0.008}
		b = append(b, sessionRun(rng, "sim", "agent-order", 40, sh))
		sh.toolTTFT, sh.answerTTFT, sh.pace = 0.55, 0.6, 0.024
		c = append(c, sessionRun(rng, "sim", "agent-order", 40, sh))
		// As the simulator streams them: a chat's first readable text a
		// little after its first token, the tool call's name after the
		// agent's first token.
		for _, r := range append(b, c...) {
			for i := range r.Requests {
				q := &r.Requests[i]
				if q.OK && !q.IsSession() {
					q.PerceivedMs = f64(*q.TTFTMs + 60*rng.Float64())
				}
				if q.FirstToolCallMs != nil {
					q.FirstToolCallMs = f64(*q.FirstToolCallMs + 25)
				}
			}
		}
		return
	}, func() compare.Config {
		th := thresholds()
		th.MinDelta = 10
		th.Budgets = []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 300}, {Metric: vocab.Perceived, Stat: vocab.P95, Value: 400},
			{Metric: vocab.Answer, Stat: vocab.P95, Value: 1500}}
		return th
	}},
	// Twice as slow, with budgets on four statistics: budget tables of
	// p50, p95, p99 and mean.
	{"double", func(rng *rand.Rand) (b, c []results.Run) {
		for _, sc := range []string{"chat-short", "chat-long"} {
			b = append(b, fixtureRun(rng, "us-east", sc, 60, 0.40, 0.010, 0, false, false))
			c = append(c, fixtureRun(rng, "us-east", sc, 60, 0.80, 0.020, 0.03, false, false))
		}
		return
	}, func() compare.Config {
		th := thresholds()
		th.Budgets = []compare.Budget{{Metric: vocab.TTFT, Stat: vocab.P95, Value: 900}, {Metric: vocab.Total, Stat: vocab.P99, Value: 2500},
			{Metric: vocab.ITL, Stat: vocab.P50, Value: 15}, {Metric: vocab.Total, Stat: vocab.Mean, Value: 1500}}
		return th
	}},
	// Twelve scenarios with long names on an endpoint with a long name,
	// no spaces in either: slower, faster and alike.
	{"long-names", func(rng *rand.Rand) (b, c []results.Run) {
		ep := "azure-openai-eastus2-gpt-4o-mini-2024-07-18-provisioned-throughput-deployment"
		for s := range 12 {
			sc := fmt.Sprintf("customer-support-escalation-with-retrieval-augmented-context-%02d", s)
			f := []float64{1, 1.5, 0.6, 1.15}[s%4]
			b = append(b, fixtureRun(rng, ep, sc, 50, 0.3, 0.010, 0, false, false))
			c = append(c, fixtureRun(rng, ep, sc, 50, 0.3*f, 0.010*f, 0, false, false))
		}
		return
	}, thresholds},
}

// buildLayoutCase compares a layout case's runs under its thresholds.
func buildLayoutCase(t *testing.T, lc layoutCase) *Report {
	t.Helper()
	br, cr := lc.runs(rand.New(rand.NewPCG(7, uint64(len(lc.name)))))
	base := &results.File{Schema: results.Schema, MetricsVersion: 1, Runs: br}
	cur := &results.File{Schema: results.Schema, MetricsVersion: 1, Runs: cr}
	pairs := results.Match(base, cur)
	th := lc.th()
	return Build(pairs, compare.Compare(compare.Pairs(pairs), th), th)
}

// TestBrowserHTMLLayout lays the HTML report of every case out in
// Chromium at a phone's 390 px, 641 px (the narrowest that is not a
// phone's), a laptop's 900 px and a desktop's 1,280 px, and at each
// width where a table stops being cards (its breakpoint, where it is
// tightest): checkLayout at each.
func TestBrowserHTMLLayout(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	type shape struct {
		name  string
		build func(t *testing.T) *Report
	}
	var shapes []shape
	for _, sc := range suiteCases {
		shapes = append(shapes, shape{sc.name, func(t *testing.T) *Report { return buildCase(t, sc) }})
	}
	for _, lc := range layoutCases {
		shapes = append(shapes, shape{lc.name, func(t *testing.T) *Report { return buildLayoutCase(t, lc) }})
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			rep := sh.build(t)
			path, page := reportPage(t, dir, rep, sh.name)
			widths := []int{390, 641, 900, 1280}
			for _, m := range regexp.MustCompile(`<table class="cards[^"]* w(\d+)"`).FindAllStringSubmatch(page, -1) {
				var w int
				fmt.Sscan(m[1], &w)
				if !slices.Contains(widths, w) {
					widths = append(widths, w)
				}
			}
			rs := loadWidths(t, bin, path, widths)
			for _, w := range widths {
				checkLayout(t, rep, rs[w], w)
			}
		})
	}
}

// loadWidths opens a page once in headless Chromium, in a frame of each
// width (its own viewport, which the page's media queries and the probe
// measure), and returns what the probe saw in each, by width.
func loadWidths(t *testing.T, bin, page string, widths []int) map[int]probeResult {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var frames strings.Builder
	for _, w := range widths {
		fmt.Fprintf(&frames, `<iframe style="display:block;border:0;width:%dpx;height:900px" srcdoc="%s"></iframe>`, w, html.EscapeString(string(b)))
	}
	path := strings.TrimSuffix(page, ".html") + "-widths.html"
	doc := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8">%s</head><body style="margin:0">%s</body></html>`, testCSP, frames.String())
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--host-resolver-rules=MAP * ~NOTFOUND", fmt.Sprintf("--window-size=%d,900", slices.Max(widths)+20), "--virtual-time-budget=5000",
		"--dump-dom", "file://"+path).Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	rs := map[int]probeResult{}
	for _, m := range regexp.MustCompile(`(?s)<pre id="latgate-probe">(.*?)</pre>`).FindAllSubmatch(out, -1) {
		var r probeResult
		if err := json.Unmarshal([]byte(htmlUnescape(string(m[1]))), &r); err != nil {
			t.Fatal(err)
		}
		rs[int(r.Width)] = r
	}
	for _, w := range widths {
		if _, ok := rs[w]; !ok {
			t.Fatalf("the page did not finish loading (no probe result) at %d px in %s", w, path)
		}
	}
	return rs
}

// checkLayout: in a window width px wide the page does not scroll
// sideways; the summary, the budget and the capacity tables fit (tables
// that wrap, or cards; none scrolls), each of their rows with its status
// in the window, wide enough to read, inside its table's visible box;
// the change chart shows each row's label, mark and change (checkChanges);
// every chart is in the window, none scrolls, and each draws its marks
// and words inside it;
// no note above the sections is said twice, nor any warning (⚠️) on the
// page.
func checkLayout(t *testing.T, rep *Report, r probeResult, width int) {
	t.Helper()
	at := fmt.Sprintf("at %d px", width)
	if r.Width != float64(width) || r.PageWidth > r.Width+1 {
		t.Errorf("%s: a window of %.0f px, the page %.0f px wide", at, r.Width, r.PageWidth)
	}
	for _, tb := range r.Tables {
		for _, kind := range []string{"summary", "budget", "capacity"} {
			if slices.Contains(strings.Fields(tb.Class), kind) && (tb.Scroll > tb.Client+1 || tb.Right > r.Width+1) {
				t.Errorf("%s: a %s table (%s) is %.0f px wide, %.0f visible, its right edge at %.0f", at, kind, tb.Class, tb.Scroll, tb.Client, tb.Right)
			}
		}
	}
	want := map[string]int{"summary": len(rep.Scenarios), "capacity": len(rep.Capacity)}
	for i, c := range rep.Capacity {
		want["capacity"] += b2i(costHTMLRow(i, c) != nil) // a priced search's cost row under its own
	}
	if len(rep.Scenarios) == 0 && len(rep.Capacity) > 0 {
		want["summary"] = 0
	}
	for _, s := range rep.Scenarios {
		for _, row := range s.Rows {
			if !row.Silent() {
				want["budget"]++
			}
		}
	}
	got := map[string]int{}
	for _, c := range r.Cells {
		if c.Label != "status" || c.Table == "other" {
			continue
		}
		got[c.Table]++
		if c.Text != "" && (c.Left < -0.5 || c.Right > math.Min(r.Width, c.Shown)+1 || c.Width < 60 || c.Height < 10) {
			t.Errorf("%s: a status %q of the %s table is at %.0f–%.0f px (%.0f×%.0f), its table shown to %.0f", at, c.Text, c.Table, c.Left, c.Right, c.Width, c.Height, c.Shown)
		}
	}
	for _, table := range []string{"summary", "budget", "capacity"} {
		if got[table] != want[table] {
			t.Errorf("%s: %d status cells in the %s tables, want one a row: %d", at, got[table], table, want[table])
		}
	}
	checkChanges(t, r, at)
	for _, c := range r.Charts {
		if c.Left < -0.5 || c.Right > r.Width+0.5 || c.Scroll > c.Client+1 || c.Marks == 0 || len(c.Outside) > 0 {
			t.Errorf("%s: the chart %q at %.0f–%.0f px scrolls %.0f in %.0f px; of its %d marks and words %d reach beyond it or the window: %q…",
				at, c.Title, c.Left, c.Right, c.Scroll, c.Client, c.Marks, len(c.Outside), c.Outside[:min(3, len(c.Outside))])
		}
	}
	said := map[string]bool{}
	for _, li := range r.Lis {
		if (li.Top || strings.Contains(li.Text, "⚠️")) && said[li.Text] {
			t.Errorf("%s: said twice: %q", at, li.Text)
		}
		said[li.Text] = true
	}
}

// checkChanges: each row of the change chart has its label, its mark and
// its change inside the chart and the window, at their size (a mark 8 px
// or more across, words 10 px tall or more), none over another; the rows
// share one axis (their zero lines at one x) on which a larger change is
// further right; the axis's values are in the window, apart.
func checkChanges(t *testing.T, r probeResult, at string) {
	t.Helper()
	if len(r.Changes) == 0 {
		return
	}
	ch := r.ChangeChart
	for _, c := range r.Changes {
		for _, part := range []struct {
			name string
			b    *box
		}{{"label", c.LabelBox}, {"mark", c.Mark}, {"change", c.ValueBox}} {
			if b := part.b; b == nil || b.Width < 1 || b.Left < math.Max(0, ch.Left)-0.5 || b.Right > math.Min(r.Width, ch.Right)+0.5 {
				t.Errorf("%s: the change chart's %s of %q is at %+v, the chart %.0f–%.0f px, the window %.0f", at, part.name, c.Label, b, ch.Left, ch.Right, r.Width)
				return
			}
		}
		if c.Mark.Width < 8 || c.LabelBox.Height < 10 || c.ValueBox.Height < 10 {
			t.Errorf("%s: the change chart's row %q is drawn too small: mark %.1f px across, label %.1f and change %.1f px tall", at, c.Label, c.Mark.Width, c.LabelBox.Height, c.ValueBox.Height)
		}
		if c.Mark.overlaps(*c.LabelBox) || c.Mark.overlaps(*c.ValueBox) || c.LabelBox.overlaps(*c.ValueBox) {
			t.Errorf("%s: the change chart's row %q: label %+v, mark %+v and change %+v overlap", at, c.Label, *c.LabelBox, *c.Mark, *c.ValueBox)
		}
	}
	for _, z := range r.Zeros {
		if math.Abs(z-r.Zeros[0]) > 1 {
			t.Errorf("%s: the change chart's zero lines at %v: not one axis", at, r.Zeros)
			break
		}
	}
	pct := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(s, "+"), "%"), 64)
		if err != nil {
			t.Fatalf("a change %q", s)
		}
		return v
	}
	for i, a := range r.Changes {
		for _, b := range r.Changes[i+1:] {
			xa, xb := (a.Mark.Left+a.Mark.Right)/2, (b.Mark.Left+b.Mark.Right)/2
			if da, db := pct(a.Value), pct(b.Value); da < db && xa > xb+0.5 || da > db && xa < xb-0.5 {
				t.Errorf("%s: the change chart draws %s (%q) at x %.1f, %s (%q) at %.1f", at, a.Value, a.Label, xa, b.Value, b.Label, xb)
			}
		}
	}
	for i, a := range r.Ticks {
		if a.Left < -0.5 || a.Right > r.Width+0.5 || i > 0 && a.overlaps(r.Ticks[i-1]) {
			t.Errorf("%s: the change chart's axis values at %+v", at, r.Ticks)
			break
		}
	}
}

// TestBrowserTrend renders main's trend page: no console error, no
// request, every run of every series drawn as a visible point, and the
// hostile name shown as text.
func TestBrowserTrend(t *testing.T) {
	bin := chromium(t)
	tr := trendFixture()
	var b strings.Builder
	if err := TrendHTML(&b, tr); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	i := strings.Index(page, `<meta http-equiv="Content-Security-Policy"`)
	j := i + strings.Index(page[i:], ">") + 1
	page = page[:i] + testCSP + page[j:]
	page = strings.Replace(page, "</body>", probe+"</body>", 1)
	path := filepath.Join(t.TempDir(), "trend.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	r := load(t, bin, path)
	if len(r.Errors) > 0 || len(r.Requests) > 0 {
		t.Errorf("console errors %v, requests %v", r.Errors, r.Requests)
	}
	want := 0
	for _, s := range tr.Analysis.Series {
		want += len(s.Points)
	}
	if r.Points != want {
		t.Errorf("%d points visible, want %d (one per run of every series)", r.Points, want)
	}
	if !strings.Contains(r.Text, "<img src=x onerror=alert(1)>") || strings.Contains(r.Text, "&lt;") {
		t.Errorf("the hostile name is not shown literally once:\n%.2000s", r.Text)
	}
}

// TestBrowserProbe shows that the probe sees what the tests fail on: a
// table wider than the column, a request, a script error, leaked markup.
func TestBrowserProbe(t *testing.T) {
	bin := chromium(t)
	md := "| a | b |\n|---|---|\n| " + strings.Repeat("x", 300) + " | y |\n\n\\*\\*not bold\\*\\* ![i](https://example.test/i.png)\n"
	page := filepath.Join(t.TempDir(), "bad.html")
	bad := strings.Replace(commentPage(t, md, false), "</body>", "<script>undefinedFunction()</script></body>", 1)
	if err := os.WriteFile(page, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	r := load(t, bin, page)
	if len(r.Tables) != 1 || r.Tables[0].Scroll <= r.Tables[0].Client {
		t.Errorf("wide table not seen: %+v", r.Tables)
	}
	if len(r.Requests) == 0 {
		t.Error("image request not seen")
	}
	if len(r.Errors) == 0 {
		t.Error("script error not seen")
	}
	if !strings.Contains(r.Text, "**not bold**") {
		t.Errorf("text %q", r.Text)
	}
}

// TestScreenshots writes the PNGs of docs/report.md (make screenshots).
func TestScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("-screenshots DIR not given")
	}
	bin := chromium(t)
	if err := os.MkdirAll(*screenshots, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, sc := range suiteCases {
		if sc.name == "few-requests" || sc.name == "hostile" || sc.name == "aisdk" {
			continue
		}
		rep := buildCase(t, sc)
		md := Markdown(rep, MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->", MaxLen: 65536})
		page := filepath.Join(dir, "comment-"+sc.name+".html")
		// The screenshot shows the comment as it arrives: the probe opens
		// no section this time, and measures the height.
		if err := os.WriteFile(page, []byte(strings.Replace(commentPage(t, md, false), probe, strings.Replace(probe, `d.open=true`, ``, 1), 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		h := load(t, bin, page).Height
		os.WriteFile(page, []byte(strings.Replace(commentPage(t, md, false), probe, "", 1)), 0o644)
		shot(t, bin, page, filepath.Join(*screenshots, "comment-"+sc.name+".png"), 860, min(h, 2400), false)
		if sc.name == "fail" {
			shot(t, bin, page, filepath.Join(*screenshots, "comment-"+sc.name+"-dark.png"), 860, min(h, 2400), true)
		}
	}
	var b strings.Builder
	if err := HTML(&b, buildCase(t, suiteCases[1])); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	os.WriteFile(page, []byte(b.String()), 0o644)
	shot(t, bin, page, filepath.Join(*screenshots, "report-html.png"), 1150, 1900, false)
	shot(t, bin, page, filepath.Join(*screenshots, "report-html-dark.png"), 1150, 1900, true)
	phoneShot(t, bin, page, filepath.Join(*screenshots, "report-html-390.png"), 390, 2100)
	// The capacity searches alone: their table and the first one's curves.
	rep := buildCase(t, suiteCases[slices.IndexFunc(suiteCases, func(sc suiteCase) bool { return sc.name == "capacity" })])
	rep.Scenarios, rep.Result.Checks, rep.Tested = nil, nil, 0
	rep.Headline = Headline(rep)
	b.Reset()
	if err := HTML(&b, rep); err != nil {
		t.Fatal(err)
	}
	page = filepath.Join(dir, "capacity.html")
	os.WriteFile(page, []byte(b.String()), 0o644)
	shot(t, bin, page, filepath.Join(*screenshots, "report-capacity.png"), 1150, 1250, false)
	// The demo's shape on a laptop: its summary as cards.
	b.Reset()
	if err := HTML(&b, buildLayoutCase(t, layoutCases[0])); err != nil {
		t.Fatal(err)
	}
	page = filepath.Join(dir, "demo.html")
	os.WriteFile(page, []byte(b.String()), 0o644)
	shot(t, bin, page, filepath.Join(*screenshots, "report-html-900.png"), 900, 1500, false)
	b.Reset()
	if err := TrendHTML(&b, trendFixture()); err != nil {
		t.Fatal(err)
	}
	page = filepath.Join(dir, "trend.html")
	os.WriteFile(page, []byte(b.String()), 0o644)
	shot(t, bin, page, filepath.Join(*screenshots, "trend-html.png"), 1150, 1250, false)
}

// TestBrowserTraceScatter: a run drawn from a trace draws its scatter of
// TTFT against input length in the browser: a dot for each request not
// hidden by another, each stratum's median a line of each side, every
// mark inside its chart, nothing requested, no console error; the
// workload line and the prompt-length warning are on the page.
func TestBrowserTraceScatter(t *testing.T) {
	bin := chromium(t)
	rep := buildTrace(t)
	path, _ := reportPage(t, t.TempDir(), rep, "trace")
	r := load(t, bin, path)
	if len(r.Errors) > 0 || len(r.Requests) > 0 {
		t.Errorf("console errors %v, requests %v", r.Errors, r.Requests)
	}
	found := false
	for _, c := range r.Charts {
		if !strings.HasPrefix(c.Title, "TTFT (ms) against the trace's input length") {
			continue
		}
		found = true
		// 400 requests a side, less the dots within a pixel of another.
		if c.Marks < 400 || len(c.Outside) > 0 || c.Scroll > c.Client {
			t.Errorf("scatter: %d marks, outside %v, scroll %v of %v", c.Marks, c.Outside, c.Scroll, c.Client)
		}
	}
	if !found {
		t.Error("no scatter of TTFT against input length")
	}
	for _, want := range []string{"Workload: 400 of 1,000,000 entries of chat.jsonl (mooncake)", "The current run's prompts were longer than the trace's", "TTFT · input 3,901–31,000"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the page does not show %q", want)
		}
	}
}

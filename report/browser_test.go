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
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
.markdown-body details{margin:0 0 16px}.markdown-body summary{cursor:pointer}.markdown-body ul{padding-left:2em}`

// probe is the script the tests add to a page: it records errors, any
// request for a resource and the layout, as JSON in #latgate-probe.
const probe = `<script>
(function(){
 var out={errors:[],requests:[],tables:[],height:0,text:"",elements:[],points:0,bars:0,barsOutside:0};
 window.addEventListener("error",function(e){out.errors.push(String(e.message))});
 document.addEventListener("securitypolicyviolation",function(e){out.requests.push(e.blockedURI+" ("+e.violatedDirective+")")});
 var ce=console.error;console.error=function(){out.errors.push(Array.from(arguments).join(" "));ce.apply(console,arguments)};
 window.addEventListener("load",function(){
  document.querySelectorAll("details").forEach(function(d){d.open=true});
  performance.getEntriesByType("resource").forEach(function(r){out.requests.push(r.name)});
  var root=document.querySelector(".markdown-body")||document.body;
  root.querySelectorAll("table").forEach(function(t){out.tables.push({scroll:t.scrollWidth,client:t.clientWidth,right:t.getBoundingClientRect().right})});
  out.height=document.documentElement.scrollHeight;
  out.text=root.innerText;
  var seen={};root.querySelectorAll("*").forEach(function(e){seen[e.tagName.toLowerCase()]=1});out.elements=Object.keys(seen);
  root.querySelectorAll("svg circle").forEach(function(c){var r=c.getBoundingClientRect();if(r.width>0&&r.height>0&&r.right>0&&r.bottom>0)out.points++});
  root.querySelectorAll("svg[aria-label='session waterfall'] rect").forEach(function(b){var r=b.getBoundingClientRect(),s=b.ownerSVGElement.getBoundingClientRect();if(r.width>0&&r.height>0)out.bars++;if(r.left<s.left-0.5||r.right>s.right+0.5||r.top<s.top-0.5||r.bottom>s.bottom+0.5)out.barsOutside++});
  var p=document.createElement("pre");p.id="latgate-probe";p.textContent=JSON.stringify(out);document.body.appendChild(p);
 });
})();
</script>`

const testCSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`

type probeResult struct {
	Errors   []string
	Requests []string
	Tables   []struct{ Scroll, Client, Right float64 }
	Height   int
	Text     string
	Elements []string
	Points   int // SVG circles laid out with a size, on the page
	// Bars are the session waterfall's bars laid out with a size;
	// BarsOutside those that reach beyond their chart.
	Bars, BarsOutside int
}

// load opens a page in headless Chromium and returns what the probe saw.
func load(t *testing.T, bin, page string) probeResult {
	t.Helper()
	out, err := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1200,900", "--virtual-time-budget=3000",
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
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
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
			for _, name := range []string{short(hostileName, 48), hostileName, "<script>alert(1)</script>", "| a | b |", "HTTP 500 <b>boom</b> | `x`"} {
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
		})
	}
}

func TestBrowserHTMLReport(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	for _, sc := range suiteCases {
		t.Run(sc.name, func(t *testing.T) {
			var b strings.Builder
			if err := HTML(&b, buildCase(t, sc)); err != nil {
				t.Fatal(err)
			}
			page := b.String()
			// Swap the report's policy for one that lets the probe run and
			// still blocks (and reports) any request.
			i := strings.Index(page, `<meta http-equiv="Content-Security-Policy"`)
			j := i + strings.Index(page[i:], ">") + 1
			page = page[:i] + testCSP + page[j:]
			page = strings.Replace(page, "</body>", probe+"</body>", 1)
			path := filepath.Join(dir, sc.name+".html")
			if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			r := load(t, bin, path)
			if len(r.Errors) > 0 {
				t.Errorf("console errors: %v", r.Errors)
			}
			if len(r.Requests) > 0 {
				t.Errorf("the report requested %v", r.Requests)
			}
			for _, e := range r.Elements {
				if e == "script" && strings.Count(page, "<script") > 1 || e == "img" || e == "iframe" || e == "object" {
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
		})
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
	html := strings.Replace(commentPage(t, md, false), "</body>", "<script>undefinedFunction()</script></body>", 1)
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
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
		if sc.name == "few-requests" || sc.name == "hostile" {
			continue
		}
		rep := buildCase(t, sc)
		md := Markdown(rep, MarkdownOptions{Marker: "<!-- latgate:comment key=\"k\" -->", MaxLen: 65536})
		page := filepath.Join(dir, "comment-"+sc.name+".html")
		if err := os.WriteFile(page, []byte(commentPage(t, md, false)), 0o644); err != nil {
			t.Fatal(err)
		}
		h := load(t, bin, page).Height
		// The screenshot shows the comment as it arrives: the probe opens
		// no section this time, and measures the height again.
		os.WriteFile(page, []byte(strings.Replace(commentPage(t, md, false), probe, strings.Replace(probe, `d.open=true`, ``, 1), 1)), 0o644)
		h = load(t, bin, page).Height
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
	b.Reset()
	if err := TrendHTML(&b, trendFixture()); err != nil {
		t.Fatal(err)
	}
	page = filepath.Join(dir, "trend.html")
	os.WriteFile(page, []byte(b.String()), 0o644)
	shot(t, bin, page, filepath.Join(*screenshots, "trend-html.png"), 1150, 1250, false)
}

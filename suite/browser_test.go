package suite

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const page = "endpoints:\n  - name: web\n    api: browser\n    url: http://127.0.0.1:3000/\n    browser:\n"

// TestBrowserEndpoint: a page's block read whole, its cookies' values from
// the environment kept as secrets, its throttling and viewport in the
// fingerprint.
func TestBrowserEndpoint(t *testing.T) {
	t.Parallel()
	src := page + `      input: textarea
      submit: Enter
      output: "[data-role=assistant]"
      done: "[data-status=ready]"
      reset: "#new"
      stream: /api/chat
      cpu_throttle: 4
      viewport: {width: 390, height: 844}
      cookies: {session: "${SESSION}", theme: dark}
      screenshots: false
scenarios:
  - {name: chat, prompt: hi, turns: ["and then?"]}
`
	cfg, err := Parse("l.yaml", []byte(src), Options{Getenv: env(map[string]string{"SESSION": "tok-secret"})})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Endpoints[0]
	b := e.Browser
	if b == nil || b.Input != "textarea" || b.Submit != "Enter" || b.Output != "[data-role=assistant]" || b.Done != "[data-status=ready]" ||
		b.Reset != "#new" || b.Stream != "/api/chat" || b.CPUThrottle != 4 || b.Width != 390 || b.Height != 844 || b.Screenshots ||
		b.Cookies["session"] != "tok-secret" || b.Cookies["theme"] != "dark" || e.URL != "http://127.0.0.1:3000/" {
		t.Fatalf("browser endpoint %+v, block %+v", e, b)
	}
	if !slices.Contains(cfg.Secrets(), "tok-secret") {
		t.Errorf("secrets %v: want the cookie's value from the environment", cfg.Secrets())
	}
	_, parts := Fingerprint(cfg.Scenarios[0], e)
	if parts["cpu_throttle"] != "4" || parts["viewport"] != "390x844" || parts["api"] != "browser" || parts["host"] != "127.0.0.1:3000" {
		t.Errorf("fingerprint parts %v", parts)
	}
	light, _ := Parse("l.yaml", []byte(page+"      {input: textarea, submit: button, output: .a}\n"+scen), Options{})
	_, parts = Fingerprint(light.Scenarios[0], light.Endpoints[0])
	if light.Endpoints[0].Browser.CPUThrottle != 1 || !light.Endpoints[0].Browser.Screenshots || parts["cpu_throttle"] != "" || parts["viewport"] != "" || parts["page"] != "" {
		t.Errorf("defaults: %+v, fingerprint %v", light.Endpoints[0].Browser, parts)
	}
	// Two builds of a page on one host (the demo's: a query) are two
	// configurations, never an A/A run; the host's root is the page of
	// before (its fingerprint unchanged); a query's token is hashed.
	fp := func(u string) (string, map[string]string) {
		ep := light.Endpoints[0]
		ep.URL = u
		return Fingerprint(light.Scenarios[0], ep)
	}
	root, _ := fp("http://127.0.0.1:3000")
	slash, _ := fp("http://127.0.0.1:3000/")
	heavy, hp := fp("http://127.0.0.1:3000/?render=markdown&token=tok-secret")
	other, _ := fp("http://127.0.0.1:3000/preview/")
	if root != slash || heavy == slash || other == slash || other == heavy || strings.Contains(fmt.Sprint(hp), "tok-secret") {
		t.Errorf("page fingerprints: root %s, / %s, ?render… %s (%v), /preview/ %s", root, slash, heavy, hp, other)
	}
}

// TestBrowserErrors: what a page's block must hold, and what a page is
// never given; a cookie's value is never echoed.
func TestBrowserErrors(t *testing.T) {
	t.Parallel()
	sel := "      input: textarea\n      submit: button\n      output: .a\n"
	tests := []struct{ name, src, want string }{
		{"no block", "endpoints:\n  - {name: web, api: browser, url: http://x/}\n" + scen, `endpoint "web": api browser needs browser (the page's input, submit and output selectors)`},
		{"no selectors", page + "      done: .d\n" + scen, `endpoint "web": browser.input is required: the CSS selector of the prompt box`},
		{"no output", page + "      input: textarea\n      submit: button\n" + scen, `browser.output is required: the CSS selector of where the answer appears: the text of its last match`},
		{"throttle", page + sel + "      cpu_throttle: 0.5\n" + scen, `browser.cpu_throttle 0.5: Chrome's CPU throttling rate, from 1 (none) to 20`},
		{"viewport", page + sel + "      viewport: {width: 50, height: 800}\n" + scen, `browser.viewport 50x800: width and height in CSS pixels`},
		{"unknown key", page + sel + "      selector: x\n" + scen, `selector`},
		{"a key", "endpoints:\n  - {name: web, api: browser, url: http://x/, api_key_env: K, browser: {input: a, submit: b, output: c}}\n" + scen,
			`endpoint "web": api browser sends no key and no header (the page makes its own requests): give the page a cookie in browser.cookies if it needs one`},
		{"headers", "endpoints:\n  - {name: web, api: browser, url: http://x/, headers: {X-A: b}, browser: {input: a, submit: b, output: c}}\n" + scen, `api browser sends no key and no header`},
		{"cookie name", page + sel + "      cookies: {\"a b\": v}\n" + scen, `browser.cookies: "a b" is not a cookie name`},
		{"cookie value", page + sel + "      cookies: {s: \"tok;secret\"}\n" + scen, `browser.cookies.s: a cookie's value holds no ';' and no line break`},
		{"tools", page + sel + "scenarios:\n  - {name: s, prompt: hi, tools: [{name: f, result: ok}]}\n", `tools`},
		{"path", page + sel + "      path: tools/evil.sh\n" + scen, `l.yaml:9: endpoint "web": browser.path is not read from a suite (a pull request can change the suite, and latgate would run the program it names in a job that holds the keys): set $CHROME_PATH`},
		{"block on chat", "endpoints:\n  - {name: c, base_url: http://x/v1, model: m, browser: {input: a, submit: b, output: c}}\n" + scen, `endpoint "c": browser is not a key of api chat`},
	}
	for _, tt := range tests {
		_, err := Parse("l.yaml", []byte(tt.src), Options{Getenv: env(map[string]string{"K": "sk"})})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error shows a cookie's value: %v", tt.name, err)
		}
	}
}

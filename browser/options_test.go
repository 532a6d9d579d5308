package browser

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
)

// TestCheck: bad options are an error before any browser starts, naming
// the key; a cookie's value never shows.
func TestCheck(t *testing.T) {
	t.Parallel()
	good := Options{URL: "http://127.0.0.1:3000/", Input: "textarea", Submit: "Enter", Output: "[data-role=assistant]"}
	if err := good.Check(); err != nil {
		t.Fatalf("good options: %v", err)
	}
	tests := []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.URL = "" }, "url: missing (the chat page)"},
		{func(o *Options) { o.URL = "file:///etc/passwd" }, `url "file:///etc/passwd": want an http:// or https:// URL of the chat page`},
		{func(o *Options) { o.URL = "http://" }, `want an http:// or https:// URL`},
		{func(o *Options) { o.Input = " " }, "input: missing (a CSS selector)"},
		{func(o *Options) { o.Submit, o.Output = "", "" }, "submit: missing (a CSS selector); output: missing (a CSS selector)"},
		{func(o *Options) { o.CPUThrottle = 0.5 }, "cpu_throttle 0.5: between 1 (none) and 20"},
		{func(o *Options) { o.Viewport = Viewport{Width: 50, Height: 800} }, "viewport 50x800:"},
		{func(o *Options) { o.Cookies = []Cookie{{Name: "s", Value: "tok;en-secret"}} }, `cookie "s": a name, and no ';'`},
	}
	for _, tt := range tests {
		o := good
		tt.edit(&o)
		err := o.Check()
		if err == nil || !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check() = %v, want %q", err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("the error shows a cookie's value: %v", err)
		}
	}
	d := good.withDefaults()
	if d.Reset != ResetReload || d.CPUThrottle != 1 || d.Viewport != DefaultViewport || d.Timeout != DefaultTimeout || d.Quiet != DefaultQuiet {
		t.Errorf("defaults: %+v", d)
	}
}

// TestFind: $CHROME_PATH, then PATH; none found says how to install one,
// and nothing is downloaded. A relative $CHROME_PATH is made absolute
// (cleaned, ./chromium was a bare name, looked up on PATH, that failed).
func TestFind(t *testing.T) {
	t.Parallel()
	on := map[string]string{"google-chrome": "/usr/bin/google-chrome", "/opt/chrome": "/opt/chrome", "./chromium": "./chromium"}
	env := func(chromePath string) Env {
		return Env{
			Getenv: func(k string) string {
				if k == "CHROME_PATH" {
					return chromePath
				}
				return ""
			},
			LookPath: func(name string) (string, error) {
				if p, ok := on[name]; ok {
					return p, nil
				}
				return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
			},
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ chromePath, want, err string }{
		{"", "/usr/bin/google-chrome", ""},
		{"/opt/chrome", "/opt/chrome", ""},
		{"./chromium", filepath.Join(wd, "chromium"), ""},
		{"/nowhere", "", `$CHROME_PATH "/nowhere": not an executable browser (executable file not found in $PATH); install one`},
	} {
		got, err := Find(env(tt.chromePath))
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Find with $CHROME_PATH %q = %q, %v; want %q, %q", tt.chromePath, got, err, tt.want, tt.err)
		}
	}
	delete(on, "google-chrome")
	_, err = Find(env(""))
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "apt-get install chromium") || !strings.Contains(err.Error(), "$CHROME_PATH") {
		t.Errorf("no browser: %v", err)
	}
}

// TestCookieParams: a cookie of the options is set for the page's origin
// only: host-only, bound to its scheme and port, HttpOnly, Secure on
// https, for every path.
func TestCookieParams(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		page, url string
		secure    bool
		port      int64
		scheme    network.CookieSourceScheme
	}{
		{"http://127.0.0.1:3000/chat?x=1", "http://127.0.0.1:3000/", false, 3000, network.CookieSourceSchemeNonSecure},
		{"https://preview.example.com/app/chat", "https://preview.example.com/", true, 443, network.CookieSourceSchemeSecure},
		{"http://localhost/", "http://localhost/", false, 80, network.CookieSourceSchemeNonSecure},
	} {
		c := cookieParams(Cookie{Name: "session", Value: "v"}, tt.page)
		if c.URL != tt.url || c.Domain != "" || c.Path != "/" || c.HTTPOnly == nil || !*c.HTTPOnly || c.Secure == nil || *c.Secure != tt.secure ||
			c.SourcePort != tt.port || c.SourceScheme != tt.scheme || c.SameSite != network.CookieSameSiteStrict {
			t.Errorf("%s: %+v", tt.page, c)
		}
	}
}

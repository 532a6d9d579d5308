package browser

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
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

// TestFind: browser.path, then $CHROME_PATH, then PATH; none found says
// how to install one, and nothing is downloaded.
func TestFind(t *testing.T) {
	t.Parallel()
	on := map[string]string{"google-chrome": "/usr/bin/google-chrome", "/opt/chrome": "/opt/chrome"}
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
	for _, tt := range []struct{ path, chromePath, want, err string }{
		{"", "", "/usr/bin/google-chrome", ""},
		{"/opt/chrome", "/nowhere", "/opt/chrome", ""},
		{"", "/opt/chrome", "/opt/chrome", ""},
		{"/nowhere/chrome", "", "", `browser.path "/nowhere/chrome": not an executable browser (executable file not found in $PATH); install one`},
		{"", "/nowhere", "", `$CHROME_PATH "/nowhere": not an executable browser`},
	} {
		got, err := Find(tt.path, env(tt.chromePath))
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Find(%q) with $CHROME_PATH %q = %q, %v; want %q, %q", tt.path, tt.chromePath, got, err, tt.want, tt.err)
		}
	}
	delete(on, "google-chrome")
	_, err := Find("", env(""))
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "apt-get install chromium") || !strings.Contains(err.Error(), "$CHROME_PATH") {
		t.Errorf("no browser: %v", err)
	}
}

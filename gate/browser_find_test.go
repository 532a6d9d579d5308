package gate

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/suite"
)

// pageConfig is a suite of one chat page at url.
func pageConfig(t *testing.T, url string) *suite.Config {
	t.Helper()
	cfg, err := suite.Parse("page.yaml", []byte(`endpoints:
  - name: web
    api: browser
    url: `+url+`/
    browser: {input: textarea, submit: button, output: .a}
scenarios:
  - {name: s, prompt: hi, requests: 2}
`), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestBrowserNotFoundBeforeAnyRequest: a chat page whose browser is not
// there is bad input, said before any request, with how to get one.
func TestBrowserNotFoundBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	getenv := func(k string) string { return map[string]string{"CHROME_PATH": "/nowhere/chromium"}[k] }
	_, err := Measure(context.Background(), pageConfig(t, srv.URL), MeasureOptions{Progress: io.Discard, Getenv: getenv})
	if KindOf(err) != BadInput || !strings.Contains(err.Error(), `endpoint "web" (a chat page in a browser): $CHROME_PATH "/nowhere/chromium": not an executable browser`) ||
		!strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("Measure = %v (kind %v)", err, KindOf(err))
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests reached the page", hits.Load())
	}
}

// TestBrowserSandboxBeforeAnyRequest: as root the browser cannot run
// sandboxed: without $LATGATE_BROWSER_NO_SANDBOX that is bad input before
// any request, saying how to run sandboxed; with it the browser runs
// without its sandbox, and latgate says so.
func TestBrowserSandboxBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	cfg := pageConfig(t, "http://127.0.0.1:9")
	for _, allow := range []string{"", "1"} {
		env := browser.Env{
			Getenv:   func(k string) string { return map[string]string{browser.NoSandboxVar: allow}[k] },
			LookPath: func(name string) (string, error) { return "/usr/bin/" + name, nil },
			Getuid:   func() int { return 0 },
		}
		var said bytes.Buffer
		ps, err := pages(context.Background(), env, nil, &said, cfg)
		if ps != nil {
			ps.Close()
		}
		if allow == "" && (KindOf(err) != BadInput || !strings.Contains(err.Error(), `endpoint "web" (a chat page in a browser): the browser's sandbox cannot run as root`) ||
			!strings.Contains(err.Error(), "a user other than root") || !strings.Contains(err.Error(), browser.NoSandboxVar+"=1")) {
			t.Errorf("as root: %v (kind %v)", err, KindOf(err))
		}
		if allow == "1" && (err != nil || ps == nil || !strings.Contains(said.String(), "latgate: the browser runs without Chromium's sandbox")) {
			t.Errorf("allowed: %v, said %q", err, said.String())
		}
	}
	env := browser.Env{Getenv: func(string) string { return "" }, LookPath: func(string) (string, error) { return "", exec.ErrNotFound }, Getuid: func() int { return 0 }}
	if ps, err := pages(context.Background(), env, nil, io.Discard, &suite.Config{}); ps != nil || err != nil {
		t.Errorf("a suite without pages: %v, %v", ps, err)
	}
}

package gate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/latgate/latgate/suite"
)

// TestBrowserNotFoundBeforeAnyRequest: a chat page whose browser is not
// there is bad input, said before any request, with how to get one.
func TestBrowserNotFoundBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	cfg, err := suite.Parse("page.yaml", []byte(`endpoints:
  - name: web
    api: browser
    url: `+srv.URL+`/
    browser: {input: textarea, submit: button, output: .a, path: /nowhere/chromium}
scenarios:
  - {name: s, prompt: hi, requests: 2}
`), suite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Measure(context.Background(), cfg, MeasureOptions{Progress: io.Discard})
	if KindOf(err) != BadInput || !strings.Contains(err.Error(), `endpoint "web" (a chat page in a browser): browser.path "/nowhere/chromium": not an executable browser`) ||
		!strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("Measure = %v (kind %v)", err, KindOf(err))
	}
	if hits.Load() != 0 {
		t.Errorf("%d requests reached the page", hits.Load())
	}
}

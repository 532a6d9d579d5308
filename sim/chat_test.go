package sim

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestChatPage serves the reference chat page and its script, and refuses
// a query it would not honour with a 400 that says what is valid.
func TestChatPage(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(New(Profile{TTFT: Fixed(0), Tokens: 3}, 1))
	defer srv.Close()
	tests := []struct {
		path, status, body, ctype string
	}{
		{"/chat", "200", `<textarea name="prompt"`, "text/html"},
		{"/chat?render=markdown&cost=40&model=fast", "200", `src="/chat.js"`, "text/html"},
		{"/chat.js", "200", "window.__chatStamps", "text/javascript"},
		{"/chat?render=fancy", "400", "render=fancy: one of append, markdown, frame, buffered", "text/plain"},
		{"/chat?cost=-1", "400", "cost=-1: milliseconds of main-thread work per update, a whole number from 0 to 10000", "text/plain"},
		{"/chat?cost=4.5", "400", "cost=4.5:", "text/plain"},
		{"/chat?model=%3Cscript%3E", "400", "model=<script>: a profile's name", "text/plain"},
	}
	for _, tt := range tests {
		resp, err := http.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.HasPrefix(resp.Status, tt.status) || !strings.Contains(string(b), tt.body) || !strings.HasPrefix(resp.Header.Get("Content-Type"), tt.ctype) {
			t.Errorf("GET %s: %s %q %.80q; want %s %s containing %q", tt.path, resp.Status, resp.Header.Get("Content-Type"), b, tt.status, tt.ctype, tt.body)
		}
	}
	resp, err := http.Get(srv.URL + "/chat")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("the page's CSP %q: want scripts and requests from the simulator only", csp)
	}
}

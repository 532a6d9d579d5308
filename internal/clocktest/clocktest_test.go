package clocktest

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestLoopback: a handler's delays pass on the virtual clock and a client
// sees them exactly; the connect time is reported to httptrace; one client
// reaches every server of the test; a closed server refuses.
func TestLoopback(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		hello := func(name string) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(70 * time.Millisecond)
				_, _ = io.WriteString(w, name)
			})
		}
		a, b := NewServer(t, hello("a")), NewServer(t, hello("b"))
		a.Connect = 5 * time.Millisecond
		var connect time.Duration
		var began time.Time
		trace := &httptrace.ClientTrace{
			ConnectStart:      func(string, string) { began = time.Now() },
			ConnectDone:       func(string, string, error) { connect = time.Since(began) },
			TLSHandshakeStart: func() { t.Error("a TLS handshake on the loopback") },
			TLSHandshakeDone:  func(tls.ConnectionState, error) {},
		}
		get := func(c *http.Client, url string) (string, time.Duration, error) {
			start := time.Now()
			req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", url, nil)
			resp, err := c.Do(req)
			if err != nil {
				return "", 0, err
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			return string(body), time.Since(start), err
		}
		if body, took, err := get(a.Client(), a.URL); body != "a" || took != 75*time.Millisecond || connect != 5*time.Millisecond || err != nil {
			t.Errorf("a: %q after %v (connect %v), %v; want \"a\" after 75ms (connect 5ms)", body, took, connect, err)
		}
		if body, took, err := get(a.Client(), b.URL); body != "b" || took != 70*time.Millisecond || err != nil {
			t.Errorf("b through a's client: %q after %v, %v; want \"b\" after 70ms", body, took, err)
		}
		b.Close()
		if _, _, err := get(a.Client(), b.URL); err == nil || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("a closed server answered: %v", err)
		}
	})
}

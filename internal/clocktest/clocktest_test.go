package clocktest

import (
	"context"
	"crypto/tls"
	"fmt"
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

// TestReadEvery: a client that gets the CPU every 50ms reads the writes
// of 10, 20 and 30ms together at 50ms, the one of 70ms at 100ms; the
// server's writes never wait for it.
func TestReadEvery(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var wrote []time.Duration
		start := time.Now()
		s := NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, at := range []time.Duration{10, 20, 30, 70} {
				time.Sleep(time.Until(start.Add(at * time.Millisecond)))
				_, _ = io.WriteString(w, "x")
				w.(http.Flusher).Flush()
				wrote = append(wrote, time.Since(start))
			}
		}))
		s.ReadEvery = 50 * time.Millisecond
		resp, err := s.Client().Get(s.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got []string
		b := make([]byte, 64)
		for {
			n, err := resp.Body.Read(b)
			if n > 0 {
				got = append(got, fmt.Sprintf("%s at %v", b[:n], time.Since(start)))
			}
			if err != nil {
				break
			}
		}
		if want := "[xxx at 50ms x at 100ms]"; fmt.Sprint(got) != want {
			t.Errorf("reads %v, want %s", got, want)
		}
		if fmt.Sprint(wrote) != "[10ms 20ms 30ms 70ms]" {
			t.Errorf("the server wrote at %v: it waited for the client", wrote)
		}
	})
}

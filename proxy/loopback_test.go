package proxy

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latgate/latgate/vocab"
)

// These tests use real sockets on the loopback (what a TCP reset or an
// address in use is); they assert no time but "within 10 s" for what
// takes microseconds, which holds at a load average of 20 on 2 cores.

// loopback starts a proxy on 127.0.0.1:0 in front of h, with faults.
func loopback(t *testing.T, h http.Handler, faults ...Fault) *Proxy {
	t.Helper()
	up := httptest.NewServer(h)
	t.Cleanup(up.Close)
	p, err := Start(context.Background(), Config{Name: "primary", Listen: "127.0.0.1:0", To: up.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	if err := p.SetFaults(faults); err != nil {
		t.Fatal(err)
	}
	return p
}

var hello = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("hello")) })

// TestAddressInUse: the error names the address and says it is in use.
func TestAddressInUse(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	addr := ln.Addr().String()
	p, err := Start(context.Background(), Config{Name: "primary", Listen: addr, To: "http://127.0.0.1:1"})
	if p != nil || err == nil || err.Error() != "listen "+addr+": address already in use" || !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("Start on an address in use: %v", err)
	}
}

// TestStartRefusesBadConfig: each bad setting said before listening,
// without echoing a URL that may hold a key.
func TestStartRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Name: "", Listen: "127.0.0.1:0", To: "http://h"}, `proxy name "": must be a non-empty header value`},
		{Config{Name: "a\r\nb", Listen: "127.0.0.1:0", To: "http://h"}, `proxy name "a\r\nb": must be a non-empty header value`},
		{Config{Name: "p", Listen: "9101", To: "http://h"}, `upstream p: listen "9101": not host:port`},
		{Config{Name: "p", Listen: "127.0.0.1:0", To: "ftp://h"}, "upstream p: to: not an http(s)://host[:port][/prefix] URL"},
		{Config{Name: "p", Listen: "127.0.0.1:0", To: "http://h/v1?key=sk-secret"}, "upstream p: to: a base URL has no user, query or fragment (scheme://host:port[/prefix])"},
		{Config{Name: "p", Listen: "127.0.0.1:0", To: "http://u:sk-secret@h"}, "upstream p: to: a base URL has no user, query or fragment (scheme://host:port[/prefix])"},
	} {
		if p, err := Start(context.Background(), tc.cfg); p != nil || err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %s", tc.cfg, err, tc.want)
		}
	}
}

// TestResetIsATCPReset: the client's read fails with ECONNRESET (linger
// 0), after the proxy read the request.
func TestResetIsATCPReset(t *testing.T) {
	t.Parallel()
	p := loopback(t, hello, Fault{Kind: vocab.Reset, Share: 1})
	_, err := http.Post(p.URL()+"/x", "text/plain", strings.NewReader("body"))
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reset: %v, want a connection reset", err)
	}
	if ev := p.Events(); len(ev) != 1 || ev[0].Fault != vocab.Reset {
		t.Errorf("events %+v", ev)
	}
}

// TestRefuseClosesAtAccept: the connection is closed before a byte of the
// request is read; the next request (share 0.5) is forwarded.
func TestRefuseClosesAtAccept(t *testing.T) {
	t.Parallel()
	p := loopback(t, hello, Fault{Kind: vocab.Refuse, Share: 0.5})
	if st, body, _, err := get(http.DefaultClient, p.URL(), "a"); err != nil || st != 200 || body != "hello" {
		t.Fatalf("request 1: %d %q %v", st, body, err)
	}
	// The second connection: closed by the proxy though it sent nothing.
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); n != 0 || (!errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET)) {
		t.Fatalf("a refused connection read %d bytes, %v; want it closed", n, err)
	}
	if st, body, _, err := get(http.DefaultClient, p.URL(), "c"); err != nil || st != 200 || body != "hello" {
		t.Fatalf("request 3: %d %q %v", st, body, err)
	}
	if st, _, _, err := get(http.DefaultClient, p.URL(), "d"); err == nil {
		t.Fatalf("request 4 (refused): %d", st)
	}
	ev := p.Events()
	if len(ev) != 4 || ev[0].ID != "a" || ev[0].Status != 200 || ev[1].ID != "" || ev[1].Fault != vocab.Refuse || ev[2].ID != "c" || ev[3].Fault != vocab.Refuse {
		t.Errorf("events %+v", ev)
	}
}

// TestCloseEndsRealConnections: Close ends a stalled request on a real
// socket, and the port is free afterwards.
func TestCloseEndsRealConnections(t *testing.T) {
	t.Parallel()
	p := loopback(t, hello, Fault{Kind: vocab.StallFirstToken, Share: 1})
	errc := make(chan error, 1)
	go func() {
		_, _, _, err := get(http.DefaultClient, p.URL(), "a")
		errc <- err
	}()
	for len(p.Events()) == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("a stalled request was answered at Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stalled request outlived Close")
	}
	ln, err := net.Listen("tcp", p.Addr())
	if err != nil {
		t.Fatalf("the port is still held after Close: %v", err)
	}
	_ = ln.Close()
}

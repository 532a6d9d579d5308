// Package proxy is latgate's fault proxy: one per named upstream, listening
// where a team's gateway is configured to call that upstream, forwarding
// every request to it and streaming the response back byte for byte as it
// arrives, stamped with the upstream's name. Per phase it injects faults
// (vocab.FaultKind) on a deterministic share of the requests it sees, and it
// logs every request (its Latgate-Request id, arrival, fault, first byte
// forwarded, status) so that a run can tell which upstream served a request
// and when it failed over.
//
// The proxy never follows a redirect (it passes it back), never reads a
// proxy from the environment and sends the client's headers, keys included,
// only to its own upstream. Every time it stamps or waits on is read from
// its Config.Clock, so tests run it on virtual time.
//
// Keep-alive is off on the client side: every request comes on a connection
// of its own, so that refuse can close a connection before its request is
// read (the gateway's connect to a loopback proxy is a few tens of
// microseconds).
package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/latgate/latgate/internal/clock"
	"github.com/latgate/latgate/internal/redact"
	"github.com/latgate/latgate/vocab"
)

// HeaderUpstream is the response header that names the upstream whose
// proxy answered; HeaderRequest the request header whose value is a
// request's id in the log (vocab's names).
const (
	HeaderUpstream = vocab.UpstreamHeader
	HeaderRequest  = vocab.RequestHeader
)

// DefaultMaxEvents is how many events the log keeps when Config.MaxEvents
// is 0; beyond it the oldest are dropped and counted (Dropped).
const DefaultMaxEvents = 1_000_000

// maxID is the longest request id kept in an event (a longer one is cut).
const maxID = 128

// Config is one proxy's settings.
type Config struct {
	// Name is the upstream's name: the value of every response's
	// Latgate-Upstream header.
	Name string
	// Listen is host:port, where the proxy listens (port 0: any free one,
	// see Addr).
	Listen string
	// To is the upstream's base URL, scheme://host:port[/prefix]: a
	// request for /path?query is sent to To's prefix + /path?query.
	To string
	// Clock stamps the log and times the faults' waits (nil: clock.Real).
	Clock clock.Clock
	// Secrets are hidden in the proxy's own error bodies.
	Secrets []string
	// MaxEvents bounds the log (0: DefaultMaxEvents).
	MaxEvents int
	// Listener, when set, is served instead of listening on Listen (tests
	// serve an in-memory loopback on virtual time); Close closes it.
	Listener net.Listener
	// Transport, when set, reaches the upstream instead of the proxy's own
	// (which reads no proxy from the environment and leaves compression
	// alone); its redirects are never followed either way.
	Transport http.RoundTripper
}

// Proxy is a running fault proxy.
type Proxy struct {
	name    string
	to      *url.URL
	clk     clock.Clock
	secrets *redact.Set
	rt      http.RoundTripper
	ownRT   *http.Transport
	ln      net.Listener
	srv     *http.Server
	log     eventLog

	ctx    context.Context // every request's; canceled by Close
	cancel context.CancelFunc
	stop   func() bool // stops Start's ctx from closing the proxy

	mu     sync.Mutex
	plan   plan
	closed bool
	wg     sync.WaitGroup // Serve and every handler
	once   sync.Once
	err    error
}

// Start checks cfg, listens and serves until Close (or until ctx is done,
// which closes the proxy too). An address in use is the error
// "listen 127.0.0.1:9101: address already in use" (errors.Is
// syscall.EADDRINUSE).
func Start(ctx context.Context, cfg Config) (*Proxy, error) {
	to, err := checkConfig(cfg)
	if err != nil {
		return nil, err
	}
	ln := cfg.Listener
	if ln == nil {
		if ln, err = listen(ctx, cfg.Listen); err != nil {
			return nil, err
		}
	}
	p := &Proxy{
		name:    cfg.Name,
		to:      to,
		clk:     clock.Or(cfg.Clock),
		secrets: redact.New(cfg.Secrets...),
		rt:      cfg.Transport,
		ln:      ln,
	}
	p.log.max = cfg.MaxEvents
	if p.log.max <= 0 {
		p.log.max = DefaultMaxEvents
	}
	if p.rt == nil {
		p.ownRT = &http.Transport{
			Proxy:               nil, // never another hop than To
			DialContext:         (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			DisableCompression:  true, // the body as the upstream sent it
			MaxIdleConnsPerHost: 256,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second,
		}
		p.rt = p.ownRT
	}
	p.ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	p.srv = &http.Server{
		Handler:     p,
		BaseContext: func(net.Listener) context.Context { return p.ctx },
		ErrorLog:    log.New(io.Discard, "", 0),
		// A client that never finishes its request's header holds no
		// connection longer than this (a proxy may listen off the
		// loopback in front of a remote upstream).
		ReadHeaderTimeout: 30 * time.Second,
	}
	p.srv.SetKeepAlivesEnabled(false)
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.Serve(acceptor{Listener: ln, p: p})
	}()
	p.stop = context.AfterFunc(ctx, func() { _ = p.Close() })
	return p, nil
}

func checkConfig(cfg Config) (*url.URL, error) {
	if cfg.Name == "" || strings.ContainsAny(cfg.Name, "\r\n\x00") {
		return nil, fmt.Errorf("proxy name %q: must be a non-empty header value", cfg.Name)
	}
	if _, _, err := net.SplitHostPort(cfg.Listen); err != nil {
		return nil, fmt.Errorf("upstream %s: listen %q: not host:port", cfg.Name, cfg.Listen)
	}
	to, err := url.Parse(cfg.To)
	if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
		return nil, fmt.Errorf("upstream %s: to: not an http(s)://host[:port][/prefix] URL", cfg.Name)
	}
	if to.User != nil || to.RawQuery != "" || to.Fragment != "" || to.ForceQuery {
		// not echoed: a user or a query may hold a key
		return nil, fmt.Errorf("upstream %s: to: a base URL has no user, query or fragment (scheme://host:port[/prefix])", cfg.Name)
	}
	return to, nil
}

// listen listens on addr, saying an address in use as such.
func listen(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err == nil {
		return ln, nil
	}
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listen %s: %w", addr, syscall.EADDRINUSE)
	}
	var se *net.OpError
	if errors.As(err, &se) && se.Err != nil {
		err = se.Err
	}
	return nil, fmt.Errorf("listen %s: %v", addr, err)
}

// Addr is the address the proxy listens on (with the port chosen for a
// Listen port of 0).
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// URL is http:// and Addr.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Name is the upstream's name.
func (p *Proxy) Name() string { return p.name }

// Close stops listening and ends every connection and request in flight
// (a stalled one at once: its client sees the connection closed); it
// returns when none is left.
func (p *Proxy) Close() error {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		p.stop()
		p.cancel()
		p.err = p.srv.Close()
		p.wg.Wait()
		if p.ownRT != nil {
			p.ownRT.CloseIdleConnections()
		}
		if errors.Is(p.err, net.ErrClosed) {
			p.err = nil
		}
	})
	return p.err
}

// enter counts a handler in, unless the proxy is closed.
func (p *Proxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.wg.Add(1)
	return true
}

// acceptor refuses, at accept, the connections whose request a refuse
// fault is due to hit.
type acceptor struct {
	net.Listener
	p *Proxy
}

func (a acceptor) Accept() (net.Conn, error) {
	for {
		c, err := a.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !a.p.refuseNext() {
			return c, nil
		}
		_ = c.Close()
	}
}

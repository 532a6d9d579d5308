// Package clocktest puts an HTTP server and its clients on one virtual
// clock. A test runs inside a testing/synctest bubble, where package time's
// clock is virtual: it stands still while any goroutine of the bubble runs
// and jumps to the next timer when all of them wait. A simulator there
// stamps and sleeps on virtual time and the prober reads the same clock, so
// a test asserts exact latencies (TTFT, inter-token gaps, stalls, timeouts,
// schedule lag) with no tolerance and no waiting.
//
// A bubble cannot use a real socket, even on loopback: a goroutine waiting
// for a socket may be woken by bytes the kernel already holds, so the
// runtime cannot know that everything has stopped, and virtual time would
// never move. NewServer therefore serves on an in-memory loopback (net.Pipe
// connections behind a listener): the real net/http server and transport
// on both ends, with no kernel in between.
package clocktest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is an HTTP server on the in-memory loopback (as httptest.Server
// is on a real one). Create and use it inside a synctest bubble.
type Server struct {
	// URL is http://127.0.0.1:port, with a port no other Server has; it
	// is reached only through Client.
	URL string
	// Connect is how long dialing a new connection to this server takes:
	// it passes on the virtual clock and httptrace reports it as the
	// connect time. Set it before the first request.
	Connect time.Duration
	// ReadEvery makes Client a client on a loaded machine, which gets the
	// CPU only every ReadEvery: what a server writes in between waits, as
	// in a socket's buffer, and the client's next read takes all of it
	// (several events of a stream in one read). 0: the client reads each
	// write as it comes. Set it before the first request.
	ReadEvery time.Duration

	ln     *Listener
	srv    *http.Server
	tr     *http.Transport
	client *http.Client
	once   sync.Once
}

var (
	ports   atomic.Int64
	mu      sync.Mutex
	servers = map[string]*Server{} // by address
)

// Listen is an in-memory loopback listener at addr, for a server a test
// serves itself (a fault proxy's): Dial connects to it, on virtual time
// in a synctest bubble.
func Listen(addr string) *Listener {
	return &Listener{addr: pipeAddr(addr), conns: make(chan net.Conn), done: make(chan struct{})}
}

// Dial makes a connection to l and hands its server end to Accept; an
// error once l is closed.
func (l *Listener) Dial(ctx context.Context) (net.Conn, error) { return l.connect(ctx, 0) }

// NewServer serves h on the in-memory loopback until the test ends.
func NewServer(t testing.TB, h http.Handler) *Server {
	addr := fmt.Sprintf("127.0.0.1:%d", 20000+ports.Add(1))
	ln := Listen(addr)
	s := &Server{URL: "http://" + addr, ln: ln, srv: &http.Server{Handler: h}}
	mu.Lock()
	servers[addr] = s
	mu.Unlock()
	s.tr = &http.Transport{DialContext: s.dial}
	s.client = &http.Client{Transport: s.tr}
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(s.Close)
	return s
}

// Client is a client that dials the in-memory loopback: this server and
// any other Server of the test, by the address in the URL.
func (s *Server) Client() *http.Client { return s.client }

// Close stops the server, closes its connections and the client's idle
// ones. It is called when the test ends.
func (s *Server) Close() {
	s.once.Do(func() {
		mu.Lock()
		delete(servers, string(s.ln.addr))
		mu.Unlock()
		_ = s.srv.Close()
		s.tr.CloseIdleConnections()
	})
}

var errRefused = errors.New("connection refused (in-memory loopback)")

// dial connects to the server at address, reporting the connection to
// httptrace as a TCP dial would.
func (s *Server) dial(ctx context.Context, _, address string) (net.Conn, error) {
	mu.Lock()
	to := servers[address]
	mu.Unlock()
	trace := httptrace.ContextClientTrace(ctx)
	if trace != nil && trace.ConnectStart != nil {
		trace.ConnectStart("tcp", address)
	}
	var c net.Conn
	err := errRefused
	if to != nil {
		c, err = to.ln.connect(ctx, to.Connect)
	}
	if err == nil && s.ReadEvery > 0 {
		c = lateReader(c, s.ReadEvery)
	}
	if trace != nil && trace.ConnectDone != nil {
		trace.ConnectDone("tcp", address, err)
	}
	return c, err
}

// Listener hands the server ends of in-memory connections to Accept
// (Listen, for a server a test starts itself; NewServer's own).
type Listener struct {
	addr  pipeAddr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

// connect waits d, then makes a connection and hands its server end over.
func (l *Listener) connect(ctx context.Context, d time.Duration) (net.Conn, error) {
	if d > 0 {
		tm := time.NewTimer(d)
		defer tm.Stop()
		select {
		case <-tm.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, errRefused
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *Listener) Addr() net.Addr { return l.addr }

type pipeAddr string

func (pipeAddr) Network() string  { return "tcp" }
func (a pipeAddr) String() string { return string(a) }

// lateConn is the client end of a connection on a loaded machine: a
// goroutine takes every write of the server as it comes (the kernel's
// socket buffer), and a read that finds nothing waits for bytes, then for
// the client's next turn on the CPU (the next multiple of every on the
// clock), and returns what came until then; a closed connection's error
// comes at once.
type lateConn struct {
	net.Conn
	every time.Duration
	mu    sync.Mutex
	buf   []byte
	err   error
	more  chan struct{} // a token when bytes or an error came
}

func lateReader(c net.Conn, every time.Duration) net.Conn {
	l := &lateConn{Conn: c, every: every, more: make(chan struct{}, 1)}
	go l.fill()
	return l
}

func (l *lateConn) fill() {
	b := make([]byte, 32<<10)
	for {
		n, err := l.Conn.Read(b)
		l.mu.Lock()
		l.buf, l.err = append(l.buf, b[:n]...), err
		l.mu.Unlock()
		select {
		case l.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (l *lateConn) Read(p []byte) (int, error) {
	for {
		l.mu.Lock()
		if len(l.buf) > 0 {
			n := copy(p, l.buf)
			l.buf = l.buf[n:]
			l.mu.Unlock()
			return n, nil
		}
		err := l.err
		l.mu.Unlock()
		if err != nil {
			return 0, err
		}
		<-l.more
		l.mu.Lock()
		closed := len(l.buf) == 0
		l.mu.Unlock()
		if !closed {
			now := time.Now()
			time.Sleep(now.Truncate(l.every).Add(l.every).Sub(now))
		}
	}
}

package proxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/latgate/latgate/internal/clocktest"
	"github.com/latgate/latgate/sim"
)

// virtual starts a proxy named primary in front of up on the in-memory
// loopback, with faults, and returns it with a client that reaches it
// (and follows no redirect). Call it inside a synctest bubble.
func virtual(t *testing.T, up *clocktest.Server, cfg Config, faults ...Fault) (*Proxy, *http.Client) {
	t.Helper()
	ln := clocktest.Listen("127.0.0.1:9101")
	tr := up.Client().Transport.(*http.Transport).Clone()
	tr.DisableCompression = true
	cfg.Name, cfg.Listen, cfg.To, cfg.Listener, cfg.Transport = "primary", ln.Addr().String(), up.URL+cfg.To, ln, tr
	p, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close(); tr.CloseIdleConnections() })
	if err := p.SetFaults(faults); err != nil {
		t.Fatal(err)
	}
	ctr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return ln.Dial(ctx) }, DisableCompression: true}
	t.Cleanup(ctr.CloseIdleConnections)
	return p, &http.Client{Transport: ctr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// newSim is a simulator on the in-memory loopback: 100 ms to the first
// token, then a token every 20 ms, 5 tokens.
func newSim(t *testing.T) (*sim.Server, *clocktest.Server) {
	s := sim.New(sim.Profile{TTFT: sim.Fixed(100 * time.Millisecond), ITL: sim.Fixed(20 * time.Millisecond), Tokens: 5}, 7)
	return s, clocktest.NewServer(t, s)
}

const chatBody = `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"max_tokens":16}`

// piece is what the client read at one instant, since the request was
// sent.
type piece struct {
	at time.Duration
	b  string
}

// streamed is a response as a client saw it.
type streamed struct {
	resp   *http.Response
	header time.Duration // when the response's header came
	pieces []piece
	err    error         // the request's or the body's error, nil at EOF
	ended  time.Duration // when the body ended (or the error came)
}

func (s streamed) body() string {
	var b strings.Builder
	for _, p := range s.pieces {
		b.WriteString(p.b)
	}
	return b.String()
}

// record sends a chat request to url and reads the answer, each read
// stamped (reads at one instant merged), within timeout.
func record(ctx context.Context, c *http.Client, url, id string, timeout time.Duration) streamed {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(chatBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-test-key-0123456789")
	if id != "" {
		req.Header.Set(HeaderRequest, id)
	}
	start := time.Now()
	var out streamed
	out.resp, out.err = c.Do(req)
	out.header = time.Since(start)
	if out.err != nil {
		out.ended = out.header
		return out
	}
	defer func() { _ = out.resp.Body.Close() }()
	buf := make([]byte, 64<<10)
	for {
		n, err := out.resp.Body.Read(buf)
		at := time.Since(start)
		if n > 0 {
			if k := len(out.pieces) - 1; k >= 0 && out.pieces[k].at == at {
				out.pieces[k].b += string(buf[:n])
			} else {
				out.pieces = append(out.pieces, piece{at, string(buf[:n])})
			}
		}
		if err != nil {
			if err != io.EOF {
				out.err = err
			}
			out.ended = at
			return out
		}
	}
}

// get sends a GET for path with id and returns the status (0 and the
// error if none came) and the body.
func get(c *http.Client, url, id string) (int, string, http.Header, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set(HeaderRequest, id)
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header, err
}

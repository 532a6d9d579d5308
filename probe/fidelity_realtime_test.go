package probe

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var fidelityRTConc = flag.String("fidelity-realtime-conc", "1,50", "concurrency levels of the realtime study")

// selfSigned writes a certificate for 127.0.0.1 and its key to dir and
// returns their paths and a pool that trusts it.
func selfSigned(t *testing.T, dir string) (string, string, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "latgate sim"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

var rtStampRE = regexp.MustCompile(`"x_sim_first_output_unix_ns":(\d+)`)

// stampConn reads a TLS connection and keeps the last first-output stamp
// the simulator put in a delta (server frames are not masked: the JSON is
// plain on the connection).
type stampConn struct {
	net.Conn
	stamp *atomic.Int64
	tail  []byte
}

func (c *stampConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.tail = append(c.tail, p[:n]...)
		if m := rtStampRE.FindAllSubmatch(c.tail, -1); m != nil {
			var v int64
			fmt.Sscan(string(m[len(m)-1][1]), &v)
			c.stamp.Store(v)
		}
		if len(c.tail) > 64 {
			c.tail = append([]byte(nil), c.tail[len(c.tail)-64:]...)
		}
	}
	return n, err
}

// rtWorker is one worker of the study: a prober with its own connection
// pool, and the stamp its connection saw last.
type rtWorker struct {
	p     *Prober
	stamp atomic.Int64
}

func newRTWorker(pool *x509.CertPool, reuse, stamped bool) *rtWorker {
	w := &rtWorker{}
	tc := &tls.Config{RootCAs: pool, NextProtos: []string{"http/1.1"}}
	tr := &http.Transport{TLSClientConfig: tc}
	if stamped {
		tr.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			raw, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			host, _, _ := net.SplitHostPort(addr)
			c := tls.Client(raw, &tls.Config{RootCAs: pool, ServerName: host, NextProtos: []string{"http/1.1"}})
			if err := c.HandshakeContext(ctx); err != nil {
				return nil, err
			}
			return &stampConn{Conn: c, stamp: &w.stamp}, nil
		}
	}
	w.p = &Prober{Client: &http.Client{Transport: tr}, Timeout: time.Minute, StallTimeout: 30 * time.Second}
	if reuse {
		w.p.Sockets = NewSockets()
	}
	return w
}

// rtSample is what one latgate leg measured.
type rtSample struct {
	ttft, own, gap, setup []float64
	failed                int
}

// measureRT sends n requests (after one per worker to warm the
// connections) from conc workers, each on its own connection when reuse,
// else on a new connection per request.
func measureRT(req Request, pool *x509.CertPool, conc, n int, reuse bool) rtSample {
	var mu sync.Mutex
	var out rtSample
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			w := newRTWorker(pool, reuse, reuse)
			if reuse {
				defer w.p.Sockets.Close()
				w.p.Do(context.Background(), req)
			}
			for next.Add(1) <= int64(n) {
				w.stamp.Store(0)
				rec := w.p.Do(context.Background(), req)
				mu.Lock()
				out.add(rec, w.stamp.Load())
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

func (s *rtSample) add(rec Record, stamp int64) {
	if !rec.OK {
		s.failed++
		return
	}
	s.ttft = append(s.ttft, float64(rec.TTFT-injectedTTFT)/1e6)
	if stamp > 0 {
		s.own = append(s.own, float64(rec.TTFT-time.Duration(stamp-rec.Start.UnixNano()))/1e6)
	}
	if rec.TPOT > 0 {
		s.gap = append(s.gap, float64(rec.TPOT-injectedITL)/1e6)
	}
	s.setup = append(s.setup, float64(rec.DNS+rec.Connect+rec.TLS+rec.Upgrade)/1e6)
}

type nodeRT struct {
	First, Own, MeanGap []float64
	Errors              int
	CPUMsPerStream      float64
}

// TestFidelityRealtime measures the probe's TTFT error on the Realtime API
// against the simulator (a separate process, over TLS) next to the
// official openai client's Realtime WebSocket, on reused connections, and
// what a new connection per request adds.
func TestFidelityRealtime(t *testing.T) {
	if !*fidelity {
		t.Skip("run with -fidelity (make bench-realtime)")
	}
	dir := t.TempDir()
	certFile, keyFile, pool := selfSigned(t, dir)
	base, _ := startSim(t, dir, "--tls-cert", certFile, "--tls-key", keyFile)
	script := ""
	if !*skipNode {
		script = nodeReference(t, "realtime.mjs")
	}
	body, _ := Body(Realtime, BodyParams{Model: "fidelity", MaxTokens: fidTokens, Messages: []Message{{Role: "user", Content: "Say something."}}})
	req := Request{API: Realtime, URL: URL(Realtime, Target{BaseURL: strings.Replace(base, "https:", "wss:", 1), Model: "fidelity"}), Body: body}
	var b strings.Builder
	fmt.Fprintf(&b, "Injected: TTFT %v from response.create (fixed), inter-token %v, %d tokens; the simulator over TLS (wss://). Errors in ms: measured − injected, and − the server's actual send (stamped in the first delta).\n\n", injectedTTFT, injectedITL, fidTokens)
	b.WriteString("| client | connections | concurrency | requests | failed | TTFT error p50 | p95 | p99 | vs actual send p50 | p99 | inter-token error (mean) | set-up p50 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	cell := func(xs []float64, q float64) string {
		if len(xs) == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f", pct(xs, q))
	}
	row := func(name, conns string, conc, n, failed int, ttft, own, gap, setup []float64) {
		line := fmt.Sprintf("| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |", name, conns, conc, n, failed,
			cell(ttft, .5), cell(ttft, .95), cell(ttft, .99), cell(own, .5), cell(own, .99), cell(gap, .5), cell(setup, .5))
		fmt.Fprintln(&b, line)
		t.Log(line)
	}
	for _, cs := range strings.Split(*fidelityRTConc, ",") {
		var conc int
		fmt.Sscan(cs, &conc)
		n := max(3*conc, 100)
		s := measureRT(req, pool, conc, n, true)
		row("latgate probe", "reused", conc, n, s.failed, s.ttft, s.own, s.gap, s.setup)
		if conc == 1 {
			c := measureRT(req, pool, 1, n, false)
			row("latgate probe", "new per request", 1, n, c.failed, c.ttft, nil, c.gap, c.setup)
		}
		if script == "" {
			continue
		}
		var no nodeRT
		runNode(t, &no, []string{"NODE_EXTRA_CA_CERTS=" + certFile}, script, base, "fidelity", fmt.Sprint(conc), fmt.Sprint(n), fmt.Sprint(fidTokens))
		row("openai (npm) OpenAIRealtimeWebSocket", "reused", conc, n, no.Errors, minus(no.First, injectedTTFT), no.Own, minus(no.MeanGap, injectedITL), nil)
		fmt.Fprintf(&b, "| latgate − openai (npm), TTFT p50 | | %d | | | %.2f | | | | | | |\n", conc, pct(s.ttft, .5)-pct(minus(no.First, injectedTTFT), .5))
	}
	fmt.Fprintf(&b, "\n%d cores, %s, %s/%s; the simulator runs as a separate process on the same machine.\n", runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Println(b.String())
	if *fidelityOut != "" {
		_ = os.WriteFile(*fidelityOut, []byte(b.String()), 0o644)
	}
}

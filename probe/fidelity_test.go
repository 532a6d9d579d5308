package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

var (
	fidelity     = flag.Bool("fidelity", false, "run the fidelity study (make bench)")
	fidelityOut  = flag.String("fidelity-out", "", "also write the Markdown table here")
	fidelityConc = flag.String("fidelity-conc", "1,50,200,1000", "concurrency levels")
	skipNode     = flag.Bool("skip-node", false, "do not run the reference client")
)

const (
	injectedTTFT = 100 * time.Millisecond
	injectedITL  = 10 * time.Millisecond
	fidTokens    = 16
)

// startSim builds latgate and starts its simulator as a separate process
// (fast, a fixed TTFT, inter-token gap and tokens, stamped; extra flags
// after them); it returns the base URL of chat (…/v1).
func startSim(t *testing.T, dir string, extra ...string) string {
	t.Helper()
	bin := filepath.Join(dir, "latgate")
	build := exec.Command("go", "build", "-o", bin, "../cmd/latgate")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	args := append([]string{"sim", "--addr", "127.0.0.1:0", "--profile", "fast", "--stamp",
		"--ttft", injectedTTFT.String(), "--itl", injectedITL.String(), "--tokens", fmt.Sprint(fidTokens)}, extra...)
	cmd := exec.Command(bin, args...)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`on (https?://\S+) \(`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1] + "/v1"
		}
	}
	t.Fatal("the simulator did not say where it listens")
	return ""
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func pct(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	h := q * float64(len(s)-1)
	lo := int(h)
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// nodeReference installs the official openai npm package (v6) and ws (the
// WebSocket Node 20 lacks) into a cache folder and returns the path of the
// reference script name (in bench/) next to them.
func nodeReference(t *testing.T, name string) string {
	cache := os.Getenv("LATGATE_CACHE")
	if cache == "" {
		home, _ := os.UserCacheDir()
		cache = filepath.Join(home, "latgate")
	}
	dir := filepath.Join(cache, "node-reference")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ws", "package.json")); err != nil {
		_ = os.MkdirAll(dir, 0o755)
		_ = os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"latgate-reference","private":true,"type":"module"}`), 0o644)
		cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "openai@6", "ws@8")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install openai@6 ws@8: %v\n%s", err, out)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "bench", name))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, name)
	_ = os.WriteFile(script, src, 0o644)
	return script
}

// stampRT tees a response body and keeps the simulator's send-time stamp.
type stampRT struct {
	base  http.RoundTripper
	stamp int64
}

func (s *stampRT) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := s.base.RoundTrip(r)
	if err == nil {
		resp.Body = &stampReader{ReadCloser: resp.Body, rt: s}
	}
	return resp, err
}

type stampReader struct {
	io.ReadCloser
	rt  *stampRT
	buf []byte
}

var stampRE = regexp.MustCompile(`x-sim-first-output-unix-ns=(\d+)`)

func (s *stampReader) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	if s.rt.stamp == 0 && n > 0 {
		s.buf = append(s.buf, p[:n]...)
		if m := stampRE.FindSubmatch(s.buf); m != nil {
			fmt.Sscan(string(m[1]), &s.rt.stamp)
			s.buf = nil
		}
	}
	return n, err
}

// runNode runs a reference script (env added to the environment) and
// decodes the JSON it prints into out.
func runNode(t *testing.T, out any, env []string, script string, args ...string) {
	t.Helper()
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("node output: %v: %s", err, b)
	}
}

// minus is each of xs (ms) less d.
func minus(xs []float64, d time.Duration) []float64 {
	o := make([]float64, len(xs))
	for i, x := range xs {
		o[i] = x - float64(d)/1e6
	}
	return o
}

type nodeOut struct {
	First, Content, Total, MeanGap []float64
	Errors                         int
	CPUMsPerStream                 float64
}

// TestFidelity measures the probe's error against the simulator's injected
// TTFT at several concurrency levels, next to the official openai client.
func TestFidelity(t *testing.T) {
	if !*fidelity {
		t.Skip("run with -fidelity (make bench)")
	}
	url := startSim(t, t.TempDir())
	script := ""
	if !*skipNode {
		script = nodeReference(t, "reference.mjs")
	}
	body, _ := json.Marshal(openai.ChatCompletionRequest{Model: "fidelity", MaxCompletionTokens: fidTokens, Stream: true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true}, Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "Say something."}}})
	var b strings.Builder
	fmt.Fprintf(&b, "Injected: TTFT %v (fixed), inter-token %v, %d tokens, a role-only first chunk. Errors in ms: measured − injected, and for latgate also measured − the server's actual send time (stamped by the simulator), which removes the simulator's own timer lateness.\n\n", injectedTTFT, injectedITL, fidTokens)
	b.WriteString("| client | concurrency | requests | failed | TTFT error p50 | p95 | p99 | inter-token error (mean) | CPU per stream |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, cs := range strings.Split(*fidelityConc, ",") {
		var conc int
		fmt.Sscan(cs, &conc)
		n := max(3*conc, 100)
		tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxIdleConns: conc, IdleConnTimeout: time.Minute}
		var mu sync.Mutex
		var ttftErr, ownErr, gapErr []float64
		failed := 0
		one := func(measure bool) {
			// A client per request around the shared transport, so the
			// simulator's stamp pairs with this request's record.
			st := &stampRT{base: tr}
			p := &Prober{Client: &http.Client{Transport: st}, Timeout: time.Minute, StallTimeout: 30 * time.Second}
			rec := p.Do(context.Background(), Request{URL: url + "/chat/completions", Body: body})
			if !measure {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if !rec.OK {
				failed++
				return
			}
			ttftErr = append(ttftErr, float64(rec.TTFT-injectedTTFT)/1e6)
			if st.stamp > 0 {
				truth := time.Duration(st.stamp - rec.Start.UnixNano())
				ownErr = append(ownErr, float64(rec.TTFT-truth)/1e6)
			}
			if rec.TPOT > 0 {
				gapErr = append(gapErr, float64(rec.TPOT-injectedITL)/1e6)
			}
		}
		pool := func(total int, measure bool) {
			jobs := make(chan struct{})
			var wg sync.WaitGroup
			for range conc {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range jobs {
						one(measure)
					}
				}()
			}
			for range total {
				jobs <- struct{}{}
			}
			close(jobs)
			wg.Wait()
		}
		pool(conc, false) // warm every connection
		runtime.GC()
		c0 := cpuTime()
		pool(n, true)
		cpu := cpuTime() - c0
		for _, row := range []struct {
			name string
			xs   []float64
		}{{"latgate probe vs injected", ttftErr}, {"latgate probe vs server's actual send", ownErr}} {
			line := fmt.Sprintf("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f ms |", row.name, conc, n, failed,
				pct(row.xs, .5), pct(row.xs, .95), pct(row.xs, .99), pct(gapErr, .5), float64(cpu)/1e6/float64(n))
			fmt.Fprintln(&b, line)
			t.Log(line)
		}
		tr.CloseIdleConnections()
		if script == "" {
			continue
		}
		var no nodeOut
		runNode(t, &no, nil, script, url, "fidelity", fmt.Sprint(conc), fmt.Sprint(n), fmt.Sprint(fidTokens))
		first, content, gaps := minus(no.First, injectedTTFT), minus(no.Content, injectedTTFT), minus(no.MeanGap, injectedITL)
		for _, row := range []struct {
			name string
			xs   []float64
		}{{"openai (npm) naive: first chunk", first}, {"openai (npm): first content chunk", content}} {
			line := fmt.Sprintf("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f ms |", row.name, conc, n, no.Errors,
				pct(row.xs, .5), pct(row.xs, .95), pct(row.xs, .99), pct(gaps, .5), no.CPUMsPerStream)
			fmt.Fprintln(&b, line)
			t.Log(line)
		}
	}
	fmt.Fprintf(&b, "\n%d cores, %s, %s/%s; the simulator runs as a separate process on the same machine.\n", runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Println(b.String())
	if *fidelityOut != "" {
		_ = os.WriteFile(*fidelityOut, []byte(b.String()), 0o644)
	}
}

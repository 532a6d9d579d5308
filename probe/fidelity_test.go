package probe

import (
	"bufio"
	"bytes"
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
	fidelityReps = flag.Int("fidelity-reps", 1, "measure each level this many times; latgate's rows are the medians")
	fidelityDump = flag.String("fidelity-dump", "", "append one line per measured latgate request to this file: concurrency, send time (Unix ns), error vs the server's send (ms), TTFT (ms)")
)

const (
	injectedTTFT = 100 * time.Millisecond
	injectedITL  = 10 * time.Millisecond
	fidTokens    = 16
)

// startSim builds latgate and starts its simulator as a separate process
// (fast, a fixed TTFT, inter-token gap and tokens, stamped; extra flags
// after them): its chat base URL (…/v1) and its process id.
func startSim(t *testing.T, dir string, extra ...string) (string, int) {
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
	// A simulator that never says where it listens is killed, which ends
	// the scan below, rather than hanging the study.
	deadline := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer deadline.Stop()
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`chat, responses: base_url (https?://\S+/v1)\b`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return m[1], cmd.Process.Pid
		}
	}
	t.Fatal("the simulator did not say where it listens")
	return "", 0
}

// procCPU is the CPU time a process has used so far (user + system), from
// /proc; 0 where there is no /proc.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and stime
	// are the 12th and 13th of them, in clock ticks (100 a second).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	var ut, st int64
	if len(f) > 12 {
		fmt.Sscan(f[11], &ut)
		fmt.Sscan(f[12], &st)
	}
	return time.Duration(ut+st) * 10 * time.Millisecond
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
// With -fidelity-reps N each level is measured N times and every figure of
// a latgate row is the median of the N (each run is logged).
func TestFidelity(t *testing.T) {
	if !*fidelity {
		t.Skip("run with -fidelity (make bench)")
	}
	url, pid := startSim(t, t.TempDir())
	if *fidelityDump != "" {
		f, err := os.OpenFile(*fidelityDump, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		dump = f
	}
	script := ""
	if !*skipNode {
		script = nodeReference(t, "reference.mjs")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Injected: TTFT %v (fixed), inter-token %v, %d tokens, a role-only first chunk. Errors in ms: measured − injected, and for latgate also measured − the server's actual send time (stamped by the simulator), which removes the simulator's own timer lateness. Median of %d runs per level.\n\n", injectedTTFT, injectedITL, fidTokens, *fidelityReps)
	b.WriteString("| client | concurrency | requests | failed | TTFT error p50 | p95 | p99 | inter-token error (mean) | CPU per stream | simulator CPU per stream |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, cs := range strings.Split(*fidelityConc, ",") {
		var conc int
		fmt.Sscan(cs, &conc)
		var runs [2][]fidRow
		for range max(*fidelityReps, 1) {
			inj, own := fidelityProbe(url, pid, conc)
			runs[0], runs[1] = append(runs[0], inj), append(runs[1], own)
			t.Log(inj.line())
			t.Log(own.line())
		}
		for _, r := range runs {
			fmt.Fprintln(&b, medianRow(r).line())
		}
		if script != "" {
			for _, r := range fidelityNode(t, script, url, pid, conc) {
				fmt.Fprintln(&b, r.line())
				t.Log(r.line())
			}
		}
	}
	fmt.Fprintf(&b, "\n%d cores, %s, %s/%s; the simulator runs as a separate process on the same machine.\n", runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Println(b.String())
	if *fidelityOut != "" {
		_ = os.WriteFile(*fidelityOut, []byte(b.String()), 0o644)
	}
}

// fidRow is one row of the fidelity table: errors in ms, CPU in ms per
// stream.
type fidRow struct {
	name               string
	conc, n, failed    int
	p50, p95, p99, gap float64
	cpu, simCPU        float64
}

func (r fidRow) line() string {
	return fmt.Sprintf("| %s | %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f ms | %.2f ms |", r.name, r.conc, r.n, r.failed,
		r.p50, r.p95, r.p99, r.gap, r.cpu, r.simCPU)
}

// medianRow is each figure's median over runs of one row.
func medianRow(rs []fidRow) fidRow {
	m := rs[0]
	med := func(f func(fidRow) float64) float64 {
		xs := make([]float64, len(rs))
		for i, r := range rs {
			xs[i] = f(r)
		}
		return pct(xs, .5)
	}
	m.p50, m.p95, m.p99 = med(func(r fidRow) float64 { return r.p50 }), med(func(r fidRow) float64 { return r.p95 }), med(func(r fidRow) float64 { return r.p99 })
	m.gap, m.cpu, m.simCPU = med(func(r fidRow) float64 { return r.gap }), med(func(r fidRow) float64 { return r.cpu }), med(func(r fidRow) float64 { return r.simCPU })
	m.failed = int(med(func(r fidRow) float64 { return float64(r.failed) }))
	return m
}

// fidelityProbe measures latgate's probe at conc streams (3 × conc
// requests, at least 100, after one warm-up request per connection): its
// rows against the injected TTFT and against the server's actual send.
func fidelityProbe(url string, pid, conc int) (injected, own fidRow) {
	body, _ := json.Marshal(openai.ChatCompletionRequest{Model: "fidelity", MaxCompletionTokens: fidTokens, Stream: true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true}, Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "Say something."}}})
	n := max(3*conc, 100)
	tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxIdleConns: conc, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
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
			fmt.Fprintf(dump, "%d %d %.3f %.3f\n", conc, rec.Start.UnixNano(), float64(rec.TTFT-truth)/1e6, float64(rec.TTFT)/1e6)
		}
		if rec.TPOT > 0 {
			gapErr = append(gapErr, float64(rec.TPOT-injectedITL)/1e6)
		}
	}
	fidelityPool(conc, conc, func() { one(false) }) // warm every connection
	runtime.GC()
	c0, s0 := cpuTime(), procCPU(pid)
	fidelityPool(conc, n, func() { one(true) })
	cpu, simCPU := float64(cpuTime()-c0)/1e6/float64(n), float64(procCPU(pid)-s0)/1e6/float64(n)
	row := func(name string, xs []float64) fidRow {
		return fidRow{name: name, conc: conc, n: n, failed: failed, p50: pct(xs, .5), p95: pct(xs, .95), p99: pct(xs, .99),
			gap: pct(gapErr, .5), cpu: cpu, simCPU: simCPU}
	}
	return row("latgate probe vs injected", ttftErr), row("latgate probe vs server's actual send", ownErr)
}

// dump receives -fidelity-dump's lines.
var dump io.Writer = io.Discard

// fidelityPool runs do total times on conc goroutines.
func fidelityPool(conc, total int, do func()) {
	jobs := make(chan struct{})
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for range jobs {
				do()
			}
		})
	}
	for range total {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
}

// fidelityNode runs the reference client at conc streams: its naive and
// its first-content rows.
func fidelityNode(t *testing.T, script, url string, pid, conc int) []fidRow {
	n := max(3*conc, 100)
	s0 := procCPU(pid)
	var no nodeOut
	runNode(t, &no, nil, script, url, "fidelity", fmt.Sprint(conc), fmt.Sprint(n), fmt.Sprint(fidTokens))
	simCPU := float64(procCPU(pid)-s0) / 1e6 / float64(n)
	first, content, gaps := minus(no.First, injectedTTFT), minus(no.Content, injectedTTFT), minus(no.MeanGap, injectedITL)
	var rows []fidRow
	for _, r := range []struct {
		name string
		xs   []float64
	}{{"openai (npm) naive: first chunk", first}, {"openai (npm): first content chunk", content}} {
		rows = append(rows, fidRow{name: r.name, conc: conc, n: n, failed: no.Errors, p50: pct(r.xs, .5), p95: pct(r.xs, .95), p99: pct(r.xs, .99),
			gap: pct(gaps, .5), cpu: no.CPUMsPerStream, simCPU: simCPU})
	}
	return rows
}

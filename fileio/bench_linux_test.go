package fileio

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/vocab"
)

var worstMiB = flag.Int("worst-mib", 16, "the size of BenchmarkReadWorst's files, in MiB (512: the largest a results file may be)")

// stuffedShot is the costliest screenshot to check that a results file
// takes (results' BenchmarkCheckScreenshot): MaxScreenshotBytes of a
// baseline JPEG, 8×8 gray, whose entropy-coded data is nothing but
// stuffed 0xFF bytes (FF00), a step of the walk every two bytes.
func stuffedShot() []byte {
	seg := func(m byte, p ...byte) []byte { return append([]byte{0xFF, m, 0, byte(len(p) + 2)}, p...) }
	huff := func(tc byte) []byte { return seg(0xC4, append([]byte{tc << 4, 1}, make([]byte, 16)...)...) }
	b := []byte{0xFF, 0xD8}
	b = append(b, seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...)...)...)
	b = append(b, seg(0xC0, 8, 0, 8, 0, 8, 1, 1, 0x11, 0)...)
	b = append(b, huff(0)...)
	b = append(b, huff(1)...)
	b = append(b, seg(0xDA, 1, 1, 0, 0, 63, 0)...)
	for len(b)+4 <= results.MaxScreenshotBytes {
		b = append(b, 0xFF, 0)
	}
	return append(b, 0xFF, 0xD9)
}

// worstRequests are requests, as JSON, of the shapes BenchmarkReadWorst
// reads: a browser page's with its three screenshots, each the costliest
// (96 KiB of JPEG, 128 KiB of base64); a request of nothing but gaps, a
// number every two bytes, for comparison.
func worstRequests(b *testing.B) map[string]string {
	shot := base64.StdEncoding.EncodeToString(stuffedShot())
	q := results.Request{Screenshots: []results.Screenshot{{At: vocab.FirstPaint, JPEG: shot}, {At: vocab.End, JPEG: shot}, {At: vocab.AtFailure, JPEG: shot}}}
	shots, err := json.Marshal(q)
	if err != nil {
		b.Fatal(err)
	}
	return map[string]string{
		"screenshots": string(shots),
		"gaps":        `{"itl_ms":[0` + strings.Repeat(",0", 100_000) + `]}`,
	}
}

// writeWorst writes a results file of size bytes at most: one run of a
// browser page, of as many copies of request as fit.
func writeWorst(b *testing.B, path, request string, size int) {
	const head = `{"schema":"latgate/results/v1","metrics_version":2,"runs":[{"scenario":"s","endpoint":"e","fingerprint_parts":{"api":"browser"},"requests":[`
	const tail = `]}]}`
	fh, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	w.WriteString(head)
	for n := len(head) + len(tail); n+len(request)+1 <= size; n += len(request) + 1 {
		if n > len(head)+len(tail) {
			w.WriteByte(',')
		}
		w.WriteString(request)
	}
	w.WriteString(tail)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		b.Fatal(err)
	}
}

// nothing is a Folder that keeps nothing.
type nothing struct{}

func (nothing) Add(*results.Request) {}

// BenchmarkReadWorst: reading the costliest results files we could craft
// that are read without error, by Read (whole, as gate and publish read)
// and by Stream (as compare reads): the CPU per MiB of the file (user and
// system, GC included: steadier than the time on a shared machine) and the
// process's peak resident memory while reading. -worst-mib 512 measures
// files of the largest size Read takes (written to a temporary folder, 1
// GiB of disk); -benchtime 1x then.
func BenchmarkReadWorst(b *testing.B) {
	dir := b.TempDir()
	size := *worstMiB << 20
	for shape, request := range worstRequests(b) {
		path := filepath.Join(dir, shape+".json")
		writeWorst(b, path, request, size)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, reader := range []struct {
			name string
			read func() error
		}{
			{"Read", func() error { _, err := Read(path); return err }},
			{"Stream", func() error { _, _, err := Stream(path, func() nothing { return nothing{} }); return err }},
		} {
			b.Run(fmt.Sprintf("%s/%s/%dMiB", shape, reader.name, *worstMiB), func(b *testing.B) {
				b.SetBytes(st.Size())
				debug.FreeOSMemory()
				resetPeakRSS(b)
				cpu := cpuTime()
				for b.Loop() {
					if err := reader.read(); err != nil {
						b.Fatal(err)
					}
				}
				mib := float64(st.Size()) / (1 << 20)
				b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N)/mib, "cpu-ms/MiB")
				b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-MiB")
			})
		}
		if err := os.Remove(path); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the process's CPU time, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS sets the process's peak resident memory (VmHWM) to what it
// holds now (Linux: 5 written to /proc/self/clear_refs).
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatal(err)
	}
}

// peakRSS is the process's peak resident memory, in bytes.
func peakRSS(b *testing.B) int64 {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(s), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

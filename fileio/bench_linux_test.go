package fileio

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	worstMiB  = flag.Int("worst-mib", 16, "the size of BenchmarkReadWorst's files, in MiB (512: the largest a results file may be)")
	worstKeep = flag.String("worst-keep", "", "a `folder` where BenchmarkReadWorst writes its files and keeps them")
	worstOnly = flag.String("worst-shapes", "", "BenchmarkReadWorst's shapes to read, separated by commas (default: all)")
)

// BenchmarkReadWorst: reading the costliest results files we could craft
// (worstShapes), by Read (whole, as gate and publish read) and by Stream
// (as compare reads): the CPU per MiB of the file (user and system, GC
// included: steadier than the time on a shared machine) and the process's
// peak resident memory while reading. -worst-mib 512 measures files of
// the largest size Read takes (written to a temporary folder, 1 GiB of
// disk; -worst-keep DIR keeps them there, for latgate's commands);
// -worst-shapes a,b the shapes named; -benchtime 1x then.
func BenchmarkReadWorst(b *testing.B) {
	dir := b.TempDir()
	if *worstKeep != "" {
		dir = *worstKeep
	}
	size := *worstMiB << 20
	for name, sh := range worstShapes(b) {
		if *worstOnly != "" && !slices.Contains(strings.Split(*worstOnly, ","), name) {
			continue
		}
		path := filepath.Join(dir, name+".json")
		writeShape(b, path, sh, size)
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
			b.Run(fmt.Sprintf("%s/%s/%dMiB", name, reader.name, *worstMiB), func(b *testing.B) {
				b.SetBytes(st.Size())
				debug.FreeOSMemory()
				resetPeakRSS(b)
				cpu := cpuTime()
				for b.Loop() {
					if err := reader.read(); (err != nil) != strings.HasSuffix(name, "-refused") {
						b.Fatal(err)
					}
				}
				mib := float64(st.Size()) / (1 << 20)
				b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N)/mib, "cpu-ms/MiB")
				b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-MiB")
			})
		}
		if *worstKeep == "" {
			if err := os.Remove(path); err != nil {
				b.Fatal(err)
			}
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
func resetPeakRSS(b testing.TB) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Fatal(err)
	}
}

// peakRSS is the process's peak resident memory, in bytes.
func peakRSS(b testing.TB) int64 {
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

package probe

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// threadWaits reads how long each thread of the process has waited to
// run: the second field of Linux's /proc/self/task/TID/schedstat (ns),
// which the kernel adds a wait to when it ends (the thread gets a CPU).
// A thread's wait that ended since the last scan is a stall, placed
// before the scan (at most one scan's interval late).
type threadWaits struct {
	files  map[string]*os.File
	listed time.Time // when the threads were last listed
	last   map[string]uint64
}

// threadList is how often the threads are listed again (Go starts one
// now and then).
const threadList = time.Second

// newThreadWaits starts reading the threads' waits at now, on the
// prober's clock: nil unless that clock is the real one (the waits are
// real time: a virtual clock, as in tests, has none to compare) and the
// threads can be read.
func newThreadWaits(now time.Time) *threadWaits {
	var tv syscall.Timeval
	if err := syscall.Gettimeofday(&tv); err != nil {
		return nil
	}
	if d := now.Sub(time.Unix(tv.Unix())); d > time.Second || d < -time.Second {
		return nil
	}
	t := &threadWaits{files: map[string]*os.File{}, last: map[string]uint64{}}
	if !t.list(now) {
		return nil
	}
	return t
}

// list opens the threads not open yet and closes those that ended.
func (t *threadWaits) list(now time.Time) bool {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false
	}
	seen := map[string]bool{}
	for _, e := range entries {
		tid := e.Name()
		seen[tid] = true
		if t.files[tid] != nil {
			continue
		}
		f, err := os.Open("/proc/self/task/" + tid + "/schedstat")
		if err != nil {
			continue
		}
		t.files[tid] = f
		t.last[tid], _ = wait(f)
	}
	for tid, f := range t.files {
		if !seen[tid] {
			_ = f.Close()
			delete(t.files, tid)
			delete(t.last, tid)
		}
	}
	t.listed = now
	return true
}

// wait reads a thread's schedstat: how long it has waited to run, in ns.
func wait(f *os.File) (uint64, bool) {
	var b [96]byte
	n, err := f.ReadAt(b[:], 0)
	if n == 0 && err != nil {
		return 0, false
	}
	fields := bytes.Fields(b[:n])
	if len(fields) < 2 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(fields[1]), 10, 64)
	return v, err == nil
}

// scan reads every thread's wait at now: the stalls that ended since the
// last scan.
func (t *threadWaits) scan(now time.Time) []stall {
	if t == nil {
		return nil
	}
	if now.Sub(t.listed) >= threadList {
		t.list(now)
	}
	var ended []stall
	for tid, f := range t.files {
		cur, ok := wait(f)
		if !ok {
			continue
		}
		if waited := time.Duration(cur - t.last[tid]); waited >= stallMin {
			ended = append(ended, stall{from: now.Add(-waited), to: now})
		}
		t.last[tid] = cur
	}
	return ended
}

// close closes the threads' files.
func (t *threadWaits) close() {
	if t == nil {
		return
	}
	for _, f := range t.files {
		_ = f.Close()
	}
}

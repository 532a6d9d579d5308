package probe

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestThreadWaits: a thread's wait to run that grew by stallMin or more
// since the last scan is a stall ending at the scan; less is none. The
// threads' files stand in for /proc's schedstat.
func TestThreadWaits(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "schedstat")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("5000000 1000000 3\n")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	now := time.Unix(1000, 0)
	tw := &threadWaits{files: map[string]*os.File{"7": f}, listed: now, last: map[string]uint64{}}
	tw.last["7"], _ = wait(f)
	write("6000000 15000000 4\n") // waited 14 ms more: no stall
	if got := tw.scan(now.Add(20 * ms)); len(got) != 0 {
		t.Errorf("a 14 ms wait: stalls %v, want none", got)
	}
	write("9000000 115000000 5\n") // waited 100 ms more
	at := now.Add(140 * ms)
	if got := tw.scan(at); len(got) != 1 || got[0] != (stall{from: at.Add(-100 * ms), to: at}) {
		t.Errorf("a 100 ms wait: stalls %v, want one of 100 ms ending at the scan", got)
	}
	if got := tw.scan(at.Add(5 * ms)); len(got) != 0 {
		t.Errorf("no further wait: stalls %v", got)
	}
	// The process's own threads can be read where the prober's clock is
	// the real one, and not on another clock.
	if real := newThreadWaits(time.Now()); real == nil || len(real.files) == 0 {
		t.Errorf("this process's threads: %v", real)
	} else {
		real.close()
	}
	if fake := newThreadWaits(time.Unix(1000, 0)); fake != nil {
		t.Errorf("a clock other than the real one: the threads' waits are read")
	}
}

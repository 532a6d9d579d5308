//go:build linux

package browser

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stubbornBrowser writes a fake browser to dir: a shell script that
// starts a child which ignores SIGTERM (and SIGINT, SIGHUP) and starts a
// grandchild that does too (neither holds the browser's DevTools pipes),
// writes the three pids to dir/pids, then exits (crash: a browser that
// dies as it starts, its children left) or waits, never answering.
func stubbornBrowser(t *testing.T, dir string, crash bool) string {
	t.Helper()
	script := `#!/bin/sh
pids=` + filepath.Join(dir, "pids") + `
sh -c 'trap "" TERM INT HUP; sh -c "trap \"\" TERM INT HUP; echo \$\$ >> $0; exec sleep 600" "$0" & echo $$ >> "$0"; wait' "$pids" 3>&- 4>&- &
echo $$ >> "$pids"
`
	if crash {
		script += "sleep 0.2\nexit 1\n"
	}
	script += "wait\n"
	path := filepath.Join(dir, "stubborn-browser")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// startedPids waits until the fake browser and its two children wrote
// their pids (at most 20 s).
func startedPids(t *testing.T, dir string) []int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, "pids"))
		if f := strings.Fields(string(b)); len(f) == 3 {
			var pids []int
			for _, s := range f {
				p, _ := strconv.Atoi(s)
				pids = append(pids, p)
			}
			return pids
		}
	}
	t.Fatal("the fake browser did not start its children within 20 s")
	return nil
}

// running are the pids of pids that still run (a zombie has ended).
func running(pids []int) []int {
	var out []int
	for _, p := range pids {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/stat")
		if err != nil || syscall.Kill(p, 0) != nil {
			continue
		}
		if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// leftFolders are what latgate left in tmp.
func leftFolders(t *testing.T, tmp string) []string {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestBrowserEndsEverythingItStarted: a browser whose child and
// grandchild ignore SIGTERM is ended with all of them, and its temporary
// folder removed, whether it fails to start (it dies as it starts, its
// children left), its start is canceled (a signal), or the program aborts it
// (a second signal: Abort). Without a process group of its own, the
// children outlived latgate. Real clock: processes start and end in real
// time; the bounds (20 s to start, 15 s to end: the grace is 2 s) hold at
// a load average of 20 on 2 cores, where each case took under 4 s.
func TestBrowserEndsEverythingItStarted(t *testing.T) {
	for _, how := range []string{"start fails", "start canceled", "aborted"} {
		t.Run(how, func(t *testing.T) {
			dir, tmp := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp)
			c := Config{Path: stubbornBrowser(t, dir, how == "start fails"), NoSandbox: true}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			started := make(chan error, 1)
			go func() {
				b, err := Start(ctx, c)
				if err == nil {
					b.Close()
				}
				started <- err
			}()
			pids := startedPids(t, dir)
			switch how {
			case "start canceled":
				cancel()
			case "aborted":
				Abort()
				if left := running(pids); len(left) > 0 {
					t.Errorf("Abort left %v of %v running", left, pids)
				}
				if left := leftFolders(t, tmp); len(left) > 0 {
					t.Errorf("Abort left %v in TMPDIR", left)
				}
				cancel()
			}
			select {
			case err := <-started:
				if err == nil {
					t.Fatal("a fake browser started")
				}
			case <-time.After(15 * time.Second):
				t.Fatalf("Start did not return within 15 s")
			}
			if left := running(pids); len(left) > 0 {
				t.Errorf("%v of the browser's processes %v still run", left, pids)
				for _, p := range left {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}
			if left := leftFolders(t, tmp); len(left) > 0 {
				t.Errorf("left in TMPDIR: %v", left)
			}
		})
	}
}

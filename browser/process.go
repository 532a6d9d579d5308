package browser

import (
	"os"
	"os/exec"
	"sync"
	"time"
)

// killGrace is how long the browser's processes have to end after
// SIGTERM before they are killed (SIGKILL); goneWait how long a killed
// group is waited for before its folder is removed anyway.
const (
	killGrace = 2 * time.Second
	goneWait  = 2 * time.Second
)

// group is the browser's process group: the browser runs in a group of
// its own (Setpgid), so that everything it starts, and everything those
// start, ends with it, whatever signal they ignore.
type group struct {
	profile string // the browser's profile: its processes name it (--user-data-dir)
	mu      sync.Mutex
	pid     int // the browser's, the group's id; 0 before it started
	cmd     *exec.Cmd
}

// setup makes the browser's command start a process group of its own
// (and, on Linux, die with latgate: Pdeathsig), and end the group when
// the browser's context ends: SIGTERM, then SIGKILL of the browser after
// killGrace (exec's WaitDelay). What is left of the group is ended by end.
func (g *group) setup(cmd *exec.Cmd) {
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = killGrace
	cmd.Cancel = func() error {
		if !groups {
			return cmd.Process.Kill()
		}
		g.signal(sigTerm)
		return nil
	}
	g.mu.Lock()
	g.cmd = cmd
	g.mu.Unlock()
}

// leader is the group's id, once the browser started (0 before).
func (g *group) leader() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.pid == 0 && g.cmd != nil && g.cmd.Process != nil {
		g.pid = g.cmd.Process.Pid
	}
	return g.pid
}

// signal sends sig to every process of the group.
func (g *group) signal(sig os.Signal) {
	if pid := g.leader(); pid > 0 {
		signalGroup(pid, sig)
	}
}

// end ends what is left of the group: SIGTERM, then SIGKILL after grace,
// and waits (at most goneWait more) until none of its processes runs;
// then kills any process of the browser's profile that left the group.
func (g *group) end(grace time.Duration) {
	defer sweep(g.profile)
	pid := g.leader()
	if pid <= 0 || !groupAlive(pid) {
		return
	}
	signalGroup(pid, sigTerm)
	if waitGone(pid, grace) {
		return
	}
	signalGroup(pid, sigKill)
	waitGone(pid, goneWait)
}

// waitGone waits until no process of the group pid runs, at most d;
// false when one still does.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for groupAlive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// live are the browsers started and not closed yet, for Abort.
var live = struct {
	sync.Mutex
	m map[*Browser]struct{}
}{m: map[*Browser]struct{}{}}

// Abort ends every browser not closed yet, at once: its processes killed
// (SIGKILL, as a group) and its temporary folder removed. It is for a
// program about to exit without closing them (a second signal): Close
// first gives each browser its time to close. Safe with Close.
func Abort() {
	live.Lock()
	bs := make([]*Browser, 0, len(live.m))
	for b := range live.m {
		bs = append(bs, b)
	}
	live.Unlock()
	for _, b := range bs {
		b.proc.signal(sigKill)
		sweep(b.proc.profile)
	}
	for _, b := range bs {
		if pid := b.proc.leader(); pid > 0 {
			waitGone(pid, goneWait)
		}
		_ = os.RemoveAll(b.root)
	}
}

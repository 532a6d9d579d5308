//go:build unix

package browser

import (
	"os"
	"syscall"
)

var sigTerm, sigKill os.Signal = syscall.SIGTERM, syscall.SIGKILL

// signalGroup sends sig to every process of the group pid.
func signalGroup(pid int, sig os.Signal) {
	_ = syscall.Kill(-pid, sig.(syscall.Signal))
}

// groups: the browser runs in a process group of its own, ended as one.
const groups = true

//go:build unix && !linux

package browser

import "syscall"

// procAttr starts the browser in a process group of its own.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// groupAlive reports whether a process of the group pid is there (a
// zombie counts: it has yet to be reaped).
func groupAlive(pid int) bool {
	return syscall.Kill(-pid, 0) == nil
}

// sweep finds no process by its command line here: the group is all.
func sweep(string) {}

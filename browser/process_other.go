//go:build !unix

package browser

import (
	"os"
	"syscall"
)

// Without process groups, the browser's process is all latgate ends
// (exec's Cancel, then its WaitDelay).
var sigTerm, sigKill os.Signal = os.Kill, os.Kill

func procAttr() *syscall.SysProcAttr { return nil }

func signalGroup(int, os.Signal) {}

func groupAlive(int) bool { return false }

// groups: the browser runs in a process group of its own, ended as one.
const groups = false

// sweep finds no process by its command line here: the group is all.
func sweep(string) {}

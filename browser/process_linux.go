//go:build linux

package browser

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// procAttr starts the browser in a process group of its own, killed by
// the kernel (the browser itself) when latgate's thread that started it
// ends (as chromedp does on Linux).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// groupAlive reports whether a process of the group pid runs: one in
// /proc of that group that is not a zombie (a zombie has ended; its
// parent, maybe not latgate, has yet to reap it).
func groupAlive(pid int) bool {
	if syscall.Kill(-pid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold anything, so cut
		// at the last ')'.
		f := bytes.Fields(stat[bytes.LastIndexByte(stat, ')')+1:])
		if len(f) > 2 && string(f[0]) != "Z" && string(f[2]) == strconv.Itoa(pid) {
			return true
		}
	}
	return false
}

// sweep kills the processes that name profile as their user data
// directory: Chromium gives every process it starts --user-data-dir, so a
// helper that left the browser's group is found by it (as chromedp finds
// the leftovers of a profile it made).
func sweep(profile string) {
	if profile == "" {
		return
	}
	want := []byte("--user-data-dir=" + profile + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.Contains(cmdline, want) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

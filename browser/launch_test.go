package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBrowserEnv: the browser's environment is the few variables it
// needs and a home of its own: no key of a suite's, no token of the
// Action's, nothing else of the program's.
func TestBrowserEnv(t *testing.T) {
	t.Parallel()
	prog := map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8", "TZ": "Europe/Paris",
		"OPENAI_API_KEY": "sk-secret", "INPUT_GITHUB_TOKEN": "ghs_secret", "GITHUB_TOKEN": "ghs_secret", "SESSION": "tok-secret",
		"LD_PRELOAD": "/tmp/evil.so", "CHROME_PATH": "/usr/bin/chromium", NoSandboxVar: "1"}
	got := browserEnv(func(k string) string { return prog[k] }, "/tmp/home")
	want := []string{"HOME=/tmp/home", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "TZ=Europe/Paris"}
	if !slices.Equal(got, want) {
		t.Errorf("browserEnv = %q, want %q", got, want)
	}
	if got := browserEnv(func(string) string { return "" }, "/h"); !slices.Equal(got, []string{"HOME=/h", "PATH=" + defaultPath}) {
		t.Errorf("browserEnv of an empty environment = %q", got)
	}
}

// TestSandbox: the browser runs sandboxed unless
// $LATGATE_BROWSER_NO_SANDBOX is 1; as root without it, an error that
// says how to run sandboxed, and how to run without on purpose.
func TestSandbox(t *testing.T) {
	t.Parallel()
	env := func(uid int, v string) Env {
		return Env{Getenv: func(k string) string {
			if k == NoSandboxVar {
				return v
			}
			return ""
		}, Getuid: func() int { return uid }}
	}
	for _, tt := range []struct {
		uid       int
		v         string
		noSandbox bool
		err       bool
	}{{1001, "", false, false}, {1001, "1", true, false}, {0, "1", true, false}, {0, "", false, true}, {0, "true", false, true}} {
		no, err := Sandbox(env(tt.uid, tt.v))
		if no != tt.noSandbox || (err != nil) != tt.err {
			t.Errorf("uid %d, %s=%q: no sandbox %v, %v", tt.uid, NoSandboxVar, tt.v, no, err)
		}
		if err != nil && (!errors.Is(err, ErrSandbox) || !strings.Contains(err.Error(), "a user other than root") ||
			!strings.Contains(err.Error(), NoSandboxVar+"=1")) {
			t.Errorf("uid %d: %v", tt.uid, err)
		}
	}
}

// fakeBrowser is a program at a path of its own that records its
// arguments, its environment and its process, then runs tail (a shell
// command): it never answers the DevTools protocol.
func fakeBrowser(t *testing.T, tail string) (path string, read func(what string) string) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "chromium")
	script := "#!/bin/sh\necho \"$@\" > \"$0.args\"\nenv > \"$0.env\"\necho $$ > \"$0.pid\"\n" + tail + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, func(what string) string {
		b, _ := os.ReadFile(path + "." + what)
		return string(b)
	}
}

// startBounded is Start, or a failure when it does not return within a
// minute (it waited forever for a browser that never ran). Real clock:
// the tests through it hold at load average 28 on 2 cores (8 of 8 runs,
// 3 with -race, 2026-12-04), each in at most 0.12 s.
func startBounded(t *testing.T, ctx context.Context, c Config) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		b, err := Start(ctx, c)
		if b != nil {
			b.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("Start(%+v) did not return within a minute", c)
		return nil
	}
}

// TestStartNoProgram: a browser that cannot run is an error of Start,
// at once (it waited forever for it).
func TestStartNoProgram(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"/nowhere/chromium", "not-a-browser-on-path", t.TempDir()} {
		err := startBounded(t, context.Background(), Config{Path: path, NoSandbox: true})
		if err == nil || !strings.Contains(err.Error(), "cannot start the browser "+path) {
			t.Errorf("Start(%q) = %v", path, err)
		}
	}
}

// TestStartEnvironment: the browser's process starts with browserEnv's
// variables only (none of the program's keys and tokens), its sandbox
// dropped only when Config says so, and as root it is not started
// without Config.NoSandbox; what it printed about a missing sandbox comes
// with how to run it.
func TestStartEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("INPUT_GITHUB_TOKEN", "ghs_secret")
	path, read := fakeBrowser(t, "echo 'FATAL:zygote_host_impl_linux.cc(128)] No usable sandbox! Update your kernel' >&2\nexit 1")
	if os.Getuid() == 0 {
		if err := startBounded(t, context.Background(), Config{Path: path}); !errors.Is(err, ErrSandbox) || read("args") != "" {
			t.Errorf("as root with the sandbox: %v; the browser ran: %q", err, read("args"))
		}
	}
	for _, noSandbox := range []bool{true, false} {
		if !noSandbox && os.Getuid() == 0 {
			continue
		}
		err := startBounded(t, context.Background(), Config{Path: path, NoSandbox: noSandbox})
		if err == nil || !strings.Contains(err.Error(), "No usable sandbox") || !strings.Contains(err.Error(), "apparmor_restrict_unprivileged_userns") {
			t.Errorf("no sandbox %v: %v", noSandbox, err)
		}
		if args := read("args"); strings.Contains(args, "--no-sandbox") != noSandbox || !strings.Contains(args, "--enable-features="+features) {
			t.Errorf("no sandbox %v: the browser's arguments %q", noSandbox, args)
		}
	}
	env := strings.Fields(read("env"))
	home := ""
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "HOME" {
			home = v
		}
		if !slices.Contains(keptEnv, k) && k != "HOME" && k != "PWD" && k != "SHLVL" && k != "_" {
			t.Errorf("the browser's environment holds %s", kv)
		}
	}
	if h, _ := os.UserHomeDir(); home == "" || home == h {
		t.Errorf("the browser's HOME %q: want a directory of its own", home)
	} else if _, err := os.Stat(home); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the browser's home %s is still there after it failed: %v", home, err)
	}
}

// TestStartCanceled: a canceled context ends a start that waits for a
// browser that never answers, at once, and its process with it.
func TestStartCanceled(t *testing.T) {
	t.Parallel()
	path, read := fakeBrowser(t, "exec sleep 600")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for read("pid") == "" {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	if err := startBounded(t, ctx, Config{Path: path, NoSandbox: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("Start = %v, want context.Canceled", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(read("pid")))
	if pid == 0 || syscall.Kill(pid, 0) == nil {
		t.Errorf("the browser's process %d still runs", pid)
	}
}

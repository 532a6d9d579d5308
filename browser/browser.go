package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// StartTimeout bounds how long a browser may take to start.
const StartTimeout = 30 * time.Second

// closeTimeout bounds a graceful close; the process is killed after it.
const closeTimeout = 5 * time.Second

// Browser is one running browser with a fresh profile and home (in a
// temporary folder removed at Close) and an environment of its own
// (browserEnv), in a process group of its own: Close ends every process
// the browser started (SIGTERM, then SIGKILL after killGrace), whatever
// signal they ignore. Each Page is a tab in a browser context of its own
// (no cookie or storage shared between pages). Close it on every exit
// path; a canceled parent context closes it too, Abort kills it at once,
// and on Linux the kernel kills it when the program dies.
type Browser struct {
	Path, Version string

	ctx         context.Context // the first tab's: it holds the browser
	stop        func()          // cancels ctx and waits for the browser (once)
	allocCancel context.CancelFunc
	root        string // the temporary folder: home/ and profile/
	proc        *group
	started     bool
	once        sync.Once
}

// features are Chromium's features the browser runs with: chromedp's
// defaults, and origin-bound cookies (a cookie without a Domain attribute
// goes back only to the scheme and port that set it; RFC 6265 sends it to
// every port of its host), which keep the cookies of Options on the
// page's origin.
const features = "NetworkService,NetworkServiceInProcess,EnablePortBoundCookies,EnableSchemeBoundCookies"

// flags are the browser's switches and environment: chromedp's defaults
// (headless, no first run, no background networking, no throttling of
// background pages), origin-bound cookies, no permission prompt, the
// sandbox unless c says otherwise (chromedp would drop it as root), and
// only env.
func flags(c Config, env []string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(c.Path),
		chromedp.Flag("enable-features", features),
		chromedp.Flag("no-sandbox", c.NoSandbox),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.NoInheritEnv,
		chromedp.Env(env...),
	)
}

// discard drops chromedp's own log lines (the events it does not know).
func discard(string, ...any) {}

// Start starts the browser c names with a fresh profile, in an
// environment of its own (browserEnv: none of the program's keys and
// tokens). It fails when the browser does not start within StartTimeout,
// or at once when it cannot run (not a program, or root without
// c.NoSandbox: ErrSandbox); a canceled ctx ends it.
func Start(ctx context.Context, c Config) (*Browser, error) {
	if !c.NoSandbox && os.Getuid() == 0 {
		return nil, sandboxErr()
	}
	root, err := os.MkdirTemp("", "latgate-browser-")
	if err != nil {
		return nil, fmt.Errorf("cannot start the browser: %w", err)
	}
	home, profile := filepath.Join(root, "home"), filepath.Join(root, "profile")
	for _, dir := range []string{home, profile} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			_ = os.RemoveAll(root)
			return nil, fmt.Errorf("cannot start the browser: %w", err)
		}
	}
	proc := &group{profile: profile}
	opts := append(flags(c, browserEnv(os.Getenv, home)), chromedp.UserDataDir(profile), chromedp.ModifyCmdFunc(proc.setup))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithLogf(discard), chromedp.WithErrorf(discard))
	b := &Browser{Path: c.Path, ctx: bctx, stop: sync.OnceFunc(bcancel), allocCancel: acancel, root: root, proc: proc}
	live.Lock()
	live.m[b] = struct{}{}
	live.Unlock()
	late := time.AfterFunc(StartTimeout, b.stop)
	err = chromedp.Do(bctx)
	b.started = err == nil
	if err == nil {
		var v cdpbrowser.GetVersionResult
		v, err = chromedp.CallBrowser(bctx, cdpbrowser.GetVersion, cdp.Empty{})
		b.Version = v.Product
	}
	timedOut := !late.Stop() // the timer stopped the browser, even one that had just answered
	if err == nil && timedOut {
		err = context.DeadlineExceeded
	}
	if err != nil {
		b.Close()
		switch {
		case timedOut:
			return nil, fmt.Errorf("browser %s did not start within %v", c.Path, StartTimeout)
		case ctx.Err() != nil:
			return nil, ctx.Err()
		}
		return nil, startError(c.Path, err)
	}
	return b, nil
}

// startError is why the browser at path did not start: chromedp's error,
// which holds what the browser printed, clipped, and how to run it when
// it found no sandbox it could use.
func startError(path string, err error) error {
	msg := clip(strings.Join(strings.Fields(err.Error()), " "), 400)
	if strings.Contains(err.Error(), "No usable sandbox") {
		msg += "; Chromium found no sandbox it could use (Ubuntu 23.10 and later keep unprivileged user namespaces from " +
			"browsers without an AppArmor profile: run the system google-chrome, whose profile allows them, or " +
			"sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0), or set " + NoSandboxVar + "=1 to run it without"
	}
	return fmt.Errorf("cannot start the browser %s: %s", path, msg)
}

// Process is the browser's process (nil once closed).
func (b *Browser) Process() *os.Process {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil {
		return c.Browser.Process()
	}
	return nil
}

// Close closes the browser: gracefully within closeTimeout, then its
// process group ended (SIGTERM, then SIGKILL after killGrace: what the
// browser started, and what those started, too); it waits for its
// processes and removes its profile and home. It is safe to call more
// than once. A browser that never started has nothing to close
// gracefully (chromedp would wait for it forever).
func (b *Browser) Close() {
	b.once.Do(func() {
		if b.started {
			ctx, cancel := context.WithTimeout(b.ctx, closeTimeout)
			if err := chromedp.Cancel(ctx); err != nil && !errors.Is(err, context.Canceled) {
				b.stop()
			}
			cancel()
		}
		b.stop()
		b.allocCancel()
		b.proc.end(killGrace)
		_ = os.RemoveAll(b.root)
		live.Lock()
		delete(live.m, b)
		live.Unlock()
	})
}

package gate

import (
	"context"
	_ "embed"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/latgate/latgate/browser"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/report"
	"github.com/latgate/latgate/results"
	"github.com/latgate/latgate/sim"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

//go:embed demo.yaml
var demoSuite string

//go:embed demo_browser.yaml
var demoBrowserSuite string

// DemoOptions choose the simulator profiles of the demo's two builds.
type DemoOptions struct {
	BaseProfile, HeadProfile string
	Dir                      string // keep the results here ("" = a temporary folder)
	// Serve serves a simulator and returns its base URL (up to /v1) and
	// how to stop it; nil: on a free loopback port. Client measures
	// them; nil: one sized for the suite. (Tests serve on the in-memory
	// loopback of a virtual clock.)
	Serve  func(http.Handler) (string, func(), error)
	Client *http.Client
	// FindBrowser finds the browser of the demo's chat page; nil:
	// browser.Find on PATH and $CHROME_PATH. None found skips that part,
	// saying how to get one.
	FindBrowser func() (string, error)
}

// serveLoopback serves h on a free loopback port.
func serveLoopback(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, AsCannotRun(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/v1", func() { _ = srv.Close() }, nil
}

// demoBuild is one of the demo's two builds: its simulator's profile, URL
// and the demo suite pointed at it.
type demoBuild struct {
	profile sim.Profile
	url     string
	cfg     *suite.Config
}

// startBuild serves a simulator at the named profile and parses the demo
// suite against it.
func startBuild(env Env, serve func(http.Handler) (string, func(), error), name string, seed uint64) (demoBuild, func(), error) {
	p, err := sim.Named(name)
	if err != nil {
		return demoBuild{}, nil, AsBadInput(err)
	}
	url, stop, err := serve(sim.New(p, seed))
	if err != nil {
		return demoBuild{}, nil, err
	}
	cfg, err := suite.Parse("demo.yaml", []byte(strings.ReplaceAll(demoSuite, "{{SIM}}", url)), suite.Options{Getenv: env.Getenv})
	if err != nil {
		stop()
		return demoBuild{}, nil, AsBadInput(err)
	}
	return demoBuild{profile: p, url: url, cfg: cfg}, stop, nil
}

// Demo runs the whole flow with no API key: two simulators on loopback
// stand for the base branch's build and a slower pull request's build; the
// demo suite measures both interleaved in one job (latgate ab), compares
// them and prints the budget table and the PR comment a dry run would
// post. Its verdict is shown, not returned: the demo succeeds when it ran.
func Demo(ctx context.Context, env Env, o DemoOptions) error {
	serve := o.Serve
	if serve == nil {
		serve = serveLoopback
	}
	base, stopBase, err := startBuild(env, serve, o.BaseProfile, 42)
	if err != nil {
		return err
	}
	defer stopBase()
	head, stopHead, err := startBuild(env, serve, o.HeadProfile, 43)
	if err != nil {
		return err
	}
	defer stopHead()
	dir := o.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "latgate-demo-"); err != nil {
			return AsCannotRun(err)
		}
		defer os.RemoveAll(dir)
	}
	w := env.Stdout
	fmt.Fprintf(w, "latgate demo: the base branch's build is simulator profile %q (%s), the pull request's build is %q (%s)\n\n", base.profile.Name, base.url, head.profile.Name, head.url)
	fmt.Fprintln(w, "1. Measuring both builds interleaved in one job (latgate ab): each block of requests holds both, in random order, so provider drift hits both alike…")
	f, err := MeasureAB(ctx, base.cfg, head.cfg, MeasureOptions{Client: o.Client, Source: results.Source{GitRef: "demo", Runner: "local"}, Progress: env.Stderr, TTY: env.TTY, ToolVersion: env.ToolVersion})
	if err != nil {
		return err
	}
	report.Measurements(w, f)
	path := filepath.Join(dir, ABResults)
	if err := fileio.Write(path, f); err != nil {
		return AsCannotRun(err)
	}
	th, err := CompareConfig(head.cfg, Overrides{})
	if err != nil {
		return err
	}
	rep, noise, err := CompareAB(f, path, th)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n2. Comparing head with base (latgate compare %s)…\n\n", path)
	report.Text(w, rep, env.Color)
	report.NoiseText(w, noise)
	fmt.Fprintln(w, "\n3. The pull-request comment a gate run would post (dry run):")
	fmt.Fprintln(w, "-----8<-----")
	fmt.Fprint(w, report.Markdown(rep, report.MarkdownOptions{Marker: CommentMarker("demo")}))
	fmt.Fprintln(w, "-----8<-----")
	if err := demoBrowser(ctx, env, o, dir); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nIn CI this verdict (%s) would exit %d. Try it on your own endpoint: latgate init, then latgate run.\n", rep.Verdict, map[vocab.Verdict]int{vocab.Pass: 0, vocab.Fail: 1}[rep.Verdict])
	return nil
}

// demoSandbox is how the demo runs the browser at path: sandboxed, as
// every page of a suite, except as root (or where the environment allows
// otherwise): the page is latgate's own, served on loopback, and the
// demo must run on a machine that has a browser; how says so.
func demoSandbox(env Env, path string) (run browser.Config, how string) {
	benv := browser.OSEnv
	if env.Getenv != nil {
		benv.Getenv = env.Getenv
	}
	noSandbox, err := browser.Sandbox(benv)
	if noSandbox || err != nil {
		return browser.Config{Path: path, NoSandbox: true}, ", without Chromium's sandbox: the page is latgate's own"
	}
	return browser.Config{Path: path}, ""
}

// demoBrowser is the demo's chat page in a real browser, when one is
// found: the simulator's reference page, its base build appending each
// delta and its head re-rendering the whole answer as Markdown with 25 ms
// of main-thread work per update, measured interleaved; the budget table
// shows the client stage. Without a browser it says how to get one.
func demoBrowser(ctx context.Context, env Env, o DemoOptions, dir string) error {
	w := env.Stdout
	find := o.FindBrowser
	if find == nil {
		find = func() (string, error) { return browser.Find(browser.OSEnv) }
	}
	path, err := find()
	if err != nil {
		fmt.Fprintf(w, "\n4. A chat page in a browser (api browser): skipped: %v\n", err)
		return nil
	}
	p, _ := sim.Named("fast")
	p.ToolSteps, p.Tokens = 0, 24
	url, stop, err := serveLoopback(sim.New(p, 44)) // a browser reaches a real socket only
	if err != nil {
		return err
	}
	defer stop()
	page := strings.TrimSuffix(url, "/v1") + "/chat"
	load := func(query string) (*suite.Config, error) {
		text := strings.ReplaceAll(demoBrowserSuite, "{{PAGE}}", page+query)
		cfg, err := suite.Parse("demo_browser.yaml", []byte(text), suite.Options{Getenv: env.Getenv})
		return cfg, AsBadInput(err)
	}
	base, err := load("?render=append")
	if err != nil {
		return err
	}
	head, err := load("?render=markdown&cost=25")
	if err != nil {
		return err
	}
	run, how := demoSandbox(env, path)
	fmt.Fprintf(w, "\n4. A chat page in a browser (api browser, %s%s): the simulator's page at %s, its base build appending each delta, its head re-rendering the whole answer as Markdown with 25 ms of work per update, measured interleaved…\n", path, how, page)
	f, err := MeasureAB(ctx, base, head, MeasureOptions{Source: results.Source{GitRef: "demo", Runner: "local"}, Progress: env.Stderr, TTY: env.TTY,
		ToolVersion: env.ToolVersion, Browser: &run})
	if err != nil {
		return err
	}
	out := filepath.Join(dir, "ab-browser.json")
	if err := fileio.Write(out, f); err != nil {
		return AsCannotRun(err)
	}
	th, err := CompareConfig(head, Overrides{})
	if err != nil {
		return err
	}
	rep, _, err := CompareAB(f, out, th)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	report.Text(w, rep, env.Color)
	return nil
}

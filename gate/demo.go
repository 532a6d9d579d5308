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
// demo suite measures both interleaved in one job (latgate ab) — then,
// when a browser is found, the simulator's chat page in it, alone, once
// the API's measurement has ended (a browser starting beside it starves
// the API's client of CPU, which measures the machine, not the builds) —
// compares them and prints what a reviewer reads first (the verdict, the
// summary table, its notes: one screen), writing the full report, the PR
// comment a dry run would post and the results into a folder it names.
// Its verdict is shown, not returned: the demo succeeds when it ran.
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
		// Kept: it holds the full report the demo points at.
		if dir, err = os.MkdirTemp("", "latgate-demo-"); err != nil {
			return AsCannotRun(err)
		}
	}
	w := env.Stdout
	fmt.Fprintf(w, "latgate demo: the base branch's build is simulator profile %q, the pull request's is %q; both measured interleaved in one job (latgate ab), so drift hits both alike.\n", base.profile.Name, head.profile.Name)
	start := time.Now()
	f, err := MeasureAB(ctx, base.cfg, head.cfg, MeasureOptions{Client: o.Client, Source: results.Source{GitRef: "demo", Runner: "local"}, Progress: env.Stderr, TTY: env.TTY, ToolVersion: env.ToolVersion})
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ABResults)
	if err := fileio.Write(path, f); err != nil {
		return AsCannotRun(err)
	}
	th, err := CompareConfig(head.cfg, Overrides{})
	if err != nil {
		return err
	}
	rep, _, err := CompareAB(f, path, th)
	if err != nil {
		return err
	}
	if err := writeDemoReport(dir, rep); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d requests in %s.\n", requestsIn(f), time.Since(start).Round(100*time.Millisecond))
	report.TextSummary(w, rep, env.Color)
	if err := demoPageStep(ctx, env, o, dir); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nThe full report: %s (the pull-request comment: %s; every check: latgate compare %s).\n",
		filepath.Join(dir, "report.html"), filepath.Join(dir, "comment.md"), path)
	fmt.Fprintf(w, "In CI this verdict (%s) would exit %d. On your own endpoint: latgate init --base-url URL --model M --api-key-env VAR, then latgate run.\n", rep.Verdict, map[vocab.Verdict]int{vocab.Pass: 0, vocab.Fail: 1}[rep.Verdict])
	return nil
}

// requestsIn counts a file's requests.
func requestsIn(f *results.File) int {
	n := 0
	for _, r := range f.Runs {
		n += len(r.Requests)
	}
	return n
}

// writeDemoReport writes the demo's full report (HTML) and the comment a
// dry run would post (Markdown) into dir.
func writeDemoReport(dir string, rep *report.Report) error {
	var page strings.Builder
	if err := report.HTML(&page, rep); err != nil {
		return AsCannotRun(err)
	}
	for name, text := range map[string]string{
		"report.html": page.String(),
		"comment.md":  report.Markdown(rep, report.MarkdownOptions{Marker: CommentMarker("demo")}),
	} {
		if err := fileio.WriteAtomic(filepath.Join(dir, name), []byte(text)); err != nil {
			return AsCannotRun(err)
		}
	}
	return nil
}

// demoPageStep measures the simulator's chat page in a browser, when one
// is found, and prints what it found (or why it was skipped, and how to
// get a browser, or why it could not be measured).
func demoPageStep(ctx context.Context, env Env, o DemoOptions, dir string) error {
	w := env.Stdout
	find := o.FindBrowser
	if find == nil {
		find = func() (string, error) { return browser.Find(browser.OSEnv) }
	}
	path, err := find()
	if err != nil {
		fmt.Fprintf(w, "\nA chat page in a browser (api browser): skipped: %s\n", err)
		return nil
	}
	start := time.Now()
	rep, n, how, err := demoBrowser(ctx, env, path, dir)
	if err != nil {
		if ctx.Err() != nil || KindOf(err) != CannotRun {
			return err
		}
		// The page's part is the demo's extra, as where no browser is
		// found: a browser that could not measure it (one that did not
		// start in time on a loaded machine) is said, not the demo's end.
		fmt.Fprintf(w, "\nA chat page in a browser (api browser): not measured: %s\n", err)
		return nil
	}
	fmt.Fprintf(w, "\nThe simulator's chat page in a browser (api browser%s), measured after the API, alone: its base build appends each delta, its head re-renders the whole answer as Markdown with %d ms of work per update; %d page requests in %s.\n",
		how, demoPageCost, n, time.Since(start).Round(100*time.Millisecond))
	report.TextSummary(w, rep, env.Color)
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

// The demo's chat page: the fast profile's answer of demoPageTokens
// tokens; its head spends demoPageCost ms of main-thread work on each
// update.
const (
	demoPageTokens = 12
	demoPageCost   = 25
)

// demoBrowser measures the demo's chat page in the browser at path: its
// base build appending each delta and its head re-rendering the whole
// answer as Markdown with demoPageCost ms of main-thread work per update,
// measured interleaved, two tabs at once. It returns the comparison, the
// requests measured (warmup included) and how the browser ran, when not
// as every suite's page does.
func demoBrowser(ctx context.Context, env Env, path, dir string) (*report.Report, int, string, error) {
	prof, _ := sim.Named("fast")
	prof.ToolSteps, prof.Tokens = 0, demoPageTokens
	url, stop, err := serveLoopback(sim.New(prof, 44)) // a browser reaches a real socket only
	if err != nil {
		return nil, 0, "", err
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
		return nil, 0, "", err
	}
	head, err := load(fmt.Sprintf("?render=markdown&cost=%d", demoPageCost))
	if err != nil {
		return nil, 0, "", err
	}
	run, how := demoSandbox(env, path)
	f, err := MeasureAB(ctx, base, head, MeasureOptions{Source: results.Source{GitRef: "demo", Runner: "local"}, Progress: env.Stderr, TTY: env.TTY, ToolVersion: env.ToolVersion, Browser: &run})
	if err != nil {
		return nil, 0, "", err
	}
	out := filepath.Join(dir, "ab-browser.json")
	if err := fileio.Write(out, f); err != nil {
		return nil, 0, "", AsCannotRun(err)
	}
	th, err := CompareConfig(head, Overrides{})
	if err != nil {
		return nil, 0, "", err
	}
	rep, _, err := CompareAB(f, out, th)
	return rep, requestsIn(f), how, err
}

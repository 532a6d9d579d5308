package browser

import (
	"errors"
	"fmt"
	"sort"
)

// Config is how Start runs the browser.
type Config struct {
	// Path is the browser to run (Find).
	Path string
	// NoSandbox runs it without Chromium's sandbox (Sandbox says when):
	// the page's code is then kept from the machine only by the
	// browser's own process.
	NoSandbox bool
}

// NoSandboxVar is the variable of the environment that lets the browser
// run without its sandbox when it is "1": the trusted side sets it (the
// workflow, the machine), never a suite, which a pull request controls.
const NoSandboxVar = "LATGATE_BROWSER_NO_SANDBOX"

// ErrSandbox is the error of a browser that cannot run sandboxed (as
// root) and is not allowed to run without the sandbox.
var ErrSandbox = errors.New("the browser's sandbox cannot run as root")

// sandboxed says how to run the browser sandboxed; sandboxHint adds how
// to run it without the sandbox on purpose.
const (
	sandboxed = "run latgate as a user other than root (GitHub's hosted runners run steps as the runner user, " +
		"and their google-chrome runs sandboxed; in a container, a USER that is not root, with user namespaces allowed)"
	sandboxHint = sandboxed + ", or set " + NoSandboxVar + "=1 in the job's environment to run the browser without its sandbox"
)

// Sandbox says whether the browser runs without its sandbox: only when
// $LATGATE_BROWSER_NO_SANDBOX is 1. As root without it, the browser
// cannot run (Chromium's sandbox needs a user other than root): ErrSandbox,
// saying how to run it sandboxed.
func Sandbox(env Env) (noSandbox bool, err error) {
	if env.Getenv(NoSandboxVar) == "1" {
		return true, nil
	}
	if env.Getuid != nil && env.Getuid() == 0 {
		return false, sandboxErr()
	}
	return false, nil
}

func sandboxErr() error {
	return fmt.Errorf("%w, and latgate runs the page (the team's code, a pull request's) only inside it: %s", ErrSandbox, sandboxHint)
}

// NoSandboxNote is what latgate says when the browser runs without its
// sandbox.
const NoSandboxNote = "the browser runs without Chromium's sandbox (" + NoSandboxVar + "=1): the page's code is kept from this machine " +
	"only by the browser's own process; to keep the sandbox, " + sandboxed

// keptEnv are the variables of the program's environment the browser
// gets: where programs and temporary files are, the locale, time zone
// and fonts (they change what the page shows) and the setuid sandbox's
// path. Nothing else: no key of the suite's, no token of the Action's.
var keptEnv = []string{"PATH", "TMPDIR", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES",
	"LC_NUMERIC", "LC_TIME", "TZ", "FONTCONFIG_FILE", "FONTCONFIG_PATH", "CHROME_DEVEL_SANDBOX"}

// defaultPath is the browser's PATH when the program has none (a
// launcher such as Debian's /usr/bin/chromium is a shell script).
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// browserEnv is the browser's whole environment, NAME=value sorted:
// keptEnv's variables that getenv has, PATH in any case, and HOME, a
// directory of its own (nothing read from the user's, nothing left in it).
func browserEnv(getenv func(string) string, home string) []string {
	env := []string{"HOME=" + home}
	for _, k := range keptEnv {
		v := getenv(k)
		if k == "PATH" && v == "" {
			v = defaultPath
		}
		if v != "" {
			env = append(env, k+"="+v)
		}
	}
	sort.Strings(env)
	return env
}

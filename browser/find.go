package browser

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrNoBrowser is the error of Find when no browser is found.
var ErrNoBrowser = errors.New("no Chromium or Chrome found")

// Names are the browsers looked for on PATH, in order.
var Names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell"}

// InstallHint says how to get a browser.
const InstallHint = "install one (Debian/Ubuntu: apt-get install chromium, or scripts/install-chromium.sh; " +
	"GitHub's hosted runners have google-chrome), or give its path in $CHROME_PATH"

// Env is where Find reads $CHROME_PATH and PATH, and Sandbox
// $LATGATE_BROWSER_NO_SANDBOX and the user: os.Getenv, exec.LookPath and
// os.Getuid in the program.
type Env struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Getuid   func() int
}

// OSEnv is the program's environment.
var OSEnv = Env{Getenv: os.Getenv, LookPath: exec.LookPath, Getuid: os.Getuid}

// Find returns the browser to run: $CHROME_PATH when set, else the first
// of Names on PATH. A $CHROME_PATH that is not an executable file is an
// error saying so; none found is ErrNoBrowser with InstallHint. Nothing is
// downloaded, and a suite never names the program (a pull request
// controls the suite).
func Find(env Env) (string, error) {
	found, err := lookup(env)
	if err != nil {
		return "", err
	}
	// LookPath keeps a path with a slash as it is (./chromium); cleaned,
	// it would be a bare name, looked up on PATH again.
	abs, err := filepath.Abs(found)
	if err != nil {
		return "", fmt.Errorf("browser %q: %v", found, err)
	}
	return abs, nil
}

// lookup is the browser $CHROME_PATH names, else the first of Names on
// PATH, as exec.LookPath found it.
func lookup(env Env) (string, error) {
	if path := env.Getenv("CHROME_PATH"); path != "" {
		found, err := env.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("$CHROME_PATH %q: not an executable browser (%v); %s", path, unwrapExec(err), InstallHint)
		}
		return found, nil
	}
	for _, name := range Names {
		if p, err := env.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w on PATH (looked for %v): %s", ErrNoBrowser, Names, InstallHint)
}

// unwrapExec drops exec's repetition of the path from its error.
func unwrapExec(err error) error {
	var e *exec.Error
	if errors.As(err, &e) {
		return e.Err
	}
	return err
}

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
	"GitHub's hosted runners have google-chrome), or give its path in browser.path or $CHROME_PATH"

// Env is where Find reads $CHROME_PATH and PATH: os.Getenv and
// exec.LookPath in the program.
type Env struct {
	Getenv   func(string) string
	LookPath func(string) (string, error)
}

// OSEnv is the program's environment.
var OSEnv = Env{Getenv: os.Getenv, LookPath: exec.LookPath}

// Find returns the browser to run: path when given (browser.path), else
// $CHROME_PATH, else the first of Names on PATH. A path given that is not
// an executable file is an error naming where it came from; none found is
// ErrNoBrowser with InstallHint. Nothing is downloaded.
func Find(path string, env Env) (string, error) {
	from := "browser.path"
	if path == "" {
		path, from = env.Getenv("CHROME_PATH"), "$CHROME_PATH"
	}
	if path != "" {
		abs, err := env.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("%s %q: not an executable browser (%v); %s", from, path, unwrapExec(err), InstallHint)
		}
		return filepath.Clean(abs), nil
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

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// The install instructions (docs/install.md, linked from the README), run
// as a newcomer runs them.

// installDoc is where the README sends a newcomer to install latgate.
const installDoc = "docs/install.md"

// readmeBlock is the README's fenced block (```lang) that contains marker.
func readmeBlock(t *testing.T, lang, marker string) string {
	t.Helper()
	return docBlock(t, "README.md", lang, marker)
}

// docBlock is the fenced block (```lang) of the repository's file name
// (a path from the repository's root) that contains marker.
func docBlock(t *testing.T, name, lang, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(b), "```"+lang+"\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		if strings.Contains(block, marker) {
			return block
		}
	}
	t.Fatalf("%s has no ```%s block with %q", name, lang, marker)
	return ""
}

// TestInstallDocInstallsAVerifiedBinary: docs/install.md's commands for a
// release binary, run by bash as written, against a stand-in for GitHub's release
// downloads and raw files that serves the binaries and the release
// commit's RELEASE.sha256 as make release writes them (sha256sum
// latgate_*): they download the binary, check it and install it as
// latgate; a binary its release commit's checksums do not name stops them
// before anything is installed.
func TestInstallDocInstallsAVerifiedBinary(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "curl", "sha256sum", "install"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
	script := docBlock(t, installDoc, "sh", "releases/download")
	m := regexp.MustCompile(`(?m)^VERSION=(v\S+)`).FindStringSubmatch(script)
	if m == nil || !strings.Contains(script, "ASSET=latgate_linux_amd64") {
		t.Fatalf("%s's commands set no VERSION and ASSET:\n%s", installDoc, script)
	}
	version, asset := m[1], "latgate_"+runtime.GOOS+"_"+runtime.GOARCH
	dist, release := standInRelease(t, version)
	for _, tt := range []struct {
		name    string
		served  []byte
		success bool
	}{{"the release's binary", nil, true}, {"a binary the release did not build", []byte("#!/bin/sh\necho evil\n"), false}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/raw/" + version + "/RELEASE.sha256":
					_, _ = w.Write(release)
				case "/download/" + version + "/" + asset:
					if tt.served != nil {
						_, _ = w.Write(tt.served)
						return
					}
					http.ServeFile(w, r, filepath.Join(dist, asset))
				default:
					http.NotFound(w, r)
				}
			}))
			t.Cleanup(srv.Close)
			run := strings.NewReplacer(
				"https://github.com/latgate/latgate/releases/download/", srv.URL+"/download/",
				"https://raw.githubusercontent.com/latgate/latgate/", srv.URL+"/raw/",
				"ASSET=latgate_linux_amd64", "ASSET="+asset).Replace(script)
			home, work := t.TempDir(), t.TempDir()
			cmd := exec.Command("bash", "-euo", "pipefail", "-c", run)
			cmd.Dir, cmd.Env = work, append(os.Environ(), "HOME="+home)
			out, err := cmd.CombinedOutput()
			installed := filepath.Join(home, ".local", "bin", "latgate")
			got, readErr := os.ReadFile(installed)
			if !tt.success {
				if err == nil || readErr == nil {
					t.Fatalf("the commands installed a binary the release's checksums do not name (%v):\n%s", err, out)
				}
				return
			}
			if err != nil || !bytes.Contains(out, []byte(asset+": OK")) {
				t.Fatalf("%s's commands: %v\n%s", installDoc, err, out)
			}
			want, _ := os.ReadFile(filepath.Join(dist, asset))
			st, statErr := os.Stat(installed)
			if readErr != nil || !bytes.Equal(got, want) || statErr != nil || st.Mode().Perm() != 0o755 {
				t.Errorf("installed %s: %v, mode %v; want the release's binary, executable", installed, readErr, st)
			}
		})
	}
}

// standInRelease is what make release writes for version: a binary per
// OS and architecture in a folder, and their checksums as sha256sum
// latgate_* prints them (RELEASE.sha256).
func standInRelease(t *testing.T, version string) (string, []byte) {
	t.Helper()
	dist := t.TempDir()
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			name := "latgate_" + goos + "_" + arch
			if goos == "windows" {
				name += ".exe"
			}
			if err := os.WriteFile(filepath.Join(dist, name), []byte("#!/bin/sh\necho latgate "+version+" "+name+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	sums := exec.Command("bash", "-c", "sha256sum latgate_*")
	sums.Dir = dist
	out, err := sums.Output()
	if err != nil {
		t.Fatal(err)
	}
	return dist, out
}

// TestInstallDocGoInstall: docs/install.md's go install names this
// module's command, and the binary it builds keeps latgate's exit codes
// (what go run does not: it exits 1 for any failure).
func TestInstallDocGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	t.Parallel()
	block := docBlock(t, installDoc, "sh", "go install")
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module ")
	if !strings.Contains(block, "go install "+module+"/cmd/latgate@VERSION") {
		t.Fatalf("%s's go install does not name %s/cmd/latgate@VERSION:\n%s", installDoc, module, block)
	}
	bin := t.TempDir()
	build := exec.Command("go", "install", "./cmd/latgate")
	build.Dir, build.Env = "../..", append(os.Environ(), "GOBIN="+bin, "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/latgate: %v\n%s", err, out)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"version"}, 0},
		{[]string{"validate", "-c", filepath.Join(dir, "none.yaml")}, 2},
		{[]string{"run", "-c", writeNoEndpoint(t, dir), "-o", filepath.Join(dir, "r.json")}, 3},
	} {
		cmd := exec.Command(filepath.Join(bin, "latgate"), tt.args...)
		err := cmd.Run()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != tt.code {
			t.Errorf("latgate %s: %v, want exit %d", strings.Join(tt.args, " "), err, tt.code)
		}
	}
}

// writeNoEndpoint writes a valid suite whose endpoint listens nowhere (a
// closed port): every request fails, so run exits 3.
func writeNoEndpoint(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "latgate.yaml")
	suite := "endpoints:\n  - {name: e, base_url: http://127.0.0.1:9/v1, model: m}\nscenarios:\n  - {name: s, prompt: hi, requests: 1, warmup: 0}\nlimits: {timeout: 5s}\n"
	if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestREADMEUsesTheBinary: after the demo, every example in README.md,
// docs/ and examples/ runs the latgate binary, not go run (which turns
// exit codes 2 and 3 into 1); the README sends a newcomer to the install
// instructions, and the Action's command: install that they show is one
// action.yml has.
func TestREADMEUsesTheBinary(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("../../docs/*.md")
	examples, _ := filepath.Glob("../../examples/*.yaml")
	files = append(append(files, examples...), "../../README.md")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			demo := f == "../../README.md" && (strings.HasPrefix(line, "go run ./cmd/latgate demo ") || strings.Contains(line, "beyond the demo"))
			if strings.Contains(line, "go run ./cmd/latgate") && !demo {
				t.Errorf("%s:%d runs latgate with go run: %q", f, i+1, line)
			}
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "]("+installDoc+")") {
		t.Errorf("README.md does not link %s", installDoc)
	}
	if !strings.Contains(docBlock(t, installDoc, "yaml", "command: install"), "run: latgate validate") {
		t.Errorf("%s's workflow steps do not run latgate after command: install", installDoc)
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(action), `install) echo "latgate is on PATH`) {
		t.Error("action.yml has no command install")
	}
}

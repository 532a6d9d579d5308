package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests of scripts/install.sh run it with bash against a stand-in
// release server, an action tree and a tool cache in temporary folders.

var (
	releasedBin = []byte("#!/bin/sh\necho released\n")
	evilBin     = []byte("#!/bin/sh\necho evil\n")
)

func installAsset(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the stand-in release is for linux runners")
	}
	return "latgate_" + runtime.GOOS + "_" + runtime.GOARCH
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// releaseServer serves assets under /o/latgate/releases/download/ and, like
// a compromised release, a SHA256SUMS that matches whatever it serves.
type releaseServer struct {
	URL  string
	mu   sync.Mutex
	reqs []string
}

func newReleaseServer(t *testing.T, version string, bin []byte) *releaseServer {
	rs := &releaseServer{}
	asset := installAsset(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		rs.reqs = append(rs.reqs, r.URL.Path)
		rs.mu.Unlock()
		switch r.URL.Path {
		case "/o/latgate/releases/download/" + version + "/" + asset:
			_, _ = w.Write(bin)
		case "/o/latgate/releases/download/" + version + "/SHA256SUMS":
			fmt.Fprintf(w, "%s  %s\n", sum(bin), asset)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	rs.URL = srv.URL
	return rs
}

func (rs *releaseServer) requests() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return slices.Clone(rs.reqs)
}

// releaseTree is the action's checkout at a release commit: RELEASE and
// RELEASE.sha256 as make release writes them.
func releaseTree(t *testing.T, version string, bin []byte) string {
	dir := t.TempDir()
	asset := installAsset(t)
	sums := fmt.Sprintf("%s  latgate_windows_amd64.exe\n%s  %s\n", sum([]byte("other")), sum(bin), asset)
	for name, body := range map[string]string{"RELEASE": version + "\n", "RELEASE.sha256": sums} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeGo is a folder with a stand-in go command whose build writes a
// script printing "built".
func fakeGo(t *testing.T) string {
	dir := t.TempDir()
	script := "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then shift; mkdir -p \"$(dirname \"$1\")\"; printf '#!/bin/sh\\necho built %s_%s\\n' \"$GOOS\" \"$GOARCH\" > \"$1\"; fi; shift; done\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

type install struct {
	action, ref, version, cache, server string
	path                                string // prepended to PATH
}

// run runs install.sh and returns the bin output ("" when none), the log
// and the error.
func (in install) run(t *testing.T) (string, string, error) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "output")
	cmd := exec.Command("bash", "../../scripts/install.sh")
	path := os.Getenv("PATH")
	if in.path != "" {
		path = in.path + string(os.PathListSeparator) + path
	}
	cmd.Env = append(os.Environ(), "LATGATE_ACTION_PATH="+in.action, "LATGATE_ACTION_REF="+in.ref, "LATGATE_VERSION="+in.version,
		"LATGATE_ACTION_REPOSITORY=o/latgate", "GH_SERVER="+in.server, "RUNNER_TOOL_CACHE="+in.cache, "RUNNER_TEMP="+t.TempDir(),
		"GITHUB_OUTPUT="+out, "GITHUB_PATH=", "RUNNER_OS=", "RUNNER_ARCH=", "PATH="+path)
	b, err := cmd.CombinedOutput()
	o, _ := os.ReadFile(out)
	return strings.TrimSpace(strings.TrimPrefix(string(o), "bin=")), string(b), err
}

func holds(t *testing.T, path string, want []byte) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	return err == nil && string(b) == string(want)
}

// TestInstallRelease: an action used at a release commit — by its full
// SHA, its tag, or the moving major tag v1 — downloads that release's
// binary and verifies it against the checksums in its own tree, never
// against the release's SHA256SUMS.
func TestInstallRelease(t *testing.T) {
	for _, ref := range []string{strings.Repeat("ab", 20), "v9.9.9", "v9", "v9.9"} {
		t.Run(ref, func(t *testing.T) {
			srv := newReleaseServer(t, "v9.9.9", releasedBin)
			bin, log, err := install{action: releaseTree(t, "v9.9.9", releasedBin), ref: ref, cache: t.TempDir(), server: srv.URL}.run(t)
			if err != nil || !holds(t, bin, releasedBin) {
				t.Fatalf("bin=%q does not hold the released binary (%v); requests %v\n%s", bin, err, srv.requests(), log)
			}
			if want := []string{"/o/latgate/releases/download/v9.9.9/" + installAsset(t)}; !slices.Equal(srv.requests(), want) {
				t.Errorf("requests %v, want only %v", srv.requests(), want)
			}
			if strings.Contains(log, "building from source") {
				t.Errorf("a release was built from source:\n%s", log)
			}
		})
	}
}

// TestInstallTamperedRelease: a release whose binary was replaced (with a
// SHA256SUMS to match) fails the step loudly.
func TestInstallTamperedRelease(t *testing.T) {
	srv := newReleaseServer(t, "v9.9.9", evilBin)
	bin, log, err := install{action: releaseTree(t, "v9.9.9", releasedBin), ref: "v9", cache: t.TempDir(), server: srv.URL, path: fakeGo(t)}.run(t)
	if err == nil || bin != "" || !strings.Contains(log, "::error::latgate: checksum mismatch for "+installAsset(t)+" of v9.9.9") {
		t.Errorf("err %v, bin=%q; want a failed step and no binary:\n%s", err, bin, log)
	}
}

// TestInstallPlantedCache: a binary planted in the tool cache (a shared
// self-hosted runner) is never used: it is replaced by the verified
// download, and with a tampered release as well the step fails.
func TestInstallPlantedCache(t *testing.T) {
	asset := installAsset(t)
	plant := func(t *testing.T) (cache, planted string) {
		cache = t.TempDir()
		dir := filepath.Join(cache, "latgate", "v9.9.9", strings.TrimPrefix(asset, "latgate_"))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		planted = filepath.Join(dir, "latgate")
		if err := os.WriteFile(planted, []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return cache, planted
	}
	t.Run("downloaded again", func(t *testing.T) {
		cache, planted := plant(t)
		srv := newReleaseServer(t, "v9.9.9", releasedBin)
		bin, log, err := install{action: releaseTree(t, "v9.9.9", releasedBin), ref: "v9", cache: cache, server: srv.URL}.run(t)
		if err != nil || !holds(t, bin, releasedBin) || !strings.Contains(log, "::warning::latgate: the cached "+planted+" does not match") {
			t.Fatalf("bin=%q, %v; want the verified download and a warning:\n%s", bin, err, log)
		}
		if !holds(t, planted, releasedBin) {
			t.Error("the cache still holds the planted binary")
		}
		// The next job finds the verified binary in the cache: no download.
		bin, log, err = install{action: releaseTree(t, "v9.9.9", releasedBin), ref: "v9", cache: cache, server: srv.URL}.run(t)
		if err != nil || !holds(t, bin, releasedBin) || bin == planted || len(srv.requests()) != 1 {
			t.Errorf("cache hit: bin=%q, %v, requests %v; want a checked copy of the cached binary and no download:\n%s", bin, err, srv.requests(), log)
		}
	})
	t.Run("and a tampered release", func(t *testing.T) {
		cache, _ := plant(t)
		srv := newReleaseServer(t, "v9.9.9", evilBin)
		bin, log, err := install{action: releaseTree(t, "v9.9.9", releasedBin), ref: "v9", cache: cache, server: srv.URL}.run(t)
		if err == nil || bin != "" || !strings.Contains(log, "::error::latgate: checksum mismatch") {
			t.Errorf("err %v, bin=%q; want a failed step and no binary:\n%s", err, bin, log)
		}
	})
}

// TestInstallFromSource: uses: ./, a branch, version: source, and a release
// tree without checksums build from the action's checkout; a version
// input other than the tree's release is refused.
func TestInstallFromSource(t *testing.T) {
	installAsset(t)
	goDir := fakeGo(t)
	noSums := releaseTree(t, "v9.9.9", releasedBin)
	if err := os.Remove(filepath.Join(noSums, "RELEASE.sha256")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                 string
		action, ref, version string
	}{
		{"uses: ./", t.TempDir(), "", ""},
		{"a branch of a tree with a release", releaseTree(t, "v9.9.9", releasedBin), "main", ""},
		{"version: source", releaseTree(t, "v9.9.9", releasedBin), "v9", "source"},
		{"a release without checksums in its tree", noSums, "v9.9.9", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newReleaseServer(t, "v9.9.9", releasedBin)
			bin, log, err := install{action: tt.action, ref: tt.ref, version: tt.version, cache: t.TempDir(), server: srv.URL, path: goDir}.run(t)
			b, _ := os.ReadFile(bin)
			if err != nil || !strings.HasPrefix(string(b), "#!/bin/sh\necho built") || !strings.Contains(log, "building from source") {
				t.Errorf("bin=%q (%q), %v; want the binary built from source:\n%s", bin, b, err, log)
			}
			if len(srv.requests()) != 0 {
				t.Errorf("requests %v, want none", srv.requests())
			}
		})
	}
	bin, log, err := install{action: releaseTree(t, "v9.9.9", releasedBin), ref: "v9", version: "v9.9.8", cache: t.TempDir(), path: goDir}.run(t)
	if err == nil || bin != "" || !strings.Contains(log, "::error::latgate: version v9.9.8 is not the release of this action's ref (v9.9.9)") {
		t.Errorf("another version: err %v, bin=%q:\n%s", err, bin, log)
	}
}

// TestMakeReleaseWritesChecksums: make release (with a stand-in go) writes
// RELEASE and RELEASE.sha256 into the tree, and install.sh accepts the
// binaries it built against exactly that file.
func TestMakeReleaseWritesChecksums(t *testing.T) {
	asset := installAsset(t)
	for _, tool := range []string{"make", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	makefile, _ := filepath.Abs("../../Makefile")
	tree := t.TempDir()
	cmd := exec.Command("make", "-s", "-C", tree, "-f", makefile, "release", "GO="+filepath.Join(fakeGo(t), "go"), "VERSION=v9.9.9", "COMMIT=c0ffee")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make release: %v\n%s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(tree, "RELEASE")); string(b) != "v9.9.9\n" {
		t.Errorf("RELEASE = %q", b)
	}
	built, err := os.ReadFile(filepath.Join(tree, "dist", asset))
	if err != nil {
		t.Fatal(err)
	}
	sums, _ := os.ReadFile(filepath.Join(tree, "RELEASE.sha256"))
	if !strings.Contains(string(sums), sum(built)+"  "+asset+"\n") || strings.Count(string(sums), "\n") != 6 {
		t.Errorf("RELEASE.sha256 does not hold the six binaries' checksums:\n%s", sums)
	}
	srv := newReleaseServer(t, "v9.9.9", built)
	bin, log, err := install{action: tree, ref: "v9", cache: t.TempDir(), server: srv.URL}.run(t)
	if err != nil || !holds(t, bin, built) {
		t.Errorf("install.sh with the tree make release wrote: bin=%q, %v\n%s", bin, err, log)
	}

	// Not a release version: no RELEASE files.
	tree = t.TempDir()
	cmd = exec.Command("make", "-s", "-C", tree, "-f", makefile, "release", "GO="+filepath.Join(fakeGo(t), "go"), "VERSION=v9.9.9-3-gc0ffee-dirty", "COMMIT=c0ffee")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make release: %v\n%s", err, b)
	}
	for _, f := range []string{"RELEASE", "RELEASE.sha256"} {
		if _, err := os.Stat(filepath.Join(tree, f)); err == nil {
			t.Errorf("%s written for a version that is not a release", f)
		}
	}
}

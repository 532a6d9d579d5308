package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Errors of Git.FileAt.
var (
	// ErrNoGit means git is not installed (or not on PATH).
	ErrNoGit = errors.New("git is not installed")
	// ErrCommitNotFetchable means the commit is not in the clone and
	// fetching it from the remote failed.
	ErrCommitNotFetchable = errors.New("commit not available")
	// ErrFileAbsent means the commit has no such file: for the base
	// commit of a pull request, the suite is new in that pull request.
	ErrFileAbsent = errors.New("file absent at commit")
)

// Git reads files as they are at a commit of the repository that holds Dir,
// fetching a commit that a shallow clone lacks (actions/checkout clones
// with depth 1).
type Git struct {
	Dir          string        // a folder inside the working tree
	Remote       string        // default "origin"
	FetchTimeout time.Duration // bounds the fetch; default 2 minutes
	Bin          string        // the git program; default "git" on PATH
}

// FileAt returns the bytes of file (relative to g.Dir, or absolute inside
// the working tree) as it is at commit, a full or abbreviated hexadecimal
// commit id. When the commit is missing it runs
// `git fetch --depth=1 REMOTE COMMIT` (a full id is needed then) and reads
// it. Errors wrap ErrNoGit, ErrCommitNotFetchable or ErrFileAbsent.
func (g Git) FileAt(ctx context.Context, commit, file string) ([]byte, error) {
	if !isHex(commit) || len(commit) < 7 || len(commit) > 64 {
		return nil, fmt.Errorf("%q is not a commit id (want 7 to 64 hexadecimal digits)", commit)
	}
	run, err := g.runner()
	if err != nil {
		return nil, fmt.Errorf("%w (reading %s at commit %s needs it): %v", ErrNoGit, file, ShortSHA(commit), err)
	}
	rel := file
	if filepath.IsAbs(file) {
		dir, err := filepath.Abs(g.Dir)
		if err == nil {
			rel, err = filepath.Rel(dir, file)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	rel = "./" + filepath.ToSlash(filepath.Clean(rel))
	if _, err := run(ctx, "rev-parse", "--git-dir"); err != nil {
		return nil, fmt.Errorf("%s is not inside a git repository: %v", g.Dir, err)
	}
	if _, err := run(ctx, "cat-file", "-e", commit+"^{commit}"); err != nil {
		remote := g.Remote
		if remote == "" {
			remote = "origin"
		}
		timeout := g.FetchTimeout
		if timeout <= 0 {
			timeout = 2 * time.Minute
		}
		if len(commit) != 40 && len(commit) != 64 {
			return nil, fmt.Errorf("%w: commit %s is not in the clone, and an abbreviated id cannot be fetched: give the full id", ErrCommitNotFetchable, commit)
		}
		fctx, cancel := context.WithTimeout(ctx, timeout)
		_, ferr := run(fctx, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--depth=1", remote, commit)
		if ferr != nil && errors.Is(fctx.Err(), context.DeadlineExceeded) {
			ferr = fmt.Errorf("git fetch: no answer within %v", timeout)
		}
		cancel()
		if ferr != nil {
			return nil, fmt.Errorf("%w: commit %s is not in the clone and fetching it from %s failed (a clone with full history has it: actions/checkout with fetch-depth: 0): %v", ErrCommitNotFetchable, ShortSHA(commit), remote, ferr)
		}
		if _, err := run(ctx, "cat-file", "-e", commit+"^{commit}"); err != nil {
			return nil, fmt.Errorf("%w: commit %s is still missing after fetching it from %s", ErrCommitNotFetchable, ShortSHA(commit), remote)
		}
	}
	spec := commit + ":" + rel
	typ, err := run(ctx, "cat-file", "-t", spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %s does not exist at commit %s (it is new since that commit)", ErrFileAbsent, strings.TrimPrefix(rel, "./"), ShortSHA(commit))
	}
	if t := strings.TrimSpace(string(typ)); t != "blob" {
		return nil, fmt.Errorf("%s at commit %s is a %s, not a file", strings.TrimPrefix(rel, "./"), ShortSHA(commit), t)
	}
	return run(ctx, "cat-file", "blob", spec)
}

// runner is the one way latgate runs git: in g.Dir, never prompting, in
// the C locale, the first line of git's complaint as the error.
func (g Git) runner() (func(ctx context.Context, args ...string) ([]byte, error), error) {
	bin := g.Bin
	if bin == "" {
		bin = "git"
	}
	bin, err := exec.LookPath(bin)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = g.Dir
		cmd.WaitDelay = time.Second // a killed git's helpers may hold the pipes
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				return out, fmt.Errorf("git %s: %s", args[0], firstLine(msg))
			}
			return out, fmt.Errorf("git %s: %v", args[0], err)
		}
		return out, nil
	}, nil
}

// Head returns the checked-out commit and its branch ("refs/heads/NAME";
// "" when detached), bounded by ctx; empty when git or the repository is
// not there.
func (g Git) Head(ctx context.Context) (sha, ref string) {
	run, err := g.runner()
	if err != nil {
		return "", ""
	}
	if out, err := run(ctx, "rev-parse", "HEAD"); err == nil {
		sha = strings.TrimSpace(string(out))
	}
	if out, err := run(ctx, "rev-parse", "--abbrev-ref", "HEAD"); err == nil {
		if b := strings.TrimSpace(string(out)); b != "" && b != "HEAD" {
			ref = "refs/heads/" + b
		}
	}
	return sha, ref
}

func isHex(s string) bool {
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F') {
			return false
		}
	}
	return s != ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

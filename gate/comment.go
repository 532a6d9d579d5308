package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/publish"
)

// comment posts or updates the sticky comment (or, in a dry run, writes it
// to a file it names: its Markdown holds GitHub's escapes, never printed
// to a terminal) and returns its URL, or why it could not be posted.
func (p *pipeline) comment(ctx context.Context, marker, body string) (string, error) {
	switch {
	case p.in.DryRun:
		dir := p.dryDir
		if dir == "" {
			var err error
			if dir, err = os.MkdirTemp(p.env.Getenv("TMPDIR"), "latgate-dry-run-"); err != nil {
				return "", fmt.Errorf("dry run: a folder for the comment: %w", err)
			}
		}
		path := filepath.Join(dir, "latgate-comment.md")
		if err := fileio.WriteAtomic(path, []byte(body)); err != nil {
			return "", fmt.Errorf("dry run: %w", err)
		}
		fmt.Fprintf(p.env.Stdout, "\nThe PR comment (dry run, not posted): %s\n", path)
		return "", nil
	case !p.in.Comment:
		return "", nil
	}
	if p.in.GitHubToken == "" {
		return "", errors.New("no GitHub token (github-token input or GITHUB_TOKEN)")
	}
	gh, err := p.github()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	pr, err := gh.ResolvePullRequest(ctx, p.gc, p.in.PR, p.in.HeadSHA)
	if err != nil {
		return "", err
	}
	if p.in.HeadSHA != "" && pr.HeadSHA != "" && pr.HeadSHA != p.in.HeadSHA {
		p.warn(fmt.Sprintf("pull request #%d has moved on to %s since the measured commit %s", pr.Number, publish.ShortSHA(pr.HeadSHA), publish.ShortSHA(p.in.HeadSHA)))
	}
	res, err := gh.UpsertComment(ctx, pr.Number, marker, body)
	if errors.Is(err, publish.ErrForbidden) {
		return "", fmt.Errorf("the token may not comment on pull requests (%w). Pull requests from forks get a read-only token: "+
			"use the fork-safe split in docs/workflows.md (a pull_request job uploads the results, a workflow_run job publishes them)", err)
	}
	if err != nil {
		return "", err
	}
	verb := "updated"
	if res.Created {
		verb = "posted"
	}
	fmt.Fprintf(p.env.Stderr, "latgate: %s the comment %s\n", verb, res.URL)
	return res.URL, nil
}

// commentOutcome is the run's result once the verdict is out (failed: the
// gate failed) and the comment was tried (err: why it was not posted).
//
// A comment that could not be posted is an error (exit 3, "could not run")
// in publish, whose only purpose is the comment, and in gate mode with
// comment: required; when the gate failed, the run still fails as the gate
// (exit 1) and the comment's error is printed. In gate mode with comment:
// true it is a warning: the verdict decides the exit code (a fork's
// read-only token cannot comment). No open pull request to comment on
// (closed or merged since) is a warning everywhere.
func (p *pipeline) commentOutcome(err error, failed bool) error {
	verdict := error(nil)
	if failed {
		verdict = ErrFailed
	}
	if err == nil {
		return verdict
	}
	required := p.command == "publish" || p.in.CommentRequired
	if !required || errors.Is(err, publish.ErrNoPullRequest) {
		p.warn(err.Error() + ": no comment posted; the verdict stands")
		return verdict
	}
	why := "the comment was required and was not posted: "
	if p.command == "publish" {
		why = "the comment was not posted: "
	}
	msg := why + err.Error()
	p.act.Error(msg)
	if failed {
		fmt.Fprintln(p.env.Stderr, "latgate: "+msg)
		return verdict
	}
	return AsCannotRun(errors.New(msg))
}

// warn prints a warning to the log and as an annotation.
func (p *pipeline) warn(msg string) {
	fmt.Fprintln(p.env.Stderr, "latgate: warning: "+msg)
	p.act.Warning(msg)
}

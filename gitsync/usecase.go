package gitsync

import (
	"context"
	"strings"
	"time"
)

// SyncWritten syncs the index with files a writer (promote, check --fix)
// just wrote, and tells the listeners: the index never answers for a file
// canon itself changed as it was before.
func (s *Session) SyncWritten(ctx context.Context, paths []string) error {
	_, err := s.SyncPaths(ctx, paths)
	return err
}

// GitText runs git in the repository (scrubbed environment) and returns
// its output as text: what the workset package's Env.Git wants.
func (r *Repo) GitText(ctx context.Context, args ...string) (string, error) {
	out, err := r.Git(ctx, args...)
	return string(out), err
}

// HeadTime is HEAD's commit time, or the clock when there is no commit:
// where a query template's "recent" counts back from, so that a run
// depends on the repository's state, not on the clock.
func (r *Repo) HeadTime(ctx context.Context) time.Time {
	out, err := r.Git(ctx, "show", "-s", "--format=%cI", "HEAD")
	if err != nil {
		return time.Now()
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		return time.Now()
	}
	return t
}

package gitsync

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/canon-md/canon/gitsync/gitcache"
	"github.com/canon-md/canon/gitsync/history"
	"github.com/canon-md/canon/index"
)

// mergeBases finds the merge base of head with each of tips: in one walk
// in process (mergebase.go); past the walk's budget (more than
// history.Budget commits, or history.MaxEdges parents, between them) one
// ref at a time within the call's time: by its own walk, else, when that
// too passes the commit budget, by git merge-base, whose commit-graph
// knows generations. A ref whose walk lists too many parents (a history
// built of octopus merges, which git would load whole) or that git does
// not answer in time is skipped, and skips[i] says why.
func (s *Session) mergeBases(ctx context.Context, objs *Objects, head string, tips []string) (bases, skips []string, err error) {
	skips = make([]string, len(tips))
	if len(tips) == 0 {
		return nil, skips, nil
	}
	if objs.commits == nil {
		objs.commits = gitcache.LoadCommits(s.Repo.CanonDir(), gitcache.CommitsFile, history.Budget)
	}
	defer objs.commits.Save()
	bases, err = objs.mergeBases(head, tips)
	if !errors.Is(err, errBaseBudget) {
		return bases, skips, err
	}
	bases = make([]string, len(tips))
	deadline := time.Now().Add(overlayCallTime)
	for i, tip := range tips {
		if bases[i], skips[i], err = s.mergeBaseAlone(ctx, objs, head, tip, deadline); err != nil {
			return nil, nil, err
		}
	}
	return bases, skips, nil
}

// mergeBaseAlone is the merge base of head and tip, or why it is skipped,
// once the walk of every ref together passed its budget.
func (s *Session) mergeBaseAlone(ctx context.Context, objs *Objects, head, tip string, deadline time.Time) (base, skip string, err error) {
	const late = "has a history too large to find its merge base with HEAD in time"
	if time.Now().After(deadline) {
		return "", late, nil
	}
	one, err := objs.mergeBases(head, []string{tip})
	switch {
	case err == nil:
		return one[0], "", nil
	case errors.Is(err, errBaseEdges):
		return "", "has a history whose commits list too many parents to find its merge base with HEAD", nil
	case !errors.Is(err, errBaseBudget):
		return "", "", err
	}
	gctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	base, err = s.gitMergeBase(gctx, head, tip)
	if err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		return "", late, nil
	}
	return base, "", nil
}

// gitMergeBase is git merge-base of two checked commit ids.
func (s *Session) gitMergeBase(ctx context.Context, head, tip string) (string, error) {
	for _, oid := range []string{head, tip} {
		if !index.IsObjectID(oid) {
			return "", fmt.Errorf("git merge-base: %w: %q", ErrNotObjectID, oid)
		}
	}
	out, gerr := s.Repo.Git(ctx, "merge-base", "--end-of-options", head, tip)
	if ctx.Err() != nil {
		return "", ctx.Err() // stopped: no answer, not "no common ancestor"
	}
	b := strings.TrimSpace(string(out))
	if gerr != nil && b == "" {
		return "", nil // exit 1: no common ancestor
	}
	if !index.IsObjectID(b) {
		return "", fmt.Errorf("git merge-base printed %q", b)
	}
	return b, nil
}

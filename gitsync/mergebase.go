package gitsync

import (
	"errors"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/gitsync/history"
	"github.com/go-git/go-git/v5/plumbing"
)

// The merge bases of HEAD with every followed ref are found in one walk
// of the history (gitsync/history, issue 46).
var (
	errBaseBudget = history.ErrBudget
	errBaseEdges  = history.ErrEdges
)

// mergeBases is history.MergeBases over this store's commits, within
// history.Budget commits.
func (o *Objects) mergeBases(head string, tips []string) ([]string, error) {
	return history.MergeBases(o.walkCommit, head, tips, history.Budget)
}

// walkCommit reads a commit's parents and time for a walk: from the
// commit cache when the walk has one (gitcache.Commits), which keeps what
// was read (without the author). ok is false for a commit the repository
// does not have (a shallow clone's edge).
func (o *Objects) walkCommit(h plumbing.Hash) (gitfile.Commit, bool, error) {
	if o.commits != nil {
		if ci, ok := o.commits.Get(h); ok {
			return ci, true, nil
		}
	}
	ci, err := o.commit(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return gitfile.Commit{}, false, nil
	}
	if err != nil {
		return gitfile.Commit{}, false, err
	}
	if o.commits != nil {
		ci.Author = "" // as a kept commit comes back
		o.commits.Put(h, ci)
	}
	return ci, true, nil
}

// grewBudget is how many commits grewFrom reads at most; grewLoad how
// many it reads before it loads the commits kept (Objects.loadCommits): a
// commit or a fast-forward reads a few, a switch to another line up to
// grewBudget.
const (
	grewBudget = 1024
	grewLoad   = 64
)

// grewFrom reports whether to descends from from by commits every one of
// which descends from from: HEAD grew (a commit, an amend's new parent
// line, a fast-forward over its own work) and took in no other line of
// history. Then a ref that holds any of the new commits holds from too,
// so its merge base with from was from itself; every other ref's merge
// base stands, and nothing need be walked for it (issue 46). It reads at
// most grewBudget commits, and says false past that, or at a root; n is
// how many it read.
func (o *Objects) grewFrom(to, from string) (grew bool, n int) {
	if to == from {
		return true, 0
	}
	target := plumbing.NewHash(from)
	seen := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{plumbing.NewHash(to)}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		if len(seen) > grewBudget {
			return false, len(seen)
		}
		if len(seen) == grewLoad && o.commits == nil && o.loadCommits != nil {
			o.commits = o.loadCommits()
		}
		ci, ok, err := o.walkCommit(h)
		if err != nil || !ok || len(ci.Parents) == 0 {
			return false, len(seen)
		}
		for _, p := range ci.Parents {
			if p != target {
				stack = append(stack, p)
			}
		}
	}
	return true, len(seen)
}

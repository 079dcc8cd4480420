package gitsync

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/gitsync/gitcache"
	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/gitsync/history"
	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
)

// RefTip is a ref the overlays follow and the commit it points at.
type RefTip struct {
	Name string
	OID  string
}

// FollowedRefs lists the refs the overlays follow (ADR-0042): local and
// remote-tracking branches and the detached HEADs of linked worktrees, as
// branches.include and branches.exclude choose, without the branch this
// worktree is on, sorted by name, at most branches.max of them (leftOut
// says how many more matched; newestRefs says which are kept). It reads
// the ref files and packed-refs, like Head: no git process, a few hundred
// microseconds for hundreds of refs, and no object unless more refs match
// than branches.max. A repository that keeps its refs in a reftable is
// read through git for-each-ref instead (a git process), and note says
// what is not followed then; an error when git cannot read it.
func (r *Repo) FollowedRefs(b config.Branches, known []index.RefState) (tips []RefTip, leftOut int, note string, err error) {
	_, headRef, err := r.Head()
	if err != nil {
		return nil, 0, "", err
	}
	seen := map[string]string{}
	if r.RefStorage() == "reftable" {
		if err := r.gitRefs(seen); err != nil {
			return nil, 0, "", err
		}
		note = "refs read from a reftable through git; the detached HEADs of linked worktrees are not followed"
	} else if seen, err = gitfile.Refs(r.CommonDir); err != nil {
		return nil, 0, "", err
	}
	ownWorktree := ""
	if r.GitDir != r.CommonDir {
		ownWorktree = "worktrees/" + filepath.Base(r.GitDir) + "/HEAD"
	}
	for name, oid := range seen {
		if name == headRef || name == ownWorktree || !index.IsObjectID(oid) || !b.Follows(name) {
			continue
		}
		tips = append(tips, RefTip{Name: name, OID: oid})
	}
	if len(tips) > b.Max {
		leftOut = len(tips) - b.Max
		tips = r.newestRefs(tips, b.Max, known)
	}
	sort.Slice(tips, func(i, j int) bool { return tips[i].Name < tips[j].Name })
	return tips, leftOut, note, nil
}

// newestRefs keeps keep of tips when more match than branches.max: this
// clone's own branches and its worktrees' HEADs first, then the refs
// whose commits are newest (git's --sort=-committerdate), so that a
// remote's thousands of decoy branches never push out this clone's own
// work, nor a branch updated today one untouched for years. Only when
// there are too many to follow, it reads the time of each ref's commit:
// from known (the refs table's rows) where a row has the ref's commit,
// else from git's objects, through a cache of the tips' times
// (gitcache.TipsFile).
func (r *Repo) newestRefs(tips []RefTip, keep int, known []index.RefState) []RefTip {
	when := make(map[string]int64, len(tips))
	had := make(map[string]index.RefState, len(known))
	for _, k := range known {
		had[k.Name] = k
	}
	var unknown []RefTip
	for _, t := range tips {
		if k, ok := had[t.Name]; ok && k.OID == t.OID && k.Skip == "" {
			when[t.Name] = k.Committed
		} else {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) > 0 {
		objs := OpenObjects(r)
		defer objs.Close()
		cache := gitcache.LoadCommits(r.CanonDir(), gitcache.TipsFile, history.Budget)
		objs.commits = cache
		read := make([]plumbing.Hash, 0, len(unknown))
		for _, t := range unknown {
			h := plumbing.NewHash(t.OID)
			if ci, ok, err := objs.walkCommit(h); ok && err == nil {
				when[t.Name] = ci.When
				read = append(read, h)
			}
		}
		cache.KeepOnly(read) // tips that moved on are forgotten
		cache.Save()
	}
	own := func(name string) bool {
		return strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "worktrees/")
	}
	sort.Slice(tips, func(i, j int) bool {
		a, b := tips[i], tips[j]
		if own(a.Name) != own(b.Name) {
			return own(a.Name)
		}
		if when[a.Name] != when[b.Name] {
			return when[a.Name] > when[b.Name]
		}
		return a.Name < b.Name
	})
	return tips[:keep]
}

// gitRefs reads the branches and remote-tracking branches through git
// for-each-ref (a reftable, which only git reads), into seen; symbolic
// refs are left out, and every line is checked: an object id and a ref
// name under refs/heads/ or refs/remotes/.
func (r *Repo) gitRefs(seen map[string]string) error {
	out, err := r.Git(context.Background(), "for-each-ref", "--format=%(objectname)%00%(symref)%00%(refname)", "refs/heads/", "refs/remotes/")
	if err != nil {
		return fmt.Errorf("this repository keeps its refs in a reftable, which canon reads through git, and %w; use git 2.45 or later", err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\x00")
		if len(f) != 3 || !index.IsObjectID(f[0]) || !validRefName(f[2]) {
			return fmt.Errorf("git for-each-ref printed %q, which is not an object id and a branch", line)
		}
		if f[1] == "" {
			seen[f[2]] = f[0]
		}
	}
	return nil
}

// validRefName reports whether name is a branch or remote-tracking branch
// as git prints it: under refs/heads/ or refs/remotes/, no control
// characters, no empty or dot-dot parts.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/heads/") && !strings.HasPrefix(name, "refs/remotes/") {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

// errNotCommit is an object that is not a commit where one should be: a
// ref a hostile server pointed at a blob, a tree or a tag.
var errNotCommit = errors.New("not a commit")

// commit reads a commit's parents, author and time.
func (o *Objects) commit(h plumbing.Hash) (gitfile.Commit, error) {
	t, data, err := o.raw(h)
	if err == nil && t != plumbing.CommitObject {
		err = fmt.Errorf("%s is a %s: %w", short(h.String()), t, errNotCommit)
	}
	if err != nil {
		return gitfile.Commit{}, err
	}
	return gitfile.ParseCommit(data), nil
}

package gitsync

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
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
	} else {
		if err := r.packedRefs(seen); err != nil {
			return nil, 0, "", err
		}
		for _, top := range []string{"refs/heads", "refs/remotes"} {
			if err := r.looseRefs(top, seen); err != nil {
				return nil, 0, "", err
			}
		}
		r.worktreeHeads(seen)
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
// (commitcache.go).
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
		cache := loadCommitCache(r.CanonDir(), tipCacheName)
		objs.commits = cache
		kept := make(map[plumbing.Hash]commitInfo, len(unknown))
		for _, t := range unknown {
			h := plumbing.NewHash(t.OID)
			if ci, ok, err := objs.walkCommit(h); ok && err == nil {
				when[t.Name] = ci.when
				kept[h] = ci
			}
		}
		if len(kept) != len(cache.commits) { // tips that moved on are forgotten
			cache.commits, cache.fresh = kept, cache.fresh+1
		}
		cache.save()
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

// refFileLimit bounds the read of a loose ref or a worktree's HEAD: an
// object id or "ref: NAME", a line.
const refFileLimit = 4096

// packedRefs reads packed-refs into seen (loose refs, read after, win).
func (r *Repo) packedRefs(seen map[string]string) error {
	f, err := os.Open(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		oid, name, ok := strings.Cut(sc.Text(), " ")
		if ok && !strings.HasPrefix(oid, "#") && !strings.HasPrefix(oid, "^") {
			seen[name] = oid
		}
	}
	return sc.Err()
}

// looseRefs reads the ref files under top into seen; symbolic refs (such
// as refs/remotes/origin/HEAD) are left out.
func (r *Repo) looseRefs(top string, seen map[string]string) error {
	root := filepath.Join(r.CommonDir, filepath.FromSlash(top))
	if err := safepath.Inside(root, r.CommonDir); err != nil {
		return nil // a link that leads out: nothing there is read
	}
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		data, err := safepath.ReadListed(p, refFileLimit)
		if err != nil {
			return nil // gone since listed, or being written: packed-refs or the next look has it
		}
		rel, _ := filepath.Rel(r.CommonDir, p)
		name := filepath.ToSlash(rel)
		line := strings.TrimSpace(string(data))
		if strings.HasPrefix(line, "ref:") {
			delete(seen, name)
			return nil
		}
		seen[name] = line
		return nil
	})
}

// worktreeHeads adds the detached HEAD of each linked worktree as
// worktrees/NAME/HEAD (a worktree on a branch is followed as that branch).
func (r *Repo) worktreeHeads(seen map[string]string) {
	entries, err := os.ReadDir(filepath.Join(r.CommonDir, "worktrees"))
	if err != nil {
		return
	}
	for _, e := range entries {
		data, err := safepath.ReadFile(filepath.Join(r.CommonDir, "worktrees", e.Name(), "HEAD"), refFileLimit, r.CommonDir)
		if err != nil {
			continue
		}
		line := strings.TrimSpace(string(data))
		if !strings.HasPrefix(line, "ref:") {
			seen["worktrees/"+e.Name()+"/HEAD"] = line
		}
	}
}

// commitInfo is what the overlays read of a commit.
type commitInfo struct {
	parents []plumbing.Hash
	author  string // name
	when    int64  // committer time, unix seconds
}

// errNotCommit is an object that is not a commit where one should be: a
// ref a hostile server pointed at a blob, a tree or a tag.
var errNotCommit = errors.New("not a commit")

// commit reads a commit's parents, author and time.
func (o *Objects) commit(h plumbing.Hash) (commitInfo, error) {
	t, data, err := o.raw(h)
	if err == nil && t != plumbing.CommitObject {
		err = fmt.Errorf("%s is a %s: %w", short(h.String()), t, errNotCommit)
	}
	if err != nil {
		return commitInfo{}, err
	}
	var ci commitInfo
	for len(data) > 0 {
		line := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, data = data[:nl], data[nl+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			break // the message starts
		}
		k, v, _ := bytes.Cut(line, []byte{' '})
		switch string(k) {
		case "parent":
			if plumbing.IsHash(string(v)) {
				ci.parents = append(ci.parents, plumbing.NewHash(string(v)))
			}
		case "author":
			if lt := bytes.IndexByte(v, '<'); lt > 0 {
				ci.author = strings.TrimSpace(string(v[:lt]))
			}
		case "committer":
			if gt := bytes.LastIndexByte(v, '>'); gt >= 0 {
				f := strings.Fields(string(v[gt+1:]))
				if len(f) > 0 {
					ci.when, _ = strconv.ParseInt(f[0], 10, 64)
				}
			}
		}
	}
	return ci, nil
}

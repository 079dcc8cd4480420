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
// says how many more matched). It reads the ref files and packed-refs,
// like Head: no objects, no git process, a few hundred microseconds for
// hundreds of refs. A repository that keeps its refs in a reftable is
// read through git for-each-ref instead (a git process), and note says
// what is not followed then; an error when git cannot read it.
func (r *Repo) FollowedRefs(b config.Branches) (tips []RefTip, leftOut int, note string, err error) {
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
	sort.Slice(tips, func(i, j int) bool { return tips[i].Name < tips[j].Name })
	if len(tips) > b.Max {
		leftOut = len(tips) - b.Max
		tips = tips[:b.Max]
	}
	return tips, leftOut, note, nil
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
		data, err := safepath.ReadFile(p, refFileLimit, r.CommonDir)
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

// commit reads a commit's parents, author and time.
func (o *Objects) commit(h plumbing.Hash) (commitInfo, error) {
	t, data, err := o.raw(h)
	if err == nil && t != plumbing.CommitObject {
		err = plumbing.ErrObjectNotFound
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

// errBaseBudget stops an in-process merge-base walk that read too many
// commits: git merge-base, with its commit-graph, takes over.
var errBaseBudget = errors.New("the merge base is far back")

// mergeBaseBudget is how many commits the in-process walk reads.
const mergeBaseBudget = 4096

// mergeBase finds a best common ancestor of a and b as git does (painting
// down from both in commit-time order until only commits both reach
// remain), reading commits through Objects: a branch a few commits from
// its fork reads a few commits. "" when they share no history.
func (o *Objects) mergeBase(a, b string) (string, error) {
	if a == b {
		return a, nil
	}
	const p1, p2, stale, result = 1, 2, 4, 8
	flags := map[plumbing.Hash]int{}
	infos := map[plumbing.Hash]commitInfo{}
	var queue []plumbing.Hash // kept sorted, newest last
	push := func(h plumbing.Hash, f int) error {
		flags[h] |= f
		if _, ok := infos[h]; !ok {
			ci, err := o.commit(h)
			if err != nil {
				return err
			}
			infos[h] = ci
		}
		i := sort.Search(len(queue), func(i int) bool { return infos[queue[i]].when > infos[h].when })
		queue = append(queue, plumbing.ZeroHash)
		copy(queue[i+1:], queue[i:])
		queue[i] = h
		return nil
	}
	if err := push(plumbing.NewHash(a), p1); err != nil {
		return "", err
	}
	if err := push(plumbing.NewHash(b), p2); err != nil {
		return "", err
	}
	var found []plumbing.Hash
	for reads := 0; ; reads++ {
		live := false
		for _, h := range queue {
			if flags[h]&stale == 0 {
				live = true
				break
			}
		}
		if !live {
			break
		}
		if reads > mergeBaseBudget {
			return "", errBaseBudget
		}
		h := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		f := flags[h] & (p1 | p2 | stale)
		if f == p1|p2 {
			if flags[h]&result == 0 {
				flags[h] |= result
				found = append(found, h)
			}
			f |= stale
		}
		for _, p := range infos[h].parents {
			if flags[p]&f == f {
				continue
			}
			if err := push(p, f); err != nil {
				return "", err
			}
		}
	}
	// With equal or skewed commit times the walk can reach a common
	// ancestor before the commit it descends from: as git does
	// (remove_redundant), drop every candidate another one reaches.
	for _, h := range found {
		redundant := false
		for _, other := range found {
			if other == h {
				continue
			}
			reach, err := o.reaches(other, h, infos)
			if err != nil {
				return "", err
			}
			if reach {
				redundant = true
				break
			}
		}
		if !redundant {
			return h.String(), nil
		}
	}
	return "", nil
}

// reaches reports whether commit to is an ancestor of commit from, walking
// parents at most mergeBaseBudget commits.
func (o *Objects) reaches(from, to plumbing.Hash, infos map[plumbing.Hash]commitInfo) (bool, error) {
	seen := map[plumbing.Hash]bool{from: true}
	stack := []plumbing.Hash{from}
	for len(stack) > 0 {
		if len(seen) > mergeBaseBudget {
			return false, errBaseBudget
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ci, ok := infos[h]
		if !ok {
			var err error
			if ci, err = o.commit(h); err != nil {
				return false, err
			}
			infos[h] = ci
		}
		for _, p := range ci.parents {
			if p == to {
				return true, nil
			}
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return false, nil
}
